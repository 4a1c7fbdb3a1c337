"""A game begun under an older version of its rules: its moves are never replayed under the
new ones (a move they accepted might be refused now), so none is taken back."""

from __future__ import annotations

import pytest

from bot.service import UserError
from engines import REGISTRY
from tests.bot.conftest import ANN, BOB, CHAT


async def test_a_move_of_a_game_under_older_rules_is_not_taken_back(service, monkeypatch):
    await service.start(CHAT, ANN, "ghosts18")
    await service.join(CHAT, BOB)
    row = await service.live(CHAT)
    if row.status == "lobby":
        await service.begin(CHAT, ANN)
    row = await service.live(CHAT)
    game = REGISTRY[row.game]
    await service.move(CHAT, ANN, game.legal_actions(game.load(row.state), 0)[0])
    monkeypatch.setattr(type(game), "rules_version", game.rules_version + 1)
    with pytest.raises(UserError, match="older version of the rules"):
        await service.ask_undo(CHAT, ANN)
    row = await service.live(CHAT)
    assert game.to_act(game.load(row.state)) == [1]  # the move stands
