"""How the AI judges a Haunted House position it has not played to the end (engines/ai).

A house is worth its rooms (the first to six escapes), more for lit floors (a ghost
cannot take them at once), less for a ghost waiting on a dark floor; a cat on guard and
a ghost in hand help a little. Seats are compared pairwise. `useful`: no `cancel` of a
choice of cards once begun. `rollout`: a plain player, for hard's rollouts alone.

Haunted House is mostly luck: more search alone did not set hard apart (hard beat normal 40%
of 20 matches, and 50% against a normal cut to 150 iterations), nor did the rollout policy
alone (normal with it beat normal without 55%). Both together did (70% of 20 matches), so
the policy is hard's alone (bench.ai, issue 28). Easy blunders more than elsewhere, for the
same reason: luck hides its mistakes.
"""

from __future__ import annotations

import math

from engines.haunted_house.cards import BULBS, ROOMS
from engines.haunted_house.game import HauntedHouse, HauntedState
from engines.haunted_house.house import haunt_floor, next_floor, parse_seat

# engines/ai: only hard plays `rollout`; easy plays half its moves at random (three in ten
# elsewhere): with three in ten, normal beat easy 79% of 100 matches, with half 90%
TUNING = {"easy": {"blunder": 0.5}, "normal": {"heuristics": False}}


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


def _keep(s: HauntedState, seat: int, card: str) -> float:
    """How much a card in hand is worth keeping: the next floor's rooms, ghosts and cats
    most, a room for a floor already full least."""
    nxt = next_floor(s.houses[seat]) or 4
    floor = ROOMS.get(card)
    if floor is None:
        return 2.0 if card in ("ghost", "cat", "wild") else 1.0
    return 3.0 if floor == nxt else 1.5 if floor == nxt + 1 else 0.2 if floor < nxt else 0.8


def rollout(game: HauntedHouse, s: HauntedState, seat: int, legal: list[str], rng) -> str:
    """A plain player's turn for the rollouts: defend, stop an escape, build, chase a ghost
    off with a cat, haunt a dark floor, light the top floor, discard the weakest cards."""
    if rng.random() < 0.15:
        return legal[int(rng.random() * len(legal))]
    step = s.step
    if step is not None and step.get("act") == "discard":
        chosen = step["chosen"]
        picks = [a for a in legal if a.startswith("with ")]
        if picks and len(chosen) < 2:
            return min(picks, key=lambda a: _keep(s, seat, a[5:]))
        return "done" if "done" in legal else legal[0]
    if step is not None and step.get("act") == "light":
        if "done" in legal:
            return "done"
        picks = [a for a in legal if a.startswith("with ")]
        return max(picks, key=lambda a: BULBS[a[5:]]) if picks else legal[0]
    if "cat" in legal:  # a ghost is coming: answer it
        return "cat"
    rooms = [a for a in legal if a.startswith("play ")]
    if rooms:  # a wild card is kept for when nothing else fits
        return next((a for a in rooms if a != "play wild"), rooms[0])
    ghosts = [a for a in legal if a.startswith("ghost ")]
    if s.windows and ghosts:  # someone is escaping: stop them
        return ghosts[0]
    house = s.houses[seat]
    for a in legal:
        if a.startswith("cat ") and house[int(a[4:]) - 1].ghosts:
            return a
    for a in ghosts:
        target = s.houses[parse_seat(a.split()[1], len(s.names))]
        floor = haunt_floor(target)
        if floor is not None and not target[floor - 1].lit:
            return a
    top_floor = haunt_floor(house)
    for verb in ("bulb", "light"):
        if top_floor is not None and f"{verb} {top_floor}" in legal:
            return f"{verb} {top_floor}"
    if "done" in legal:
        return "done"
    if "discard" in legal and rng.random() < 0.7:
        return "discard"
    return legal[int(rng.random() * len(legal))]
