"""Haunted House pictures: every house on the table and, in a player's own view, their hand.

Drawn from a VIEW only: the hand panel appears only when the view carries a "hand",
which the engine puts only in that seat's own view.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import toolkit as T

WIDTH = 1200
TOP = 96  # below the header
ROOF = 84
FLOOR_H = 118
HOUSE_H = ROOF + 3 * FLOOR_H + 52  # roof, floors, the line with the card count
HAND_H = 250
LIT = T._mix(T.YELLOW, T.PAPER, 0.35)
GHOST = T.WHITE
CAT = T.ORANGE
CARD = (252, 250, 244)

FLOOR_NAMES = {1: "first", 2: "second", 3: "third"}
SPECIAL_NAMES = {
    "wild": "Room wild",
    "ghost": "Ghost",
    "cat": "Cat",
    "hole": "Time space hole",
    "bulb": "Light bulb",
    "food": "Cat food",
    "elevator": "Elevator",
    "lightning": "Lightning",
}


def card_title(kind: str) -> str:
    if kind.startswith("room") and len(kind) == 7:
        return f"Room, floor {kind[4]}"
    return SPECIAL_NAMES.get(kind, kind)


def _column(view: dict) -> tuple[int, int]:
    n = len(view["names"])
    width = (WIDTH - 40) // max(n, 2)
    return width, 20 + (WIDTH - 40 - width * n) // 2


def draw(view: dict) -> Image.Image:
    return T.caption_bar(board(view), caption(view))


def caption(view: dict) -> list[str]:
    """What just happened (the state is written above the houses), or the state."""
    return [view["last"]] if view.get("last") else [_status(view)]


def board(view: dict) -> Image.Image:
    """The picture without its caption (a replay writes its own under each board)."""
    hand = view.get("hand")
    height = TOP + HOUSE_H + 70 + (HAND_H if hand is not None else 0)
    img, d = T.canvas(height, WIDTH)
    T.text(d, (30, 22), "Haunted House", 36, T.INK)
    T.text(d, (WIDTH - 30, 30), _counts(view), 24, T.INK, "ra")
    # one line under the title: names shortened in it, the whole line fitted as well
    T.text(d, (30, 66), T.fit(_status(view, short=True), 22, WIDTH - 60), 22, T.DARK)
    width, x0 = _column(view)
    for seat in range(len(view["names"])):
        _house(d, view, seat, x0 + seat * width, TOP, width - 16)
    y = TOP + HOUSE_H + 10
    _legend(d, 30, y)
    if hand is not None:
        _hand(d, view, hand, TOP + HOUSE_H + 70)
    return img


def _counts(view: dict) -> str:
    return f"deck {view['deck']}  |  discard {view['discard']}"


def _house(d: ImageDraw.ImageDraw, view: dict, seat: int, x: int, y: int, w: int) -> None:
    names = view["names"]
    acting = seat in view["to_act"] or (
        view["phase"] in ("rooms", "light", "discard") and seat == view["turn"]
    )
    roof = [(x, y + ROOF), (x + w / 2, y), (x + w, y + ROOF)]
    d.polygon(roof, fill=T.HIGHLIGHT if acting else T.PANEL, outline=T.INK, width=3)
    T.player_token(d, (x + w / 2, y + 34), 18, seat)
    # The name sits at the foot of the roof: as wide as the roof is at the letters' top.
    room = w * (ROOF - 26) / ROOF - 16
    T.text(d, (x + w / 2, y + ROOF - 4), T.fit(f"p{seat + 1} {names[seat]}", 20, room), 20,
           T.INK, "md")  # fmt: skip
    floors = view["houses"][seat]
    window = view.get("window") or {}
    for f in (3, 2, 1):
        fy = y + ROOF + (3 - f) * FLOOR_H
        _floor(d, floors[f - 1], f, x, fy, w)
        if (
            window.get("kind") == "defend"
            and window.get("target") == seat
            and window.get("floor") == f
        ):
            _incoming(d, x, fy, w, floors[f - 1]["ghosts"])
    yy = y + ROOF + 3 * FLOOR_H + 8
    held = view["hand_sizes"][seat]
    label = f"{held} card{'s' if held != 1 else ''} held"
    if view.get("winner") == seat:
        label = "ESCAPED - wins!"
    elif view.get("escaper") == seat:  # also while a ghost against the escape is answered
        label += "  ESCAPING!"
    elif seat == view["turn"] and view["phase"] not in ("over",):
        label += "  < turn"
    T.text(d, (x + w / 2, yy + 16), label, 20, T.INK, "mm")


def _floor(d: ImageDraw.ImageDraw, floor: dict, f: int, x: int, y: int, w: int) -> None:
    lit = floor["lit"]
    d.rectangle((x, y, x + w, y + FLOOR_H), fill=LIT if lit else T.NIGHT, outline=T.INK, width=3)
    ink = T.INK if lit else T.WHITE
    T.text(d, (x + 8, y + 6), f"F{f}", 20, ink)
    T.text(d, (x + w - 8, y + 6), "LIT" if lit else "dark", 18, ink, "ra")
    for i, box in enumerate(slot_boxes(x, y, w)):
        if i < len(floor["rooms"]):
            kind = floor["rooms"][i]
            d.rounded_rectangle(box, 8, fill=CARD, outline=T.INK, width=2)
            label = "wild" if kind == "wild" else f"room {kind[4]}"
            T.text(d, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), label, 20, T.INK, "mm")
        else:
            d.rounded_rectangle(box, 8, outline=T.GREY, width=2)
            T.text(d, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), "empty", 16, T.GREY, "mm")
    tx = x + w - 27
    for k in range(floor["ghosts"]):
        ghost_icon(d, (tx, y + 54 + k * 40), 18)
    for k in range(floor["cats"]):
        cat_icon(d, (tx, y + FLOOR_H - 24 - k * 40), 18)


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


def _incoming(d: ImageDraw.ImageDraw, x: int, y: int, w: int, ghosts: int) -> None:
    """The ghost in flight, ringed until a cat answers, named on the floor's top line."""
    ring = incoming_ring(x, y, w, ghosts)
    cx, cy = (ring[0] + ring[2]) / 2, (ring[1] + ring[3]) / 2
    d.ellipse(ring, fill=T.HIGHLIGHT, outline=T.INK, width=3)
    ghost_icon(d, (cx, cy - 2), 15)
    label = "ghost coming"
    right = x + w - 56  # left of the column; "LIT" or "dark" stays at the floor's right
    width = T.text_width(label, 16) + 12
    d.rounded_rectangle((right - width, y + 5, right, y + 27), 6, fill=T.HIGHLIGHT, outline=T.INK)
    T.text(d, (right - width / 2, y + 16), label, 16, T.INK, "mm")


