"""The 18 Ghosts board: carpets, mirrors, portals with their facing, ghosts, dungeon, escapes."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engines.ghosts18 import board as layout
from engines.ghosts18.words import COLOUR as COLOUR_WORD
from engines.ghosts18.words import DIRECTION
from engines.text import Msg, in_context, joined, msg
from languages import DEFAULT, say
from render import captions, lettering, palette, parts, tokens
from render.alt_ending import told
from render.scene import Scene, painted

CELL = 136
ORIGIN = (60, 110)
COLOUR = {"red": palette.VERMILION, "blue": palette.BLUE, "yellow": palette.YELLOW}
# a ghost's colour as the letter on it, in the reader's language (German's yellow is G)
LETTERS = {
    "red": in_context("ghost colour letter", "R"),
    "blue": in_context("ghost colour letter", "B"),
    "yellow": in_context("ghost colour letter", "Y"),
}


def letter(colour: str, language: str) -> str:
    return say(LETTERS[colour], language)


SHAPES = ("circle", "square")  # Player A round, Player B square
HEIGHT = 860
WIDTH = palette.WIDTH
PANEL_RIGHT = 1170
ROW_WIDTH = PANEL_RIGHT - 20 - 900  # from the first token's centre to the last's, in the panel


def _cell_box(cell: str) -> tuple[int, int, int, int]:
    x = ORIGIN[0] + layout.COLUMNS.index(cell[0]) * CELL
    y = ORIGIN[1] + layout.ROWS.index(cell[1]) * CELL
    return x, y, x + CELL, y + CELL


@lru_cache(maxsize=4)
def _static_board(language: str = DEFAULT) -> Image.Image:
    """Carpets, mirrors and coordinates never change: draw them once."""
    img, draw = palette.canvas(HEIGHT)
    x0, y0 = ORIGIN
    draw.rectangle((x0 - 14, y0 - 14, x0 + 5 * CELL + 14, y0 + 5 * CELL + 14), fill=palette.DARK)
    for cell, kind in layout.CELLS.items():
        box = _cell_box(cell)
        inner = (box[0] + 3, box[1] + 3, box[2] - 3, box[3] - 3)
        if kind in COLOUR:
            draw.rectangle(inner, fill=palette.mix(COLOUR[kind], palette.PAPER, 0.5))
            lettering.text(draw, (box[0] + 10, box[1] + 8), letter(kind, language), 20, palette.INK)
        elif kind == "mirror":
            tile = palette.new_image((inner[2] - inner[0], inner[3] - inner[1]), (200, 200, 200))
            tdraw = palette.drawer(tile)
            for k in range(-CELL, CELL, 28):
                tdraw.line((k, tile.height, k + tile.width, 0), fill=palette.WHITE, width=3)
            img.paste(tile, inner[:2])
            mirror = say(in_context("chamber", "mirror"), language)
            lettering.label(draw, (box[0] + 10, box[1] + 8), mirror, 18, CELL - 20, palette.INK)
        else:
            draw.rectangle(inner, fill=palette.NIGHT)
    for i in range(5):
        lettering.text(
            draw, (x0 + i * CELL + CELL / 2, y0 - 30), layout.COLUMNS[i], 24, palette.INK, "mm"
        )
        lettering.text(
            draw, (x0 - 34, y0 + i * CELL + CELL / 2), layout.ROWS[i], 24, palette.INK, "mm"
        )
    return img


def portal_parts(colour: str, facing: str, language: str = DEFAULT) -> tuple[str, tuple, tuple]:
    """A portal's label ("wall" or its facing), the bar on its open side and the label's
    plate, on the bar's side of the chamber beside the bar (never on it): the word names
    the side the bar marks, so "wall" sits by the wall it faces."""
    box = _cell_box(layout.PORTAL_CELL[colour])
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    dx, dy = layout.DIRECTIONS[facing]
    half = CELL / 2 - 8
    bx, by = cx + dx * half, cy + dy * half
    vertical = (bx - 6, cy - half, bx + 6, cy + half)  # on the left or right side
    bar = vertical if dx else (cx - half, by - 6, cx + half, by + 6)
    word = (
        in_context("portal", "wall")
        if layout.faced_cell(colour, facing) is None
        else DIRECTION[facing]
    )
    label = say(word, language)
    side = min(lettering.text_width(label, 16), PLATE_MAX) / 2 + 5
    if dy:  # a bar along the top or the bottom edge: the plate just inside it
        top = bar[3] + 2 if dy < 0 else bar[1] - 22
        return label, bar, (cx - side, top, cx + side, top + 20)
    # a bar down the left or right edge: the plate at the foot, against the bar
    top = box[3] - 22
    left = bar[2] + 2 if dx < 0 else bar[0] - 2 - 2 * side
    return label, bar, (left, top, left + 2 * side, top + 20)


PLATE_MAX = CELL - 30  # the widest a portal's label may be: inside its chamber


def _portal(draw: ImageDraw.ImageDraw, colour: str, facing: str, language: str) -> None:
    box = _cell_box(layout.PORTAL_CELL[colour])
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    r = CELL * 0.34
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=COLOUR[colour], width=10)
    lettering.text(draw, (cx, cy), letter(colour, language), 30, palette.WHITE, "mm")
    dx, dy = layout.DIRECTIONS[facing]
    # The open side: a bright bar on the side of the chamber it faces, and an arrow; the
    # label, white on a dark plate, on the chamber's edge away from the bar.
    label, bar, plate = portal_parts(colour, facing, language)
    draw.rectangle(bar, fill=COLOUR[colour])
    half = CELL / 2 - 8
    tip = (cx + dx * (half - 14), cy + dy * (half - 14))
    base = (cx + dx * (r + 4), cy + dy * (r + 4))
    draw.line((base, tip), fill=palette.WHITE, width=5)
    draw.rounded_rectangle(plate, 5, fill=palette.NIGHT)
    middle = ((plate[0] + plate[2]) / 2, plate[1] + 10)
    lettering.label(draw, middle, label, 16, PLATE_MAX, palette.WHITE, "mm")


@lru_cache(maxsize=48)  # a chamber, 136 pixels square (18 KB): 12 looks a language, 4 languages
def _portal_part(colour: str, facing: str, language: str) -> Image.Image | None:
    """A portal's chamber with the portal drawn in it, once for each way it faces (`parts`):
    nothing else is drawn on the chamber before it. Drawn afresh, three portals were a fifth
    of a board (~0.4 ms)."""
    box = _cell_box(layout.PORTAL_CELL[colour])
    return parts.cut(_static_board(language), box, _portal, colour, facing, language)


def draw(view: dict, language: str = DEFAULT) -> Image.Image:
    return captions.caption_bar(board(view, language), caption(view, language))


def board(view: dict, language: str = DEFAULT) -> Image.Image:
    """The picture without its caption (a replay writes its own under each board)."""
    return painted(scene(view, language))


def scene(view: dict, language: str = DEFAULT) -> Scene:
    """The board as parts (render/scene.py): the carpets, each portal's chamber, each ghost,
    the heading, each player's panel and the key."""
    out = Scene(WIDTH, HEIGHT)
    out.layer((0, 0), _static_board, language)
    names = view["names"]
    for colour, facing in view["portals"].items():
        box = _cell_box(layout.PORTAL_CELL[colour])
        if _portal_part(colour, facing, language) is not None:
            out.layer(box[:2], _portal_part, colour, facing, language)
        else:  # it drew outside its chamber: drawn directly, over the whole board
            out.add((0, 0, WIDTH, HEIGHT), _portal, colour, facing, language)
    radius = CELL * 0.3
    for cell, (owner, colour) in view["board"].items():
        box = _cell_box(cell)
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 6)
        piece = (centre, radius, SHAPES[owner], COLOUR[colour], letter(colour, language))
        out.add(tokens.reach(centre, radius), _ghost, *piece)
    _header(out, view, language)
    _side_panel(out, view, names, language)
    return out


