"""How the AI judges a Haunted House position it has not played to the end (engines/ai).

A house is worth its rooms (the first to six escapes), more for lit floors (a ghost
cannot take them at once), less for a ghost waiting on a dark floor; a cat on guard and
a ghost in hand help a little. Seats are compared pairwise. `useful`: no `cancel` of a
choice of cards once begun.
"""

from __future__ import annotations

import math

from engines.haunted_house.game import HauntedHouse, HauntedState


def worth(s: HauntedState, seat: int) -> float:
    value = 0.0
    for floor in s.houses[seat]:
        rooms = len(floor.rooms)
        value += rooms * (1.0 if floor.lit else 0.8)
        if floor.ghosts and not floor.lit:
            value -= rooms
        value += 0.3 * floor.cats
    hand = s.hands[seat]
    value += 0.25 * hand.count("ghost") + 0.25 * hand.count("cat") + 0.05 * len(hand)
    return value


def evaluate(game: HauntedHouse, s: HauntedState) -> list[float]:
    n = len(s.names)
    value = [worth(s, p) for p in range(n)]
    out = []
    for p in range(n):
        duels = [1 / (1 + math.exp(-0.8 * (value[p] - value[o]))) for o in range(n) if o != p]
        out.append(sum(duels) / len(duels))
    return out


def useful(game: HauntedHouse, s: HauntedState, seat: int, legal: list[str]) -> list[str]:
    """Once a choice of cards has begun (lighting a floor, a discard), `cancel` would only
    undo it: a search that may cancel starts and cancels the same choice for ever (seen at
    hard level). The choice is finished instead; cancel stays if nothing else is left."""
    if s.step and s.step.get("act") in ("light", "discard"):
        return [a for a in legal if a != "cancel"] or legal
    return legal
