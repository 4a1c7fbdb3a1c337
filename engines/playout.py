"""Random playouts: the conformance suite, the benchmarks and balance checks share them."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

from engines.contract import CHANCE, Game, Seat, State

Policy = Callable[[Game, State, Seat, list[str], random.Random], str]


def random_policy(
    game: Game, state: State, seat: Seat, legal: list[str], rng: random.Random
) -> str:
    return legal[int(rng.random() * len(legal))]


def pick_chance(outcomes: list[tuple[str, float]], u: float) -> str:
    """Pick an outcome by cumulative probability; `u` is uniform in [0, 1)."""
    total = 0.0
    for outcome, p in outcomes:
        total += p
        if u < total:
            return outcome
    return outcomes[-1][0]


@dataclass
class Playout:
    names: list[str]
    options: dict[str, str]
    log: list[tuple[Seat, str]] = field(default_factory=list)
    states: list[State] = field(default_factory=list)
    finished: bool = False


def configurations(game: Game) -> Iterator[tuple[int, dict[str, str]]]:
    """Every player count with every combination of option values, or with the tables a game
    names itself (`conformance_options`, where the full product says nothing more)."""
    names = sorted(game.options)
    own = getattr(game, "conformance_options", None)
    if own is not None:
        combos = [tuple(options[n] for n in names) for options in own()]
    else:
        combos = list(itertools.product(*(game.options[n].choices for n in names)))
    for values in combos:
        for players in range(game.min_players, game.max_players + 1):
            yield players, dict(zip(names, values, strict=True))


def play(
    game: Game,
    players: int,
    options: Mapping[str, str],
    seed: int,
    max_steps: int = 2000,
    policy: Policy = random_policy,
    keep_states: bool = False,
) -> Playout:
    rng = random.Random(seed)
    names = [f"P{i + 1}" for i in range(players)]
    out = Playout(names=names, options=dict(options))
    state = game.setup(names, options)
    if keep_states:
        out.states.append(state)
    for _ in range(max_steps):
        acting = game.to_act(state)
        if not acting:
            out.finished = True
            break
        if acting == [CHANCE]:
            seat, action = CHANCE, pick_chance(game.chance_outcomes(state), rng.random())
        else:
            seat = acting[int(rng.random() * len(acting))]
            action = policy(game, state, seat, game.legal_actions(state, seat), rng)
        state, _ = game.apply(state, seat, action)
        out.log.append((seat, action))
        if keep_states:
            out.states.append(state)
    if not keep_states:
        out.states.append(state)
    out.finished = out.finished or not game.to_act(state)
    return out