def _ghost(d: ImageDraw.ImageDraw, centre, radius, shape, fill, label) -> None:
    tokens.token(d, tuple(centre), radius, shape, tuple(fill), label)


def caption(view: dict, language: str = DEFAULT) -> list[str]:
    """What just happened, then whose turn; at the end the engine's "X wins with ..." says
    it all, without "Game over: X wins." after it."""
    winner = view["winner"]
    said = () if winner is None else (view["names"][winner], "wins")
    return captions.footer(
        view.get("last"), _status(view), winner is not None, *said, language=language
    )


def _header(out: Scene, view: dict, language: str) -> None:
    if view["variant"] == "short":
        head = msg("18 Ghosts: any 3 ghosts out")
    else:
        head = msg("18 Ghosts: one of each colour out")
    said = say(head, language)
    lettering.label_part(out, (40, 24), said, 34, PANEL_X - 60, palette.INK, smallest=22)


def row_spacing(n: int) -> tuple[float, float]:
    """(step, radius) for a row of n tokens in the panel: within the panel, and apart by a
    gap that stays visible in an 800-pixel replay (two thirds of this size)."""
    step = min(36.0, ROW_WIDTH / max(1, n - 1))
    return step, min(15.0, step / 2 - 4)


def _status(view: dict) -> Msg:
    names = view["names"]
    if view["winner"] is not None:
        return msg("Game over: {name} wins.", name=names[view["winner"]])
    who = names[view["to_act"][0]]
    if view["phase"] == "place":
        return msg("Set-up: {name} places a ghost.", name=who)
    if view["release"]:
        owner, colour = view["release"]
        return msg(
            "{name} places {owner}'s released {colour} ghost.",
            name=who,
            owner=names[owner],
            colour=COLOUR_WORD[colour],
        )
    return msg("{name} to play.", name=who)


