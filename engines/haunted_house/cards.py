"""The 53 cards of the haunted house deck, with our lightbulb values.

Room kinds carry their floor and their bulbs in their name: `room2b3` is a
second-floor room with 3 bulbs. A card's picture does not matter, only its floor
and its bulbs, so cards of one kind are interchangeable.
"""

from __future__ import annotations

from engines.text import Msg, in_context, plural

FLOORS = (1, 2, 3)
SLOTS = 2  # a left and a right room on every floor

# (floor, bulbs) -> how many room cards. First floor 4/4/4, second and third 4/3/3.
ROOM_COUNTS: dict[tuple[int, int], int] = {
    (1, 1): 4,
    (1, 2): 4,
    (1, 3): 4,
    (2, 1): 4,
    (2, 2): 3,
    (2, 3): 3,
    (3, 1): 4,
    (3, 2): 3,
    (3, 3): 3,
}

SPECIALS = ("hole", "bulb", "food", "elevator", "lightning", "wild")
SPECIAL_COUNTS = {"hole": 1, "bulb": 1, "food": 1, "elevator": 1, "lightning": 1, "wild": 2}
BASIC_COUNTS = {"ghost": 8, "cat": 6}


def room_kind(floor: int, bulbs: int) -> str:
    return f"room{floor}b{bulbs}"


ROOMS: dict[str, int] = {room_kind(f, b): f for (f, b) in ROOM_COUNTS}  # kind -> floor

BULBS: dict[str, int] = {room_kind(f, b): b for (f, b) in ROOM_COUNTS}
BULBS.update({"ghost": 0, "cat": 0, "wild": 1})
BULBS.update({k: 0 for k in SPECIALS if k != "wild"})

NAMES: dict[str, Msg] = {  # a card's name, said in the reader's language
    "ghost": in_context("card", "ghost"),
    "cat": in_context("card", "cat"),
    "wild": in_context("card", "room wild card"),
    "hole": in_context("card", "time space hole"),
    "bulb": in_context("card", "light bulb"),
    "food": in_context("card", "cat food"),
    "elevator": in_context("card", "elevator"),
    "lightning": in_context("card", "lightning"),
}


def _room_name(floor: int, bulbs: int) -> Msg:
    if floor == 1:
        return plural("first-floor room ({count} bulb)", "first-floor room ({count} bulbs)", bulbs)
    if floor == 2:
        return plural(
            "second-floor room ({count} bulb)", "second-floor room ({count} bulbs)", bulbs
        )
    return plural("third-floor room ({count} bulb)", "third-floor room ({count} bulbs)", bulbs)


for _kind, _floor in ROOMS.items():
    NAMES[_kind] = _room_name(_floor, BULBS[_kind])

# The order in which hands are kept and shown: rooms by floor and bulbs, then the rest.
ORDER: tuple[str, ...] = (*ROOMS, "wild", "ghost", "cat", *[k for k in SPECIALS if k != "wild"])


def full_deck(specials: bool) -> dict[str, int]:
    deck = {room_kind(f, b): n for (f, b), n in ROOM_COUNTS.items()}
    deck.update(BASIC_COUNTS)
    if specials:
        deck.update(SPECIAL_COUNTS)
    return deck


def sort_cards(cards: list[str]) -> list[str]:
    return sorted(cards, key=ORDER.index)
