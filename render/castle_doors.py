"""The Castle Doors board: coloured door tiles and their state, passages, characters, cards.

Every tile carries its colour's letter (R, B, G, Y) and its name (c4) as well as its colour,
and every state is written in words on the tile, so nothing is told by hue alone.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.castle_doors.words import CARD as CARD_NAME
from engines.castle_doors.words import EDGE
from engines.text import Msg, in_context, joined, msg, plural
from languages import DEFAULT, say
from render import captions, lettering, palette, tokens
from render.castle_doors_alt import FAR, status
from render.castle_doors_alt import describe as describe  # the alt text, as every renderer offers
from render.castle_doors_alt import own_words as own_words  # a hand, told to its owner
from render.scene import Scene, image_of, painted

COLOUR = {
    "red": palette.VERMILION,
    "blue": palette.BLUE,
    "green": palette.GREEN,
    "yellow": palette.YELLOW,
}
LETTER = {"red": "R", "blue": "B", "green": "G", "yellow": "Y"}
KIND_LABEL = {  # a tile's state, in capitals on the tile
    "open door": in_context("tile label", "OPEN"),
    "barred door": in_context("tile label", "BARRED"),
    "extra key": in_context("tile label", "+KEY"),
    "extra turn": in_context("tile label", "+TURN"),
}
KIND_SHUT = {  # a tile shut again: what it showed when it was open ("shut (open)" puzzled)
    "open door": in_context("tile label", "shut: door"),
    "barred door": in_context("tile label", "shut: barred"),
    "extra key": in_context("tile label", "shut: +key"),
    "extra turn": in_context("tile label", "shut: +turn"),
}
CARD_LABEL = {  # a card's face in the hand
    "key red": in_context("card face", "R key"),
    "key blue": in_context("card face", "B key"),
    "key green": in_context("card face", "G key"),
    "key yellow": in_context("card face", "Y key"),
    "skeleton": in_context("card face", "Skeleton"),
    "padlock": in_context("card face", "Padlock"),
    "passage": in_context("card face", "Passage"),
    "hacksaw": in_context("card face", "Hacksaw"),
    "net": in_context("card face", "Net"),
}
PANEL_X = 790
MARGIN = 74  # room outside each edge for waiting characters
LETTER_BOTTOM = 26  # the tile's letter and name sit above this line, its state below
STATE_TOP = 22  # the state line's top, up from the tile's bottom
RING = 4  # the white ring around a character
TOP = 64  # title band
HEIGHT = 930


def _geometry(view: dict) -> tuple[int, int, int]:
    """Cell size and the board's top-left corner, centred in the left part of the picture."""
    w, h = view["width"], view["height"]
    cell = min((PANEL_X - 2 * MARGIN - 20) // w, (HEIGHT - TOP - 2 * MARGIN) // h)
    x0 = (PANEL_X - w * cell) // 2
    y0 = TOP + MARGIN + (HEIGHT - TOP - 2 * MARGIN - h * cell) // 2
    return cell, x0, y0


def _xy(cell_name: str) -> tuple[int, int]:
    return "abcdefgh".index(cell_name[0]), int(cell_name[1:]) - 1


def _box(view: dict, cell_name: str) -> tuple[int, int, int, int]:
    cell, x0, y0 = _geometry(view)
    x, y = _xy(cell_name)
    top = y0 + (view["height"] - 1 - y) * cell
    left = x0 + x * cell
    return left, top, left + cell, top + cell


def _centre(view: dict, cell_name: str) -> tuple[float, float]:
    b = _box(view, cell_name)
    return (b[0] + b[2]) / 2, (b[1] + b[3]) / 2


def _ink_on(fill: tuple) -> tuple:
    return palette.INK if sum(fill[:3]) > 380 else palette.WHITE


def _title(d: ImageDraw.ImageDraw, language: str) -> None:
    title = say(msg("Castle Doors: first across to an open far door wins"), language)
    lettering.label(d, (30, 18), title, 30, palette.WIDTH - 60, palette.INK, smallest=20)


def _tile(d: ImageDraw.ImageDraw, view: dict, name: str, t: dict, language: str) -> None:
    left, top, right, bottom = _box(view, name)
    size = right - left
    colour = COLOUR.get(t["colour"], palette.GREY)
    inner = (left + 3, top + 3, right - 3, bottom - 3)
    face_up = t["open"]
    fill = palette.mix(colour, palette.PAPER, 0.55) if face_up else colour
    d.rectangle(inner, fill=fill, outline=palette.INK, width=2)
    ink = _ink_on(fill)
    # The door itself: a closed leaf, or a dark doorway.
    door = (left + size * 0.3, top + size * 0.26, right - size * 0.3, bottom - size * 0.2)
    if face_up:
        d.rectangle(door, fill=palette.NIGHT)
        if t["kind"] == "barred door":
            span = door[2] - door[0]
            for i in range(1, 4):
                bx = door[0] + span * i / 4
                if t["sawn"]:  # cut bars: a gap in the middle
                    mid = (door[1] + door[3]) / 2
                    d.line((bx, door[1], bx, mid - 8), fill=palette.GREY, width=4)
                    d.line((bx, mid + 8, bx, door[3]), fill=palette.GREY, width=4)
                else:
                    d.line((bx, door[1], bx, door[3]), fill=palette.WHITE, width=4)
    else:
        d.rectangle(door, fill=palette.mix(colour, palette.INK, 0.35), outline=ink, width=2)
        kx, ky = door[2] - size * 0.08, (door[1] + door[3]) / 2
        d.ellipse((kx - 4, ky - 4, kx + 4, ky + 4), fill=ink)
    if t["lock"]:
        _padlock(d, (left + right) / 2, (top + bottom) / 2, size, language)


def _tile_key(t: dict) -> tuple:
    return t["colour"], t["open"], t["kind"], t["sawn"], t["lock"]


@lru_cache(maxsize=512)
def _tile_patch(
    width: int, height: int, name: str, key: tuple, language: str = DEFAULT
) -> tuple[Image.Image, tuple]:
    """A tile with its door and words, drawn where it stands on a scratch board (so its text
    falls on the same sub-pixels), cut out at the tile's own outline."""
    view = {"width": width, "height": height}
    colour, face_up, kind, sawn, lock = key
    t = {"colour": colour, "open": face_up, "kind": kind, "sawn": sawn, "lock": lock}
    left, top, right, bottom = _box(view, name)
    scratch, d = palette.canvas(bottom + 1, right + 1)
    _tile(d, view, name, t, language)
    _labels(d, view, name, t, 0, language)
    inner = (left + 3, top + 3, right - 2, bottom - 2)
    return scratch.crop(inner), inner[:2]


def _state_label(t: dict) -> Msg | str:
    if t["open"]:
        return in_context("tile label", "SAWN") if t["sawn"] else KIND_LABEL.get(t["kind"], "")
    return KIND_SHUT[t["kind"]] if t["kind"] else in_context("tile label", "shut")


def _labels(
    d: ImageDraw.ImageDraw, view: dict, name: str, t: dict, net: int, language: str
) -> None:
    """Letter, name and state in words on every tile, so colour is never needed; drawn
    over passages and nets so they stay legible."""
    left, top, right, bottom = _box(view, name)
    colour = COLOUR.get(t["colour"], palette.GREY)
    fill = palette.mix(colour, palette.PAPER, 0.55) if t["open"] else colour
    ink = _ink_on(fill)
    d.rectangle((left + 5, top + 5, left + 24, top + LETTER_BOTTOM), fill=fill)
    lettering.text(d, (left + 8, top + 6), LETTER.get(t["colour"], "?"), 19, ink)
    width = lettering.text_width(name, 18)
    d.rectangle((right - 10 - width, top + 5, right - 5, top + 26), fill=fill)
    lettering.text(d, (right - 8, top + 6), name, 18, ink, "ra")
    label = say(_state_label(t), language)
    if net:  # the net's tag takes the place of the state line, in a white box
        label = say(msg("NET {count}: {state}", count=net, state=_state_label(t)), language)
        fill, ink = palette.WHITE, palette.INK
    room = right - left - 10  # inside the tile's frame, the plate's margin included
    size = lettering.shrunk(label, 16, room, 8)
    label = lettering.fit(label, size, room)
    half = lettering.text_width(label, size) / 2 + 2
    cx = (left + right) / 2
    d.rectangle(
        (cx - half, bottom - STATE_TOP, cx + half, bottom - 3),
        fill=fill,
        outline=palette.INK if net else None,
    )
    lettering.text(d, (cx, bottom - 13), label, size, ink, "mm")


def _used(d: ImageDraw.ImageDraw, view: dict, name: str, seats: list[int]) -> None:
    """Who has spent this bonus tile: small tokens down its sides, two a side."""
    left, top, right, _ = _box(view, name)
    for i, seat in enumerate(seats):
        centre = (left + 12 if i < 2 else right - 12, top + 40 + (i % 2) * 17)
        d.ellipse((centre[0] - 8, centre[1] - 8, centre[0] + 8, centre[1] + 8), fill=palette.WHITE)
        tokens.player_token(d, centre, 6, seat)


def _padlock(d: ImageDraw.ImageDraw, cx: float, cy: float, size: int, language: str) -> None:
    w = size * 0.25
    d.arc(
        (cx - w * 0.7, cy - w * 1.5, cx + w * 0.7, cy - w * 0.1),
        180,
        360,
        fill=palette.INK,
        width=5,
    )
    d.rectangle(
        (cx - w, cy - w * 0.8, cx + w, cy + w * 0.7),
        fill=palette.ORANGE,
        outline=palette.INK,
        width=3,
    )
    lettering.label(
        d,
        (cx, cy - w * 0.05),
        say(msg("LOCK"), language),
        14,
        2 * w - 4,
        palette.INK,
        "mm",
        smallest=8,
    )


def _net(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, name: str) -> None:
    left, top, right, bottom = _box(view, name)
    size = right - left
    mask = Image.new("L", (size - 6, size - 6), 0)
    md = ImageDraw.Draw(mask)
    for k in range(0, 2 * size, 16):  # a diagonal mesh, clipped to the tile
        md.line((k, 0, k - size, size), fill=255, width=2)
        md.line((k - size, 0, k, size), fill=255, width=2)
    img.paste(palette.index(palette.DARK), (left + 3, top + 3), mask)
    d.rectangle((left + 3, top + 3, right - 3, bottom - 3), outline=palette.INK, width=3)


def _passage(d: ImageDraw.ImageDraw, view: dict, a: str, b: str) -> None:
    middle = passage_line(d, _centre(view, a), _centre(view, b), 0.35)
    tokens.token(d, middle, 13, "diamond", palette.PURPLE, "P")


def passage_line(
    d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], reach: float
) -> tuple[float, float]:
    """A secret passage between the tiles centred at `a` and `b` (the wide board and the
    narrow one): a thick purple line from one door to the other, across the corner they
    share, `reach` of the way from each centre to the middle, with a ring at each end.
    Its middle."""
    (ax, ay), (bx, by) = a, b
    mx, my = (ax + bx) / 2, (ay + by) / 2
    pa = (ax + (mx - ax) * reach, ay + (my - ay) * reach)
    pb = (bx + (mx - bx) * reach, by + (my - by) * reach)
    d.line((*pa, *pb), fill=palette.WHITE, width=14)
    d.line((*pa, *pb), fill=palette.PURPLE, width=8)
    for x, y in (pa, pb):
        d.ellipse((x - 7, y - 7, x + 7, y + 7), fill=palette.PURPLE, outline=palette.WHITE, width=2)
    return mx, my


