"""Haunted House pictures: every house on the table and, in a player's own view, their hand.

Drawn from a VIEW only: the hand panel appears only when the view carries a "hand",
which the engine puts only in that seat's own view.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from engines.text import Msg, in_context, joined, msg, plural
from languages import DEFAULT, say
from render import captions, lettering, palette, tokens
from render.alt_ending import told
from render.scene import Scene, painted

WIDTH = 1200
TOP = 96  # below the header
ROOF = 84
FLOOR_H = 118
HOUSE_H = ROOF + 3 * FLOOR_H + 52  # roof, floors, the line with the card count
HAND_H = 250
LIT = palette.mix(palette.YELLOW, palette.PAPER, 0.35)
GHOST = palette.WHITE
CAT = palette.ORANGE
CARD = (252, 250, 244)

SPECIAL_NAMES = {  # a card's title on the card
    "wild": in_context("card title", "Room wild"),
    "ghost": in_context("card title", "Ghost"),
    "cat": in_context("card title", "Cat"),
    "hole": in_context("card title", "Time space hole"),
    "bulb": in_context("card title", "Light bulb"),
    "food": in_context("card title", "Cat food"),
    "elevator": in_context("card title", "Elevator"),
    "lightning": in_context("card title", "Lightning"),
}


def card_title(kind: str) -> Msg | str:
    if kind.startswith("room") and len(kind) == 7:
        return msg("Room, floor {floor}", floor=kind[4])
    return SPECIAL_NAMES.get(kind, kind)


def _column(view: dict) -> tuple[int, int]:
    n = len(view["names"])
    width = (WIDTH - 40) // max(n, 2)
    return width, 20 + (WIDTH - 40 - width * n) // 2


def draw(view: dict, language: str = DEFAULT) -> Image.Image:
    return captions.caption_bar(board(view, language), caption(view, language))


def caption(view: dict, language: str = DEFAULT) -> list[str]:
    """What just happened (the state is written above the houses), or the state."""
    return [say(view["last"] if view.get("last") else _status(view), language)]


TITLE_ROOM = 560  # the title's width, left of the counts


def board(view: dict, language: str = DEFAULT) -> Image.Image:
    """The picture without its caption (a replay writes its own under each board)."""
    return painted(scene(view, language))


def scene(view: dict, language: str = DEFAULT) -> Scene:
    """The table as parts (render/scene.py): the title, the counts, the state of play, each
    house's roof, floors and line of cards held, the legend, and a player's own hand."""
    hand = view.get("hand")
    height = TOP + HOUSE_H + 70 + (HAND_H if hand is not None else 0)
    out = Scene(WIDTH, height)
    out.stamp((0, 0), (TITLE_ROOM + 40, 66), _title, language)
    counts = say(_counts(view), language)
    lettering.label_part(
        out,
        (WIDTH - 30, 30),
        counts,
        24,
        WIDTH - 60 - TITLE_ROOM - 20,
        palette.INK,
        "ra",
        smallest=16,
    )
    # one line under the title: names shortened in it, the whole line fitted as well
    lettering.label_part(
        out,
        (30, 66),
        say(_status(view, short=True), language),
        22,
        WIDTH - 60,
        palette.DARK,
        smallest=16,
    )
    width, x0 = _column(view)
    for seat in range(len(view["names"])):
        _house(out, view, seat, x0 + seat * width, TOP, width - 16, language)
    y = TOP + HOUSE_H + 10
    out.stamp((0, y), (WIDTH, 40), _legend, 30, 0, language)
    if hand is not None:
        y = TOP + HOUSE_H + 70
        cards = tuple((card["card"], card["bulbs"]) for card in hand)
        chosen = tuple((view.get("step") or {}).get("chosen", []))
        name = view["names"][view["viewer"]]
        out.add((18, y - 2, WIDTH - 18, y + HAND_H - 18), _hand, name, cards, chosen, y, language)
    return out


def _title(d: ImageDraw.ImageDraw, language: str) -> None:
    lettering.label(
        d, (30, 22), say(msg("Haunted House"), language), 36, TITLE_ROOM, palette.INK, smallest=24
    )


def _counts(view: dict) -> Msg:
    return msg("deck {deck}  |  discard {discard}", deck=view["deck"], discard=view["discard"])


def _house(out: Scene, view: dict, seat: int, x: int, y: int, w: int, language: str) -> None:
    """A player's house: its roof with their name, its floors top to bottom, and the line
    of cards held under it, each a part of its own."""
    names = view["names"]
    acting = seat in view["to_act"] or (
        view["phase"] in ("rooms", "light", "discard") and seat == view["turn"]
    )
    out.add((x - 3, y - 3, x + w + 4, y + ROOF + 3), _roof, seat, x, y, w, names[seat], acting)
    floors = view["houses"][seat]
    window = view.get("window") or {}
    for f in (3, 2, 1):
        fy = y + ROOF + (3 - f) * FLOOR_H
        floor = floors[f - 1]
        incoming = (
            window.get("kind") == "defend"
            and window.get("target") == seat
            and window.get("floor") == f
        )
        out.add(
            (x - 2, fy - 2, x + w + 3, fy + FLOOR_H + 3),
            _floor,
            tuple(floor["rooms"]),
            floor["lit"],
            floor["ghosts"],
            floor["cats"],
            f,
            x,
            fy,
            w,
            incoming,
            language,
        )
    yy = y + ROOF + 3 * FLOOR_H + 8
    held = view["hand_sizes"][seat]
    label = plural("{count} card held", "{count} cards held", held)
    if view.get("winner") == seat:
        label = msg("ESCAPED - wins!")
    elif view.get("escaper") == seat:  # also while a ghost against the escape is answered
        label = msg("{held}  ESCAPING!", held=label)
    elif seat == view["turn"] and view["phase"] not in ("over",):
        label = msg("{held}  < turn", held=label)
    lettering.label_part(
        out, (x + w / 2, yy + 16), say(label, language), 20, w, palette.INK, "mm", smallest=12
    )


def _roof(
    d: ImageDraw.ImageDraw, seat: int, x: int, y: int, w: int, name: str, acting: bool
) -> None:
    roof = [(x, y + ROOF), (x + w / 2, y), (x + w, y + ROOF)]
    d.polygon(
        roof, fill=palette.HIGHLIGHT if acting else palette.PANEL, outline=palette.INK, width=3
    )
    tokens.player_token(d, (x + w / 2, y + 34), 18, seat)
    # The name sits at the foot of the roof: as wide as the roof is at the letters' top.
    room = w * (ROOF - 26) / ROOF - 16
    head = f"p{seat + 1} "
    name = lettering.isolate(lettering.fit(name, 20, room - lettering.text_width(head, 20)))
    lettering.text(d, (x + w / 2, y + ROOF - 4), head + name, 20, palette.INK, "md")


def _floor(
    d: ImageDraw.ImageDraw,
    rooms: tuple,
    lit: bool,
    ghosts: int,
    cats: int,
    f: int,
    x: int,
    y: int,
    w: int,
    incoming: bool,
    language: str,
) -> None:
    d.rectangle(
        (x, y, x + w, y + FLOOR_H), fill=LIT if lit else palette.NIGHT, outline=palette.INK, width=3
    )
    ink = palette.INK if lit else palette.WHITE
    short = say(in_context("floor, short", "F{floor}", floor=f), language)
    lettering.label(d, (x + 8, y + 6), short, 20, 40, ink, smallest=12)
    state = say(msg("LIT") if lit else msg("dark"), language)
    lettering.label(d, (x + w - 8, y + 6), state, 18, 64, ink, "ra", smallest=11)
    for i, box in enumerate(slot_boxes(x, y, w)):
        middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        room = box[2] - box[0] - 8
        if i < len(rooms):
            kind = rooms[i]
            d.rounded_rectangle(box, 8, fill=CARD, outline=palette.INK, width=2)
            label = (
                in_context("room card", "wild")
                if kind == "wild"
                else msg("room {floor}", floor=kind[4])
            )
            lettering.label(
                d, middle, say(label, language), 20, room, palette.INK, "mm", smallest=11
            )
        else:
            d.rounded_rectangle(box, 8, outline=palette.GREY, width=2)
            lettering.label(
                d,
                middle,
                say(in_context("room slot", "empty"), language),
                16,
                room,
                palette.GREY,
                "mm",
                smallest=10,
            )
    tx = x + w - 27
    for k in range(ghosts):
        ghost_icon(d, (tx, y + 54 + k * 40), 18, language)
    for k in range(cats):
        cat_icon(d, (tx, y + FLOOR_H - 24 - k * 40), 18, language)
    if incoming:
        _incoming(d, x, y, w, ghosts, language)


def slot_boxes(x: int, y: int, w: int) -> list[tuple[int, int, int, int]]:
    """A floor's two room slots, left of its column of ghosts and cats."""
    slot_w = (w - 66) // 2
    return [
        (x + 8 + i * (slot_w + 8), y + 32, x + 8 + i * (slot_w + 8) + slot_w, y + FLOOR_H - 8)
        for i in range(2)
    ]