PANEL_X, PANEL_Y, SEAT_H = 790, 100, 224  # the players' panels, one under the other
ROW_Y = (52, 96, 140)  # the rows "out", "dungeon" and "to place", down from a panel's top
# A panel's head (piece, name, and who acts: a plate lit behind it) spans one band of rows
# of the PNG (render/png_bands.BAND_ROWS: 32), rows 96-127 and 320-351: the turn passing
# deflates those two bands again, not the panels' ~14 (PANEL_Y and SEAT_H keep it there).
HEAD = (-4, 28)  # the head's rows, from a panel's top
HEAD_MID = 12  # the head's middle, from a panel's top


ROW_TITLE = 86  # the room for a row's title, left of its first token


def _side_panel(out: Scene, view: dict, names: list[str], language: str) -> None:
    """Each player's panel as parts (the turn, a fight, a placement change only some): its
    frame, its head (who acts: the head lit), each row of ghosts; then the key."""
    x = PANEL_X
    y = PANEL_Y
    letters = tuple(letter(colour, language) for colour in layout.COLOURS)
    for seat in (0, 1):
        rows = (
            (msg("out"), view["escaped"][seat]),
            (msg("dungeon"), view["dungeon"][seat]),
            (msg("to place"), view["unplaced"][seat]),
        )
        won = view["winner"] == seat
        acting = seat in view["to_act"]
        tail = msg("WINS") if won else msg("< to act") if acting else None
        out.stamp((x - 14, y - 14), (PANEL_RIGHT + 15 - x, 215), _seat, won)
        out.add(
            (x - 8, y + HEAD[0], PANEL_RIGHT - 7, y + HEAD[1]),
            _seat_head,
            seat,
            y,
            names[seat],
            "  " + say(tail, language) if tail else "",
            won,
            acting,
        )
        yy = y + ROW_Y[0]
        for title, counts in rows:
            if title == "to place" and view["phase"] != "place":
                continue
            out.add(
                (x - 4, yy - 4, PANEL_RIGHT - 6, yy + 40),
                _seat_row,
                seat,
                yy,
                say(title, language),
                tuple(counts[colour] for colour in layout.COLOURS),
                letters,
            )
            yy += ROW_Y[1] - ROW_Y[0]
        y += SEAT_H
    out.stamp((x - 2, y), (WIDTH - (x - 2), HEIGHT - y), _key, tuple(names), language)


def _seat(d: ImageDraw.ImageDraw, won: bool) -> None:
    """A player's panel: its frame (green once they have won), from the stamp's corner."""
    d.rounded_rectangle(
        (0, 0, PANEL_RIGHT - PANEL_X + 14, 214),
        14,
        fill=palette.seat_fill(won=won, acting=False),
        outline=palette.INK,
        width=4 if won else 2,
    )


def _seat_head(
    d: ImageDraw.ImageDraw, seat: int, y: int, name: str, tail: str, won: bool, acting: bool
) -> None:
    """A panel's head: their piece and name, lit (and "< to act" after the name) while
    they act."""
    x = PANEL_X
    top, bottom = y + HEAD[0], y + HEAD[1]
    if acting or won:
        d.rounded_rectangle(
            (x - 8, top, PANEL_RIGHT - 8, bottom - 1),
            10,
            fill=palette.seat_fill(won=won, acting=acting),
            outline=palette.INK if acting else None,
            width=1,
        )
    mid = y + HEAD_MID
    tokens.token(d, (x + 12, mid), 13, SHAPES[seat], palette.WHITE)
    room = PANEL_RIGHT - 12 - (x + 34)
    size = lettering.shrunk(f"{'AB'[seat]}: {name[:8]}{tail}", 24, room, 18)
    head = f"{'AB'[seat]}: "
    name = lettering.fit(name, size, room - lettering.text_width(head + tail, size))
    label = head + lettering.isolate(name) + tail
    lettering.text(d, (x + 34, mid), label, size, palette.INK, "lm")