WAIT = 34  # a waiting character's centre, in from the far end of its band


def character_spot(view: dict, seat: int) -> tuple[tuple[float, float], float]:
    """A character's centre and radius (its white ring is RING wider). On a tile: between
    the tile's letter and name above and its state below, covering neither. Outside: at
    the end of its band away from the label."""
    where = view["at"][seat]
    if not where:
        return _edge_spot(view, view["edges"][seat]), 22
    cell = _geometry(view)[0]
    left, top, right, bottom = _box(view, where)
    free_top, free_bottom = top + LETTER_BOTTOM + 2, bottom - STATE_TOP - 2
    centre = ((left + right) / 2, (free_top + free_bottom) / 2)
    return centre, min(cell * 0.31, (free_bottom - free_top) / 2) - RING


def band_label(view: dict, seat: int, language: str = DEFAULT) -> tuple[str, float]:
    """The text on a player's band ("1 Ann: starts here", the name cut to fit) and the
    length it may take from the band's start, short of the waiting character."""
    band = _band(view, view["edges"][seat])
    length = (
        (band[2] - band[0]) if view["edges"][seat] in ("bottom", "top") else (band[3] - band[1])
    )
    room = length - 20 - 2 * WAIT - 6
    number, tail = f"{seat + 1} ", say(msg(": starts here"), language)
    name = lettering.isolate(
        lettering.fit(view["names"][seat], 18, room - lettering.text_width(number + tail, 18))
    )
    return lettering.fit(number + name + tail, 18, room), room


