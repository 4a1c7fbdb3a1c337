"""Escape from the Hidden Castle (and the Midnight Party) on a phone: the Gallery's 28 spaces
as a loop 6 spaces across and 10 down filling the width, each chamber inside the loop beside
its doorway, the staircase in the middle; under it the clock track (or the round), the
guests still to place and a row for each player. The title, the caption and the staircase's
key are the page's text. Every word is at least `narrow.SMALLEST` pixels.

Tap regions, as the wide board's: a placement on its space, a guest's move on that guest,
a guest hidden in a chamber on the chamber."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engines.text import msg
from languages import DEFAULT, say
from render import lettering, palette, tokens
from render.hidden_castle import (
    DOOR,
    ROOM,
    STAIR,
    STONE,
    _grid,
    _guest,
    _phantom,
    _shield,
    _stair_rows,
    _step_row,
    tapped,
)
from render.narrow import SMALLEST, WIDTH

PAD = 10
COLS, ROWS = 6, 10  # the loop: 6 + 8 + 6 + 8 = 28 spaces
CELL = (WIDTH - 2 * PAD) // COLS  # 83
# the exit (space 1) on the right side, so that no doorway sits on a corner and no two
# chambers share an inner cell
OFFSET = 7
LOOP_BOTTOM = PAD + ROWS * CELL
STAIR_BOX = (PAD + 2 * CELL + 4, PAD + 2 * CELL - 8, PAD + 4 * CELL - 4, PAD + 8 * CELL - 8)
LINE = 22
CLOCK_W, CLOCK_H, PER_ROW = 120, 52, 4
PLAYER_H = 46


def _cell(index: int) -> tuple[int, int]:
    """The loop's cell `index` (0 = top-left corner, clockwise) as (column, row)."""
    if index < COLS:
        return index, 0
    index -= COLS
    if index < ROWS - 2:
        return COLS - 1, index + 1
    index -= ROWS - 2
    if index < COLS:
        return COLS - 1 - index, ROWS - 1
    return 0, ROWS - 2 - (index - COLS)


def _at(col: int, row: int) -> tuple[int, int, int, int]:
    x, y = PAD + col * CELL, PAD + row * CELL
    return x, y, x + CELL, y + CELL


def space_box(space: int) -> tuple[int, int, int, int]:
    return _at(*_cell((space - 1 + OFFSET) % 28))


def chamber_box(door: int) -> tuple[int, int, int, int]:
    """The inner cell beside a doorway."""
    col, row = _cell((door - 1 + OFFSET) % 28)
    x0, y0, x1, y1 = _at(min(max(col, 1), COLS - 2), min(max(row, 1), ROWS - 2))
    return x0 + 6, y0 + 6, x1 - 6, y1 - 6


def _stair_row_box(view: dict, row: int) -> tuple[int, int, int, int]:
    rows = len(_stair_rows(view))
    x0, y0, x1, y1 = STAIR_BOX
    h = (y1 - y0) // rows
    top = y0 + (rows - 1 - row) * h
    return x0, top, x1, top + h - 4


def _strip_top() -> int:
    return LOOP_BOTTOM + PAD


def _midnight(view: dict) -> bool:
    return view["variant"] == "midnight_party"


