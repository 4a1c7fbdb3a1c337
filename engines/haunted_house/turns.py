"""The end of a turn: refilling the hand, an escape once a house is fully explored (the
others may answer with ghosts), and the draws of chance with the discard pile reshuffled
when the deck runs out."""

from __future__ import annotations

from engines.contract import Event
from engines.haunted_house.cards import NAMES, sort_cards
from engines.haunted_house.house import ESCAPE, HAND, HauntedState, complete
from engines.reactions import Window, ordered_after
from engines.text import msg, plural


def end_turn(s: HauntedState) -> list[Event]:
    seat = s.turn
    s.step = None
    n = len(s.names)
    if complete(s.houses[seat]):
        s.windows.append(
            Window(
                kind=ESCAPE,
                seats=ordered_after(seat, n),
                answers=["ghost"],
                limit=2 if n == 2 else 1,
                data={"escaper": seat},
            )
        )
        if n == 2:
            text = msg(
                "{name}'s house is fully explored: escape! To stop it, the other player may play up to 2 ghosts.",
                name=s.names[seat],
            )
        else:
            text = msg(
                "{name}'s house is fully explored: escape! To stop it, each other player may play a ghost.",
                name=s.names[seat],
            )
        return [Event(text, kind="escape")]
    s.draws.append([seat, HAND])
    s.turn = (seat + 1) % n
    s.turns += 1
    return []


def escape_goes_on(s: HauntedState) -> list[Event]:
    window = s.windows[-1]
    escaper = window.data["escaper"]
    n = len(s.names)
    if not complete(s.houses[escaper]):
        s.windows.pop()
        s.draws += [[(escaper + k) % n, HAND] for k in range(n)]
        s.turn = (escaper + 1) % n
        s.turns += 1
        text = msg(
            "The escape is stopped! Everyone refills; {name} plays next.", name=s.names[s.turn]
        )
        return [Event(text, kind="stopped")]
    if window.is_open:
        return []
    s.windows.pop()
    s.winner = escaper
    said = msg("{name} escapes from the haunted house and wins!", name=s.names[escaper])
    return [Event(said, kind="win")]


def draw(s: HauntedState, kind: str) -> list[Event]:
    seat = s.draws[0][0]
    s.deck[kind] -= 1
    if not s.deck[kind]:
        del s.deck[kind]
    s.hands[seat] = sort_cards([*s.hands[seat], kind])
    return [
        Event(msg("{name} draws a card.", name=s.names[seat]), kind="draw"),
        Event(msg("You draw a {card}.", card=NAMES[kind]), to=seat, kind="draw"),
    ]


def settle(s: HauntedState) -> list[Event]:
    """Drop finished draws; reshuffle the discard pile when the deck runs out."""
    events = []
    while s.draws:
        seat, size = s.draws[0]
        if len(s.hands[seat]) >= size:
            s.draws.pop(0)
        elif s.deck:
            break
        elif s.discard:
            s.deck, s.discard = s.discard, {}
            n = sum(s.deck.values())
            events.append(
                Event(
                    plural(
                        "The deck is empty: the {count} discarded card is shuffled.",
                        "The deck is empty: the {count} discarded cards are shuffled.",
                        n,
                    )
                )
            )
        else:  # every card is in a hand or a house: nothing to draw
            s.draws.pop(0)
    return events