def _edge_spot(view: dict, edge: str) -> tuple[float, float]:
    """Where a character waits outside: at the end of its band that its label does not
    reach (the label starts at the other end)."""
    band = _band(view, edge)
    mid_x, mid_y = (band[0] + band[2]) / 2, (band[1] + band[3]) / 2
    return {
        "bottom": (band[2] - WAIT, mid_y),
        "top": (band[2] - WAIT, mid_y),
        "left": (mid_x, band[1] + WAIT),  # the label reads upwards from the bottom
        "right": (mid_x, band[3] - WAIT),  # the label reads downwards from the top
    }[edge]


def _band(view: dict, edge: str) -> tuple[float, float, float, float]:
    cell, x0, y0 = _geometry(view)
    w, h = view["width"] * cell, view["height"] * cell
    return {
        "bottom": (x0, y0 + h + 14, x0 + w, y0 + h + MARGIN - 4),
        "top": (x0, y0 - MARGIN + 4, x0 + w, y0 - 14),
        "left": (x0 - MARGIN + 4, y0, x0 - 14, y0 + h),
        "right": (x0 + w + 14, y0, x0 + w + MARGIN - 4, y0 + h),
    }[edge]


def draw(view: dict, language: str = DEFAULT) -> Image.Image:
    return captions.caption_bar(board(view, language), caption(view, language))


