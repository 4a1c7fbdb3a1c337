"""Castle Doors on a phone: the castle's tiles across the whole width (each with its
colour's letter, its name and its state in words, the characters on them), and under it a
row for each player (where they are, their cards), the piles, then the viewer's hand. The
title, the caption and the legend are the page's text. Every word is at least
`narrow.SMALLEST` pixels.

Tap regions: a card played or discarded on that card of the hand; a target, a tile
entered or a step on the tile it goes to. Staying, leaving the castle, taking the card
back and passing have no place: they stay buttons."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engines.castle_doors import board as layout
from engines.castle_doors.words import CARD as CARD_NAME
from engines.castle_doors.words import EDGE
from engines.text import joined, msg
from languages import DEFAULT, say
from render import lettering, palette, tokens
from render.castle_doors import (
    CARD_LABEL,
    COLOUR,
    LETTER,
    _ink_on,
    _seat_lines,
    _state_label,
    choosing,
    passage_line,
)
from render.narrow import SMALLEST, WIDTH

PAD = 10
CELL_H = 106  # a tile: its letter and name, a character, two lines of its state
LINE = 19  # a line of SMALLEST words
PLAYER_H = 66  # a player's row: their piece and name, then where they are and their cards
CARD_W, CARD_H, CARD_GAP = 119, 56, 8


def _cell_w(view: dict) -> int:
    return (WIDTH - 2 * PAD) // view["width"]


def _grid_bottom(view: dict) -> int:
    return PAD + view["height"] * CELL_H


def tile_box(view: dict, name: str) -> tuple[int, int, int, int]:
    x, y = layout.xy(name)
    w = _cell_w(view)
    left = PAD + x * w
    top = PAD + (view["height"] - 1 - y) * CELL_H
    return left, top, left + w, top + CELL_H


def _centre(view: dict, name: str) -> tuple[float, float]:
    b = tile_box(view, name)
    return (b[0] + b[2]) / 2, (b[1] + b[3]) / 2


def _players_top(view: dict) -> int:
    return _grid_bottom(view) + PAD + 4


def _piles_top(view: dict) -> int:
    return _players_top(view) + len(view["edges"]) * (PLAYER_H + 6)


def _hand_top(view: dict) -> int:
    top = _piles_top(view) + LINE + 8
    return top + (LINE + 6 if view.get("discard_top") else 0)


def card_box(view: dict, i: int) -> tuple[int, int, int, int]:
    top = _hand_top(view) + 28
    x = PAD + (i % 4) * (CARD_W + CARD_GAP)
    y = top + (i // 4) * (CARD_H + CARD_GAP)
    return x, y, x + CARD_W, y + CARD_H


def _height(view: dict) -> int:
    bottom = _hand_top(view)
    if "hand" in view:
        rows = max(1, (len(view["hand"]) + 3) // 4)
        bottom += 28 + rows * (CARD_H + CARD_GAP) + (3 * LINE + 8 if view.get("card") else 0)
    return bottom + PAD


def draw(view: dict, language: str = DEFAULT) -> Image.Image:
    img, d = palette.canvas(_height(view), WIDTH)
    w, h = _cell_w(view) * view["width"], view["height"] * CELL_H
    d.rectangle((PAD - 6, PAD - 6, PAD + w + 5, PAD + h + 5), fill=palette.DARK)
    nets = {at: n for at, n in zip(view["at"], view["netted"], strict=True) if at and n}
    for name, t in view["tiles"].items():
        _tile(d, view, name, t, nets.get(name, 0))
    for a, b in view["passages"]:
        _passage(d, view, a, b)
    for name, t in view["tiles"].items():  # over the passages, so never hidden
        _words(d, view, name, t, nets.get(name, 0), language)
    for marked in (view.get("reveal"), view.get("first_end")):
        if marked:
            left, top, right, bottom = tile_box(view, marked)
            d.rectangle((left + 1, top + 1, right - 1, bottom - 1), outline=palette.INK, width=3)
            d.rectangle(
                (left + 4, top + 4, right - 4, bottom - 4), outline=palette.HIGHLIGHT, width=3
            )
    for seat, at in enumerate(view["at"]):
        if at:
            left, top, right, bottom = tile_box(view, at)
            cx = (left + right) / 2 + (seat - (len(view["at"]) - 1) / 2) * 4  # two on a tile
            cy = top + 24 + (CELL_H - 24 - 2 * LINE - 4) / 2
            d.ellipse((cx - 22, cy - 22, cx + 22, cy + 22), fill=palette.WHITE, outline=palette.INK)
            tokens.player_token(d, (cx, cy), 18, seat, str(seat + 1))
    for seat in range(len(view["edges"])):
        _player(d, view, seat, language)
    _piles(d, view, language)
    if "hand" in view:
        _hand(d, view, language)
    return img


def _tile(d: ImageDraw.ImageDraw, view: dict, name: str, t: dict, net: int) -> None:
    """The tile's colour (pale once open), its door, a padlock, a net."""
    left, top, right, bottom = tile_box(view, name)
    colour = COLOUR.get(t["colour"], palette.GREY)
    fill = palette.mix(colour, palette.PAPER, 0.55) if t["open"] else colour
    d.rectangle((left + 3, top + 3, right - 3, bottom - 3), fill=fill, outline=palette.INK, width=2)
    ink = _ink_on(fill)
    cx = (left + right) / 2
    door = (cx - 14, top + 26, cx + 14, bottom - 2 * LINE - 8)
    if t["open"]:
        d.rectangle(door, fill=palette.NIGHT)
        if t["kind"] == "barred door" and not t["sawn"]:
            for k in (-7, 0, 7):
                d.line((cx + k, door[1], cx + k, door[3]), fill=palette.WHITE, width=3)
    else:
        d.rectangle(door, fill=palette.mix(colour, palette.INK, 0.35), outline=ink, width=2)
    if net:
        for k in range(0, 2 * CELL_H, 16):  # the net's mesh, kept inside the tile
            d.line(
                (left + 4 + k, top + 4, left + 4 + k - CELL_H, top + 4 + CELL_H), fill=palette.DARK
            )
        d.rectangle((right - 2, top, right + 2, bottom), fill=palette.DARK)
    if t["lock"]:
        _padlock(d, cx, (door[1] + door[3]) / 2 + 4)