def incoming_ring(x: int, y: int, w: int, ghosts: int) -> tuple[float, float, float, float]:
    """The ring of the ghost in flight: in the floor's column of ghosts, where it will stay
    if nothing stops it, never over the rooms."""
    cx, cy = x + w - 27, y + 54 + ghosts * 40
    return cx - 21, cy - 21, cx + 21, cy + 21


def _incoming(d: ImageDraw.ImageDraw, x: int, y: int, w: int, ghosts: int, language: str) -> None:
    """The ghost in flight, ringed until a cat answers, named on the floor's top line."""
    ring = incoming_ring(x, y, w, ghosts)
    cx, cy = (ring[0] + ring[2]) / 2, (ring[1] + ring[3]) / 2
    d.ellipse(ring, fill=palette.HIGHLIGHT, outline=palette.INK, width=3)
    ghost_icon(d, (cx, cy - 2), 15, language)
    label = say(msg("ghost coming"), language)
    right = x + w - 72  # left of the column; "LIT" or "dark" stays at the floor's right
    most = right - (x + 40)  # right of the floor's number
    size = lettering.shrunk(label, 16, most - 12, 10)
    width = min(most, lettering.text_width(label, size) + 12)
    d.rounded_rectangle(
        (right - width, y + 5, right, y + 27), 6, fill=palette.HIGHLIGHT, outline=palette.INK
    )
    lettering.text(
        d,
        (right - width / 2, y + 16),
        lettering.fit(label, size, width - 8),
        size,
        palette.INK,
        "mm",
    )