def caption(view: dict, language: str = DEFAULT) -> list[str]:
    """What just happened, then whose turn; at the end the engine's announcement of the
    winner says it all, without "Game over: X wins." after it."""
    winner = view["winner"]
    said = () if winner is None else (view["names"][winner], "win")
    return captions.footer(
        view.get("last"), status(view), winner is not None, *said, language=language
    )


def board(view: dict, language: str = DEFAULT) -> Image.Image:
    """The picture without its caption (a replay writes its own under each board)."""
    return painted(scene(view, language))


def scene(view: dict, language: str = DEFAULT) -> Scene:
    """The board as parts (render/scene.py): the title, the walls, each player's edge, each
    tile (a tile no passage or net crosses pasted whole from a cache), each passage and net,
    the marked tiles, each character, the bonus tokens, and the panel."""
    out = Scene(palette.WIDTH, HEIGHT)
    cell, x0, y0 = _geometry(view)
    w, h = view["width"] * cell, view["height"] * cell
    grid = (view["width"], view["height"])
    out.stamp((0, 0), (palette.WIDTH, TOP - 8), _title, language)
    # The walls and the players' edges.
    out.fill((x0 - 10, y0 - 10, x0 + w + 11, y0 + h + 11), palette.DARK)
    for seat, edge in enumerate(view["edges"]):
        band = _band(view, edge)
        label, room = band_label(view, seat, language)
        out.add(_whole(band), _edge_band, seat, edge, band, label, room)
    nets = {where: n for where, n in zip(view["at"], view["netted"], strict=True) if where and n}
    # A tile that no passage or net crosses is pasted whole (door and words) from a cache:
    # tiles change seldom, and drawing them is most of the picture's cost.
    crossed = set(nets)
    for a, b in view["passages"]:
        crossed |= {f"{col}{row}" for col in (a[0], b[0]) for row in (a[1:], b[1:])}
    for name, t in view["tiles"].items():
        if name in crossed:
            out.add(_tile_box(view, name), _tile_drawn, *grid, name, _tile_key(t), language)
        else:
            left, top, _, _ = _box(view, name)
            out.layer((left + 3, top + 3), _tile_image, *grid, name, _tile_key(t), language)
    for a, b in view["passages"]:
        (ax, ay), (bx, by) = _centre(view, a), _centre(view, b)
        far = (min(ax, bx) - 10, min(ay, by) - 10, max(ax, bx) + 11, max(ay, by) + 11)
        out.add(_whole(far), _passage_drawn, *grid, a, b)
    for where in nets:
        out.add(_tile_box(view, where), _net_drawn, *grid, where)
    for name, t in view["tiles"].items():
        if name in crossed:
            key = _tile_key(t)
            out.add(
                _tile_box(view, name), _labels_drawn, *grid, name, key, nets.get(name, 0), language
            )
    for marked in (view.get("reveal"), view.get("first_end")):
        if marked:  # the tile turning over, or a passage's chosen first end
            left, top, right, bottom = _box(view, marked)
            out.add((left - 2, top - 2, right + 3, bottom + 3), _mark, left, top, right, bottom)
    for seat in range(len(view["at"])):
        centre, r = character_spot(view, seat)
        out.add(tokens.reach(centre, r + RING), _character, seat, centre, r)
    for name, t in view["tiles"].items():  # over the characters, so never hidden
        if t["used"]:
            out.add(_tile_box(view, name), _used_drawn, *grid, name, tuple(t["used"]))
    _panel(out, view, language)
    return out


