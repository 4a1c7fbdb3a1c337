"""18 Ghosts on a phone: the castle's 5x5 chambers across the whole width, and under them a
row for each player (their shape, who is to act, the ghosts out and in the dungeon, a
dungeon's ghost tapped to release it). The title, the caption and the log are the page's
text. Every word is at least `narrow.SMALLEST` pixels."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engines.ghosts18 import board as layout
from engines.text import in_context, msg
from languages import DEFAULT, say
from render import lettering, palette, tokens
from render.ghosts18 import COLOUR, SHAPES, letter
from render.narrow import SMALLEST, WIDTH

LEFT, TOP = 30, 30  # room for the rows' numbers and the columns' letters
CELL = (WIDTH - LEFT - 10) // 5  # 96
GRID_BOTTOM = TOP + 5 * CELL
ROW_H = 54  # a player's row: out, then the dungeon
PLAYERS_TOP = GRID_BOTTOM + 14
NAME_H = 36  # a player's name line, over their two rows
PLAYER_H = NAME_H + 2 * ROW_H + 8
HEIGHT = PLAYERS_TOP + 2 * PLAYER_H + 4


def cell_box(cell: str) -> tuple[int, int, int, int]:
    x = LEFT + layout.COLUMNS.index(cell[0]) * CELL
    y = TOP + layout.ROWS.index(cell[1]) * CELL
    return x, y, x + CELL, y + CELL


def draw(view: dict, language: str = DEFAULT) -> Image.Image:
    img, d = palette.canvas(HEIGHT, WIDTH)
    d.rectangle((LEFT - 6, TOP - 6, LEFT + 5 * CELL + 6, GRID_BOTTOM + 6), fill=palette.DARK)
    for i in range(5):
        lettering.text(
            d, (LEFT + i * CELL + CELL / 2, TOP - 16), layout.COLUMNS[i], 20, palette.INK, "mm"
        )
        lettering.text(
            d, (LEFT / 2 - 2, TOP + i * CELL + CELL / 2), layout.ROWS[i], 20, palette.INK, "mm"
        )
    portals = {layout.PORTAL_CELL[c]: (c, f) for c, f in view["portals"].items()}
    for cell, kind in layout.CELLS.items():
        _chamber(d, cell, kind, portals.get(cell), language)
    for cell, (owner, colour) in view["board"].items():
        box = cell_box(cell)
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 6)
        tokens.token(d, centre, CELL * 0.3, SHAPES[owner], COLOUR[colour], letter(colour, language))
    for seat in (0, 1):
        _player(d, view, seat, language)
    return img


def _chamber(d: ImageDraw.ImageDraw, cell: str, kind: str, portal, language: str) -> None:
    box = cell_box(cell)
    inner = (box[0] + 3, box[1] + 3, box[2] - 3, box[3] - 3)
    if portal is not None:
        _portal(d, box, inner, *portal, language)
    elif kind in COLOUR:
        d.rectangle(inner, fill=palette.mix(COLOUR[kind], palette.PAPER, 0.5))
        lettering.text(d, (box[0] + 8, box[1] + 6), letter(kind, language), 18, palette.INK)
    elif kind == "mirror":
        d.rectangle(inner, fill=MIRROR)
        for k in range(-CELL, CELL, 24):  # the hatching, kept inside the chamber
            a, b = max(0, k), min(CELL - 6, k + CELL - 6)
            if a < b:
                d.line(
                    (inner[0] + a, inner[3] - (a - k), inner[0] + b, inner[3] - (b - k)),
                    fill=palette.WHITE,
                    width=3,
                )
        mirror = say(in_context("chamber", "mirror"), language)
        lettering.label(
            d, (box[0] + 7, box[1] + 5), mirror, 17, CELL - 12, palette.INK, smallest=SMALLEST
        )
    else:
        d.rectangle(inner, fill=palette.NIGHT)


MIRROR = (200, 200, 200)


def _portal(d, box, inner, colour: str, facing: str, language: str) -> None:
    """The portal's ring and letter, and a bar on its open side (its way out, or the wall
    it faces, as the board's words tell)."""
    d.rectangle(inner, fill=palette.NIGHT)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    r = CELL * 0.26
    d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=COLOUR[colour], width=7)
    lettering.text(d, (cx, cy), letter(colour, language), 22, palette.WHITE, "mm")
    dx, dy = layout.DIRECTIONS[facing]
    half = CELL / 2 - 8
    bx, by = cx + dx * half, cy + dy * half
    if dx:
        d.rectangle((bx - 5, cy - half, bx + 5, cy + half), fill=COLOUR[colour])
    else:
        d.rectangle((cx - half, by - 5, cx + half, by + 5), fill=COLOUR[colour])
    tip = (cx + dx * (half - 10), cy + dy * (half - 10))
    base = (cx + dx * (r + 4), cy + dy * (r + 4))
    d.line((base, tip), fill=palette.WHITE, width=4)


