"""The cards (rulebook: keys, skeleton key, padlock, hacksaw, secret passage, net): what each
can act on, what it does there, and the extra key tile's door."""

from __future__ import annotations

from engines.castle_doors import board as B
from engines.castle_doors import castle as K
from engines.castle_doors import turn as T
from engines.castle_doors.castle import TRAPPED_TURNS, CastleState
from engines.contract import Event, Seat


def targets(s: CastleState, card: str) -> list[str]:
    seat = s.turn
    if card.startswith("key "):
        return K.toggles(s, card[4:])
    if card == "skeleton":
        return [c for c, t in s.tiles.items() if t["lock"]] + K.toggles(s, None)
    if card == "padlock":
        return [c for c, t in s.tiles.items() if not t["lock"] and c not in s.at]
    if card == "hacksaw":
        return [
            c
            for c, t in s.tiles.items()
            if t["open"] and t["kind"] == "barred door" and not t["sawn"] and not t["lock"]
        ]
    if card == "passage":
        if s.first_end:
            return K.passage_ends(s, s.first_end)
        used = {B.corner(a, b) for a, b in s.passages}
        return [c for c in s.tiles if K.passage_ends(s, c, used)]
    if card == "net":
        return [
            cell
            for other, cell in enumerate(s.at)
            if other != seat and cell is not None and s.netted[other] == 0
        ]
    return []


def choose(s: CastleState, seat: Seat, card: str) -> list[Event]:
    s.phase, s.card, s.first_end = "target", card, ""
    what = "the first end of the passage" if card == "passage" else "a target"
    return [Event(f"Choose {what} for your {B.CARD_NAME[card]}, or `back`.", to=seat)]


def discard(s: CastleState, seat: Seat, card: str) -> list[Event]:
    T.from_hand(s, seat, card)
    T.to_discard(s, card)
    events = [Event(f"{s.names[seat]} discards a {B.CARD_NAME[card]} for nothing.")]
    return events + T.after_play(s)


def target(s: CastleState, seat: Seat, cell: str) -> list[Event]:
    card, name = s.card, s.names[seat]
    if card == "passage" and not s.first_end:
        s.first_end = cell
        return [Event(f"Now choose the tile diagonal to {cell}.", to=seat)]
    T.from_hand(s, seat, card)
    s.card, s.phase = "", "play"
    t = s.tiles[cell]
    label = B.CARD_NAME[card]
    if card.startswith("key ") or card == "skeleton":
        T.to_discard(s, card)
        if t["lock"]:
            t["lock"] = False
            T.to_discard(s, "padlock")
            state = "open" if t["open"] else "closed"
            events = [
                Event(f"{name} takes the padlock off {cell} with a skeleton key; "
                      f"the door stays {state}.", kind="unlock")
            ]  # fmt: skip
        else:
            events = toggle(s, seat, cell, f"with a {label}", after="move")
            if s.phase == "reveal":
                return events
    elif card == "padlock":
        t["lock"] = True
        events = [Event(f"{name} padlocks {cell}.", kind="padlock")]
    elif card == "hacksaw":
        t["sawn"] = True
        events = [Event(f"{name} saws through the bars of {cell}: it stays open for good.")]
    elif card == "passage":
        pair = sorted([s.first_end, cell])
        s.passages = sorted([*s.passages, pair])
        s.first_end = ""
        events = [Event(f"{name} opens a secret passage between {pair[0]} and {pair[1]}.")]
    else:  # net
        victim = s.at.index(cell)
        s.netted[victim] = TRAPPED_TURNS
        events = [
            Event(f"{name} throws a net over {s.names[victim]} on {cell}: "
                  f"trapped for their next {TRAPPED_TURNS} turns.", kind="net")
        ]  # fmt: skip
    return events + T.after_play(s)


def toggle(s: CastleState, seat: Seat, cell: str, how: str, after: str) -> list[Event]:
    t = s.tiles[cell]
    name = s.names[seat]
    if t["open"]:
        t["open"] = False
        return [Event(f"{name} closes the {t['colour']} door of {cell} {how}.", kind="close")]
    t["open"] = True
    event = Event(f"{name} opens the {t['colour']} door of {cell} {how}.", kind="open")
    if not t["kind"]:
        s.phase, s.reveal, s.after = "reveal", cell, after
        return [event]
    return [event, Event(f"It shows {K.kind_text(t['kind'])}.")]


def bonus(s: CastleState, seat: Seat, cell: str) -> list[Event]:
    events = toggle(s, seat, cell, "with the extra key tile", after="end")
    if s.phase == "reveal":
        return events
    return events + T.end_turn(s)


def describe_target(s: CastleState, cell: str) -> str:
    t = s.tiles[cell]
    card = s.card if s.phase == "target" else "extra key"
    colour = f"{t['colour']} " if t["colour"] else ""
    if card == "padlock":
        return f"Padlock {cell}"
    if card == "hacksaw":
        return f"Saw the bars of {cell}"
    if card == "net":
        victim = K.occupant(s, cell)
        return f"Net {s.names[victim]} on {cell}" if victim is not None else f"Net {cell}"
    if card == "passage":
        if s.first_end:
            return f"Passage {s.first_end} to {cell}"
        return f"Passage from {cell}"
    if t["lock"]:
        return f"Unlock {cell}"
    return f"{'Close' if t['open'] else 'Open'} {colour}door {cell}"