def _whole(box) -> tuple[int, int, int, int]:
    """The whole pixels a shape drawn at `box` (corners included) may paint."""
    return (
        math.floor(box[0]) - 1,
        math.floor(box[1]) - 1,
        math.ceil(box[2]) + 2,
        math.ceil(box[3]) + 2,
    )


def _tile_box(view: dict, name: str) -> tuple[int, int, int, int]:
    left, top, right, bottom = _box(view, name)
    return left, top, right + 1, bottom + 1


def _tile_view(width: int, height: int, name: str, key: tuple) -> tuple[dict, dict]:
    colour, face_up, kind, sawn, lock = key
    return {"width": width, "height": height}, {
        "colour": colour,
        "open": face_up,
        "kind": kind,
        "sawn": sawn,
        "lock": lock,
    }


def _tile_image(width: int, height: int, name: str, key: tuple, language: str) -> Image.Image:
    return _tile_patch(width, height, name, tuple(key), language)[0]


def _tile_drawn(d, width: int, height: int, name: str, key: tuple, language: str) -> None:
    view, t = _tile_view(width, height, name, key)
    _tile(d, view, name, t, language)


def _labels_drawn(d, width, height, name: str, key: tuple, net: int, language: str) -> None:
    view, t = _tile_view(width, height, name, key)
    _labels(d, view, name, t, net, language)


def _passage_drawn(d, width: int, height: int, a: str, b: str) -> None:
    _passage(d, {"width": width, "height": height}, a, b)


def _net_drawn(d, width: int, height: int, name: str) -> None:
    _net(image_of(d), d, {"width": width, "height": height}, name)


def _used_drawn(d, width: int, height: int, name: str, seats: tuple) -> None:
    _used(d, {"width": width, "height": height}, name, list(seats))


def _mark(d, left: int, top: int, right: int, bottom: int) -> None:
    d.rectangle((left - 2, top - 2, right + 2, bottom + 2), outline=palette.INK, width=4)
    d.rectangle((left + 2, top + 2, right - 2, bottom - 2), outline=palette.HIGHLIGHT, width=5)
    d.rectangle((left + 7, top + 7, right - 7, bottom - 7), outline=palette.INK, width=2)


def _character(d, seat: int, centre, r: float) -> None:
    d.ellipse(
        (
            centre[0] - r - RING,
            centre[1] - r - RING,
            centre[0] + r + RING,
            centre[1] + r + RING,
        ),
        fill=palette.WHITE,
        outline=palette.INK,
        width=2,
    )
    tokens.player_token(d, tuple(centre), r, seat, str(seat + 1))


