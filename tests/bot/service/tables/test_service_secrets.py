"""A refusal that names a hidden hand is marked secret, so that adapters show it to the
asker alone; one in a game of open information is not."""

from __future__ import annotations

import pytest

from bot.service import UserError
from tests.bot.conftest import ANN, BOB, CHAT


async def _refusal(service, game: str) -> UserError:
    await service.start(CHAT, ANN, game)
    await service.join(CHAT, BOB)
    if (await service.live(CHAT)).status == "lobby":
        await service.begin(CHAT, ANN)
    board = (await service.board(CHAT))[0]
    actor = ANN if board.mention[0].id == ANN.id else BOB
    with pytest.raises(UserError) as refused:
        await service.move(CHAT, actor, "play nothing")
    return refused.value


async def test_a_refusal_listing_a_hidden_hand_is_secret(service):
    refused = await _refusal(service, "haunted_house")
    assert refused.secret and "is not allowed now" in str(refused)


async def test_a_refusal_in_an_open_game_is_not_secret(service):
    refused = await _refusal(service, "ghosts18")
    assert not refused.secret


async def test_refusals_before_the_engine_is_asked_are_not_secret(service):
    await service.start(CHAT, ANN, "haunted_house")
    await service.join(CHAT, BOB)
    await service.begin(CHAT, ANN)
    board = (await service.board(CHAT))[0]
    waiting = BOB if board.mention[0].id == ANN.id else ANN
    with pytest.raises(UserError, match="not your turn") as refused:
        await service.move(CHAT, waiting, "pass")
    assert not refused.value.secret
