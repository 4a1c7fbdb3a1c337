"""Computer players for every game: information-set Monte Carlo tree search (`search.py`)
over the engine contract, with each game's own evaluation and rollout policy beside its
rules (`engines/<game>/ai.py`) where they pay.

`decide` is what the bot calls, on a worker (it takes only plain, picklable values): the
game by id, the state as dumped, the seat, the level and a seed drawn from the session's
generator, so the same call always gives the same action and a replay needs no AI.
`advise` is what a hint calls: the same search, then the move checked one turn deep for a
threat it leaves open (`threats.py`).
"""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import dataclass, replace

from engines.ai.search import DEFAULT_LEVEL, LEVELS, Decision, Level, choose, heuristics
from engines.ai.threats import Threat, guard

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "Advice",
    "Decision",
    "Level",
    "Threat",
    "advise",
    "choose",
    "decide",
]


@dataclass(frozen=True)
class Advice:
    """A hint: the move, the search behind it, and the threat it stops (or that nothing
    stops)."""

    action: str
    decision: Decision
    answered: Threat | None = None
    open: Threat | None = None


def decide(
    game_id: str,
    state: dict,
    seat: int,
    level: str,
    seed: int,
    scale: float = 1.0,
    among: Collection[str] | None = None,
) -> Decision:
    """Choose for `seat` in the dumped state (a module-level function for the CPU pool);
    `scale` multiplies the level's budget (tests play with a tiny one, a hint with twice
    hard's); `among` narrows the moves searched."""
    from engines import REGISTRY  # here: engines/__init__ imports this package while loading

    game = REGISTRY[game_id]
    loaded = game.load(state)
    chosen = LEVELS[level]
    if scale != 1.0:
        chosen = replace(
            chosen,
            iterations=max(1, round(chosen.iterations * scale)),
            depth=max(1, round(chosen.depth * min(1.0, scale * 4))),
        )
    return choose(game, loaded, seat, chosen, random.Random(seed), among=among)


def advise(
    game_id: str, state: dict, seat: int, level: str, seed: int, scale: float = 1.0
) -> Advice:
    """`decide`, then the choice checked against what the opponents could win or score
    before `seat` moves again (a module-level function for the CPU pool)."""
    from engines import REGISTRY

    decision = decide(game_id, state, seat, level, seed, scale)
    ranked = decision.ranked
    if ranked and ranked[0][2] == 0:  # a win seen at once
        return Advice(decision.action, decision)
    game = REGISTRY[game_id]
    loaded = game.load(state)
    legal = game.legal_actions(loaded, seat)
    useful = getattr(heuristics(game), "useful", None)
    if useful is not None:
        legal = useful(game, loaded, seat, legal)
    if len(legal) < 2:
        return Advice(decision.action, decision)
    order = [decision.action, *(a for a, _, _ in ranked if a != decision.action)]
    order += [a for a in legal if a not in order]
    guarded = guard(game, loaded, seat, order, random.Random(seed))
    if guarded.action != decision.action and len(guarded.safe) > 1:
        # the search spent its budget mostly on moves the guard turned down: the moves
        # that stop the threat get a search of their own, so the best of them is played,
        # not merely the one the first search happened to visit most
        decision = decide(game_id, state, seat, level, seed, scale, among=guarded.safe)
        return Advice(decision.action, decision, guarded.answered, guarded.open)
    return Advice(guarded.action, decision, guarded.answered, guarded.open)
