"""A move whose commit fails leaves no picture behind: the board is drawn while the move
is stored, and kept under the version the move would have made; the next move that makes
that version must show its own position, not the failed move's."""

from __future__ import annotations

import pytest

import render
from bot.service import GameService, UserError
from bot.store import StoreError
from engines import REGISTRY
from tests.bot.conftest import ANN, BOB, CHAT


async def _public_words(service: GameService) -> str:
    row = await service.live(CHAT)
    game = REGISTRY[row.game]
    return render.describe(row.game, game.view(game.load(row.state), None), "en")


@pytest.mark.parametrize("failure", [StoreError("the database stayed busy"), OSError("disk")])
async def test_a_move_the_store_failed_leaves_no_picture_behind(drawn, monkeypatch, failure):
    service = drawn
    await service.start(CHAT, ANN, "ghosts18", "variant=short")
    await service.join(CHAT, BOB)
    row = await service.live(CHAT)
    loaded = service.table.load(row)
    seat = loaded.game.to_act(loaded.state)[0]
    actor = {ANN.id: ANN, BOB.id: BOB}[row.seats[seat].user_id]
    choices = [action for action, _label in await service.choices(CHAT, actor)]
    failed, made = choices[0], choices[-1]
    assert failed != made

    async def refused(*args, **kwargs):
        raise failure

    monkeypatch.setattr(service.store, "record", refused)
    with pytest.raises((StoreError, UserError, OSError)):
        await service.move(CHAT, actor, failed)
    monkeypatch.undo()
    assert (await service.live(CHAT)).version == row.version  # nothing was stored

    plan = await service.move(CHAT, actor, made)
    board = next(r for r in plan.replies if r.kind == "board")
    assert board.picture is not None
    assert board.picture.alt == await _public_words(service)  # this move's position
