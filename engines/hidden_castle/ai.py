"""How the AI judges and plays a Hidden Castle position (engines/ai).

`evaluate`: each player's score as it will stand (the standard game's lowest wins; Midnight
Party counts chambers and steps at the round's end, highest wins), less what the guests in
the Gallery just ahead of the Phantom are likely to cost: the chance the Phantom is rolled
before their owner moves again times the step a capture would take now (+10 first). Seats
are then compared pairwise.

`rollout`: a plain player, for hard's rollouts alone (TUNING): place a guest as far ahead
of the Phantom as it can stand, take the -3 chamber when the roll fits, get the guest in
most danger out of reach or into a chamber, never end on the Phantom, boot a rival out of a
chamber when it costs nothing, else move a guest to where the Phantom needs longest to
reach it (the dice keep the rollouts apart: the policy no longer moves at random).

`settled`: hard places its guests by that rule instead of searching (engines/ai/search.py):
a placement's worth shows only once the Phantom is out, past the search's horizon, so the
search placed at random, while the rule alone wins about half again as often as random
placement in play between rollout policies (docs/measurements.md).
"""

from __future__ import annotations

import math

from engines.hidden_castle import board
from engines.hidden_castle.board import CHAMBER, GALLERY, STAIRS
from engines.hidden_castle.game import HiddenCastle
from engines.hidden_castle.position import HiddenCastleState
from engines.text import msg

SEARCH_SCALE = 0.7
# engines/ai: only hard plays `rollout`; hard searches less, for its rollouts to fit its time
TUNING = {"normal": {"heuristics": False}, "hard": {"iterations": 700}}
PHANTOM = dict(board.DIE)["phantom"]  # the chance a roll is the Phantom


def reach(game: HiddenCastle, s: HiddenCastleState) -> int:
    return game.speed(s)


def ahead_of_phantom(s: HiddenCastleState, space: int) -> int:
    """How many spaces the Phantom needs to reach `space` (climbing out first)."""
    if s.phantom:
        return (space - s.phantom) % board.SPACES
    return board.CLIMB - s.climbed + (space - board.EXIT) % board.SPACES


def next_step_value(s: HiddenCastleState) -> float:
    """What a capture costs now: the highest free step's points (the standard game)."""
    steps = board.STEPS[s.variant]
    used = {s.pos[g] for g in range(len(s.owner)) if s.where[g] == STAIRS}
    free = [i for i in range(board.CAPTURE_STEPS) if i not in used]
    return abs(steps[free[0] if free else 0])


def rolls_before(s: HiddenCastleState, seat: int) -> int:
    """Rolls until `seat` moves again: the others', and this one's own if it is still to
    roll (a player who has rolled a number is about to move)."""
    n = len(s.names)
    others = (seat - s.turn) % n
    if others == 0:
        return 0 if s.phase == "move" else 1
    return others + (0 if s.phase == "roll" else -1) + 1


def danger(game: HiddenCastle, s: HiddenCastleState, g: int, rolls: int | None = None) -> float:
    """About how likely the Phantom is to catch guest g before its owner moves again."""
    if s.where[g] != GALLERY:
        return 0.0
    ahead = ahead_of_phantom(s, s.pos[g])
    if ahead == 0:
        return 1.0
    speed = reach(game, s)
    rolls = rolls_before(s, s.owner[g]) if rolls is None else rolls
    if ahead <= speed:
        return 1 - (1 - PHANTOM) ** max(1, rolls)
    if ahead <= 2 * speed:  # two Phantom rolls among the next few
        return 0.35 * (1 - (1 - PHANTOM) ** max(1, rolls - 1))
    return 0.0