def ghost_icon(d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float) -> None:
    """A white sheet ghost: round head, straight sides, a zigzag hem, and a G."""
    cx, cy = centre
    hem = cy + r
    points = [(cx - r, cy), (cx - r, hem)]
    for i in range(1, 5):
        points.append((cx - r + i * r / 2, hem - (r * 0.35 if i % 2 else 0)))
    points.append((cx + r, cy))
    d.polygon(points, fill=GHOST, outline=T.INK)
    d.pieslice((cx - r, cy - r, cx + r, cy + r), 180, 360, fill=GHOST)
    d.arc((cx - r, cy - r, cx + r, cy + r), 180, 360, fill=T.INK, width=2)
    d.line((cx - r, cy, cx - r, hem), fill=T.INK, width=2)
    d.line((cx + r, cy, cx + r, hem), fill=T.INK, width=2)
    T.text(d, (cx, cy + 1), "G", int(r * 1.1), T.INK, "mm")


def cat_icon(d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float) -> None:
    """An orange cat head: a circle with two ear triangles, and a C."""
    cx, cy = centre
    for side in (-1, 1):
        ear = [(cx + side * r * 0.95, cy - r * 1.05), (cx + side * r * 0.2, cy - r * 0.7),
               (cx + side * r * 0.9, cy - r * 0.1)]  # fmt: skip
        d.polygon(ear, fill=CAT, outline=T.INK, width=2)
    d.ellipse((cx - r * 0.9, cy - r * 0.8, cx + r * 0.9, cy + r), fill=CAT, outline=T.INK, width=2)
    T.text(d, (cx, cy + 2), "C", int(r * 1.1), T.INK, "mm")


