"""A pressed move is checked once (issue 35, item 7): the seat's legal moves are built once
on the pressed state, to find the button's move, and the move is checked against that
list; a typed move is checked by `Game.is_legal` without listing every move."""

from __future__ import annotations

import pytest

from bot.service import GameService, UserError
from engines import REGISTRY
from tests.bot.conftest import ANN, BOB, CHAT


async def started(service: GameService) -> None:
    await service.start(CHAT, ANN, "ghosts18", "")
    await service.join(CHAT, BOB)  # a full 2-player table begins by itself


def counting(monkeypatch, placed: int) -> dict[str, int]:
    """Counts, on states with `placed` ghosts down (the state a move is made on, not the
    next board's), how often the moves are listed and how often one is checked alone."""
    cls = type(REGISTRY["ghosts18"])
    counts = {"listed": 0, "checked": 0}
    legal, is_legal = cls._legal, cls._is_legal

    def listed(self, s, seat):
        counts["listed"] += s.placed == placed
        return legal(self, s, seat)

    def checked(self, s, seat, action):
        counts["checked"] += s.placed == placed
        return is_legal(self, s, seat, action)

    monkeypatch.setattr(cls, "_legal", listed)
    monkeypatch.setattr(cls, "_is_legal", checked)
    return counts


async def test_a_press_lists_the_moves_once_and_checks_its_move_against_them(service, monkeypatch):
    await started(service)
    board = (await service.board(CHAT))[0]
    counts = counting(monkeypatch, placed=0)
    await service.press(CHAT, ANN, board.choices[0].data)
    assert counts == {"listed": 1, "checked": 0}


async def test_a_typed_move_is_checked_without_listing_the_moves(service, monkeypatch):
    await started(service)
    game = REGISTRY["ghosts18"]
    first = game.setup(["Ann", "Bob"])
    action = game.legal_actions(first, game.to_act(first)[0])[0]
    counts = counting(monkeypatch, placed=0)
    with pytest.raises(UserError, match="not allowed now"):
        await service.move(CHAT, ANN, "place z9")
    assert counts == {"listed": 1, "checked": 1}  # refused: listed only to name the moves
    await service.move(CHAT, ANN, action)
    assert counts == {"listed": 1, "checked": 2}