def standing(game: HiddenCastle, s: HiddenCastleState, seat: int) -> float:
    """Higher is better, in points."""
    midnight = s.variant == board.MIDNIGHT
    steps = board.STEPS[s.variant]
    score = float(s.scores[seat])
    cost = 10.0 if midnight else next_step_value(s)
    rolls = rolls_before(s, seat)
    risk = 0.0
    for g in range(len(s.owner)):
        if s.owner[g] != seat:
            continue
        risk += danger(game, s, g, rolls) * cost
        if midnight:
            if s.where[g] == CHAMBER:
                score += board.COATS[s.variant].get(s.pos[g], 0)
            elif s.where[g] == STAIRS:
                score += steps[s.pos[g]]
    return (score if midnight else -score) - risk


def evaluate(game: HiddenCastle, s: HiddenCastleState) -> list[float]:
    n = len(s.names)
    value = [standing(game, s, p) for p in range(n)]
    out = []
    for p in range(n):
        duels = [1 / (1 + math.exp(-0.25 * (value[p] - value[o]))) for o in range(n) if o != p]
        out.append(sum(duels) / len(duels))
    return out


def _where_to(s: HiddenCastleState, action: str) -> tuple[int, int, int] | None:
    """(guest, chamber or 0, Gallery space it ends on) of a move, read off its words."""
    words = action.split()
    if words[0] not in ("move", "hide"):
        return None
    g = ord(words[1]) - ord("a")
    if words[0] == "hide":
        return g, int(words[2]), int(words[2])
    roll = int(s.roll)
    if s.where[g] == GALLERY:
        return g, 0, board.ahead(s.pos[g], roll)
    start = s.pos[g] if s.where[g] == CHAMBER else board.EXIT
    return g, 0, board.ahead(start, roll - 1)


def _worth(game: HiddenCastle, s: HiddenCastleState, seat: int, action: str) -> float:
    """What a move is worth to a plain player, in points (higher is better)."""
    plan = _where_to(s, action)
    if plan is None:  # stay
        return 0.0
    g, chamber, space = plan
    midnight = s.variant == board.MIDNIGHT
    speed = reach(game, s)
    before = ahead_of_phantom(s, s.pos[g]) if s.where[g] == GALLERY else None
    value = 0.0
    if before is not None and 0 < before <= speed:
        value += 6.0  # it was within the Phantom's reach
    elif before is not None and before <= 2 * speed:
        value += 2.0
    if chamber:
        coat = board.COATS[s.variant].get(chamber, 0)
        value += (coat if midnight else -coat) * 1.5 + 3.0
        if any(s.where[o] == CHAMBER and s.pos[o] == chamber for o in range(len(s.owner))):
            value += 2.0  # a rival booted out, into the Gallery
        return value
    if s.where[g] == CHAMBER:
        value -= 4.0  # out of safety for nothing
    elif s.where[g] == STAIRS:
        value -= 1.0
    after = ahead_of_phantom(s, space)
    if after == 0 and s.phantom:
        return -20.0  # onto the Phantom: caught at once
    if 0 < after <= speed:
        value -= 6.0
    elif after <= 2 * speed:
        value -= 2.0
    else:  # out of reach: the further ahead, the longer it stays so
        value += 2.0 * min(after, board.SPACES) / board.SPACES
    return value


def furthest_placement(s: HiddenCastleState, legal: list[str]) -> str:
    """The free space the Phantom needs longest to reach (the first of equals)."""
    return max(legal, key=lambda action: ahead_of_phantom(s, int(action.split()[1])))


SETTLED_REASON = msg("It is the free space the Phantom needs longest to reach.")


def settled(game: HiddenCastle, s: HiddenCastleState, seat: int, legal: list[str]) -> str | None:
    """A placement, made by rule (for the levels that play `rollout`); None: search."""
    return furthest_placement(s, legal) if s.phase == "place" else None


def rollout(game: HiddenCastle, s: HiddenCastleState, seat: int, legal: list[str], rng) -> str:
    """A plain player's move."""
    if s.phase == "place":
        return furthest_placement(s, legal)
    if s.phase != "move":
        return legal[int(rng.random() * len(legal))]
    best, best_value = legal[0], -math.inf
    for action in legal:
        value = _worth(game, s, seat, action) + 0.3 * rng.random()
        if value > best_value:
            best, best_value = action, value
    return best
