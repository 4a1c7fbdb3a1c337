"""The castle's geometry and the two decks (docs/games.md).

Cells are named like a chess board: column letter from the left, row number from
the bottom of the picture (`a1` is the bottom-left tile). Directions are the
picture's: `up` is towards the top edge.
"""

from __future__ import annotations

from functools import cache

from engines.castle_doors.words import CARD

COLOURS = ("red", "blue", "green", "yellow")
LETTER = {"red": "R", "blue": "B", "green": "G", "yellow": "Y"}

# Door tiles, per colour: what the open side may show.
KINDS = ("open door", "barred door", "extra key", "extra turn")
TILES_PER_COLOUR = {"open door": 6, "barred door": 2, "extra key": 1, "extra turn": 1}
TILES_OF_COLOUR = sum(TILES_PER_COLOUR.values())  # 10, so 40 tiles in all
PASSABLE_KINDS = ("open door", "extra key", "extra turn")

# Draw cards: 54 in all.
KEYS = tuple(f"key {c}" for c in COLOURS)
CARDS = (*KEYS, "skeleton", "padlock", "passage", "hacksaw", "net")
DECK = {**{k: 7 for k in KEYS}, "skeleton": 10, "padlock": 6, "passage": 5, "hacksaw": 3, "net": 2}
CARD_NAME = CARD  # a card's name, a message said in the reader's language
HAND = 3  # cards dealt
HAND_IN_TURN = 4  # a turn draws up to this many

STEPS = {"up": (0, 1), "down": (0, -1), "left": (-1, 0), "right": (1, 0)}
DIAGONALS = {"up-left": (-1, 1), "up-right": (1, 1), "down-left": (-1, -1), "down-right": (1, -1)}
ALL_STEPS = {**STEPS, **DIAGONALS}


def size(players: int) -> tuple[int, int]:
    """(columns, rows): 5 x 8 for two players (across the short ends), else 6 x 6."""
    return (5, 8) if players == 2 else (6, 6)


def edges(players: int) -> list[str]:
    """Each seat's starting side, in clockwise seating order."""
    if players == 2:
        return ["bottom", "top"]
    return ["bottom", "left", "top", "right"][:players]


@cache
def name(x: int, y: int) -> str:
    return f"{'abcdefgh'[x]}{y + 1}"


@cache
def xy(cell: str) -> tuple[int, int]:
    return "abcdefgh".index(cell[0]), int(cell[1:]) - 1


def cells(width: int, height: int) -> list[str]:
    """Every cell, in dealing order: row 1 left to right, then row 2, ..."""
    return [name(x, y) for y in range(height) for x in range(width)]


@cache  # pure and small; the AI's search asks it thousands of times a move
def step(cell: str, direction: str, width: int, height: int) -> str | None:
    x, y = xy(cell)
    dx, dy = ALL_STEPS[direction]
    x, y = x + dx, y + dy
    if 0 <= x < width and 0 <= y < height:
        return name(x, y)
    return None


def row_of(edge: str, depth: int, width: int, height: int) -> list[str]:
    """The cells `depth` rows in from `edge` (depth 0 is the row along that edge)."""
    if edge == "bottom":
        return [name(x, depth) for x in range(width)]
    if edge == "top":
        return [name(x, height - 1 - depth) for x in range(width)]
    if edge == "left":
        return [name(depth, y) for y in range(height)]
    return [name(width - 1 - depth, y) for y in range(height)]


def rows_deep(edge: str, width: int, height: int) -> int:
    return height if edge in ("bottom", "top") else width


def first_row(edge: str, width: int, height: int) -> list[str]:
    return row_of(edge, 0, width, height)


def far_row(edge: str, width: int, height: int) -> list[str]:
    return row_of(edge, rows_deep(edge, width, height) - 1, width, height)


def diagonal(a: str, b: str) -> bool:
    (ax, ay), (bx, by) = xy(a), xy(b)
    return abs(ax - bx) == 1 and abs(ay - by) == 1


@cache
def corner(a: str, b: str) -> tuple[int, int]:
    """The tile corner a passage crosses: the lower-left cell of the 2 x 2 block."""
    (ax, ay), (bx, by) = xy(a), xy(b)
    return min(ax, bx), min(ay, by)


def diagonal_of(a: str, b: str) -> str | None:
    """The direction name of the diagonal step from a to b."""
    (ax, ay), (bx, by) = xy(a), xy(b)
    for direction, (dx, dy) in DIAGONALS.items():
        if (ax + dx, ay + dy) == (bx, by):
            return direction
    return None
