"""A turn's course: the deal and the draws (chance), cards leaving the hand, the move after
a card is played (unless a net holds the character), the tiles that give a bonus, the end of
the turn; and the tiles turned over the first time they are opened."""

from __future__ import annotations

from engines.castle_doors import board
from engines.castle_doors.castle import CastleState, count, kind_text, steps, undealt
from engines.castle_doors.words import DIRECTION, EDGE
from engines.contract import Event, Seat
from engines.text import msg


def chance(s: CastleState, outcome: str) -> list[Event]:
    if s.phase == "deal":
        cell = undealt(s)
        if cell:
            s.tiles[cell]["colour"] = outcome
            return []  # the finished castle is announced once, not tile by tile
        dealt = sum(len(h) for h in s.hands)
        target = dealt % len(s.names)
        events = take(s, target, outcome, dealt=True)
        if all(len(h) == board.HAND for h in s.hands):
            s.phase = "draw"
            events.append(
                Event(
                    msg(
                        "The castle is built and three cards are dealt to each player. {name} begins.",
                        name=s.names[0],
                    )
                )
            )
            events += start_draw(s)
        return events
    if s.phase == "draw":
        events = take(s, s.turn, outcome, dealt=False)
        return events + start_draw(s)
    # reveal
    cell = s.reveal
    s.tiles[cell]["kind"] = outcome
    s.reveal = ""
    events = [
        Event(msg("The door of {cell} swings open: {kind}.", cell=cell, kind=kind_text(outcome)))
    ]
    if s.after == "end":
        return events + end_turn(s)
    return events + after_play(s)


def take(s: CastleState, seat: Seat, card: str, dealt: bool) -> list[Event]:
    s.deck[card] -= 1
    s.hands[seat] = sorted([*s.hands[seat], card])
    name, named = s.names[seat], board.CARD_NAME[card]
    if dealt:
        return [
            Event(msg("{name} is dealt a card.", name=name), kind="draw"),
            Event(msg("You are dealt a {card}.", card=named), to=seat, kind="draw"),
        ]
    return [
        Event(msg("{name} draws a card.", name=name), kind="draw"),
        Event(msg("You draw a {card}.", card=named), to=seat, kind="draw"),
    ]


def start_draw(s: CastleState) -> list[Event]:
    """Draw up to four: one chance node a card, the discards reshuffled when needed."""
    events = []
    if len(s.hands[s.turn]) >= board.HAND_IN_TURN:
        s.phase = "play"
        return events
    if count(s.deck) == 0 and count(s.discard) > 0:
        s.deck = {k: s.deck.get(k, 0) + s.discard.get(k, 0) for k in board.CARDS}
        s.discard, s.discard_top = {}, ""
        events.append(
            Event(msg("The draw pile is empty: the discards are shuffled into a new one."))
        )
    if count(s.deck) == 0:  # every card is in a hand or on the castle: play what you hold
        if s.hands[s.turn]:
            s.phase = "play"
            return events
        return events + after_play(s)  # nothing to play; a net still holds
    s.phase = "draw"
    return events


def to_discard(s: CastleState, card: str) -> None:
    s.discard[card] = s.discard.get(card, 0) + 1
    s.discard_top = card


def from_hand(s: CastleState, seat: Seat, card: str) -> None:
    hand = list(s.hands[seat])
    hand.remove(card)
    s.hands[seat] = hand


def after_play(s: CastleState) -> list[Event]:
    """The card is played; now the move, unless a net holds the character."""
    seat = s.turn
    if not s.netted[seat]:
        s.phase = "move"
        return []
    s.netted[seat] -= 1
    name = s.names[seat]
    if s.netted[seat]:
        events = [
            Event(msg("{name} is caught in the net and cannot move (one more turn).", name=name))
        ]
    else:
        to_discard(s, "net")
        events = [Event(msg("{name} cannot move this turn; then the net comes off.", name=name))]
    return events + end_turn(s)


def move(s: CastleState, seat: Seat, verb: str, arg: str) -> list[Event]:
    name = s.names[seat]
    if verb == "stay":
        return [Event(msg("{name} stays put.", name=name)), *end_turn(s)]
    if verb == "exit":
        s.at[seat] = None
        return [
            Event(
                msg(
                    "{name} leaves the castle, back to the {edge} edge.",
                    name=name,
                    edge=EDGE[s.edges[seat]],
                )
            ),
            *end_turn(s),
        ]
    if verb == "enter":
        cell = arg
        events = [
            Event(msg("{name} enters the castle at {cell}.", name=name, cell=cell), kind="move")
        ]
    else:
        cell = steps(s, seat)[arg]
        said = dict(name=name, direction=DIRECTION[arg], cell=cell)
        if arg in board.DIAGONALS:
            moved = msg("{name} moves {direction} through the secret passage to {cell}.", **said)
        else:
            moved = msg("{name} moves {direction} to {cell}.", **said)
        events = [Event(moved, kind="move")]
    s.at[seat] = cell
    if cell in board.far_row(s.edges[seat], s.width, s.height):
        s.winner, s.phase = seat, "over"
        return [
            *events,
            Event(
                msg("{name} reaches the far side of the castle and wins!", name=name), kind="win"
            ),
        ]
    t = s.tiles[cell]
    if t["kind"] in ("extra key", "extra turn") and seat not in t["used"]:
        t["used"] = sorted([*t["used"], seat])
        if t["kind"] == "extra key":
            s.phase = "bonus"
            return [
                *events,
                Event(
                    msg(
                        "{name} lands on an extra key tile: one more door to open or close.",
                        name=name,
                    )
                ),
            ]
        s.extra = True
        events.append(
            Event(msg("{name} lands on an extra turn tile: a bonus turn follows.", name=name))
        )
    return events + end_turn(s)


def end_turn(s: CastleState) -> list[Event]:
    s.turns += 1
    s.card, s.first_end = "", ""
    if s.extra:
        s.extra = False
    else:
        s.turn = (s.turn + 1) % len(s.names)
    return start_draw(s)
