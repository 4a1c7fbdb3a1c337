"""Seeded random games for the pictures' tests: the states where a player decides."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engines import CHANCE, REGISTRY
from engines.playout import pick_chance


def decisions(
    game_id: str, names: list[str], seed: int, options: dict | None = None, steps: int = 160
) -> Iterator[tuple[dict, int]]:
    """(state, seat to act) along a seeded random game, chance drawn by the same seed."""
    game = REGISTRY[game_id]
    state = game.setup(names, options or {})
    rng = random.Random(seed)
    for _ in range(steps):
        acting = game.to_act(state)
        if not acting or game.result(state) is not None:
            return
        seat = acting[0]
        if seat == CHANCE:
            state, _ = game.apply(
                state, seat, pick_chance(game.chance_outcomes(state), rng.random())
            )
            continue
        yield state, seat
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
