"""Computer players for every game: information-set Monte Carlo tree search (`search.py`)
over the engine contract, with each game's own evaluation and rollout policy beside its
rules (`engines/<game>/ai.py`) where they pay.

`decide` is what the bot calls, on a worker (it takes only plain, picklable values): the
game by id, the state as dumped, the seat, the level and a seed drawn from the session's
generator, so the same call always gives the same action and a replay needs no AI.
"""

from __future__ import annotations

import random
from dataclasses import replace

from engines.ai.search import DEFAULT_LEVEL, LEVELS, Decision, Level, choose

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Decision", "Level", "choose", "decide"]


def decide(
    game_id: str, state: dict, seat: int, level: str, seed: int, scale: float = 1.0
) -> Decision:
    """Choose for `seat` in the dumped state (a module-level function for the CPU pool);
    `scale` shrinks the level's budget (tests play with a tiny one)."""
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
    return choose(game, loaded, seat, chosen, random.Random(seed))