# the letters on the icons, in the reader's language (Spanish: F for fantasma, G for gato)
GHOST_LETTER = in_context("ghost icon letter", "G")
CAT_LETTER = in_context("cat icon letter", "C")


def ghost_icon(
    d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, language: str = DEFAULT
) -> None:
    """A white sheet ghost: round head, straight sides, a zigzag hem, and its letter (G)."""
    cx, cy = centre
    hem = cy + r
    points = [(cx - r, cy), (cx - r, hem)]
    for i in range(1, 5):
        points.append((cx - r + i * r / 2, hem - (r * 0.35 if i % 2 else 0)))
    points.append((cx + r, cy))
    d.polygon(points, fill=GHOST, outline=palette.INK)
    d.pieslice((cx - r, cy - r, cx + r, cy + r), 180, 360, fill=GHOST)
    d.arc((cx - r, cy - r, cx + r, cy + r), 180, 360, fill=palette.INK, width=2)
    d.line((cx - r, cy, cx - r, hem), fill=palette.INK, width=2)
    d.line((cx + r, cy, cx + r, hem), fill=palette.INK, width=2)
    letter = say(GHOST_LETTER, language)
    lettering.label(  # on the sheet, below the head: a longer word stays on the ghost
        d, (cx, cy + r * 0.3), letter, int(r * 1.05), 1.7 * r, palette.INK, "mm", smallest=7
    )


def cat_icon(
    d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, language: str = DEFAULT
) -> None:
    """An orange cat head: a circle with two ear triangles, and its letter (C)."""
    cx, cy = centre
    for side in (-1, 1):
        ear = [
            (cx + side * r * 0.95, cy - r * 1.05),
            (cx + side * r * 0.2, cy - r * 0.7),
            (cx + side * r * 0.9, cy - r * 0.1),
        ]
        d.polygon(ear, fill=CAT, outline=palette.INK, width=2)
    d.ellipse(
        (cx - r * 0.9, cy - r * 0.8, cx + r * 0.9, cy + r), fill=CAT, outline=palette.INK, width=2
    )
    letter = say(CAT_LETTER, language)
    lettering.label(d, (cx, cy + 2), letter, int(r * 1.1), 1.6 * r, palette.INK, "mm", smallest=8)


