"""The 18 Ghosts board (docs/games.md): carpets, mirrors, portals."""

from __future__ import annotations

from functools import cache

COLUMNS = "abcde"
ROWS = "12345"
COLOURS = ("red", "blue", "yellow")  # also the order in which simultaneous escapes resolve
BEATS = {"red": "blue", "blue": "yellow", "yellow": "red"}
DIRECTIONS = {"up": (0, -1), "right": (1, 0), "down": (0, 1), "left": (-1, 0)}
CLOCKWISE = ("up", "right", "down", "left")

_LAYOUT = (
    ("blue", "red", "portal:red", "blue", "red"),
    ("yellow", "mirror", "yellow", "mirror", "yellow"),
    ("red", "blue", "red", "blue", "portal:yellow"),
    ("blue", "mirror", "yellow", "mirror", "red"),
    ("yellow", "red", "portal:blue", "blue", "yellow"),
)

CELLS: dict[str, str] = {
    f"{COLUMNS[x]}{ROWS[y]}": _LAYOUT[y][x] for y in range(5) for x in range(5)
}
CARPET: dict[str, str] = {c: k for c, k in CELLS.items() if k in COLOURS}
MIRRORS: tuple[str, ...] = tuple(c for c, k in CELLS.items() if k == "mirror")
PORTAL_CELL: dict[str, str] = {
    k.split(":")[1]: c for c, k in CELLS.items() if k.startswith("portal:")
}
PORTAL_START = {"red": "up", "yellow": "right", "blue": "down"}  # facing the outer wall


@cache  # a pure function of 100 inputs; the AI's search asks it hundreds of times a move
def neighbour(cell: str, direction: str) -> str | None:
    dx, dy = DIRECTIONS[direction]
    x, y = COLUMNS.index(cell[0]) + dx, ROWS.index(cell[1]) + dy
    if 0 <= x < 5 and 0 <= y < 5:
        return f"{COLUMNS[x]}{ROWS[y]}"
    return None


def faced_cell(colour: str, facing: str) -> str | None:
    """The chamber the open side of a portal faces, or None when it faces the wall."""
    return neighbour(PORTAL_CELL[colour], facing)


def turned(facing: str) -> str:
    return CLOCKWISE[(CLOCKWISE.index(facing) + 1) % 4]