def _legend(d: ImageDraw.ImageDraw, x: int, y: int) -> int:
    for icon, text in ((ghost_icon, "ghost"), (cat_icon, "cat")):
        icon(d, (x + 16, y + 18), 17)
        T.text(d, (x + 42, y + 18), text, 20, T.INK, "lm")
        x += 42 + int(T.text_width(text, 20)) + 30
    d.rectangle((x, y + 6, x + 30, y + 30), fill=LIT, outline=T.INK, width=2)
    T.text(d, (x + 40, y + 18), "lit floor", 20, T.INK, "lm")
    x += 40 + int(T.text_width("lit floor", 20)) + 30
    d.rectangle((x, y + 6, x + 30, y + 30), fill=T.NIGHT, outline=T.INK, width=2)
    T.text(d, (x + 40, y + 18), "dark floor", 20, T.INK, "lm")
    return y + 40


def _hand(d: ImageDraw.ImageDraw, view: dict, hand: list[dict], y: int) -> None:
    seat = view["viewer"]
    d.rounded_rectangle(
        (20, y, WIDTH - 20, y + HAND_H - 20), 14, fill=T.PANEL, outline=T.INK, width=2
    )
    total = f"{sum(c['bulbs'] for c in hand)} bulbs in hand"
    room = WIDTH - 40 - T.text_width(total, 22) - 30 - 40
    title = "Your hand, " + T.fit(
        view["names"][seat], 24, room - T.text_width("Your hand,  (private)", 24)
    )
    T.text(d, (40, y + 14), title + " (private)", 24, T.INK)
    step = view.get("step") or {}
    chosen = list(step.get("chosen", []))
    marked = []
    for card in hand:  # mark each chosen card once, in hand order
        if card["card"] in chosen:
            chosen.remove(card["card"])
            marked.append(True)
        else:
            marked.append(False)
    if not hand:
        T.text(d, (40, y + 100), "(no cards)", 24, T.DARK)
    cw, gap = 240, 24
    for i, card in enumerate(hand):
        cx = 40 + i * (cw + gap)
        box = (cx, y + 50, cx + cw, y + HAND_H - 36)
        d.rounded_rectangle(
            box,
            12,
            fill=CARD,
            outline=T.VERMILION if marked[i] else T.INK,
            width=6 if marked[i] else 2,
        )
        kind = card["card"]
        T.text(d, (cx + 14, box[1] + 12), card_title(kind), 22, T.INK)
        n = card["bulbs"]
        T.text(d, (cx + 14, box[3] - 30), _bulbs(n), 22, T.INK)
        for b in range(n):
            bx = cx + 130 + b * 34
            d.ellipse(
                (bx, box[3] - 44, bx + 26, box[3] - 18), fill=T.YELLOW, outline=T.INK, width=2
            )
        if marked[i]:
            T.text(d, (box[2] - 12, box[1] + 12), "chosen", 18, T.VERMILION, "ra")
    T.text(d, (WIDTH - 40, y + 14), total, 22, T.INK, "ra")


def _card_boxes(hand: list[dict]) -> list[tuple[int, int, int, int]]:
    """Where `_hand` draws each card (the hand panel sits under the houses)."""
    y = TOP + HOUSE_H + 70
    cw, gap = 240, 24
    return [(40 + i * (cw + gap), y + 50, 40 + i * (cw + gap) + cw, y + HAND_H - 36)
            for i in range(len(hand))]  # fmt: skip


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


def _bulbs(n: int) -> str:
    return f"{n} bulb{'s' if n != 1 else ''}"


def _status(view: dict, short: bool = False) -> str:
    """The state of play in a sentence; `short`: names cut to fit one line of the picture."""
    names = [T.fit(n, 22, 300) for n in view["names"]] if short else view["names"]
    if view.get("winner") is not None:
        return f"Game over: {names[view['winner']]} escapes and wins."
    window = view.get("window")
    if window:
        asked = ", ".join(names[s] for s in window["to_act"])
        if window["kind"] == "defend":
            target = names[window["target"]]
            during = " to stop the escape" if view.get("escaper") is not None else ""
            return (
                f"A ghost is coming to {target}'s floor {window['floor']}{during}: "
                f"{asked} may answer with a cat or pass."
            )
        return f"{names[window['escaper']]} is escaping! {asked} may play a ghost or pass."
    if view["phase"] == "draw":
        return "Cards are being drawn."
    who = names[view["turn"]]
    step = view.get("step")
    if step:
        if step["act"] == "rooms":
            return f"{who} is exploring rooms (more rooms or done)."
        if step["act"] == "light":
            return (
                f"{who} is choosing cards to light floor {step['floor']} ({step['count']} chosen)."
            )
        return f"{who} is choosing cards to discard ({step['count']} chosen)."
    return f"{who} to play."