def _legend(d: ImageDraw.ImageDraw, x: int, y: int, language: str) -> int:
    for icon, word in (
        (ghost_icon, in_context("legend", "ghost")),
        (cat_icon, in_context("legend", "cat")),
    ):
        text = say(word, language)
        icon(d, (x + 16, y + 18), 17, language)
        lettering.text(d, (x + 42, y + 18), text, 20, palette.INK, "lm")
        x += 42 + int(lettering.text_width(text, 20)) + 30
    lit = say(msg("lit floor"), language)
    d.rectangle((x, y + 6, x + 30, y + 30), fill=LIT, outline=palette.INK, width=2)
    lettering.text(d, (x + 40, y + 18), lit, 20, palette.INK, "lm")
    x += 40 + int(lettering.text_width(lit, 20)) + 30
    d.rectangle((x, y + 6, x + 30, y + 30), fill=palette.NIGHT, outline=palette.INK, width=2)
    lettering.label(
        d,
        (x + 40, y + 18),
        say(msg("dark floor"), language),
        20,
        WIDTH - 30 - (x + 40),
        palette.INK,
        "lm",
    )
    return y + 40


def _hand(
    d: ImageDraw.ImageDraw, owner: str, cards: tuple, chosen: tuple, y: int, language: str
) -> None:
    """A player's own hand (`cards`: each card's kind and bulbs), the cards chosen marked."""
    hand = [{"card": card, "bulbs": bulbs} for card, bulbs in cards]
    d.rounded_rectangle(
        (20, y, WIDTH - 20, y + HAND_H - 20), 14, fill=palette.PANEL, outline=palette.INK, width=2
    )
    total = say(
        plural("{count} bulb in hand", "{count} bulbs in hand", sum(c["bulbs"] for c in hand)),
        language,
    )
    room = WIDTH - 40 - lettering.text_width(total, 22) - 30 - 40
    frame = say(msg("Your hand, {name} (private)", name="\0"), language)
    size = lettering.shrunk(frame.replace("\0", owner[:12]), 24, room, 16)
    name = lettering.fit(owner, size, room - lettering.text_width(frame.replace("\0", ""), size))
    name = lettering.isolate(name)
    lettering.text(d, (40, y + 14), frame.replace("\0", name), size, palette.INK)
    chosen = list(chosen)
    marked = []
    for card in hand:  # mark each chosen card once, in hand order
        if card["card"] in chosen:
            chosen.remove(card["card"])
            marked.append(True)
        else:
            marked.append(False)
    if not hand:
        lettering.text(d, (40, y + 100), say(msg("(no cards)"), language), 24, palette.DARK)
    cw, gap = 240, 24
    for i, card in enumerate(hand):
        cx = 40 + i * (cw + gap)
        box = (cx, y + 50, cx + cw, y + HAND_H - 36)
        d.rounded_rectangle(
            box,
            12,
            fill=CARD,
            outline=palette.VERMILION if marked[i] else palette.INK,
            width=6 if marked[i] else 2,
        )
        kind = card["card"]
        chosen_w = lettering.text_width(say(msg("chosen"), language), 18) + 16 if marked[i] else 0
        lettering.label(
            d,
            (cx + 14, box[1] + 12),
            say(card_title(kind), language),
            22,
            cw - 28 - chosen_w,
            palette.INK,
            smallest=14,
        )
        n = card["bulbs"]
        lettering.label(
            d,
            (cx + 14, box[3] - 30),
            say(_bulbs(n), language),
            22,
            130 - 18,
            palette.INK,
            smallest=14,
        )
        for b in range(n):
            bx = cx + 130 + b * 34
            d.ellipse(
                (bx, box[3] - 44, bx + 26, box[3] - 18),
                fill=palette.YELLOW,
                outline=palette.INK,
                width=2,
            )
        if marked[i]:
            lettering.text(
                d,
                (box[2] - 12, box[1] + 12),
                say(msg("chosen"), language),
                18,
                palette.VERMILION,
                "ra",
            )
    lettering.text(d, (WIDTH - 40, y + 14), total, 22, palette.INK, "ra")


