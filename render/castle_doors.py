"""The Castle Doors board: coloured door tiles and their state, passages, characters, cards.

Every tile carries its colour's letter (R, B, G, Y) and its name (c4) as well as its colour,
and every state is written in words on the tile, so nothing is told by hue alone.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render import toolkit as T

COLOUR = {"red": T.VERMILION, "blue": T.BLUE, "green": T.GREEN, "yellow": T.YELLOW}
LETTER = {"red": "R", "blue": "B", "green": "G", "yellow": "Y"}
KIND_LABEL = {"open door": "OPEN", "barred door": "BARRED", "extra key": "+KEY",
              "extra turn": "+TURN"}  # fmt: skip
CARD_LABEL = {"key red": "R key", "key blue": "B key", "key green": "G key",
              "key yellow": "Y key", "skeleton": "Skeleton", "padlock": "Padlock",
              "passage": "Passage", "hacksaw": "Hacksaw", "net": "Net"}  # fmt: skip
CARD_NAME = {"key red": "red key", "key blue": "blue key", "key green": "green key",
             "key yellow": "yellow key", "skeleton": "skeleton key", "padlock": "padlock",
             "passage": "secret passage", "hacksaw": "hacksaw", "net": "net"}  # fmt: skip
PANEL_X = 790
MARGIN = 74  # room outside each edge for waiting characters
LETTER_BOTTOM = 26  # the tile's letter and name sit above this line, its state below
STATE_TOP = 21  # the state line's top, up from the tile's bottom
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


def _fit_size(text: str, width: float, largest: int = 16, smallest: int = 11) -> int:
    """The largest font size (down to `smallest`) at which `text` fits in `width`."""
    for size in range(largest, smallest, -1):
        if T.text_width(text, size) <= width:
            return size
    return smallest


def _ink_on(fill: tuple) -> tuple:
    return T.INK if sum(fill[:3]) > 380 else T.WHITE


def _tile(d: ImageDraw.ImageDraw, view: dict, name: str, t: dict) -> None:
    left, top, right, bottom = _box(view, name)
    size = right - left
    colour = COLOUR.get(t["colour"], T.GREY)
    inner = (left + 3, top + 3, right - 3, bottom - 3)
    face_up = t["open"]
    fill = T._mix(colour, T.PAPER, 0.55) if face_up else colour
    d.rectangle(inner, fill=fill, outline=T.INK, width=2)
    ink = _ink_on(fill)
    # The door itself: a closed leaf, or a dark doorway.
    door = (left + size * 0.3, top + size * 0.26, right - size * 0.3, bottom - size * 0.2)
    if face_up:
        d.rectangle(door, fill=T.NIGHT)
        if t["kind"] == "barred door":
            span = door[2] - door[0]
            for i in range(1, 4):
                bx = door[0] + span * i / 4
                if t["sawn"]:  # cut bars: a gap in the middle
                    mid = (door[1] + door[3]) / 2
                    d.line((bx, door[1], bx, mid - 8), fill=T.GREY, width=4)
                    d.line((bx, mid + 8, bx, door[3]), fill=T.GREY, width=4)
                else:
                    d.line((bx, door[1], bx, door[3]), fill=T.WHITE, width=4)
    else:
        d.rectangle(door, fill=T._mix(colour, T.INK, 0.35), outline=ink, width=2)
        kx, ky = door[2] - size * 0.08, (door[1] + door[3]) / 2
        d.ellipse((kx - 4, ky - 4, kx + 4, ky + 4), fill=ink)
    if t["lock"]:
        _padlock(d, (left + right) / 2, (top + bottom) / 2, size)


def _tile_key(t: dict) -> tuple:
    return t["colour"], t["open"], t["kind"], t["sawn"], t["lock"]


@lru_cache(maxsize=512)
def _tile_patch(width: int, height: int, name: str, key: tuple) -> tuple[Image.Image, tuple]:
    """A tile with its door and words, drawn where it stands on a scratch board (so its text
    falls on the same sub-pixels), cut out at the tile's own outline."""
    view = {"width": width, "height": height}
    colour, face_up, kind, sawn, lock = key
    t = {"colour": colour, "open": face_up, "kind": kind, "sawn": sawn, "lock": lock}
    left, top, right, bottom = _box(view, name)
    scratch, d = T.canvas(bottom + 1, right + 1)
    _tile(d, view, name, t)
    _labels(d, view, name, t, 0)
    inner = (left + 3, top + 3, right - 2, bottom - 2)
    return scratch.crop(inner), inner[:2]