def _seat_row(
    d: ImageDraw.ImageDraw, seat: int, yy: int, title: str, counts: tuple, letters: tuple
) -> None:
    """One row of a panel: its title ("out", "dungeon", "to place") and its count of each
    colour, marked with the colour's letter in the reader's language."""
    x = PANEL_X
    lettering.label(d, (x + 4, yy + 18), title, 20, ROW_TITLE, palette.INK, "lm", smallest=11)
    # Up to 9 tokens (all to place): spaced to fit the panel, never past its edge,
    # with a gap between them that stays visible in an 800-pixel replay.
    step, r = row_spacing(sum(counts))
    xx = x + 110
    for colour, mark, count in zip(layout.COLOURS, letters, counts, strict=True):
        for _ in range(count):
            tokens.token(d, (xx, yy + 18), r, SHAPES[seat], COLOUR[colour], mark)
            xx += step


def _key(d: ImageDraw.ImageDraw, names: tuple, language: str) -> None:
    """Who is round and who square, what beats what, what a portal's bar means: the same
    all game (drawn once, `palette.stamp`), from the patch's own corner."""
    x, y = 2, 0
    y = tokens.legend(
        d,
        x,
        y,
        [
            ("circle", "", palette.WHITE, say(msg("round: {name} (A)", name=names[0]), language)),
            ("square", "", palette.WHITE, say(msg("square: {name} (B)", name=names[1]), language)),
            (
                "circle",
                letter("red", language),
                palette.VERMILION,
                say(msg("red beats blue"), language),
            ),
            (
                "circle",
                letter("blue", language),
                palette.BLUE,
                say(msg("blue beats yellow"), language),
            ),
            (
                "circle",
                letter("yellow", language),
                palette.YELLOW,
                say(msg("yellow beats red"), language),
            ),
        ],
        width=WIDTH - 20 - PANEL_X,
    )
    top = PANEL_Y + 2 * SEAT_H  # where the key starts on the board
    lettering.paragraph(
        d,
        (x, y + 6),
        say(
            msg(
                "A portal's bar shows its open side; a ghost of its colour in the chamber it faces escapes."
            ),
            language,
        ),
        18,
        380,
        max_lines=(HEIGHT - 8 - (top + y) - 6) // int(18 * 1.3),
        smallest=13,
    )


def regions(view: dict, actions: list[str]) -> dict[str, tuple[int, int, int, int]]:
    """Where each of these actions can be tapped, with the drawing's own geometry: a
    placement or a step on the chamber it goes to, a mirror jump on the mirror it lands
    on, a release on that colour's ghosts in the releasing player's dungeon row."""
    out: dict[str, tuple[int, int, int, int]] = {}
    for action in actions:
        words = action.split()
        if words[0] == "place" and len(words) == 2:
            out[action] = _cell_box(words[1])
        elif words[0] == "move" and len(words) == 3 and words[2] in layout.DIRECTIONS:
            target = layout.neighbour(words[1], words[2])
            if target is not None:
                out[action] = _cell_box(target)
        elif words[0] == "jump" and len(words) == 3:
            out[action] = _cell_box(words[2])
        elif words[0] == "release" and len(words) == 2 and view["to_act"]:
            box = _dungeon_box(view, view["to_act"][0], words[1])
            if box is not None:
                out[action] = box
    return out


def _dungeon_box(view: dict, seat: int, colour: str) -> tuple[int, int, int, int] | None:
    """The tokens of one colour in a player's dungeon row, as `_side_panel` lays them."""
    counts = view["dungeon"][seat]
    if not counts.get(colour):
        return None
    step, r = row_spacing(sum(counts.values()))
    before = sum(counts[c] for c in layout.COLOURS[: layout.COLOURS.index(colour)])
    x = PANEL_X + 110 + before * step
    y = PANEL_Y + seat * SEAT_H + ROW_Y[1] + 18
    last = x + (counts[colour] - 1) * step
    return int(x - r - 4), int(y - r - 4), int(last + r + 4), int(y + r + 4)