def _card_boxes(hand: list[dict]) -> list[tuple[int, int, int, int]]:
    """Where `_hand` draws each card (the hand panel sits under the houses)."""
    y = TOP + HOUSE_H + 70
    cw, gap = 240, 24
    return [
        (40 + i * (cw + gap), y + 50, 40 + i * (cw + gap) + cw, y + HAND_H - 36)
        for i in range(len(hand))
    ]


def regions(view: dict, actions: list[str]) -> dict[str, tuple[int, int, int, int]]:
    """Where each of these actions can be tapped: a card played (or added to a run with
    `with`) on that card of the viewer's hand; only a private view draws the hand."""
    hand = view.get("hand") or []
    names = [card["card"] for card in hand]
    boxes = _card_boxes(hand)
    out: dict[str, tuple[int, int, int, int]] = {}
    for action in actions:
        verb, _, rest = action.partition(" ")
        if verb in ("play", "with") and rest in names:
            out[action] = boxes[names.index(rest)]
    return out


def _bulbs(n: int) -> Msg:
    return plural("{count} bulb", "{count} bulbs", n)


def _status(view: dict, short: bool = False) -> Msg:
    """The state of play in a sentence; `short`: names cut to fit one line of the picture."""
    names = [lettering.fit(n, 22, 300) for n in view["names"]] if short else view["names"]
    if view.get("winner") is not None:
        return msg("Game over: {name} escapes and wins.", name=names[view["winner"]])
    window = view.get("window")
    if window:
        asked = ", ".join(names[s] for s in window["to_act"])
        if window["kind"] == "defend":
            said = dict(name=names[window["target"]], floor=window["floor"], asked=asked)
            if view.get("escaper") is not None:
                return msg(
                    "A ghost is coming to {name}'s floor {floor} to stop the escape: {asked} may answer with a cat or pass.",
                    **said,
                )
            return msg(
                "A ghost is coming to {name}'s floor {floor}: {asked} may answer with a cat or pass.",
                **said,
            )
        return msg(
            "{name} is escaping! {asked} may play a ghost or pass.",
            name=names[window["escaper"]],
            asked=asked,
        )
    if view["phase"] == "draw":
        return msg("Cards are being drawn.")
    who = names[view["turn"]]
    step = view.get("step")
    if step:
        if step["act"] == "rooms":
            return msg("{name} is exploring rooms (more rooms or done).", name=who)
        if step["act"] == "light":
            return msg(
                "{name} is choosing cards to light floor {floor} ({count} chosen).",
                name=who,
                floor=step["floor"],
                count=step["count"],
            )
        return msg(
            "{name} is choosing cards to discard ({count} chosen).", name=who, count=step["count"]
        )
    return msg("{name} to play.", name=who)


def _floor_told(f: int, floor: dict) -> Msg:
    rooms = len(floor["rooms"])
    if floor["lit"]:
        bit = msg("floor {floor} lit, {rooms} of 2 rooms", floor=f, rooms=rooms)
    else:
        bit = msg("floor {floor} dark, {rooms} of 2 rooms", floor=f, rooms=rooms)
    if "wild" in floor["rooms"]:
        if floor["rooms"].count("wild") == 1:
            bit = msg("{floor} (one a wild card)", floor=bit)
        else:
            bit = msg("{floor} (wild cards)", floor=bit)
    if floor["ghosts"]:
        bit = plural(
            "{floor}, {count} ghost", "{floor}, {count} ghosts", floor["ghosts"], floor=bit
        )
    if floor["cats"]:
        bit = msg("{floor}, a cat", floor=bit)
    return bit


def own_words(view: dict) -> Msg | None:
    """What only the view's owner may read (their hand): all a private message need say
    where its picture and whole words are at hand."""
    hand, viewer = view.get("hand"), view.get("viewer")
    if hand is None or viewer is None:
        return None
    told = [
        msg("{card} ({bulbs})", card=card_title(c["card"]), bulbs=_bulbs(c["bulbs"])) for c in hand
    ]
    cards = joined(told) if told else msg("no cards")
    return msg("Your hand ({name}): {cards}.", name=view["names"][viewer], cards=cards)