def _state_label(t: dict) -> str:
    if t["open"]:
        return "SAWN" if t["sawn"] else KIND_LABEL.get(t["kind"], "")
    return "shut" + (f" ({KIND_LABEL[t['kind']].lower()})" if t["kind"] else "")


def _labels(d: ImageDraw.ImageDraw, view: dict, name: str, t: dict, net: int) -> None:
    """Letter, name and state in words on every tile, so colour is never needed; drawn
    over passages and nets so they stay legible."""
    left, top, right, bottom = _box(view, name)
    colour = COLOUR.get(t["colour"], T.GREY)
    fill = T._mix(colour, T.PAPER, 0.55) if t["open"] else colour
    ink = _ink_on(fill)
    d.rectangle((left + 5, top + 5, left + 24, top + LETTER_BOTTOM), fill=fill)
    T.text(d, (left + 8, top + 6), LETTER.get(t["colour"], "?"), 19, ink)
    width = T.text_width(name, 18)
    d.rectangle((right - 10 - width, top + 5, right - 5, top + 26), fill=fill)
    T.text(d, (right - 8, top + 6), name, 18, ink, "ra")
    label = _state_label(t)
    if net:  # the net's tag takes the place of the state line, in a white box
        label, fill, ink = f"NET {net}: {label}", T.WHITE, T.INK
    size = _fit_size(label, right - left - 12)
    half = T.text_width(label, size) / 2 + 2
    cx = (left + right) / 2
    d.rectangle((cx - half, bottom - 21, cx + half, bottom - 4), fill=fill,
                outline=T.INK if net else None)  # fmt: skip
    T.text(d, (cx, bottom - 12), label, size, ink, "mm")


def _used(d: ImageDraw.ImageDraw, view: dict, name: str, seats: list[int]) -> None:
    """Who has spent this bonus tile: small tokens down its sides, two a side."""
    left, top, right, _ = _box(view, name)
    for i, seat in enumerate(seats):
        centre = (left + 12 if i < 2 else right - 12, top + 40 + (i % 2) * 17)
        d.ellipse((centre[0] - 8, centre[1] - 8, centre[0] + 8, centre[1] + 8), fill=T.WHITE)
        T.player_token(d, centre, 6, seat)


def _padlock(d: ImageDraw.ImageDraw, cx: float, cy: float, size: int) -> None:
    w = size * 0.25
    d.arc((cx - w * 0.7, cy - w * 1.5, cx + w * 0.7, cy - w * 0.1), 180, 360, fill=T.INK, width=5)
    d.rectangle((cx - w, cy - w * 0.8, cx + w, cy + w * 0.7), fill=T.ORANGE, outline=T.INK,
                width=3)  # fmt: skip
    T.text(d, (cx, cy - w * 0.05), "LOCK", 14, T.INK, "mm")


def _net(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, name: str) -> None:
    left, top, right, bottom = _box(view, name)
    size = right - left
    mask = Image.new("L", (size - 6, size - 6), 0)
    md = ImageDraw.Draw(mask)
    for k in range(0, 2 * size, 16):  # a diagonal mesh, clipped to the tile
        md.line((k, 0, k - size, size), fill=255, width=2)
        md.line((k - size, 0, k, size), fill=255, width=2)
    img.paste(T.index(T.DARK), (left + 3, top + 3), mask)
    d.rectangle((left + 3, top + 3, right - 3, bottom - 3), outline=T.INK, width=3)


def _passage(d: ImageDraw.ImageDraw, view: dict, a: str, b: str) -> None:
    (ax, ay), (bx, by) = _centre(view, a), _centre(view, b)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    # From the door of one tile to the door of the other, across their shared corner.
    pa = (ax + (mx - ax) * 0.35, ay + (my - ay) * 0.35)
    pb = (bx + (mx - bx) * 0.35, by + (my - by) * 0.35)
    d.line((*pa, *pb), fill=T.WHITE, width=14)
    d.line((*pa, *pb), fill=T.PURPLE, width=8)
    for end in (pa, pb):
        d.ellipse((end[0] - 7, end[1] - 7, end[0] + 7, end[1] + 7), fill=T.PURPLE,
                  outline=T.WHITE, width=2)  # fmt: skip
    T.token(d, (mx, my), 13, "diamond", T.PURPLE, "P")


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