def _strip_h(view: dict) -> int:
    if _midnight(view):
        return 2 * LINE + 3 * int(SMALLEST * 1.3) + 8
    rows = -(-len(view["clocks"]) // PER_ROW)
    return rows * (CLOCK_H + 6) + 4


def _waiting_top(view: dict) -> int:
    return _strip_top() + _strip_h(view)


def _waiting(view: dict) -> list[dict]:
    return [g for g in view["guests"] if g["where"] == "box"]


WAIT_STEP, WAIT_R, WAIT_LABEL = 44, 18, 150


def _waiting_h(view: dict) -> int:
    guests = _waiting(view)
    if not guests:
        return 0
    per = (WIDTH - 2 * PAD - WAIT_LABEL) // WAIT_STEP
    return -(-len(guests) // per) * WAIT_STEP + 8


def _players_top(view: dict) -> int:
    return _waiting_top(view) + _waiting_h(view)


def _height(view: dict) -> int:
    return _players_top(view) + 2 * LINE + len(view["names"]) * PLAYER_H + PAD


def draw(view: dict, language: str = DEFAULT) -> Image.Image:
    img, d = palette.canvas(_height(view), WIDTH)
    _loop(d, view, language)
    _stairs(d, view, language)
    owners = {g["label"]: g["owner"] for g in view["guests"]}
    moved = view.get("mover") or ""
    for _, guests, centres, r in _gallery(view):
        for g, c in zip(guests, centres, strict=True):
            _guest(d, c, r, g["owner"], g["label"], g["label"] == moved)
    for ch in view["chambers"]:
        if ch["guest"]:
            centre, r = _chamber_guest(ch)
            _guest(d, centre, r, owners[ch["guest"]], ch["guest"], ch["guest"] == moved)
    phantom = view["phantom"]
    if phantom["space"]:
        x0, y0, x1, y1 = space_box(phantom["space"])
        _phantom(d, ((x0 + x1) / 2, (y0 + y1) / 2 + 8), 24)
    else:
        rows = len(_stair_rows(view))
        x0, y0, x1, y1 = _stair_row_box(view, min(phantom["climbed"], rows - 1))
        _phantom(d, (x1 - 18, (y0 + y1) / 2), 14)
    if _midnight(view):
        _round(d, view, language)
    else:
        _clocks(d, view, language)
    _waiting_row(d, view, language)
    _players(d, view, language)
    return img


def _loop(d: ImageDraw.ImageDraw, view: dict, language: str) -> None:
    """The walls, the Gallery's spaces with their numbers (doorways in the door's colour,
    the exit dark with its word and arrow), the last move's trail, and the chambers."""
    d.rectangle((PAD - 6, PAD - 6, PAD + COLS * CELL + 6, LOOP_BOTTOM + 6), fill=palette.DARK)
    d.rectangle(
        (PAD + CELL, PAD + CELL, PAD + (COLS - 1) * CELL, LOOP_BOTTOM - CELL), fill=palette.PANEL
    )
    doors = {c["door"] for c in view["chambers"]}
    trail = set(view.get("trail", []))
    if view.get("mover") == "phantom" and not view["phantom"]["space"]:
        trail = set()
    for space in range(1, 29):
        x0, y0, x1, y1 = space_box(space)
        fill = DOOR if space in doors else STONE
        ink = palette.INK
        if space == 1:
            fill, ink = palette.mix(palette.NIGHT, palette.PAPER, 0.3), palette.WHITE
        d.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), fill=fill, outline=palette.INK, width=1)
        if space in trail:
            d.rectangle((x0 + 4, y0 + 4, x1 - 4, y1 - 4), outline=palette.HIGHLIGHT, width=4)
        lettering.text(d, (x0 + 6, y0 + 4), str(space), SMALLEST, ink)
        if space == 1:  # an arrow along the way out; its word inside the loop beside it
            d.polygon([(x0 + 30, y0 + 26), (x0 + 56, y0 + 44), (x0 + 30, y0 + 62)], fill=ink)
            _, iy0, ix1, _ = _at(COLS - 2, _cell(OFFSET)[1])
            said = say(msg("EXIT"), language)
            lettering.label(
                d,
                (ix1 - 4, iy0 + CELL / 2),
                said,
                18,
                CELL - 8,
                palette.INK,
                "rm",
                smallest=SMALLEST,
            )
    midnight = _midnight(view)
    for ch in view["chambers"]:
        box = chamber_box(ch["door"])
        d.rectangle(box, fill=ROOM, outline=palette.INK, width=3)
        _opening(d, ch["door"], box)
        # its number (its doorway's, beside it: "room 21" is too long for some languages)
        lettering.text(d, (box[0] + 5, box[1] + 3), str(ch["door"]), 18, palette.DARK)
        if ch["coat"]:
            good = ch["coat"] > 0 if midnight else ch["coat"] < 0
            _shield(d, box[2] - 18, box[3] - 30, ch["coat"], ch["exact"], good)


def _opening(d: ImageDraw.ImageDraw, door: int, box) -> None:
    """The way between a doorway and its chamber."""
    sx0, sy0, sx1, sy1 = space_box(door)
    if box[1] >= sy1:  # below the doorway
        d.rectangle((sx0 + 26, sy1 - 2, sx1 - 26, box[1] + 2), fill=DOOR)
    elif box[3] <= sy0:
        d.rectangle((sx0 + 26, box[3] - 2, sx1 - 26, sy0 + 2), fill=DOOR)
    elif box[0] >= sx1:
        d.rectangle((sx1 - 2, sy0 + 26, box[0] + 2, sy1 - 26), fill=DOOR)
    else:
        d.rectangle((box[2] - 2, sy0 + 26, sx0 + 2, sy1 - 26), fill=DOOR)


