"""Haunted House on a phone: the state of play in a line or two, then each player's house
as a block across the width (a line with their name and cards held, then floors 3, 2, 1 as
rows: lit or dark, the rooms on it, its ghosts and cats), the piles, and the viewer's own
hand. The title, the caption and the legend are the page's text. Every word is at least
`narrow.SMALLEST` pixels.

Tap regions: a card played or used on that card of the hand; lighting a floor, a light
bulb, a cat put on a floor or moved by the elevator on that floor of the player's own house;
a ghost, lightning or a hole's ghost on the house it goes to; cat food on the floor the cat
goes to; a cat against a ghost on the floor the ghost comes to; discarding and drawing on
the discard pile. Done, cancel and pass stay buttons."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engines.text import in_context, msg, plural
from languages import DEFAULT, say
from render import lettering, palette, tokens
from render.haunted_house import (
    CARD,
    LIT,
    _bulbs,
    _status,
    card_title,
    cat_icon,
    ghost_icon,
)
from render.narrow import SMALLEST, WIDTH

PAD = 10
STATUS_H = 3 * int(SMALLEST * 1.3) + 8
HEAD_H = 36  # a house's line: the player, what they hold
FLOOR_H = 54
HOUSE_H = HEAD_H + 3 * FLOOR_H + 12
PILES_H = 62
CARD_W, CARD_H, CARD_GAP = 245, 78, 10
ICON_R = 16
ICON_STEP = 38


def house_box(seat: int) -> tuple[int, int, int, int]:
    top = PAD + STATUS_H + seat * HOUSE_H
    return 4, top, WIDTH - 4, top + HOUSE_H - 8


def floor_box(seat: int, floor: int) -> tuple[int, int, int, int]:
    """Floor 3 at the top of a house, floor 1 at its foot."""
    _, top, _, _ = house_box(seat)
    y = top + HEAD_H + (3 - floor) * FLOOR_H
    return PAD, y, WIDTH - PAD, y + FLOOR_H


def _piles_top(view: dict) -> int:
    return PAD + STATUS_H + len(view["names"]) * HOUSE_H


def discard_box(view: dict) -> tuple[int, int, int, int]:
    y = _piles_top(view)
    return WIDTH // 2 + 5, y, WIDTH - PAD, y + PILES_H - 10


def _hand_top(view: dict) -> int:
    return _piles_top(view) + PILES_H


def card_box(view: dict, i: int) -> tuple[int, int, int, int]:
    x = PAD + (i % 2) * (CARD_W + CARD_GAP)
    y = _hand_top(view) + 34 + (i // 2) * (CARD_H + CARD_GAP)
    return x, y, x + CARD_W, y + CARD_H


def _height(view: dict) -> int:
    bottom = _hand_top(view)
    if view.get("hand") is not None:
        rows = max(1, (len(view["hand"]) + 1) // 2)
        bottom += 34 + rows * (CARD_H + CARD_GAP)
    return bottom + PAD


def draw(view: dict, language: str = DEFAULT) -> Image.Image:
    img, d = palette.canvas(_height(view), WIDTH)
    said = say(_status(view), language)
    lettering.paragraph(d, (PAD, PAD), said, SMALLEST, WIDTH - 2 * PAD, palette.DARK, max_lines=3)
    for seat in range(len(view["names"])):
        _house(d, view, seat, language)
    _piles(d, view, language)
    if view.get("hand") is not None:
        _hand(d, view, language)
    return img


def _house(d: ImageDraw.ImageDraw, view: dict, seat: int, language: str) -> None:
    """A player's line (their piece, name, cards held, whose turn), then their floors."""
    x0, y0, x1, y1 = house_box(seat)
    acting = seat in view["to_act"] or (
        view["phase"] in ("rooms", "light", "discard") and seat == view["turn"]
    )
    won = view.get("winner") == seat
    d.rounded_rectangle(
        (x0, y0, x1, y1),
        10,
        fill=palette.seat_fill(won=won, acting=acting),
        outline=palette.INK,
        width=2,
    )
    mid = y0 + HEAD_H / 2 + 1
    tokens.player_token(d, (x0 + 20, mid), 13, seat)
    held = plural("{count} card held", "{count} cards held", view["hand_sizes"][seat])
    if won:
        held = msg("ESCAPED - wins!")
    elif view.get("escaper") == seat:
        held = msg("{held}  ESCAPING!", held=held)
    elif seat == view["turn"] and view["phase"] != "over":
        held = msg("{held}  < turn", held=held)
    tail = say(held, language)
    tail_w = min(lettering.text_width(tail, SMALLEST), (x1 - x0) * 0.55)
    lettering.label(d, (x1 - 10, mid), tail, SMALLEST, tail_w, palette.INK, "rm", smallest=SMALLEST)
    room = x1 - 10 - tail_w - 12 - (x0 + 40)
    head = f"p{seat + 1} "
    name = lettering.fit(view["names"][seat], 18, max(30, room - lettering.text_width(head, 18)))
    lettering.text(d, (x0 + 40, mid), head + lettering.isolate(name), 18, palette.INK, "lm")
    window = view.get("window") or {}
    for f in (3, 2, 1):
        incoming = (
            window.get("kind") == "defend"
            and window.get("target") == seat
            and window.get("floor") == f
        )
        _floor(d, view["houses"][seat][f - 1], seat, f, incoming, language)


