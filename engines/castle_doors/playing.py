"""The cards (rulebook: keys, skeleton key, padlock, hacksaw, secret passage, net): what each
can act on, what it does there, and the extra key tile's door."""

from __future__ import annotations

from engines.castle_doors import board, castle, turn
from engines.castle_doors.castle import TRAPPED_TURNS, CastleState
from engines.castle_doors.words import COLOUR
from engines.contract import Event, Seat
from engines.text import Msg, msg, plural


def targets(s: CastleState, card: str) -> list[str]:
    seat = s.turn
    if card.startswith("key "):
        return castle.toggles(s, card[4:])
    if card == "skeleton":
        return [c for c, t in s.tiles.items() if t["lock"]] + castle.toggles(s, None)
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
            return castle.passage_ends(s, s.first_end)
        used = {board.corner(a, b) for a, b in s.passages}
        return [c for c in s.tiles if castle.passage_ends(s, c, used)]
    if card == "net":
        return [
            cell
            for other, cell in enumerate(s.at)
            if other != seat and cell is not None and s.netted[other] == 0
        ]
    return []


def has_target(s: CastleState, card: str) -> bool:
    """Whether `card` can be played now (`targets` is not empty), found without listing
    them all: the search asks it for every card of every hand it looks at."""
    if card == "padlock":
        return any(not t["lock"] and c not in s.at for c, t in s.tiles.items())
    if card == "passage" and not s.first_end:
        used = {board.corner(a, b) for a, b in s.passages}
        return any(castle.passage_ends(s, c, used) for c in s.tiles)
    if card.startswith("key ") or card == "skeleton":
        colour = None if card == "skeleton" else card[4:]
        return any(
            (colour is None or t["colour"] == colour)
            and ((t["lock"] and colour is None) or castle.can_open(s, c) or castle.can_close(s, c))
            for c, t in s.tiles.items()
        )
    return bool(targets(s, card))


def choose(s: CastleState, seat: Seat, card: str) -> list[Event]:
    s.phase, s.card, s.first_end = "target", card, ""
    if card == "passage":
        said = msg(
            "Choose the first end of the passage for your {card}, or `back`.",
            card=board.CARD_NAME[card],
        )
    else:
        said = msg("Choose a target for your {card}, or `back`.", card=board.CARD_NAME[card])
    return [Event(said, to=seat)]


def discard(s: CastleState, seat: Seat, card: str) -> list[Event]:
    turn.from_hand(s, seat, card)
    turn.to_discard(s, card)
    events = [
        Event(
            msg(
                "{name} discards a {card} for nothing.",
                name=s.names[seat],
                card=board.CARD_NAME[card],
            )
        )
    ]
    return events + turn.after_play(s)


def target(s: CastleState, seat: Seat, cell: str) -> list[Event]:
    card, name = s.card, s.names[seat]
    if card == "passage" and not s.first_end:
        s.first_end = cell
        return [Event(msg("Now choose the tile diagonal to {cell}.", cell=cell), to=seat)]
    turn.from_hand(s, seat, card)
    s.card, s.phase = "", "play"
    t = s.tiles[cell]
    label = board.CARD_NAME[card]
    if card.startswith("key ") or card == "skeleton":
        turn.to_discard(s, card)
        if t["lock"]:
            t["lock"] = False
            turn.to_discard(s, "padlock")
            if t["open"]:
                said = msg(
                    "{name} takes the padlock off {cell} with a skeleton key; the door stays open.",
                    name=name,
                    cell=cell,
                )
            else:
                said = msg(
                    "{name} takes the padlock off {cell} with a skeleton key; the door stays closed.",
                    name=name,
                    cell=cell,
                )
            events = [Event(said, kind="unlock")]
        else:
            events = toggle(s, seat, cell, msg("with a {card}", card=label), after="move")
            if s.phase == "reveal":
                return events
    elif card == "padlock":
        t["lock"] = True
        events = [Event(msg("{name} padlocks {cell}.", name=name, cell=cell), kind="padlock")]
    elif card == "hacksaw":
        t["sawn"] = True
        events = [
            Event(
                msg(
                    "{name} saws through the bars of {cell}: it stays open for good.",
                    name=name,
                    cell=cell,
                )
            )
        ]
    elif card == "passage":
        pair = sorted([s.first_end, cell])
        s.passages = sorted([*s.passages, pair])
        s.first_end = ""
        events = [
            Event(
                msg(
                    "{name} opens a secret passage between {start} and {end}.",
                    name=name,
                    start=pair[0],
                    end=pair[1],
                )
            )
        ]
    else:  # net
        victim = s.at.index(cell)
        s.netted[victim] = TRAPPED_TURNS
        events = [
            Event(
                plural(
                    "{name} throws a net over {victim} on {cell}: trapped for their next {count} turn.",
                    "{name} throws a net over {victim} on {cell}: trapped for their next {count} turns.",
                    TRAPPED_TURNS,
                    name=name,
                    victim=s.names[victim],
                    cell=cell,
                ),
                kind="net",
            )
        ]
    return events + turn.after_play(s)


def toggle(s: CastleState, seat: Seat, cell: str, how: Msg, after: str) -> list[Event]:
    t = s.tiles[cell]
    said = dict(name=s.names[seat], colour=COLOUR.get(t["colour"], t["colour"]), cell=cell, how=how)
    if t["open"]:
        t["open"] = False
        return [
            Event(msg("{name} closes the {colour} door of {cell} {how}.", **said), kind="close")
        ]
    t["open"] = True
    event = Event(msg("{name} opens the {colour} door of {cell} {how}.", **said), kind="open")
    if not t["kind"]:
        s.phase, s.reveal, s.after = "reveal", cell, after
        return [event]
    return [event, Event(msg("It shows {kind}.", kind=castle.kind_text(t["kind"])))]


def bonus(s: CastleState, seat: Seat, cell: str) -> list[Event]:
    events = toggle(s, seat, cell, msg("with the extra key tile"), after="end")
    if s.phase == "reveal":
        return events
    return events + turn.end_turn(s)


def describe_target(s: CastleState, cell: str) -> Msg:
    """A target's button."""
    t = s.tiles[cell]
    card = s.card if s.phase == "target" else "extra key"
    if card == "padlock":
        return msg("Padlock {cell}", cell=cell)
    if card == "hacksaw":
        return msg("Saw the bars of {cell}", cell=cell)
    if card == "net":
        victim = castle.occupant(s, cell)
        if victim is not None:
            return msg("Net {name} on {cell}", name=s.names[victim], cell=cell)
        return msg("Net {cell}", cell=cell)
    if card == "passage":
        if s.first_end:
            return msg("Passage {start} to {cell}", start=s.first_end, cell=cell)
        return msg("Passage from {cell}", cell=cell)
    if t["lock"]:
        return msg("Unlock {cell}", cell=cell)
    if t["colour"]:
        colour = COLOUR.get(t["colour"], t["colour"])
        if t["open"]:
            return msg("Close {colour} door {cell}", colour=colour, cell=cell)
        return msg("Open {colour} door {cell}", colour=colour, cell=cell)
    if t["open"]:
        return msg("Close door {cell}", cell=cell)
    return msg("Open door {cell}", cell=cell)