def _stairs(d: ImageDraw.ImageDraw, view: dict, language: str) -> None:
    """The staircase from the Phantom's start (at the bottom) up to the exit, a row a step
    with its value, and the guests caught on it."""
    rows = _stair_rows(view)
    x0, y0, x1, y1 = STAIR_BOX
    d.rectangle((x0 - 5, y0 - 5, x1 + 5, y1 + 1), fill=STAIR)
    for row, name in enumerate(rows):
        box = _stair_row_box(view, row)
        d.rectangle(box, fill=palette.mix(STAIR, palette.PAPER, 0.6), outline=palette.INK)
        lettering.label(
            d,
            (box[0] + 6, (box[1] + box[3]) / 2),
            say(name, language),
            18,
            62,
            palette.INK,
            "lm",
            smallest=SMALLEST,
        )
    moved = view.get("mover") or ""
    for g, centre, r in _on_stairs(view):
        _guest(d, centre, r, g["owner"], g["label"], g["label"] == moved)


def _on_stairs(view: dict):
    """Each guest caught on the staircase, its centre and radius."""
    on_step: dict[int, list[dict]] = {}
    for g in view["guests"]:
        if g["where"] == "stairs":
            on_step.setdefault(_step_row(view, g["pos"]), []).append(g)
    for row, guests in on_step.items():
        bx0, by0, bx1, by1 = _stair_row_box(view, row)
        gap = min(34, (bx1 - bx0 - 70 - 30) / max(len(guests), 1))
        r = min(16, gap * 0.48)
        for i, g in enumerate(guests):
            yield g, (bx0 + 70 + gap * i + r, (by0 + by1) / 2), r


def _gallery(view: dict):
    """Each space's guests, their centres and radius."""
    by_space: dict[int, list[dict]] = {}
    for g in view["guests"]:
        if g["where"] == "gallery":
            by_space.setdefault(g["pos"], []).append(g)
    for space, guests in by_space.items():
        x0, y0, x1, y1 = space_box(space)
        centres, r = _grid(len(guests), (x0 + 4, y0 + 4, x1 - 4, y1 - 4), top=20)
        yield space, guests, centres, r


def _chamber_guest(ch: dict) -> tuple[tuple[float, float], float]:
    box = chamber_box(ch["door"])
    x = box[0] + 24 if ch["coat"] else (box[0] + box[2]) / 2
    return (x, box[3] - 24), 18