def _player(d: ImageDraw.ImageDraw, view: dict, seat: int, language: str) -> None:
    """The player (their shape, `< to act`), then their ghosts out, then their dungeon."""
    names = view["names"]
    top = PLAYERS_TOP + seat * PLAYER_H
    acting = seat in view["to_act"]
    won = view["winner"] == seat
    d.rounded_rectangle(
        (4, top, WIDTH - 4, top + PLAYER_H - 8),
        10,
        fill=palette.seat_fill(won=won, acting=acting),
        outline=palette.INK,
        width=2,
    )
    tokens.token(d, (24, top + NAME_H / 2 + 2), 14, SHAPES[seat], palette.WHITE)
    tail = msg("WINS") if won else msg("< to act") if acting else None
    head = lettering.isolate(lettering.fit(names[seat], 18, 220))
    if tail:
        head = f"{head}  {say(tail, language)}"
    lettering.label(
        d, (46, top + NAME_H / 2 + 2), head, 18, WIDTH - 60, palette.INK, "lm", smallest=SMALLEST
    )
    _counts(d, view["escaped"][seat], seat, 16, _row_y(seat, 0), msg("out"), language)
    _counts(d, view["dungeon"][seat], seat, 16, _row_y(seat, 1), msg("dungeon"), language)


def _row_y(seat: int, row: int) -> float:
    return PLAYERS_TOP + seat * PLAYER_H + NAME_H + row * ROW_H + ROW_H / 2


TITLE_W = 100  # a row's title, before its ghosts (the same room in every language)
TOKEN_R = 24  # a ghost in a row: its letter (two in Spanish) at SMALLEST or more
STEP = 2 * TOKEN_R + 36  # a colour's ghost and its count, "x3"


def _counts(d, counts: dict, seat: int, x: float, y: float, title, language: str) -> None:
    """A row's title, then each colour it holds: one ghost of that colour and how many."""
    said = say(title, language)
    lettering.label(d, (x, y), said, 16, TITLE_W - 8, palette.INK, "lm", smallest=SMALLEST)
    x += TITLE_W + TOKEN_R
    for colour in layout.COLOURS:
        if counts.get(colour, 0):
            tokens.token(d, (x, y), TOKEN_R, SHAPES[seat], COLOUR[colour], letter(colour, language))
            lettering.text(
                d, (x + TOKEN_R + 4, y), f"\u00d7{counts[colour]}", 18, palette.INK, "lm"
            )
            x += STEP


def _dungeon_box(view: dict, seat: int, colour: str) -> tuple[int, int, int, int] | None:
    counts = view["dungeon"][seat]
    if not counts.get(colour):
        return None
    before = sum(1 for c in layout.COLOURS[: layout.COLOURS.index(colour)] if counts.get(c, 0))
    x = 16 + TITLE_W + TOKEN_R + STEP * before
    y = _row_y(seat, 1)
    return int(x - TOKEN_R - 2), int(y - TOKEN_R - 2), int(x + TOKEN_R + 30), int(y + TOKEN_R + 2)


def regions(view: dict, actions: list[str]) -> dict[str, tuple[int, int, int, int]]:
    """As the wide board's: a placement or a step on its chamber, a jump on the mirror it
    lands on, a release on that colour's ghosts in the dungeon row."""
    out: dict[str, tuple[int, int, int, int]] = {}
    for action in actions:
        words = action.split()
        if words[0] == "place" and len(words) == 2:
            out[action] = cell_box(words[1])
        elif words[0] == "move" and len(words) == 3 and words[2] in layout.DIRECTIONS:
            target = layout.neighbour(words[1], words[2])
            if target is not None:
                out[action] = cell_box(target)
        elif words[0] == "jump" and len(words) == 3:
            out[action] = cell_box(words[2])
        elif words[0] == "release" and len(words) == 2 and view["to_act"]:
            box = _dungeon_box(view, view["to_act"][0], words[1])
            if box is not None:
                out[action] = box
    return out
