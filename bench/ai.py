"""AI strength and speed: seeded matches per game and level (README, Development).

    .venv/bin/python -m bench.ai [--games ghosts18,castle_doors] [--matches 200]
        [--levels easy,normal,hard] [--dark-sizes 1,2,3,4]

For each game and level: the win rate of one AI seat against random players, and against
the level below, over two-player matches (the AI takes seat 0 and seat 1 in turn); the
median and 99th percentile of the time a search took (decisions with one legal move are
not searches and are left out). For Dark Castle: how often a party of bots escapes,
against a party of random players, at every party size. Every match is seeded, so a run
repeats exactly, except that a loaded machine can hit the time guard before the
iteration budget. The numbers are measurements, not test assertions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from engines import CHANCE, REGISTRY, Game
from engines.ai import choose
from engines.ai.search import sample

Timing = tuple[float, float]  # wall seconds, CPU seconds of the searching thread
Player = Callable[[Game, object, int, random.Random], tuple[str, Timing | None]]
LEVEL_ORDER = ("easy", "normal", "hard")
MAX_STEPS = 3000


def random_player(game: Game, state, seat: int, rng: random.Random) -> tuple[str, None]:
    legal = game.legal_actions(state, seat)
    return legal[int(rng.random() * len(legal))], None


def ai_player(level: str) -> Player:
    def play(game: Game, state, seat: int, rng: random.Random) -> tuple[str, Timing | None]:
        decision = choose(game, state, seat, level, random.Random(int(rng.random() * 2**62)))
        return decision.action, (decision.seconds, decision.cpu) if decision.iterations else None

    return play


def match(game: Game, players: list[Player], seed: int, times: list[Timing]) -> list[float]:
    """One game; returns each seat's reward (1 won, 0 lost, shared in a co-operative game)."""
    from engines.ai.search import rewards

    rng = random.Random(seed)
    names = [f"P{i + 1}" for i in range(len(players))]
    state = game.setup(names, {})
    for _ in range(MAX_STEPS):
        acting = game.to_act(state)
        if not acting:
            break
        if acting == [CHANCE]:
            state, _ = game.apply(state, CHANCE, sample(game.chance_outcomes(state), rng))
            continue
        seat = acting[0]
        action, took = players[seat](game, state, seat, rng)
        if took is not None:
            times.append(took)
        state, _ = game.apply(state, seat, action)
    return rewards(game, state, len(players))


def duel(game: Game, first: Player, second: Player, matches: int, times: list[Timing]) -> float:
    """The share of matches `first` wins against `second`, seats alternating."""
    won = 0.0
    for k in range(matches):
        seats = [first, second] if k % 2 == 0 else [second, first]
        mine = 0 if k % 2 == 0 else 1
        won += match(game, seats, 1000 + k, times)[mine]
    return won / matches


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def spread(times: list[Timing]) -> str:
    """CPU and wall time of the searches: median / 99th percentile."""
    if not times:
        return "-"
    cpu, wall = [c for _, c in times], [w for w, _ in times]
    return (
        f"{statistics.median(cpu):.2f}/{percentile(cpu, 0.99):.2f}  "
        f"{statistics.median(wall):.2f}/{percentile(wall, 0.99):.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="ghosts18,castle_doors,haunted_house,hidden_castle")
    parser.add_argument("--levels", default=",".join(LEVEL_ORDER))
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--dark-sizes", default="1,2,3,4")
    args = parser.parse_args()
    print(
        f"{'game':15} {'level':7} {'vs random':>9} {'vs below':>9}  "
        "CPU s median/p99  wall s median/p99"
    )
    for game_id in [g for g in args.games.split(",") if g]:
        game = REGISTRY[game_id]
        for level in [lv for lv in args.levels.split(",") if lv]:
            times: list[Timing] = []
            start = time.perf_counter()
            vs_random = duel(game, ai_player(level), random_player, args.matches, times)
            below = LEVEL_ORDER.index(level) - 1
            vs_below = (
                f"{duel(game, ai_player(level), ai_player(LEVEL_ORDER[below]), args.matches, times):9.0%}"
                if below >= 0
                else f"{'-':>9}"
            )
            print(
                f"{game_id:15} {level:7} {vs_random:9.0%} {vs_below}  {spread(times)}"
                f"   ({time.perf_counter() - start:.0f} s)",
                flush=True,
            )
    game = REGISTRY["dark_castle"]
    for size in [int(n) for n in args.dark_sizes.split(",") if n]:
        for level in [lv for lv in args.levels.split(",") if lv]:
            times = []
            bots = sum(match(game, [ai_player(level)] * size, 2000 + k, times)[0]
                       for k in range(args.matches))  # fmt: skip
            rand = sum(match(game, [random_player] * size, 2000 + k, [])[0]
                       for k in range(args.matches))  # fmt: skip
            print(
                f"dark_castle x{size}  {level:7} bots escape {bots / args.matches:.0%}, "
                f"random {rand / args.matches:.0%}  {spread(times)}",
                flush=True,
            )


if __name__ == "__main__":
    main()
