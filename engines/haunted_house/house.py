"""A haunted house game's state and the small facts about a house (rulebook: floors 1 to 3,
explored bottom up, three rooms a floor; a floor is lit with 2 or 3 cards of 5 bulbs or more).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from engines.contract import Seat
from engines.haunted_house.cards import BULBS, FLOORS, SLOTS
from engines.reactions import Window

HAND = 3
LIGHT_BULBS = 5  # bulbs needed to turn on a light, with 2 or 3 cards
DEFEND, ESCAPE = "defend", "escape"


@dataclass
class Floor:
    rooms: list[str] = field(default_factory=list)  # the room cards on it, face up
    lit: bool = False
    ghosts: int = 0
    cats: int = 0


def new_house() -> list[Floor]:
    return [Floor() for _ in FLOORS]


@dataclass
class HauntedState:
    names: list[str]
    specials: bool = True
    hands: list[list[str]] = field(default_factory=list)  # kept in cards.ORDER
    houses: list[list[Floor]] = field(default_factory=list)  # floors 1..3 at index 0..2
    deck: dict[str, int] = field(default_factory=dict)  # kind -> count; its order is chance
    discard: dict[str, int] = field(default_factory=dict)
    turn: Seat = 0
    step: dict | None = None  # the active player's unfinished multi-step action
    windows: list[Window] = field(default_factory=list)  # nested reaction windows, last on top
    draws: list[list[int]] = field(default_factory=list)  # [seat, hand size to reach], in order
    winner: Seat | None = None
    turns: int = 0
    last: str | dict = ""  # the last public events, a message as JSON


# ----- small facts about a house --------------------------------------------------------
def next_floor(house: list[Floor]) -> int | None:
    """The floor a room card goes on: the lowest one not yet fully explored."""
    for f in FLOORS:
        if len(house[f - 1].rooms) < SLOTS:
            return f
    return None


def haunt_floor(house: list[Floor]) -> int | None:
    """The floor a ghost targets: the highest floor with a room card, or None."""
    for f in reversed(FLOORS):
        if house[f - 1].rooms:
            return f
    return None


def complete(house: list[Floor]) -> bool:
    return next_floor(house) is None


def may_light(house: list[Floor], floor: int) -> bool:
    """A dark floor whose lower floors are all fully explored (the first floor always)."""
    below = all(len(house[g - 1].rooms) == SLOTS for g in FLOORS if g < floor)
    return not house[floor - 1].lit and below


def bulbs(cards: Sequence[str]) -> int:
    return sum(BULBS[c] for c in cards)


def light_sets_possible(chosen: list[str], rest: list[str]) -> bool:
    """Can `chosen` plus some of `rest` make 2 or 3 cards with at least 5 bulbs?"""
    for extra in range(0, 4 - len(chosen)):
        if len(chosen) + extra < 2:
            continue
        for more in itertools.combinations(rest, extra):
            if bulbs(chosen) + bulbs(more) >= LIGHT_BULBS:
                return True
    return False


def minus(cards: list[str], taken: list[str]) -> list[str]:
    rest = list(cards)
    for card in taken:
        rest.remove(card)
    return rest


def seat_tag(seat: Seat) -> str:
    return f"p{seat + 1}"


def parse_seat(tag: str, players: int) -> Seat | None:
    if len(tag) == 2 and tag[0] == "p" and tag[1].isdigit() and 1 <= int(tag[1]) <= players:
        return int(tag[1]) - 1
    return None


# ----- cards moving between hands and the discard pile ---------------------------------
def take(s: HauntedState, seat: Seat, kind: str) -> None:
    s.hands[seat].remove(kind)


def to_discard(s: HauntedState, kind: str, count: int = 1) -> None:
    if count:
        s.discard[kind] = s.discard.get(kind, 0) + count