def _words(d: ImageDraw.ImageDraw, view: dict, name: str, t: dict, net: int, language: str):
    """Its letter and name on top and its state in words at the bottom (a padlock or a net
    written there too), on plates of the tile's colour."""
    left, top, right, bottom = tile_box(view, name)
    colour = COLOUR.get(t["colour"], palette.GREY)
    fill = palette.mix(colour, palette.PAPER, 0.55) if t["open"] else colour
    ink = _ink_on(fill)
    cx = (left + right) / 2
    d.rectangle((left + 4, top + 4, left + 26, top + 26), fill=fill)
    d.rectangle(
        (right - 12 - lettering.text_width(name, SMALLEST), top + 4, right - 4, top + 26), fill=fill
    )
    lettering.text(d, (left + 8, top + 6), LETTER.get(t["colour"], "?"), 18, ink)
    lettering.text(d, (right - 8, top + 6), name, SMALLEST, ink, "ra")
    state = _state_label(t)
    if net:
        state = msg("NET {count}: {state}", count=net, state=state)
    said = say(state, language)
    if t["lock"]:
        said = f"{say(msg('LOCK'), language)} {said}"
    room = right - left - 10
    lines = lettering.wrap(said, SMALLEST, room)
    if len(lines) > 2:
        lines = [lines[0], lettering.fit(" ".join(lines[1:]), SMALLEST, room)]
    y = bottom - 4 - len(lines) * LINE
    plate = palette.WHITE if net else fill
    d.rectangle((left + 4, y - 1, right - 4, bottom - 4), fill=plate)
    for line in lines:
        lettering.text(d, (cx, y + LINE / 2), line, SMALLEST, palette.INK if net else ink, "mm")
        y += LINE