def band_label(view: dict, seat: int) -> tuple[str, float]:
    """The text on a player's band ("1 Ann: starts here", the name cut to fit) and the
    length it may take from the band's start, short of the waiting character."""
    band = _band(view, view["edges"][seat])
    length = (
        (band[2] - band[0]) if view["edges"][seat] in ("bottom", "top") else (band[3] - band[1])
    )
    room = length - 20 - 2 * WAIT - 6
    number, tail = f"{seat + 1} ", ": starts here"
    name = T.fit(view["names"][seat], 18, room - T.text_width(number + tail, 18))
    return T.fit(number + name + tail, 18, room), room


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


def draw(view: dict) -> Image.Image:
    return T.caption_bar(board(view), caption(view))


def caption(view: dict) -> list[str]:
    """What just happened, then whose turn; at the end the engine's announcement of the
    winner says it all, without "Game over: X wins." after it."""
    winner = view["winner"]
    said = () if winner is None else (view["names"][winner], "win")
    return T.footer(view.get("last"), _status(view), winner is not None, *said)


def board(view: dict) -> Image.Image:
    """The picture without its caption (a replay writes its own under each board)."""
    img, d = T.canvas(HEIGHT)
    cell, x0, y0 = _geometry(view)
    w, h = view["width"] * cell, view["height"] * cell
    T.text(d, (30, 18), "Castle Doors: first across to an open far door wins", 30, T.INK)
    # The walls and the players' edges.
    d.rectangle((x0 - 10, y0 - 10, x0 + w + 10, y0 + h + 10), fill=T.DARK)
    for seat, edge in enumerate(view["edges"]):
        _edge_band(img, d, view, seat, edge)
    nets = {where: n for where, n in zip(view["at"], view["netted"], strict=True) if where and n}
    # A tile that no passage or net crosses is pasted whole (door and words) from a cache:
    # tiles change seldom, and drawing them is most of the picture's cost.
    crossed = set(nets)
    for a, b in view["passages"]:
        crossed |= {f"{col}{row}" for col in (a[0], b[0]) for row in (a[1:], b[1:])}
    for name, t in view["tiles"].items():
        if name in crossed:
            _tile(d, view, name, t)
        else:
            patch, at = _tile_patch(view["width"], view["height"], name, _tile_key(t))
            img.paste(patch, at)
    for a, b in view["passages"]:
        _passage(d, view, a, b)
    for where in nets:
        _net(img, d, view, where)
    for name, t in view["tiles"].items():
        if name in crossed:
            _labels(d, view, name, t, nets.get(name, 0))
    for marked in (view.get("reveal"), view.get("first_end")):
        if marked:  # the tile turning over, or a passage's chosen first end
            left, top, right, bottom = _box(view, marked)
            d.rectangle((left - 2, top - 2, right + 2, bottom + 2), outline=T.INK, width=4)
            d.rectangle((left + 2, top + 2, right - 2, bottom - 2), outline=T.HIGHLIGHT, width=5)
            d.rectangle((left + 7, top + 7, right - 7, bottom - 7), outline=T.INK, width=2)
    for seat in range(len(view["at"])):
        centre, r = character_spot(view, seat)
        d.ellipse((centre[0] - r - RING, centre[1] - r - RING, centre[0] + r + RING,
                   centre[1] + r + RING), fill=T.WHITE, outline=T.INK, width=2)  # fmt: skip
        T.player_token(d, centre, r, seat, str(seat + 1))
    for name, t in view["tiles"].items():  # over the characters, so never hidden
        _used(d, view, name, t["used"])
    _panel(d, view)
    return img


def _edge_band(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, seat: int, edge: str) -> None:
    fill = T._mix(T.PLAYER_COLOURS[seat], T.PAPER, 0.6)
    band = _band(view, edge)
    d.rounded_rectangle(band, 10, fill=fill, outline=T.INK, width=1)
    # The label runs from one end; the waiting character stands at the other (_edge_spot).
    label, room = band_label(view, seat)
    if edge in ("bottom", "top"):
        T.text(d, (band[0] + 10, (band[1] + band[3]) / 2), label, 18, T.INK, "lm")
    else:  # a side band: the label runs along it, rotated
        strip = T.new_image((int(room), 26), fill)
        T.text(T.drawer(strip), (0, 13), label, 18, T.INK, "lm")
        strip = strip.transpose(
            Image.Transpose.ROTATE_90 if edge == "left" else Image.Transpose.ROTATE_270
        )
        sx = int((band[0] + band[2]) / 2 - strip.width / 2)
        sy = int(band[1] + 10) if edge == "right" else int(band[3] - 10 - strip.height)
        img.paste(strip, (sx, sy))