def describe(view: dict, language: str = DEFAULT) -> str:
    """Alt text: the table in words; a hand only in that player's own view."""
    names = view["names"]
    parts: list = [msg("Haunted House. {status}", status=_status(view))]
    for seat, floors in enumerate(view["houses"]):
        bits = [_floor_told(f, floor) for f, floor in enumerate(floors, start=1)]
        held = view["hand_sizes"][seat]
        parts.append(
            plural(
                "{name} (p{seat}) holds {count} card: {floors}.",
                "{name} (p{seat}) holds {count} cards: {floors}.",
                held,
                name=names[seat],
                seat=seat + 1,
                floors=joined(bits, "; "),
            )
        )
    parts.append(
        msg(
            "Deck {deck} cards, discard pile {discard}.", deck=view["deck"], discard=view["discard"]
        )
    )
    return told(parts, view, language, own_words(view))


# ----- the rules picture ---------------------------------------------------------------
def illustration() -> tuple[dict, list, Msg]:
    """Two houses under way, a lit floor, a ghost and a cat where the seeded game has them,
    with notes on each (render/rules.py draws them)."""
    from render.rules import best_view

    def floors(view: dict):
        for seat, house in enumerate(view["houses"]):
            for f, floor in enumerate(house, start=1):
                yield seat, f, floor

    def shows(view: dict) -> float:
        if view.get("winner") is not None or view.get("window"):
            return -1
        found = list(floors(view))
        return (
            any(fl["lit"] for _, _, fl in found) * 100
            + any(fl["ghosts"] for _, _, fl in found) * 100
            + any(fl["cats"] for _, _, fl in found) * 100
            + sum(len(fl["rooms"]) for _, _, fl in found)
        )

    view = best_view("haunted_house", 2, 5, ["Ann", "Bob"], shows)
    width, x0 = _column(view)
    w = width - 16

    def floor_top(seat: int, f: int) -> tuple[float, float]:
        return x0 + seat * width, TOP + ROOF + (3 - f) * FLOOR_H

    notes = []
    fx, fy = floor_top(0, 1)
    notes.append(
        (
            (fx + 70, fy + 14),
            msg(
                "A house: floors 1 to 3 (1 at the bottom), two rooms "
                "each. A turn: play room cards onto your lowest floor that is not full, as "
                "many as you like, then `done`; or play one other card."
            ),
        )
    )
    lit = next(((s, f) for s, f, fl in floors(view) if fl["lit"]), None)
    text = msg(
        "LIT: a floor lit with 2 or 3 cards showing 5 bulbs or more (the floors below "
        "fully explored). A lit floor holds against one ghost; a second takes it."
    )
    if lit:
        lx, ly = floor_top(*lit)
        notes.append(((lx + w - 70, ly + 16), text))
    else:
        notes.append((None, text))
    ghost = next(((s, f) for s, f, fl in floors(view) if fl["ghosts"]), None)
    text = msg(
        "A ghost, sent to an opponent's highest floor with a room: on a dark floor it "
        "takes that floor's rooms at once (unless a cat from hand answers it)."
    )
    if ghost:
        gx, gy = floor_top(*ghost)
        notes.append(((gx + w - 64, gy + 54), text))
    else:
        notes.append((None, text))
    cat = next(((s, f) for s, f, fl in floors(view) if fl["cats"]), None)
    text = msg("A cat guards its floor: a ghost arriving there is chased away, and both go.")
    if cat:
        cx, cy = floor_top(*cat)
        notes.append(((cx + w - 64, cy + FLOOR_H - 24), text))
    else:
        notes.append((None, text))
    hx, _ = floor_top(1, 1)
    notes.append(
        (
            (hx + 40, TOP + ROOF + 3 * FLOOR_H + 24),
            msg(
                "Everyone sees how many cards "
                "each player holds, never which: your hand comes to you alone."
            ),
        )
    )
    notes.append(
        (
            (x0 + w / 2 - 60, TOP + 30),
            msg(
                "Explore all six rooms, then escape: each "
                "other player may throw a ghost at your top floor first. If no floor is "
                "lost, you are out and win."
            ),
        )
    )
    return view, notes, msg("Haunted House: how to read the table")
