"""The Hidden Castle board: the Gallery loop with its chambers, the staircase, the Phantom,
the clock track and the scores, drawn from a view only."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.text import Msg, in_context, msg
from languages import DEFAULT, say
from render import captions, lettering, palette, tokens
from render.hidden_castle_alt import caption_lines
from render.hidden_castle_alt import describe as describe  # the alt text, as every renderer offers
from render.scene import Scene, painted

HEIGHT = 892  # the caption's first line 6 rows under it, in a band of its own (render/captions.py)
CELL = 82
MARGIN = 88  # room outside the loop for the chambers
X0, Y0 = 20 + MARGIN, 64 + MARGIN  # top-left corner of the loop
COLS, ROWS = 9, 7  # 9 spaces across, 5 more down each side: 28 in all
OFFSET = 1  # space 1 (the exit) is the second cell of the top row; no doorway sits on a corner
PANEL_X = 950
STAIR_X, STAIR_Y, STAIR_W, STAIR_H = X0 + CELL + 8, Y0 + CELL + 8, 7 * CELL - 16, 44
STRIP_Y = Y0 + ROWS * CELL + MARGIN + 4  # the clock track (or the round) under the board

ROOM = (236, 226, 200)
DOOR = (214, 196, 160)
STONE = (200, 196, 186)
STAIR = (120, 110, 100)


# ----- geometry ---------------------------------------------------------------------
def _cell_xy(index: int) -> tuple[int, int, str]:
    """Top-left corner of the loop cell `index` (0 = top-left corner, clockwise) and its side."""
    if index < COLS:
        return X0 + index * CELL, Y0, "top"
    index -= COLS
    if index < ROWS - 2:
        return X0 + (COLS - 1) * CELL, Y0 + (index + 1) * CELL, "right"
    index -= ROWS - 2
    if index < COLS:
        return X0 + (COLS - 1 - index) * CELL, Y0 + (ROWS - 1) * CELL, "bottom"
    index -= COLS
    return X0, Y0 + (ROWS - 2 - index) * CELL, "left"


def _space_box(space: int) -> tuple[int, int, int, int]:
    x, y, _ = _cell_xy((space - 1 + OFFSET) % 28)
    return x, y, x + CELL, y + CELL


def _side(space: int) -> str:
    return _cell_xy((space - 1 + OFFSET) % 28)[2]


def _chamber_box(door: int) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = _space_box(door)
    gap, depth = 6, MARGIN - 10
    return {
        "top": (x0 + 4, y0 - gap - depth, x1 - 4, y0 - gap),
        "bottom": (x0 + 4, y1 + gap, x1 - 4, y1 + gap + depth),
        "left": (x0 - gap - depth, y0 + 4, x0 - gap, y1 - 4),
        "right": (x1 + gap, y0 + 4, x1 + gap + depth, y1 - 4),
    }[_side(door)]


def _stair_rows(view: dict) -> list[Msg | str]:
    """Staircase rows from the bottom (where the Phantom starts) up to the exit."""
    steps = [f"{v:+d}" for v in view["steps"]]
    if view["variant"] == "midnight_party":
        return [*steps[:-1], msg("{step} landing", step=steps[-1])]
    return [in_context("staircase", "door"), *steps]


def _step_row(view: dict, step: int) -> int:
    return step if view["variant"] == "midnight_party" else step + 1


def _row_box(view: dict, row: int) -> tuple[int, int, int, int]:
    rows = len(_stair_rows(view))
    y = STAIR_Y + (rows - 1 - row) * STAIR_H
    return STAIR_X, y, STAIR_X + STAIR_W, y + STAIR_H - 4


def _grid(n: int, box: tuple[int, int, int, int], top: int = 0) -> tuple[list, float]:
    """Centres for n tokens inside a box, shrinking as it fills."""
    x0, y0, x1, y1 = box
    y0 += top
    per = 1 if n == 1 else 2 if n <= 4 else 3 if n <= 9 else 4
    rows = -(-n // per)
    w, h = (x1 - x0) / per, (y1 - y0) / max(rows, 2 if n > 2 else 1)
    r = min(w, h) * 0.47
    centres = []
    for i in range(n):
        cx = x0 + w * (i % per) + w / 2
        cy = y0 + h * (i // per) + h / 2
        centres.append((cx, cy))
    return centres, min(r, 26)


# ----- drawing pieces ---------------------------------------------------------------
def _guest(d: ImageDraw.ImageDraw, centre, r: float, owner: int, label: str, moved=False) -> None:
    """The player's token with its letter in ink on a white halo: a letter inside a small
    star or triangle is otherwise unreadable, and the letter is what `move c` names."""
    cx, cy = centre
    if moved:
        d.ellipse((cx - r - 5, cy - r - 5, cx + r + 5, cy + r + 5), fill=palette.HIGHLIGHT)
    tokens.player_token(d, tuple(centre), r, owner)
    size = max(16, int(r * 1.1))
    lx, ly = tokens.shape_centre(palette.PLAYER_SHAPES[owner % 8], cx, cy, r)
    lettering.text(
        d,
        (lx, ly + 1),
        label.upper(),
        size,
        palette.INK,
        "mm",
        stroke_width=max(2, size // 6),
        stroke_fill=palette.WHITE,
    )


def _phantom(d: ImageDraw.ImageDraw, centre, r: float) -> None:
    """A ghost in a dark sheet: round head, ragged hem; no player has this shape."""
    cx, cy = centre
    top = cy - r
    d.pieslice(
        (cx - r, top, cx + r, top + 2 * r), 180, 360, fill=palette.NIGHT, outline=palette.WHITE
    )
    hem = []
    for i in range(7):
        x = cx + r - i * (2 * r / 6)
        hem.append((x, cy + r if i % 2 == 0 else cy + r * 0.65))
    d.polygon([(cx + r, cy), *hem, (cx - r, cy)], fill=palette.NIGHT)
    d.line([(cx + r, cy), (cx + r, cy + r)], fill=palette.WHITE, width=2)
    d.line([(cx - r, cy), (cx - r, cy + r)], fill=palette.WHITE, width=2)
    e = r * 0.18
    for ex in (cx - r * 0.35, cx + r * 0.35):
        d.ellipse((ex - e, cy - r * 0.3 - e, ex + e, cy - r * 0.3 + e), fill=palette.WHITE)


@lru_cache(maxsize=8)
def _static(variant: str, chambers: tuple, rows: tuple, language: str = DEFAULT) -> Image.Image:
    """The board itself never changes within a variant: draw it once."""
    img, d = palette.canvas(HEIGHT)
    midnight = variant == "midnight_party"
    # The castle walls behind the loop, and the courtyard inside it.
    d.rectangle((X0 - 8, Y0 - 8, X0 + COLS * CELL + 8, Y0 + ROWS * CELL + 8), fill=palette.DARK)
    d.rectangle(
        (X0 + CELL, Y0 + CELL, X0 + (COLS - 1) * CELL, Y0 + (ROWS - 1) * CELL), fill=palette.PANEL
    )
    doors = {c[0]: c for c in chambers}
    for space in range(1, 29):
        x0, y0, x1, y1 = _space_box(space)
        fill = DOOR if space in doors else STONE
        if space == 1:
            fill = palette.mix(palette.NIGHT, palette.PAPER, 0.5)
        d.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), fill=fill, outline=palette.INK, width=1)
        lettering.text(d, (x0 + 6, y0 + 3), str(space), 16, palette.INK)
    # Chambers: a room outside each doorway with its number and its coat of arms.
    for door, coat, exact in chambers:
        box = _chamber_box(door)
        d.rectangle(box, fill=ROOM, outline=palette.INK, width=3)
        sx0, sy0, sx1, sy1 = _space_box(door)
        side = _side(door)
        # the opening between doorway and chamber
        if side in ("top", "bottom"):
            yy = sy0 - 8 if side == "top" else sy1 + 1
            d.rectangle((sx0 + 28, yy, sx1 - 28, yy + 8), fill=DOOR)
        else:
            xx = sx0 - 8 if side == "left" else sx1 + 1
            d.rectangle((xx, sy0 + 28, xx + 8, sy1 - 28), fill=DOOR)
        room = say(msg("room {n}", n=door), language)
        lettering.label(
            d,
            (box[0] + 5, box[1] + 3),
            room,
            14,
            box[2] - box[0] - 10,  # the shield sits below the label
            palette.DARK,
            smallest=10,
        )
        if coat:
            good = coat > 0 if midnight else coat < 0
            _shield(d, box[2] - 17, (box[1] + box[3]) / 2 + 7, coat, exact, good)
    # The exit: an arrow pointing clockwise (to the right, along the top row).
    x0, y0, x1, y1 = _space_box(1)
    lettering.label(
        d,
        (x1 - 6, y0 + 4),
        say(msg("EXIT"), language),
        14,
        CELL - 30,
        palette.WHITE,
        "ra",
        smallest=10,
    )
    d.polygon([(x1 - 30, y1 - 20), (x1 - 8, y1 - 12), (x1 - 30, y1 - 4)], fill=palette.WHITE)
    # The staircase, from the Phantom's start up to the exit.
    top = _row_box_static(len(rows), len(rows) - 1)
    d.rectangle(
        (STAIR_X - 6, top[1] - 6, STAIR_X + STAIR_W + 6, _row_box_static(len(rows), 0)[3] + 6),
        fill=STAIR,
    )
    d.rectangle((x0 + 30, y1, x0 + 54, top[1] - 6), fill=STAIR)
    for row, name in enumerate(rows):
        box = _row_box_static(len(rows), row)
        d.rectangle(box, fill=palette.mix(STAIR, palette.PAPER, 0.6), outline=palette.INK)
        lettering.label(
            d, (box[0] + 8, (box[1] + box[3]) / 2), say(name, language), 20, 150, palette.INK, "lm"
        )
    title = msg("Midnight Party") if midnight else msg("Escape from the Hidden Castle")
    lettering.label(d, (20, 14), say(title, language), 32, KEY_X - 30, palette.INK, smallest=17)
    # The key sits beside the title, where no game text can push it off the picture.
    key = [
        msg("Shield: a coat of arms and its points;"),
        msg("'=' marks a chamber that needs an exact roll."),
    ]
    for i, line in enumerate(key):
        lettering.label(
            d,
            (KEY_X, 16 + 20 * i),
            say(line, language),
            16,
            PANEL_X - 20 - KEY_X,
            palette.DARK,
            smallest=12,
        )
    return img


KEY_X = 500  # the key beside the title


def _row_box_static(rows: int, row: int) -> tuple[int, int, int, int]:
    y = STAIR_Y + (rows - 1 - row) * STAIR_H
    return STAIR_X, y, STAIR_X + STAIR_W, y + STAIR_H - 4


def _shield(
    d: ImageDraw.ImageDraw, cx: float, cy: float, value: int, exact: bool, good: bool
) -> None:
    """A coat of arms with its value (green helps, red hurts); '=' marks an exact roll."""
    w, h = 14, 24
    colour = palette.GREEN if good else palette.VERMILION
    d.polygon(
        [(cx - w, cy - h), (cx + w, cy - h), (cx + w, cy + 6), (cx, cy + h), (cx - w, cy + 6)],
        fill=colour,
        outline=palette.INK,
        width=2,
    )
    lettering.text(d, (cx, cy - 7), f"{value:+d}", 17, palette.WHITE, "mm")
    if exact:
        lettering.text(d, (cx, cy + 10), "=", 16, palette.WHITE, "mm")


# ----- the picture --------------------------------------------------------------------
def draw(view: dict, language: str = DEFAULT) -> Image.Image:
    return captions.caption_bar(board(view, language), caption_lines(view, language))


def caption(view: dict, language: str = DEFAULT) -> list[str]:
    return caption_lines(view, language)


def board(view: dict, language: str = DEFAULT) -> Image.Image:
    """The picture without its caption (a replay writes its own under each board)."""
    return painted(scene(view, language))


def scene(view: dict, language: str = DEFAULT) -> Scene:
    """The board as parts (render/scene.py): the board itself (a layer: it changes only
    with the chambers' coats), the last move's trail, each guest, the Phantom, the clock
    track or the round, and the panel."""
    midnight = view["variant"] == "midnight_party"
    chambers = tuple((c["door"], c["coat"], c["exact"]) for c in view["chambers"])
    rows = _stair_rows(view)
    out = Scene(palette.WIDTH, HEIGHT)
    said = tuple(say(row, language) for row in rows)  # the static board says them as they are
    out.layer((0, 0), _static, view["variant"], chambers, said, language)
    owners = {g["label"]: g["owner"] for g in view["guests"]}
    moved = view.get("mover") or ""
    # The last move: the spaces it crossed, outlined; not the Phantom's once a new round
    # has put it back on the staircase.
    trail = view.get("trail", [])
    if moved == "phantom" and not view["phantom"]["space"]:
        trail = []
    for space in trail:
        x0, y0, x1, y1 = _space_box(space)
        out.add((x0 + 2, y0 + 2, x1 - 1, y1 - 1), _trail, x0, y0, x1, y1)
    # Guests in the Gallery.
    by_space: dict[int, list[dict]] = {}
    for g in view["guests"]:
        if g["where"] == "gallery":
            by_space.setdefault(g["pos"], []).append(g)
    for space, guests in by_space.items():
        x0, y0, x1, y1 = _space_box(space)
        centres, r = _grid(len(guests), (x0 + 4, y0 + 4, x1 - 4, y1 - 4), top=14)
        for g, c in zip(guests, centres, strict=True):
            _guest_part(out, c, r, g["owner"], g["label"], g["label"] == moved)
    # Chambers.
    for ch in view["chambers"]:
        if ch["guest"]:
            box = _chamber_box(ch["door"])
            centre = (box[0] + 23, (box[1] + box[3]) / 2 + 8)
            if not ch["coat"]:
                centre = ((box[0] + box[2]) / 2, centre[1])
            _guest_part(out, centre, 19, owners[ch["guest"]], ch["guest"], ch["guest"] == moved)
    # The staircase and the captured guests on it.
    on_step: dict[int, list[dict]] = {}
    for g in view["guests"]:
        if g["where"] == "stairs":
            on_step.setdefault(_step_row(view, g["pos"]), []).append(g)
    for row, guests in on_step.items():
        x0, y0, x1, y1 = _row_box(view, row)
        n = len(guests)
        gap = min(36, (x1 - x0 - 76) / max(n, 1))
        r = min(18, gap * 0.48)
        for i, g in enumerate(guests):
            centre = (x0 + 66 + gap * i + r, (y0 + y1) / 2)
            _guest_part(out, centre, r, g["owner"], g["label"], g["label"] == moved)
    phantom = view["phantom"]
    if phantom["space"]:
        x0, y0, x1, y1 = _space_box(phantom["space"])
        centre, r = ((x0 + x1) / 2, (y0 + y1) / 2 + 6), 28
    else:
        x0, y0, x1, y1 = _row_box(view, min(phantom["climbed"], len(rows) - 1))
        centre, r = (x1 - 24, (y0 + y1) / 2), 17
    out.add(tokens.reach(centre, r), _phantom, centre, r)
    strip = {
        key: view[key]
        for key in ("round", "rounds", "speed", "next_place", "clocks", "clock", "speeds")
        if key in view
    }
    strip["guests"] = [
        {"where": g["where"], "owner": g["owner"], "label": g["label"]}
        for g in view["guests"]
        if g["where"] == "box"
    ]
    out.add((18, STRIP_Y - 2, 941, STRIP_Y + 62), _clock_or_round, strip, midnight, language)
    _panel(out, view, midnight, language)
    return out


def _trail(d: ImageDraw.ImageDraw, x0: int, y0: int, x1: int, y1: int) -> None:
    d.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), outline=palette.HIGHLIGHT, width=5)


def _guest_part(out: Scene, centre, r: float, owner: int, label: str, moved: bool) -> None:
    """A guest as a part: its halo, piece and letter (stroked, which may reach past the
    piece) in the box they cover."""
    size = max(16, int(r * 1.1))
    lx, ly = tokens.shape_centre(palette.PLAYER_SHAPES[owner % 8], *centre, r)
    words = lettering.text_box((lx, ly + 1), label.upper(), size, "mm", max(2, size // 6))
    piece = tokens.reach(centre, r + 5)
    box = (
        min(piece[0], words[0]),
        min(piece[1], words[1]),
        max(piece[2], words[2]),
        max(piece[3], words[3]),
    )
    out.add(box, _guest, centre, r, owner, label, moved)


def regions(view: dict, actions: list[str]) -> dict[str, tuple[int, int, int, int]]:
    """Where each of these actions can be tapped, with `board`'s geometry: a placement on
    its Gallery space, a guest's move on that guest, a move into a chamber on the chamber."""
    spots: dict[str, tuple[int, int, int, int]] = {}
    by_space: dict[int, list[dict]] = {}
    for g in view["guests"]:
        if g["where"] == "gallery":
            by_space.setdefault(g["pos"], []).append(g)
    for space, guests in by_space.items():
        x0, y0, x1, y1 = _space_box(space)
        centres, r = _grid(len(guests), (x0 + 4, y0 + 4, x1 - 4, y1 - 4), top=14)
        for g, (cx, cy) in zip(guests, centres, strict=True):
            spots[g["label"]] = (int(cx - r), int(cy - r), int(cx + r), int(cy + r))
    chambers = {str(ch["door"]): _chamber_box(ch["door"]) for ch in view["chambers"]}
    return tapped(actions, _space_box, spots, chambers)


Box = tuple[int, int, int, int]


def tapped(
    actions: list[str],
    space_box: Callable[[int], Box],
    guests: dict[str, Box],
    chambers: dict[str, Box],
) -> dict[str, Box]:
    """Each action's region on a board (the wide one or the narrow): `place N` on space N,
    `move G` on guest G, `hide G N` on chamber N; other actions stay buttons."""
    out: dict[str, Box] = {}
    for action in actions:
        words = action.split()
        if words[0] == "place" and len(words) == 2 and words[1].isdigit():
            out[action] = space_box(int(words[1]))
        elif words[0] == "move" and len(words) == 2 and words[1] in guests:
            out[action] = guests[words[1]]
        elif words[0] == "hide" and len(words) == 3 and words[2] in chambers:
            out[action] = chambers[words[2]]
    return out


def _clock_or_round(d: ImageDraw.ImageDraw, view: dict, midnight: bool, language: str) -> None:
    """Under the board: the clock track with the Phantom token, or the Midnight Party round."""
    x, y = 20, STRIP_Y
    if midnight:
        d.rounded_rectangle((x, y, 934, y + 58), 8, fill=palette.PAPER, outline=palette.INK)
        said = say(
            msg("Round {round} of {rounds}", round=view["round"], rounds=view["rounds"]), language
        )
        lettering.label(d, (x + 12, y + 29), said, 26, 180, palette.INK, "lm", smallest=13)
        waiting = [g for g in view["guests"] if g["where"] == "box"]
        if waiting:  # between rounds (and at set-up): the guests still to come back
            _waiting(d, view, waiting, x + 200, y + 29, language)
            return
        said = msg(
            "Phantom moves {speed}. Scoring at round end: a step's value, +3 or -1 chambers.",
            speed=view["speed"],
        )
        lettering.label(
            d,
            (x + 210, y + 29),
            say(said, language),
            18,
            934 - 8 - (x + 210),
            palette.DARK,
            "lm",
            smallest=12,
        )
        return
    lettering.label(
        d,
        (x, y + 16),
        say(in_context("clock track", "Clock"), language),
        20,
        66,
        palette.INK,
        "lm",
        smallest=12,
    )
    lettering.label(
        d,
        (x, y + 42),
        say(in_context("clock track", "moves"), language),
        18,
        66,
        palette.DARK,
        "lm",
        smallest=12,
    )
    x += 70
    for i, name in enumerate(view["clocks"]):
        here = i == view["clock"]
        box = (x, y, x + 116, y + 58)
        d.rounded_rectangle(
            box,
            8,
            fill=palette.HIGHLIGHT if here else palette.PAPER,
            outline=palette.INK,
            width=3 if here else 1,
        )
        lettering.text(d, (x + 10, y + 16), name, 22, palette.INK, "lm")
        if i < len(view["speeds"]):
            speed = msg("{count} spaces", count=view["speeds"][i])
        else:
            speed = msg("game ends")
        lettering.label(
            d, (x + 10, y + 42), say(speed, language), 18, 100, palette.INK, "lm", smallest=12
        )
        if here:
            _phantom(d, (x + 96, y + 17), 13)
        x += 120


def _waiting(
    d: ImageDraw.ImageDraw, view: dict, guests: list[dict], x: int, y: float, language: str
) -> None:
    """Guests waiting to be placed back in the Gallery; the next one ringed."""
    label = say(msg("To place:") if view["round"] == 1 else msg("Coming back:"), language)
    size = lettering.label(d, (x, y), label, 20, 200, palette.INK, "lm", smallest=14)
    x += min(200, lettering.text_width(label, size)) + 14
    step = min(44.0, (920 - x) / len(guests))
    r = min(18.0, step * 0.42)
    for i, g in enumerate(guests):
        _guest(
            d, (x + r + i * step, y), r, g["owner"], g["label"], g["label"] == view["next_place"]
        )


def _panel(out: Scene, view: dict, midnight: bool, language: str) -> None:
    """One row a player: shape and colour, name, guest letters, score (and a bar to 46)."""
    x, y = PANEL_X, 20
    names, scores = view["names"], view["scores"]
    if midnight:
        aim = msg("Highest wins")
    else:
        aim = msg("Lowest wins; ends at {score} or 5:00", score=view["end_score"])
    lettering.label_part(
        out, (x, y), say(aim, language), 20 if midnight else 16, 1192 - x, palette.INK, smallest=11
    )
    y += 36
    row_h = min(84, (HEIGHT - 250) // len(names))
    for seat, name in enumerate(names):
        acting = seat in view["to_act"] or (view["phase"] == "roll" and seat == view["turn"])
        won = seat in (view.get("winners") or [])
        letters = " ".join(g["label"].upper() for g in view["guests"] if g["owner"] == seat)
        score = str(scores[seat])
        # The name has the row's width up to the score; "WINS" goes on the letters' line,
        # so a bot's name ("Bot 1 (normal)") is never cut for it.
        room = int(1184 - lettering.text_width(score, 28) - 12 - (x + 38))
        bottom = y + row_h - 6
        out.stamp((x - 6, y), (1199 - x, bottom - y + 1), _player, bottom - y, won)
        out.add((x - 4, y + 2, x + 46 + room, y + 37), _player_name, seat, y, name, room, acting)
        out.add(
            (x + 30, y + 32, x + 40 + room, y + 57),
            _player_letters,
            y,
            letters,
            room,
            say(msg("WINS"), language) if won else "",
        )
        lettering.text_part(out, (1184, y + (row_h - 6) / 2), score, 28, palette.INK, "rm")
        if not midnight:
            track = (x + 4, bottom - 9, x + 174, bottom - 3)
            out.add(
                (track[0] - 1, track[1] - 4, track[2] + 3, track[3] + 3),
                _track,
                track,
                scores[seat],
                view["end_score"],
            )
        y += row_h
    # What the staircase means (the caption under the board tells the last roll and move).    # What the staircase means (the caption under the board tells the last roll and move).
    y += 10
    room = max(1, (HEIGHT - 8 - y) // int(17 * 1.3))
    lettering.paragraph_part(
        out,
        (x, y),
        say(_stair_key(view), language),
        17,
        236,
        palette.DARK,
        max_lines=room,
        smallest=12,
    )


def _player(d: ImageDraw.ImageDraw, height: int, won: bool) -> None:
    """A player's row in the panel: its frame (green once they have won), from the stamp's
    corner."""
    fill = palette.seat_fill(won=won, acting=False)
    box = (0, 0, 1198 - PANEL_X, height)
    d.rounded_rectangle(box, 8, fill=fill, outline=palette.INK, width=3 if won else 1)


def _player_name(
    d: ImageDraw.ImageDraw, seat: int, y: int, name: str, room: int, acting: bool
) -> None:
    """A player's shape and colour and name, lit while they act (a plate of 32 rows: the
    turn passing deflates two bands of the PNG's rows again, not the whole row)."""
    x = PANEL_X
    if acting:
        d.rounded_rectangle(
            (x - 2, y + 3, x + 44 + room, y + 35),
            8,
            fill=palette.HIGHLIGHT,
            outline=palette.INK,
            width=1,
        )
    tokens.player_token(d, (x + 16, y + 19), 14, seat)
    lettering.text(
        d,
        (x + 38, y + 19),
        lettering.isolate(lettering.fit(name, 20, room)),
        20,
        palette.INK,
        "lm",
    )


def _player_letters(d: ImageDraw.ImageDraw, y: int, letters: str, room: int, wins: str) -> None:
    """A player's guests' letters, and "WINS" after them once they have won."""
    x = PANEL_X
    lettering.text(d, (x + 38, y + 44), letters, 18, palette.DARK, "lm")
    if wins:
        room_left = room - lettering.text_width(letters, 18) - 10
        lettering.label(
            d, (x + 38 + room, y + 44), wins, 18, room_left, palette.INK, "rm", smallest=10
        )


def _stair_key(view: dict) -> Msg:
    """The staircase's legend: who stands on its steps and what a step is worth."""
    steps = view["steps"]
    if view["variant"] == "midnight_party":
        return msg(
            "STAIRCASE ({first} to {last}): a guest the Phantom catches stands on "
            "the next free step, {first} first. At the round's end each guest scores its "
            "step (guests left in the Gallery: the {last} landing), its chamber's "
            "coat, or 0. The Phantom climbs to the exit (1), then walks the Gallery clockwise.",
            first=f"{steps[0]:+d}",
            last=f"{steps[-1]:+d}",
        )
    first, last = max(steps), min(steps)
    return msg(
        "STAIRCASE ({first} to {last}): a guest the Phantom catches stands on the next "
        "free step, {first} first, and its owner scores that step. The Phantom climbs from "
        "the door to the exit (1), then walks the Gallery clockwise.",
        first=f"{first:+d}",
        last=f"{last:+d}",
    )


def _track(d: ImageDraw.ImageDraw, box: tuple, score: int, end: int) -> None:
    """A player's scoring track from 0 to the end score, a tick every 10 points."""
    x0, y0, x1, y1 = box
    d.rectangle(box, fill=palette.PAPER, outline=palette.GREY)
    d.rectangle((x0, y0, x0 + (x1 - x0) * max(0.0, min(1.0, score / end)), y1), fill=palette.DARK)
    for points in range(10, end, 10):
        tx = x0 + (x1 - x0) * points / end
        d.line([(tx, y0 - 2), (tx, y1)], fill=palette.GREY, width=1)
    d.line([(x1, y0 - 3), (x1, y1 + 1)], fill=palette.VERMILION, width=3)


# ----- the rules picture ---------------------------------------------------------------
def illustration() -> tuple[dict, list, Msg]:
    """A game under way: the Phantom in the Gallery, guests caught on the staircase and one
    in a chamber, with notes on each part of the board (render/rules.py draws them)."""
    from render.rules import best_view

    def shows(view: dict) -> float:
        if view["phase"] == "over":
            return -1
        where = [g["where"] for g in view["guests"]]
        return (
            (view["phantom"]["space"] > 0) * 100
            + min(3, where.count("stairs")) * 10
            + min(1, where.count("chamber")) * 10
            + min(4, where.count("gallery"))
        )

    view = best_view("hidden_castle", 3, 3, ["Ann", "Bob", "Cy"], shows)
    x0, _, _, y1 = _space_box(1)
    spaces = [g["pos"] for g in view["guests"] if g["where"] == "gallery"]
    guest = min(  # a guest alone on its space: the mark beside it hides no other
        (g for g in view["guests"] if g["where"] == "gallery" and g["pos"] != 1),
        key=lambda g: (spaces.count(g["pos"]), g["pos"]),
    )
    _, gy0, gx1, _ = _space_box(guest["pos"])
    shield = next(c for c in view["chambers"] if c["coat"] and c["exact"])
    cx0, _, _, cy1 = _chamber_box(shield["door"])
    phantom = view["phantom"]
    if phantom["space"]:
        _, py0, px1, _ = _space_box(phantom["space"])
        phantom_at = (px1 - 12, py0 + 12)
    else:
        box = _row_box(view, min(phantom["climbed"], len(_stair_rows(view)) - 1))
        phantom_at = (box[2] - 52, (box[1] + box[3]) / 2)
    step = _row_box(view, len(_stair_rows(view)) // 2)
    notes = [
        (
            (x0 + 20, y1 - 20),
            msg(
                "Space 1, the exit: the staircase ends here. A roll of 1, 2, 4 "
                "or 5 moves one of your guests that many spaces clockwise round the 28-space "
                "Gallery. Ending on the Phantom's space gets it caught."
            ),
        ),
        (
            (gx1 - 12, gy0 + 12),
            msg(
                "A guest: its owner's colour and shape, and its letter "
                "(`move c`). Guests may share a space."
            ),
        ),
        (
            (cx0 + 16, cy1 - 16),
            msg(
                "A chamber opens off "
                "its doorway once the Phantom is in the Gallery: one guest each, safe there. A "
                "shield's points count when a guest enters ('=': only with the exact roll)."
            ),
        ),
        (
            phantom_at,
            msg(
                "The Phantom. A roll of the Phantom moves it as far as the clock says: "
                "up the staircase, into the Gallery at the exit, and on clockwise, catching every "
                "guest on every space it passes or lands on."
            ),
        ),
        (
            (step[2] - 110, (step[1] + step[3]) / 2),
            msg(
                "The staircase: caught guests wait on its "
                "steps, the first on +10, and their owners score the step (see the key at the right)."
            ),
        ),
        (
            (90, STRIP_Y - 2),
            msg(
                "The clock moves on each time the Phantom reaches or passes the "
                "exit. The game ends at 5:00, or when a score reaches 46: the lowest score wins."
            ),
        ),
    ]
    return view, notes, msg("Escape from the Hidden Castle: how to read the board")