def describe(view: dict, language: str = DEFAULT) -> str:
    """Alt text: the whole position in words, for players who cannot see the picture."""
    names = view["names"]
    none = in_context("ghosts", "none")
    if view["variant"] == "short":
        head = msg("18 Ghosts, short game. {status}", status=_status(view))
    else:
        head = msg("18 Ghosts, standard game. {status}", status=_status(view))
    parts = [head]

    def counted(counts: dict) -> object:
        said = [
            msg("{count} {colour}", count=n, colour=COLOUR_WORD[c]) for c, n in counts.items() if n
        ]
        return joined(said) if said else none

    for seat in (0, 1):
        ghosts = [
            msg("{colour} {cell}", colour=COLOUR_WORD[c], cell=cell)
            for cell, (o, c) in view["board"].items()
            if o == seat
        ]
        said = dict(
            name=names[seat],
            ghosts=joined(ghosts) if ghosts else none,
            out=counted(view["escaped"][seat]),
            jail=counted(view["dungeon"][seat]),
        )
        if seat == 0:
            parts.append(
                msg(
                    "{name} (round): on the board {ghosts}; escaped {out}; in the dungeon {jail}.",
                    **said,
                )
            )
        else:
            parts.append(
                msg(
                    "{name} (square): on the board {ghosts}; escaped {out}; in the dungeon {jail}.",
                    **said,
                )
            )
    portals = []
    for c, f in view["portals"].items():
        said = dict(colour=COLOUR_WORD[c], cell=layout.PORTAL_CELL[c], facing=DIRECTION[f])
        if layout.faced_cell(c, f):
            portals.append(msg("{colour} portal at {cell} faces {facing}", **said))
        else:
            portals.append(msg("{colour} portal at {cell} faces {facing} (the wall)", **said))
    parts.append(msg("Portals: {portals}.", portals=joined(portals, "; ")))
    return told(parts, view, language)


# ----- the rules picture ---------------------------------------------------------------
def illustration() -> tuple[dict, list, Msg]:
    """A game under way, with notes on the portals, the ghosts, mirrors, fights, the
    dungeon and the goal (render/rules.py draws them)."""
    from render.rules import best_view

    def shows(view: dict) -> float:  # a busy board, ghosts in a dungeon, none out yet
        if view["phase"] != "play" or any(sum(c.values()) for c in view["escaped"]):
            return -1
        return min(2, sum(view["dungeon"][0].values())) * 100 + len(view["board"])

    view = best_view("ghosts18", 2, 7, ["Ann", "Bob"], shows)
    ghost = next(cell for cell, (owner, _) in sorted(view["board"].items()) if owner == 0)
    legend_y = PANEL_Y + 2 * SEAT_H

    def corner(cell: str) -> tuple[float, float]:
        box = _cell_box(cell)
        return box[2] - 20, box[1] + 20

    left = PANEL_X - 18  # marks left of the side panel, clear of its words
    notes = [
        (
            corner(layout.PORTAL_CELL["yellow"]),
            msg(
                "A portal: its bar is the open side. A ghost of the "
                "portal's colour standing in the chamber the bar faces escapes at once and is out "
                "for good. Facing the castle wall, nobody can escape there."
            ),
        ),
        (
            corner(ghost),
            msg(
                "A ghost: round ones are Ann's (A), square ones Bob's (B); the letter "
                "is its colour. A turn: step one chamber up, down, left or right, whatever the "
                "carpet (at set-up each ghost goes on a carpet of its own colour)."
            ),
        ),
        (corner("b2"), msg("Mirror chambers: a ghost on one may jump to any other empty mirror.")),
        (
            (left, legend_y + 82),
            msg(
                "Stepping onto a ghost of another colour is a fight: red "
                "beats blue, blue beats yellow, yellow beats red. The loser goes to its owner's "
                "dungeon, and the portal of its colour turns a quarter clockwise."
            ),
        ),
        (
            (left, PANEL_Y + ROW_Y[1] + 18),
            msg(
                "The dungeon: beaten ghosts. Instead of moving "
                "you may release one; your opponent puts it back on a carpet of its colour."
            ),
        ),
        (
            (left, PANEL_Y + ROW_Y[0] + 18),
            msg(
                "Out: escaped ghosts. The first with a red, a "
                "blue and a yellow ghost out wins (variant=short: any three)."
            ),
        ),
    ]
    return view, notes, msg("18 Ghosts: how to read the board")
