"""The castle of Castle Doors: the saved state, and the facts about its tiles a rule asks
(is a door open, passable, free; which doors a key turns; where a character may step)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engines.castle_doors import board
from engines.castle_doors.words import KIND
from engines.contract import Seat
from engines.text import Msg, msg

TRAPPED_TURNS = 2
RECENT = 3  # public events kept for the caption


@dataclass
class CastleState:
    names: list[str]
    width: int
    height: int
    edges: list[str]
    # cell -> {"colour", "kind" ("" until first opened), "open", "sawn", "lock", "used"}
    tiles: dict[str, dict]
    passages: list[list[str]] = field(default_factory=list)  # pairs of diagonal cells
    at: list[str | None] = field(default_factory=list)  # None: outside, on its own edge
    netted: list[int] = field(default_factory=list)  # own turns each seat is still trapped
    hands: list[list[str]] = field(default_factory=list)
    deck: dict[str, int] = field(default_factory=lambda: dict(board.DECK))
    discard: dict[str, int] = field(default_factory=dict)
    discard_top: str = ""
    phase: str = "deal"  # deal, draw, play, target, reveal, move, bonus, over
    turn: Seat = 0
    card: str = ""  # the card waiting for its target
    first_end: str = ""  # a secret passage's first end, once chosen
    reveal: str = ""  # the cell turning over for the first time
    after: str = ""  # what follows the reveal: "move" (after a card) or "end" (a bonus)
    extra: bool = False  # the current player has a bonus turn to come
    winner: Seat | None = None
    turns: int = 0
    recent: list = field(default_factory=list)  # the last public events, messages as JSON


def count(pile: dict[str, int]) -> int:
    return sum(pile.values())


def outcomes(counts: Mapping[str, int]) -> list[tuple[str, float]]:
    total = sum(counts.values())
    return [(k, n / total) for k, n in counts.items() if n > 0]


def undealt(s: CastleState) -> str | None:
    return next((c for c, t in s.tiles.items() if not t["colour"]), None)


def colours_left(s: CastleState) -> dict[str, int]:
    left = {c: board.TILES_OF_COLOUR for c in board.COLOURS}
    for t in s.tiles.values():
        if t["colour"]:
            left[t["colour"]] -= 1
    return left


def hidden_kinds(s: CastleState, colour: str) -> dict[str, int]:
    """What a tile of this colour may hide: its colour's kinds not yet seen.

    With 3-4 players four tiles stay in the box unseen; they are among these too.
    """
    left = dict(board.TILES_PER_COLOUR)
    for t in s.tiles.values():
        if t["colour"] == colour and t["kind"]:
            left[t["kind"]] -= 1
    return left


def occupant(s: CastleState, cell: str) -> Seat | None:
    return s.at.index(cell) if cell in s.at else None


def passable(s: CastleState, cell: str) -> bool:
    """An open door a character may stand on (occupancy aside)."""
    t = s.tiles[cell]
    if not t["open"] or t["lock"]:
        return False
    return t["kind"] in board.PASSABLE_KINDS or (t["kind"] == "barred door" and t["sawn"])


def free(s: CastleState, cell: str) -> bool:
    return passable(s, cell) and cell not in s.at


def can_open(s: CastleState, cell: str) -> bool:
    t = s.tiles[cell]
    return not t["open"] and not t["lock"]


def can_close(s: CastleState, cell: str) -> bool:
    t = s.tiles[cell]
    return t["open"] and not t["lock"] and not t["sawn"] and cell not in s.at


def why_not_close(s: CastleState, cell: str) -> Msg | None:
    t = s.tiles[cell]
    if cell in s.at:
        return msg("You cannot close {cell}: a character stands on it.", cell=cell)
    if t["lock"]:
        return msg("{cell} is padlocked: only a skeleton key can take the padlock off.", cell=cell)
    if t["sawn"]:
        return msg("The bars of {cell} are sawn through: it can never be closed.", cell=cell)
    return None


def toggles(s: CastleState, colour: str | None) -> list[str]:
    return [
        cell
        for cell, t in s.tiles.items()
        if (colour is None or t["colour"] == colour) and (can_open(s, cell) or can_close(s, cell))
    ]


def passage_ends(s: CastleState, cell: str, used: set | None = None) -> list[str]:
    """Tiles diagonal to `cell` across a corner that no passage crosses yet."""
    if used is None:
        used = {board.corner(a, b) for a, b in s.passages}
    out = []
    for direction in board.DIAGONALS:
        other = board.step(cell, direction, s.width, s.height)
        if other and board.corner(cell, other) not in used:
            out.append(other)
    return out


def steps(s: CastleState, seat: Seat) -> dict[str, str]:
    """Direction -> cell for every step the character could take now."""
    here = s.at[seat]
    out = {}
    if here is None:
        return out
    for direction in board.STEPS:
        cell = board.step(here, direction, s.width, s.height)
        if cell and free(s, cell):
            out[direction] = cell
    for a, b in s.passages:
        if here in (a, b):
            other = b if here == a else a
            if passable(s, here) and free(s, other):
                out[board.diagonal_of(here, other)] = other
    return out


def entries(s: CastleState, seat: Seat) -> list[str]:
    if s.at[seat] is not None:
        return []
    row = board.first_row(s.edges[seat], s.width, s.height)
    return sorted(c for c in row if free(s, c))


def kind_text(kind: str) -> Msg:
    return KIND[kind]