def _padlock(d: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    d.arc((cx - 8, cy - 18, cx + 8, cy - 2), 180, 360, fill=palette.INK, width=4)
    d.rectangle(
        (cx - 12, cy - 8, cx + 12, cy + 10), fill=palette.ORANGE, outline=palette.INK, width=2
    )


def _passage(d: ImageDraw.ImageDraw, view: dict, a: str, b: str) -> None:
    """A secret passage, nearer the corner than the wide board's (its tiles are narrower)."""
    passage_line(d, _centre(view, a), _centre(view, b), 0.45)


def _player(d: ImageDraw.ImageDraw, view: dict, seat: int, language: str) -> None:
    """A player's piece, name, edge and turn; then where they are and their cards."""
    top = _players_top(view) + seat * (PLAYER_H + 6)
    acting = seat == view["turn"] and view["winner"] is None
    won = view["winner"] == seat
    d.rounded_rectangle(
        (4, top, WIDTH - 4, top + PLAYER_H),
        10,
        fill=palette.seat_fill(won=won, acting=acting),
        outline=palette.INK,
        width=2,
    )
    tokens.player_token(d, (28, top + PLAYER_H / 2), 18, seat, str(seat + 1))
    tail = " " + say(msg("({edge} edge)", edge=EDGE[view["edges"][seat]]), language)
    if acting:
        tail += "  " + say(msg("< to act"), language)
    elif won:
        tail += "  " + say(msg("WINS"), language)
    room = WIDTH - 66
    name = lettering.fit(view["names"][seat], 18, max(60, room - lettering.text_width(tail, 18)))
    head = lettering.isolate(name) + tail
    lettering.label(d, (54, top + 6), head, 18, room, palette.INK, smallest=SMALLEST)
    parts, _ = _seat_lines(view, seat)
    told = say(joined(parts), language)
    lettering.label(d, (54, top + 36), told, SMALLEST, room, palette.INK, smallest=SMALLEST)


def _piles(d: ImageDraw.ImageDraw, view: dict, language: str) -> None:
    y = _piles_top(view)
    piles = msg(
        "Draw pile: {deck}   Discards: {discard}", deck=view["deck"], discard=view["discard"]
    )
    room = WIDTH - 2 * PAD
    lettering.label(d, (PAD, y), say(piles, language), 18, room, palette.INK, smallest=SMALLEST)
    if view.get("discard_top"):
        said = say(msg("Top discard: {card}", card=CARD_NAME[view["discard_top"]]), language)
        lettering.label(
            d, (PAD, y + LINE + 6), said, SMALLEST, room, palette.DARK, smallest=SMALLEST
        )


def _hand(d: ImageDraw.ImageDraw, view: dict, language: str) -> None:
    """The viewer's hand (theirs alone: this board is drawn for them), a card chosen
    marked, and what it is waiting for."""
    names, hand = view["names"], view["hand"]
    y = _hand_top(view)
    mine = say(msg("Your hand ({name})", name=names[view["viewer"]]), language)
    lettering.label(d, (PAD, y), mine, 18, WIDTH - 2 * PAD, palette.INK, smallest=SMALLEST)
    chosen = hand.index(view["card"]) if view.get("card") in hand else -1
    for i, card in enumerate(hand):
        x0, y0, x1, y1 = card_box(view, i)
        colour = card.split()[1] if card.startswith("key ") else ""
        fill = COLOUR[colour] if colour else palette.WHITE
        d.rounded_rectangle(
            (x0, y0, x1, y1),
            8,
            fill=fill,
            outline=palette.HIGHLIGHT if i == chosen else palette.INK,
            width=5 if i == chosen else 2,
        )
        face = say(CARD_LABEL[card], language)
        lettering.label(
            d,
            ((x0 + x1) / 2, (y0 + y1) / 2),
            face,
            18,
            CARD_W - 12,
            _ink_on(fill),
            "mm",
            smallest=SMALLEST,
        )
    said = choosing(view)
    if said is not None:
        rows = max(1, (len(hand) + 3) // 4)
        top = _hand_top(view) + 28 + rows * (CARD_H + CARD_GAP)
        lettering.paragraph(
            d, (PAD, top), say(said, language), SMALLEST, WIDTH - 2 * PAD, max_lines=3
        )


def regions(view: dict, actions: list[str]) -> dict[str, tuple[int, int, int, int]]:
    """A card played or discarded on that card of the hand; a target, a tile entered or a
    step (a passage's diagonal too) on the tile it goes to."""
    out: dict[str, tuple[int, int, int, int]] = {}
    hand = view.get("hand") or []
    seat = view.get("viewer", view["turn"])
    here = view["at"][seat] if seat is not None and seat < len(view["at"]) else None
    for action in actions:
        verb, _, rest = action.partition(" ")
        if verb in ("target", "enter") and rest in view["tiles"]:
            out[action] = tile_box(view, rest)
        elif verb in ("play", "discard") and rest in hand:
            out[action] = card_box(view, hand.index(rest))
        elif verb == "move" and here and rest in layout.ALL_STEPS:
            to = layout.step(here, rest, view["width"], view["height"])
            if to is not None:
                out[action] = tile_box(view, to)
    return out