def _status(view: dict) -> str:
    names = view["names"]
    if view["winner"] is not None:
        return f"Game over: {names[view['winner']]} wins."
    who = names[view["turn"]]
    phase = view["phase"]
    return {
        "deal": "Building the castle and dealing cards.",
        "draw": f"{who} draws up to 4 cards.",
        "play": f"{who} plays or discards a card.",
        "target": f"{who} chooses where the card goes.",
        "reveal": f"The door of {view.get('reveal')} is turning over.",
        "move": f"{who} moves, enters, exits or stays.",
        "bonus": f"{who} uses the extra key tile (open or close one door) or passes.",
    }.get(phase, f"{who} to play.")


def _panel(d: ImageDraw.ImageDraw, view: dict) -> None:
    x, y = PANEL_X + 10, 70
    names = view["names"]
    for seat, edge in enumerate(view["edges"]):
        acting = seat == view["turn"] and view["winner"] is None
        parts, box = _seat_lines(view, seat)
        d.rounded_rectangle((x - 10, y, 1185, y + box), 12,
                            fill=T.HIGHLIGHT if acting else T.PANEL, outline=T.INK, width=2)  # fmt: skip
        T.player_token(d, (x + 16, y + 22), 14, seat, str(seat + 1))
        tail = f" ({edge} edge)" + ("  < turn" if acting else "")
        head = T.fit(names[seat], 20, 340 - T.text_width(tail, 20)) + tail
        T.text(d, (x + 40, y + 22), head, 20, T.INK, "lm")
        T.paragraph(d, (x + 8, y + 42), ", ".join(parts), 17, 360, max_lines=2)
        y += box + 8
    T.text(d, (x, y + 6), f"Draw pile: {view['deck']}   Discards: {view['discard']}", 20, T.INK)
    if view.get("discard_top"):
        T.text(d, (x, y + 32), f"Top discard: {CARD_NAME[view['discard_top']]}", 18, T.DARK)
    y += 64
    if "hand" in view:
        T.text(d, (x, y), T.fit(f"Your hand ({names[view['viewer']]})", 20, 380), 20, T.INK)
        y += 28
        chosen = view["hand"].index(view["card"]) if view.get("card") in view["hand"] else -1
        for i, card in enumerate(view["hand"]):
            cx, cy = x + (i % 4) * 94, y + (i // 4) * 58
            _card(d, cx, cy, card, i == chosen)
        y += 58 * ((len(view["hand"]) + 3) // 4) + 6
        if view.get("card"):
            first = f" (first end {view['first_end']})" if view.get("first_end") else ""
            y = T.paragraph(d, (x, y), f"Choosing a target for: {CARD_NAME[view['card']]}{first}",
                            17, 370)  # fmt: skip
    _legend(d, x, y + 4)


def _seat_lines(view: dict, seat: int) -> tuple[list[str], int]:
    """What the panel says of a player, and the height of their box."""
    where = f"on {view['at'][seat]}" if view["at"][seat] else "outside the castle"
    parts = [where, f"{view['hand_sizes'][seat]} cards"]
    if view["netted"][seat]:
        parts.append(f"NETTED {view['netted'][seat]} turn(s)")
    used = sorted(n for n, t in view["tiles"].items() if seat in t["used"])
    if used:
        parts.append("bonus used " + " ".join(used))
    lines = min(2, len(T.wrap(", ".join(parts), 17, 360)))
    return parts, 52 + 22 * lines


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


def _card(d: ImageDraw.ImageDraw, x: int, y: int, card: str, chosen: bool) -> None:
    colour = card.split()[1] if card.startswith("key ") else ""
    fill = COLOUR[colour] if colour else T.WHITE
    d.rounded_rectangle((x, y, x + 86, y + 50), 8, fill=fill,
                        outline=T.HIGHLIGHT if chosen else T.INK, width=5 if chosen else 2)  # fmt: skip
    T.text(d, (x + 43, y + 25), CARD_LABEL[card], 17, _ink_on(fill), "mm")


def _legend(d: ImageDraw.ImageDraw, x: int, y: int) -> None:
    lines = [
        "Letter = colour: R red, B blue, G green, Y yellow.",
        "Solid tile, door leaf: shut. Pale, dark doorway: open.",
        "OPEN: pass. BARRED: no way. SAWN: open for good.",
        "+KEY / +TURN: bonus tiles; tokens: who used them.",
        "LOCK: padlocked, no way. NET n: n turns trapped.",
        "Purple P line: secret passage (a diagonal step).",
        "Row 1 at the bottom; up/down/left/right as drawn.",
    ]
    for line in lines:  # one line each, at a size that fits the panel
        T.text(d, (x, y), line, _fit_size(line, 380, 16, 12), T.DARK)
        y += 21


def _tile_words(name: str, t: dict) -> str:
    colour = t["colour"] or "undealt"
    if t["open"]:
        state = t["kind"] or "open"
        if t["sawn"]:
            state += " (sawn)"
    else:
        state = "shut" + (f" ({t['kind']})" if t["kind"] else "")
    if t["lock"]:
        state += ", padlocked"
    return f"{name} {colour} {state}"


def describe(view: dict) -> str:
    """Alt text: the whole position in words, for players who cannot see the picture."""
    names = view["names"]
    parts = [
        f"Castle Doors, {view['width']} columns by {view['height']} rows, "
        f"row 1 at the bottom. {_status(view)}"
    ]
    for seat, edge in enumerate(view["edges"]):
        where = f"on {view['at'][seat]}" if view["at"][seat] else "outside the castle"
        far = {"bottom": "top", "top": "bottom", "left": "right", "right": "left"}[edge]
        text = (f"{names[seat]} (token {seat + 1}) starts at the {edge} edge, heads for the {far} "
                f"{'row' if edge in ('top', 'bottom') else 'column'}, is {where}, holds {view['hand_sizes'][seat]} cards")  # fmt: skip
        if view["netted"][seat]:
            text += f", netted for {view['netted'][seat]} more turns"
        parts.append(text + ".")
    for row in range(view["height"], 0, -1):
        row_tiles = [(n, t) for n, t in view["tiles"].items() if int(n[1:]) == row]
        parts.append(f"Row {row}: " + "; ".join(_tile_words(n, t) for n, t in row_tiles) + ".")
    if view["passages"]:
        joined = ", ".join(f"{a}-{b}" for a, b in view["passages"])
        parts.append(f"Secret passages: {joined}.")
    bonus = [
        f"{n} used by {', '.join(names[s] for s in t['used'])}"
        for n, t in view["tiles"].items()
        if t["used"]
    ]
    if bonus:
        parts.append("Bonus tiles spent: " + "; ".join(bonus) + ".")
    top = f", top card {CARD_NAME[view['discard_top']]}" if view.get("discard_top") else ""
    parts.append(f"Draw pile {view['deck']} cards, discards {view['discard']}{top}.")
    if "hand" in view:
        hand = ", ".join(CARD_NAME[c] for c in view["hand"]) or "nothing"
        parts.append(f"Your hand: {hand}.")
    if view.get("last"):
        parts.append(f"Last: {view['last']}")
    return " ".join(parts)


# ----- the rules picture ---------------------------------------------------------------
def illustration() -> tuple[dict, list, str]:
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

    far = {"bottom": "top", "top": "bottom", "left": "right", "right": "left"}
    band = _band(view, view["edges"][0])
    notes = [
        ((band[0] - 16, (band[1] + band[3]) / 2), f"Ann starts outside this edge. The first "
         f"to step onto an open door in the far row (the {far[view['edges'][0]]} row for "
         "Ann) wins."),
    ]  # fmt: skip
    said = [
        "A shut door (solid colour, door leaf): nobody crosses it. A key of its colour or a "
        "skeleton key opens it, and only then is it seen what it hides.",
        "An open door (pale, dark doorway): a turn's move is one step up, down, left or "
        "right onto a free open door (or `enter` from your edge, `stay`).",
        "BARRED: never crossed, unless a hacksaw cuts it (SAWN, open for good).",
        "+KEY and +TURN: stepping onto one gives one more door to open or close, or a "
        "whole extra turn (once for each player: tokens mark who used it).",
        "LOCK: a padlock; nobody crosses, opens or closes it until a skeleton key takes it off.",
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
        notes.append((spot, "A secret passage joins two diagonal tiles for everyone: step "
                      "along it when both doors are open."))  # fmt: skip
    notes.append(((PANEL_X - 26, 92), "A turn: draw up to 4 cards, play one (keys, skeleton "
                  "keys, padlocks, passages, hacksaws, nets) or throw one away, then move."))  # fmt: skip
    return view, notes, "Castle Doors: how to read the board"