def _clocks(d: ImageDraw.ImageDraw, view: dict, language: str) -> None:
    """The clock track: each hour, how far the Phantom moves in it, the hour it is at."""
    top = _strip_top()
    for i, name in enumerate(view["clocks"]):
        x = PAD + (i % PER_ROW) * (CLOCK_W + 6)
        y = top + (i // PER_ROW) * (CLOCK_H + 6)
        here = i == view["clock"]
        d.rounded_rectangle(
            (x, y, x + CLOCK_W, y + CLOCK_H),
            8,
            fill=palette.HIGHLIGHT if here else palette.PAPER,
            outline=palette.INK,
            width=3 if here else 1,
        )
        lettering.text(d, (x + 8, y + 14), name, 18, palette.INK, "lm")
        if i < len(view["speeds"]):
            speed = msg("{count} spaces", count=view["speeds"][i])
        else:
            speed = msg("game ends")
        lettering.label(
            d,
            (x + 8, y + 38),
            say(speed, language),
            SMALLEST,
            CLOCK_W - 12,
            palette.INK,
            "lm",
            smallest=SMALLEST,
        )
        if here:
            _phantom(d, (x + CLOCK_W - 18, y + 15), 11)


def _round(d: ImageDraw.ImageDraw, view: dict, language: str) -> None:
    """The Midnight Party's round, and how this round moves and scores."""
    y = _strip_top()
    said = msg("Round {round} of {rounds}", round=view["round"], rounds=view["rounds"])
    lettering.label(
        d, (PAD, y), say(said, language), 20, WIDTH - 2 * PAD, palette.INK, smallest=SMALLEST
    )
    said = msg(
        "Phantom moves {speed}. Scoring at round end: a step's value, +3 or -1 chambers.",
        speed=view["speed"],
    )
    lettering.paragraph(
        d,
        (PAD, y + LINE + 6),
        say(said, language),
        SMALLEST,
        WIDTH - 2 * PAD,
        palette.DARK,
        max_lines=3,
    )


def _waiting_row(d: ImageDraw.ImageDraw, view: dict, language: str) -> None:
    """The guests still to be placed in the Gallery (or coming back), the next one ringed."""
    guests = _waiting(view)
    if not guests:
        return
    y = _waiting_top(view) + WAIT_STEP / 2
    label = msg("To place:") if view["round"] == 1 else msg("Coming back:")
    lettering.label(
        d,
        (PAD, y),
        say(label, language),
        18,
        WAIT_LABEL - 8,
        palette.INK,
        "lm",
        smallest=SMALLEST,
    )
    per = (WIDTH - 2 * PAD - WAIT_LABEL) // WAIT_STEP
    for i, g in enumerate(guests):
        x = PAD + WAIT_LABEL + (i % per) * WAIT_STEP + WAIT_R
        _guest(
            d,
            (x, y + (i // per) * WAIT_STEP),
            WAIT_R,
            g["owner"],
            g["label"],
            g["label"] == view["next_place"],
        )


def _players(d: ImageDraw.ImageDraw, view: dict, language: str) -> None:
    """What wins, then a row a player: their piece, name, guests' letters and score."""
    y = _players_top(view)
    if _midnight(view):
        aim = msg("Highest wins")
    else:
        aim = msg("Lowest wins; ends at {score} or 5:00", score=view["end_score"])
    lettering.paragraph(d, (PAD, y), say(aim, language), SMALLEST, WIDTH - 2 * PAD, max_lines=2)
    y += 2 * LINE
    for seat, name in enumerate(view["names"]):
        acting = seat in view["to_act"] or (view["phase"] == "roll" and seat == view["turn"])
        won = seat in (view.get("winners") or [])
        d.rounded_rectangle(
            (4, y, WIDTH - 4, y + PLAYER_H - 6),
            8,
            fill=palette.seat_fill(won=won, acting=acting),
            outline=palette.INK,
            width=3 if won else 1,
        )
        mid = y + (PLAYER_H - 6) / 2
        tokens.player_token(d, (24, mid), 14, seat)
        score = str(view["scores"][seat])
        letters = " ".join(g["label"].upper() for g in view["guests"] if g["owner"] == seat)
        tail = say(msg("WINS"), language) if won else letters
        right = WIDTH - 14 - lettering.text_width(score, 22) - 10
        tail_w = min(lettering.text_width(tail, SMALLEST), 150)
        head = lettering.isolate(lettering.fit(name, 18, right - tail_w - 12 - 46))
        lettering.text(d, (46, mid), head, 18, palette.INK, "lm")
        lettering.label(d, (right, mid), tail, SMALLEST, 150, palette.DARK, "rm", smallest=SMALLEST)
        lettering.text(d, (WIDTH - 14, mid), score, 22, palette.INK, "rm")
        y += PLAYER_H


def regions(view: dict, actions: list[str]) -> dict[str, tuple[int, int, int, int]]:
    """A placement on its Gallery space, a guest's move on that guest (in the Gallery or
    its chamber or on the staircase), a guest hidden in a chamber on the chamber."""
    spots: dict[str, tuple[int, int, int, int]] = {}
    for _, guests, centres, r in _gallery(view):
        for g, (cx, cy) in zip(guests, centres, strict=True):
            spots[g["label"]] = (int(cx - r), int(cy - r), int(cx + r), int(cy + r))
    for ch in view["chambers"]:
        if ch["guest"]:
            (cx, cy), r = _chamber_guest(ch)
            spots[ch["guest"]] = (int(cx - r), int(cy - r), int(cx + r), int(cy + r))
    for g, (cx, cy), r in _on_stairs(view):
        spots[g["label"]] = (int(cx - r), int(cy - r), int(cx + r), int(cy + r))
    chambers = {str(ch["door"]): chamber_box(ch["door"]) for ch in view["chambers"]}
    return tapped(actions, space_box, spots, chambers)
