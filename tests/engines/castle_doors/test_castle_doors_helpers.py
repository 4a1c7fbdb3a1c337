"""Scenario helpers for the Castle Doors tests (no tests here): build a castle, force chance."""

from __future__ import annotations

from engines.castle_doors import GAME
from engines.castle_doors import board as B
from engines.castle_doors.game import CastleState
from engines.contract import CHANCE

NAMES = ["Ann", "Bob", "Cat", "Dan"]
FILL = ["key green", "key yellow", "passage"]  # a hand that plays no part in a test


def castle(
    players: int = 2,
    hands: list[list[str]] | None = None,
    at: list[str | None] | None = None,
    phase: str = "play",
    turn: int = 0,
) -> CastleState:
    """A dealt castle, colours by (column + row) % 4 (red, blue, green, yellow), all closed.

    Hands default to FILL; the deck holds the rest of the 54 cards.
    The game starts at `phase` for `turn` (`play`: the card step, the hand already drawn).
    """
    s = GAME.setup(NAMES[:players])
    for cell, t in s.tiles.items():
        x, y = B.xy(cell)
        t["colour"] = B.COLOURS[(x + y) % 4]
    s.hands = [sorted(h) for h in (hands or [FILL] * players)]
    for hand in s.hands:
        for card in hand:
            s.deck[card] -= 1
            assert s.deck[card] >= 0, f"more {card} cards in the hands than in the game"
    s.at = list(at or [None] * players)
    s.phase, s.turn = phase, turn
    return s


def tile(s: CastleState, cell: str, kind: str = "open door", **flags) -> CastleState:
    """Turn a tile face up (or set flags: open=False, lock=True, sawn=True, colour=...)."""
    t = s.tiles[cell]
    t["kind"] = kind
    t["open"] = True
    t.update(flags)
    return s


def act(s: CastleState, seat: int, *actions: str) -> CastleState:
    for action in actions:
        s, _ = GAME.apply(s, seat, action)
    return s


def chance(s: CastleState, *outcomes: str) -> CastleState:
    return act(s, CHANCE, *outcomes)


def legal(s: CastleState, seat: int | None = None) -> list[str]:
    return GAME.legal_actions(s, s.turn if seat is None else seat)


def targets(s: CastleState) -> set[str]:
    return {a.split()[1] for a in legal(s) if a.startswith("target ")}