def describe(view: dict) -> str:
    """Alt text: the table in words; a hand only in that player's own view."""
    names = view["names"]
    parts = [f"Haunted House. {_status(view)}"]
    for seat, floors in enumerate(view["houses"]):
        bits = []
        for f, floor in enumerate(floors, start=1):
            rooms = len(floor["rooms"])
            bit = f"floor {f} {'lit' if floor['lit'] else 'dark'}, {rooms} of 2 rooms"
            if "wild" in floor["rooms"]:
                bit += (
                    " (one a wild card)" if floor["rooms"].count("wild") == 1 else " (wild cards)"
                )
            if floor["ghosts"]:
                bit += f", {floor['ghosts']} ghost{'s' if floor['ghosts'] > 1 else ''}"
            if floor["cats"]:
                bit += ", a cat"
            bits.append(bit)
        held = view["hand_sizes"][seat]
        parts.append(
            f"{names[seat]} (p{seat + 1}) holds {held} card{'s' if held != 1 else ''}: "
            + "; ".join(bits)
            + "."
        )
    parts.append(f"Deck {view['deck']} cards, discard pile {view['discard']}.")
    hand = view.get("hand")
    viewer = view.get("viewer")
    if hand is not None and viewer is not None:
        cards = (
            ", ".join(f"{card_title(c['card'])} ({_bulbs(c['bulbs'])})" for c in hand) or "no cards"
        )
        parts.append(f"Your hand ({names[viewer]}): {cards}.")
    if view.get("last"):
        parts.append(f"Last: {view['last']}")
    return " ".join(parts)


# ----- the rules picture ---------------------------------------------------------------
def illustration() -> tuple[dict, list, str]:
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
    notes.append(((fx + 70, fy + 14), "A house: floors 1 to 3 (1 at the bottom), two rooms "
                  "each. A turn: play room cards onto your lowest floor that is not full, as "
                  "many as you like, then `done`; or play one other card."))  # fmt: skip
    lit = next(((s, f) for s, f, fl in floors(view) if fl["lit"]), None)
    text = ("LIT: a floor lit with 2 or 3 cards showing 5 bulbs or more (the floors below "
            "fully explored). A lit floor holds against one ghost; a second takes it.")  # fmt: skip
    if lit:
        lx, ly = floor_top(*lit)
        notes.append(((lx + w - 70, ly + 16), text))
    else:
        notes.append((None, text))
    ghost = next(((s, f) for s, f, fl in floors(view) if fl["ghosts"]), None)
    text = ("A ghost, sent to an opponent's highest floor with a room: on a dark floor it "
            "takes that floor's rooms at once (unless a cat from hand answers it).")  # fmt: skip
    if ghost:
        gx, gy = floor_top(*ghost)
        notes.append(((gx + w - 64, gy + 54), text))
    else:
        notes.append((None, text))
    cat = next(((s, f) for s, f, fl in floors(view) if fl["cats"]), None)
    text = "A cat guards its floor: a ghost arriving there is chased away, and both go."
    if cat:
        cx, cy = floor_top(*cat)
        notes.append(((cx + w - 64, cy + FLOOR_H - 24), text))
    else:
        notes.append((None, text))
    hx, _ = floor_top(1, 1)
    notes.append(((hx + 40, TOP + ROOF + 3 * FLOOR_H + 24), "Everyone sees how many cards "
                  "each player holds, never which: your hand comes to you alone."))  # fmt: skip
    notes.append(((x0 + w / 2 - 60, TOP + 30), "Explore all six rooms, then escape: each "
                  "other player may throw a ghost at your top floor first. If no floor is "
                  "lost, you are out and win."))  # fmt: skip
    return view, notes, "Haunted House: how to read the table"