def _floor(d: ImageDraw.ImageDraw, floor: dict, seat: int, f: int, incoming: bool, language):
    """A floor: its number and LIT or dark, its two rooms, its ghosts and cats; the ghost
    coming to it ringed."""
    x0, y0, x1, y1 = floor_box(seat, f)
    lit = floor["lit"]
    d.rectangle((x0, y0, x1, y1), fill=LIT if lit else palette.NIGHT, outline=palette.INK, width=2)
    ink = palette.INK if lit else palette.WHITE
    mid = (y0 + y1) / 2
    short = say(in_context("floor, short", "F{floor}", floor=f), language)
    lettering.label(d, (x0 + 6, mid - 9), short, 18, 44, ink, "lm", smallest=SMALLEST)
    state = say(msg("LIT") if lit else msg("dark"), language)
    lettering.label(d, (x0 + 6, mid + 11), state, SMALLEST, 56, ink, "lm", smallest=SMALLEST)
    slot_w = 118
    for i in range(2):
        box = (x0 + 66 + i * (slot_w + 6), y0 + 6, x0 + 66 + i * (slot_w + 6) + slot_w, y1 - 6)
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        if i < len(floor["rooms"]):
            kind = floor["rooms"][i]
            d.rounded_rectangle(box, 6, fill=CARD, outline=palette.INK, width=2)
            label = (
                in_context("room card", "wild")
                if kind == "wild"
                else msg("room {floor}", floor=kind[4])
            )
            lettering.label(
                d,
                centre,
                say(label, language),
                18,
                slot_w - 8,
                palette.INK,
                "mm",
                smallest=SMALLEST,
            )
        else:
            d.rounded_rectangle(box, 6, outline=palette.GREY, width=2)
            lettering.label(
                d,
                centre,
                say(in_context("room slot", "empty"), language),
                SMALLEST,
                slot_w - 8,
                palette.GREY,
                "mm",
                smallest=SMALLEST,
            )
    left = x0 + 66 + 2 * (slot_w + 6) + 4
    icons = [ghost_icon] * floor["ghosts"] + [cat_icon] * floor["cats"]
    if incoming:
        icons.append(None)
    step = min(ICON_STEP, (x1 - 6 - left - 2 * ICON_R) / max(1, len(icons) - 1))
    for k, icon in enumerate(icons):
        centre = (left + ICON_R + k * step, mid + 2)
        if icon is None:  # the ghost in flight, ringed until a cat answers
            r = ICON_R + 3
            d.ellipse(
                (centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r),
                fill=palette.HIGHLIGHT,
                outline=palette.INK,
                width=3,
            )
            ghost_icon(d, (centre[0], centre[1] - 2), ICON_R, language)
        else:
            icon(d, centre, ICON_R, language)