def _edge_band(d, seat: int, edge: str, band, label: str, room: float) -> None:
    img = image_of(d)
    fill = palette.mix(palette.PLAYER_COLOURS[seat], palette.PAPER, 0.6)
    d.rounded_rectangle(band, 10, fill=fill, outline=palette.INK, width=1)
    # The label runs from one end; the waiting character stands at the other (_edge_spot).
    if edge in ("bottom", "top"):
        lettering.text(d, (band[0] + 10, (band[1] + band[3]) / 2), label, 18, palette.INK, "lm")
    else:  # a side band: the label runs along it, rotated
        strip = palette.new_image((int(room), 26), fill)
        lettering.text(palette.drawer(strip), (0, 13), label, 18, palette.INK, "lm")
        strip = strip.transpose(
            Image.Transpose.ROTATE_90 if edge == "left" else Image.Transpose.ROTATE_270
        )
        sx = int((band[0] + band[2]) / 2 - strip.width / 2)
        sy = int(band[1] + 10) if edge == "right" else int(band[3] - 10 - strip.height)
        img.paste(strip, (sx, sy))


def _panel(out: Scene, view: dict, language: str) -> None:
    x, y = PANEL_X + 10, 70
    names = view["names"]
    for seat, edge in enumerate(view["edges"]):
        acting = seat == view["turn"] and view["winner"] is None
        parts, box = _seat_lines(view, seat)
        said = msg("({edge} edge)", edge=EDGE[edge])
        if acting:
            said = msg("{edge}  < turn", edge=said)
        told = say(joined(parts), language)
        out.stamp((x - 10, y), (1196 - x, box + 1), _seat, box)
        out.add(
            (x - 6, y + 4, 1182, y + 41),
            _seat_head,
            seat,
            y,
            acting,
            names[seat],
            " " + say(said, language),
        )
        out.add((x + 4, y + 41, 1182, y + box - 1), _seat_told, y, told)
        y += box + 8
    piles = msg(
        "Draw pile: {deck}   Discards: {discard}", deck=view["deck"], discard=view["discard"]
    )
    lettering.label_part(
        out, (x, y + 6), say(piles, language), 20, 1185 - x, palette.INK, smallest=13
    )
    if view.get("discard_top"):
        top = msg("Top discard: {card}", card=CARD_NAME[view["discard_top"]])
        lettering.label_part(
            out, (x, y + 32), say(top, language), 18, 1185 - x, palette.DARK, smallest=12
        )
    y += 64
    if "hand" in view:
        mine = say(msg("Your hand ({name})", name=names[view["viewer"]]), language)
        lettering.text_part(out, (x, y), lettering.fit(mine, 20, 380), 20, palette.INK)
        y += 28
        chosen = view["hand"].index(view["card"]) if view.get("card") in view["hand"] else -1
        for i, card in enumerate(view["hand"]):
            cx, cy = x + (i % 4) * 94, y + (i // 4) * 58
            out.add((cx - 1, cy - 1, cx + 88, cy + 52), _card, cx, cy, card, i == chosen, language)
        y += 58 * ((len(view["hand"]) + 3) // 4) + 6
        said = choosing(view)
        if said is not None:
            y = lettering.paragraph_part(out, (x, y), say(said, language), 17, 370)
    out.stamp((x, y + 4), (1185 - x + 2, 7 * 21 + 4), _legend, 0, 0, language, 1185 - x)


def _seat(d, box: int) -> None:
    """A player's box in the panel (parts on it: `_seat_head`, `_seat_told`), from the
    stamp's corner."""
    d.rounded_rectangle(
        (0, 0, 1185 - PANEL_X, box), 12, fill=palette.PANEL, outline=palette.INK, width=2
    )


def _seat_head(d, seat: int, y: int, acting: bool, name: str, tail: str) -> None:
    """A player's piece, name and edge, lit while it is their turn (a plate of 36 rows,
    not the whole box: the turn passing deflates two bands of the PNG again, not four)."""
    x = PANEL_X + 10
    if acting:
        d.rounded_rectangle(
            (x - 6, y + 4, 1181, y + 40), 10, fill=palette.HIGHLIGHT, outline=palette.INK, width=1
        )
    tokens.player_token(d, (x + 16, y + 22), 14, seat, str(seat + 1))
    size = lettering.shrunk(name[:10] + tail, 20, 340, 14)
    head = (
        lettering.isolate(lettering.fit(name, size, 340 - lettering.text_width(tail, size))) + tail
    )
    lettering.text(d, (x + 40, y + 22), head, size, palette.INK, "lm")


def _seat_told(d, y: int, told: str) -> None:
    """Where a player is, their cards and what else holds them."""
    x = PANEL_X + 10
    lettering.paragraph(d, (x + 8, y + 42), told, 17, 360, max_lines=2, smallest=12)


SEAT_BOX = 52 + 22 * 2  # a player's box in the panel: the name, then two lines


def _seat_lines(view: dict, seat: int) -> tuple[list[Msg], int]:
    """What the panel says of a player, and the height of their box (the same in every
    language, so that the cards under it are where `regions` says)."""
    at = view["at"][seat]
    parts = [msg("on {cell}", cell=at) if at else msg("outside the castle")]
    parts.append(plural("{count} card", "{count} cards", view["hand_sizes"][seat]))
    if view["netted"][seat]:
        parts.append(msg("NETTED {count} turn(s)", count=view["netted"][seat]))
    used = sorted(n for n, t in view["tiles"].items() if seat in t["used"])
    if used:
        parts.append(msg("bonus used {cells}", cells=" ".join(used)))
    return parts, SEAT_BOX


def _card_boxes(view: dict) -> list[tuple[int, int, int, int]]:
    """Where `_panel` draws each card of the viewer's hand."""
    y = 70 + sum(_seat_lines(view, seat)[1] + 8 for seat in range(len(view["edges"])))
    y += 64 + 28
    x = PANEL_X + 10
    return [
        (x + (i % 4) * 94, y + (i // 4) * 58, x + (i % 4) * 94 + 86, y + (i // 4) * 58 + 50)
        for i in range(len(view.get("hand", [])))
    ]


def regions(view: dict, actions: list[str]) -> dict[str, tuple[int, int, int, int]]:
    """Where each of these actions can be tapped: a target on its tile, a card played or
    discarded on that card of the viewer's hand (with the geometry `_panel` draws)."""
    out: dict[str, tuple[int, int, int, int]] = {}
    hand = view.get("hand") or []
    boxes = _card_boxes(view) if hand else []
    for action in actions:
        verb, _, rest = action.partition(" ")
        if verb == "target" and rest in view["tiles"]:
            out[action] = _box(view, rest)
        elif verb in ("play", "discard") and rest in hand:
            out[action] = boxes[hand.index(rest)]
    return out


def _card(d: ImageDraw.ImageDraw, x: int, y: int, card: str, chosen: bool, language: str) -> None:
    colour = card.split()[1] if card.startswith("key ") else ""
    fill = COLOUR[colour] if colour else palette.WHITE
    d.rounded_rectangle(
        (x, y, x + 86, y + 50),
        8,
        fill=fill,
        outline=palette.HIGHLIGHT if chosen else palette.INK,
        width=5 if chosen else 2,
    )
    face = say(CARD_LABEL[card], language)
    lettering.label(d, (x + 43, y + 25), face, 17, 86 - 12, _ink_on(fill), "mm", smallest=9)


def _legend(d: ImageDraw.ImageDraw, x: int, y: int, language: str, room: int) -> None:
    lines = [
        msg("Letter = colour: R red, B blue, G green, Y yellow."),
        msg("Solid, door leaf: shut (shut: what it hides). Pale: open."),
        msg("OPEN: pass. BARRED: no way. SAWN: open for good."),
        msg("+KEY / +TURN: bonus tiles; tokens: who used them."),
        msg("LOCK: padlocked, no way. NET n: n turns trapped."),
        msg("Purple P line: secret passage (a diagonal step)."),
        msg("Row 1 at the bottom; up/down/left/right as drawn."),
    ]
    for line in lines:  # one line each, at a size that fits the panel
        lettering.label(d, (x, y), say(line, language), 16, room, palette.DARK, smallest=10)
        y += 21


# ----- the rules picture ---------------------------------------------------------------
def illustration() -> tuple[dict, list, Msg]:
    """A castle under way with shut and open doors, a barred door, a bonus tile, a padlock
    and a secret passage where the seeded game has them, each with a note."""
    from render.rules import best_view

    def tiles(view: dict, test) -> list[str]:
        return sorted(name for name, t in view["tiles"].items() if test(t))

    checks = (
        lambda t: not t["open"],
        lambda t: t["open"] and t["kind"] == "open door",
        lambda t: t["kind"] == "barred door" and t["open"],
        lambda t: t["kind"] in ("extra key", "extra turn") and t["open"],
        lambda t: t["lock"],
    )

    def shows(view: dict) -> float:  # every kind of tile at once, a passage, nobody won
        if view["winner"] is not None:
            return -1
        kinds = sum(bool(tiles(view, check)) for check in checks)
        return kinds * 10 + min(1, len(view["passages"])) * 10 + sum(bool(a) for a in view["at"])

    view = best_view("castle_doors", 3, 4, ["Ann", "Bob", "Cy"], shows)
    cell = _geometry(view)[0]

    def on(name: str) -> tuple[float, float]:  # the tile's right edge, clear of its words
        _, top, right, bottom = _box(view, name)
        return right - 4, (top + bottom) / 2 - cell * 0.08

    band = _band(view, view["edges"][0])
    notes = [
        (
            (band[0] - 16, (band[1] + band[3]) / 2),
            msg(
                "Ann starts outside this edge. The first "
                "to step onto an open door in the far row (the {far} row for Ann) wins.",
                far=EDGE[FAR[view["edges"][0]]],
            ),
        ),
    ]
    said = [
        msg(
            "A shut door (solid colour, door leaf): nobody crosses it. A key of its colour or a "
            "skeleton key opens it, and only then is it seen what it hides."
        ),
        msg(
            "An open door (pale, dark doorway): a turn's move is one step up, down, left or "
            "right onto a free open door (or `enter` from your edge, `stay`)."
        ),
        msg("BARRED: never crossed, unless a hacksaw cuts it (SAWN, open for good)."),
        msg(
            "+KEY and +TURN: stepping onto one gives one more door to open or close, or a "
            "whole extra turn (once for each player: tokens mark who used it)."
        ),
        msg(
            "LOCK: a padlock; nobody crosses, opens or closes it until a skeleton key takes it off."
        ),
    ]
    taken = {a for a in view["at"] if a} | {c for pair in view["passages"] for c in pair}
    marked: list[tuple[float, float]] = []

    def apart(name: str) -> float:  # how far a mark on this tile is from the marks so far
        x, y = on(name)
        return min((abs(x - mx) + abs(y - my) for mx, my in marked), default=0)

    for k, (check, text) in enumerate(zip(checks, said, strict=True)):
        found = [n for n in tiles(view, check) if n not in taken]
        if k < 4:  # a shut, open, barred or bonus tile: one without a padlock, if any
            found = [n for n in found if not view["tiles"][n]["lock"]] or found
        if not found:
            notes.append((None, text))
            continue
        pick = max(found, key=apart)  # the furthest, so that no mark hides another
        taken.add(pick)
        marked.append(on(pick))
        notes.append((on(pick), text))
    if view["passages"]:  # the passage furthest from the characters and the marks
        marked += [_centre(view, a) for a in view["at"] if a]
        ends = []  # beside the door of one end (the corner between the tiles holds words)
        for a, _ in view["passages"]:
            ax, ay = _centre(view, a)
            ends.append((ax + cell * 0.25, ay))
        spot = max(ends, key=lambda m: min(abs(m[0] - x) + abs(m[1] - y) for x, y in marked))
        notes.append(
            (
                spot,
                msg(
                    "A secret passage joins two diagonal tiles for everyone: step "
                    "along it when both doors are open."
                ),
            )
        )
    notes.append(
        (
            (PANEL_X - 26, 92),
            msg(
                "A turn: draw up to 4 cards, play one (keys, skeleton "
                "keys, padlocks, passages, hacksaws, nets) or throw one away, then move."
            ),
        )
    )
    return view, notes, msg("Castle Doors: how to read the board")


def choosing(view: dict) -> Msg | None:
    """What the viewer is choosing a target for (the card played, and the first end of a
    passage once chosen), or None."""
    if not view.get("card"):
        return None
    card = CARD_NAME[view["card"]]
    if view.get("first_end"):
        return msg(
            "Choosing a target for: {card} (first end {cell})", card=card, cell=view["first_end"]
        )
    return msg("Choosing a target for: {card}", card=card)
