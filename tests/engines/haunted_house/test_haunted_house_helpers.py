"""Scenario helpers for the Haunted House tests (no tests here): build a table, force draws."""

from __future__ import annotations

from engines import CHANCE, REGISTRY
from engines.haunted_house import cards as C
from engines.haunted_house.game import Floor, HauntedState

G = REGISTRY["haunted_house"]
NAMES = ["Ann", "Bob", "Cy", "Di"]


def fl(rooms: int = 0, lit: bool = False, ghosts: int = 0, cats: int = 0, f: int = 1) -> Floor:
    return Floor(rooms=[f"room{f}b1"] * rooms, lit=lit, ghosts=ghosts, cats=cats)


def house(*floors: dict) -> list[Floor]:
    """house({"rooms": 2, "lit": True}, {"rooms": 1}) -> floors 1, 2 (3 stays empty)."""
    specs = [*floors] + [{}] * (3 - len(floors))
    return [fl(f=i + 1, **spec) for i, spec in enumerate(specs)]


def table(
    hands: list[list[str]],
    houses: dict[int, list[Floor]] | None = None,
    turn: int = 0,
    deck: dict[str, int] | None = None,
    specials: bool = True,
) -> HauntedState:
    n = len(hands)
    s = G.setup(NAMES[:n], {"specials": "on" if specials else "off"})
    s.draws = []
    s.hands = [C.sort_cards(h) for h in hands]
    for seat, h in (houses or {}).items():
        s.houses[seat] = h
    s.turn = turn
    if deck is not None:
        s.deck = dict(deck)
    return G.load(G.dump(s))  # a clean, JSON-true state


def act(s: HauntedState, seat: int, *actions: str) -> HauntedState:
    for action in actions:
        s, _ = G.apply(s, seat, action)
    return s


def draw(s: HauntedState, *kinds: str) -> HauntedState:
    for kind in kinds:
        assert G.to_act(s) == [CHANCE]
        s, _ = G.apply(s, CHANCE, kind)
    return s