def _piles(d: ImageDraw.ImageDraw, view: dict, language: str) -> None:
    """The deck and the discard pile, each a card's back with its count."""
    y = _piles_top(view)
    deck = (PAD, y, WIDTH // 2 - 5, y + PILES_H - 10)
    for box, said in (
        (deck, msg("deck {deck}", deck=view["deck"])),
        (discard_box(view), msg("discard pile {discard}", discard=view["discard"])),
    ):
        d.rounded_rectangle(box, 8, fill=palette.PANEL, outline=palette.INK, width=2)
        lettering.label(
            d,
            ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
            say(said, language),
            18,
            box[2] - box[0] - 12,
            palette.INK,
            "mm",
            smallest=SMALLEST,
        )


def _hand(d: ImageDraw.ImageDraw, view: dict, language: str) -> None:
    """The viewer's own hand (this board is drawn for them alone), the chosen cards marked."""
    hand = view["hand"]
    y = _hand_top(view)
    total = say(
        plural("{count} bulb in hand", "{count} bulbs in hand", sum(c["bulbs"] for c in hand)),
        language,
    )
    total_w = lettering.text_width(total, SMALLEST)
    lettering.text(d, (WIDTH - PAD, y + 12), total, SMALLEST, palette.INK, "rm")
    owner = view["names"][view["viewer"]]
    frame = say(msg("Your hand, {name} (private)", name="\0"), language)
    room = WIDTH - 2 * PAD - total_w - 12
    name = lettering.fit(owner, 18, max(30, room - lettering.text_width(frame, 18)))
    lettering.label(
        d,
        (PAD, y + 12),
        frame.replace("\0", lettering.isolate(name)),
        18,
        room,
        palette.INK,
        "lm",
        smallest=SMALLEST,
    )
    if not hand:
        lettering.text(d, (PAD, y + 50), say(msg("(no cards)"), language), 18, palette.DARK)
    chosen = list((view.get("step") or {}).get("chosen", []))
    for i, card in enumerate(hand):
        marked = card["card"] in chosen
        if marked:
            chosen.remove(card["card"])
        x0, y0, x1, y1 = card_box(view, i)
        d.rounded_rectangle(
            (x0, y0, x1, y1),
            10,
            fill=CARD,
            outline=palette.VERMILION if marked else palette.INK,
            width=5 if marked else 2,
        )
        mark = say(msg("chosen"), language) if marked else ""
        mark_w = lettering.text_width(mark, SMALLEST) + 10 if marked else 0
        lettering.label(
            d,
            (x0 + 10, y0 + 8),
            say(card_title(card["card"]), language),
            18,
            CARD_W - 20 - mark_w,
            palette.INK,
            smallest=SMALLEST,
        )
        if marked:
            lettering.text(d, (x1 - 8, y0 + 8), mark, SMALLEST, palette.VERMILION, "ra")
        n = card["bulbs"]
        lettering.label(
            d,
            (x0 + 10, y1 - 24),
            say(_bulbs(n), language),
            SMALLEST,
            100,
            palette.INK,
            smallest=SMALLEST,
        )
        for b in range(n):
            bx = x0 + 118 + b * 28
            d.ellipse(
                (bx, y1 - 30, bx + 22, y1 - 8), fill=palette.YELLOW, outline=palette.INK, width=2
            )


def _seat(tag: str, players: int) -> int | None:
    if tag[:1] == "p" and tag[1:].isdigit() and 1 <= int(tag[1:]) <= players:
        return int(tag[1:]) - 1
    return None


def regions(view: dict, actions: list[str]) -> dict[str, tuple[int, int, int, int]]:
    """Where each of these actions is tapped (see the module's words)."""
    hand = view.get("hand") or []
    names = [card["card"] for card in hand]
    players = len(view["names"])
    me = view.get("viewer")
    if me is None and view["to_act"]:
        me = view["to_act"][0]
    window = view.get("window") or {}
    out: dict[str, tuple[int, int, int, int]] = {}
    for action in actions:
        verb, *args = action.split()
        floor = args[-1] if args and args[-1] in ("1", "2", "3") else None
        if verb in ("play", "with") and args and args[0] in names:
            out[action] = card_box(view, names.index(args[0]))
        elif verb in ("light", "bulb", "cat", "elevator") and floor and me is not None:
            out[action] = floor_box(me, int(floor))
        elif verb == "cat" and not args and window.get("kind") == "defend":
            out[action] = floor_box(window["target"], window["floor"])
        elif verb in ("ghost", "lightning", "hole") and args:
            seat = _seat(args[-1], players)
            if seat is not None:
                x0, y0, x1, _ = house_box(seat)
                out[action] = (x0, y0, x1, y0 + HEAD_H)  # the house's line
        elif verb == "food" and len(args) == 3 and floor:
            seat = _seat(args[0], players)
            if seat is not None:
                out[action] = floor_box(seat, int(floor))
        elif verb == "discard" and not args:
            out[action] = discard_box(view)
    return out
