"""AI strength and speed: seeded matches per game and level (docs/development.md; its figures: docs/measurements.md).

    .venv/bin/python -m bench.ai [--games ghosts18,castle_doors,dark_castle] [--matches 100]
        [--levels easy,normal,hard] [--seats 2] [--dark-sizes 1,2,3,4] [--scale 1] [--jobs 1]
        [--against both|random|below|policy|hint]

For each competitive game and level: the win rate of one AI seat against random players,
and against the level below, over matches of `--seats` players (the AI's seat rotates; a
win is finishing first, a tie for first counts as a share); the median and 99th percentile
of the time a search took (decisions with one legal move are not searches and are left
out); where the game has a rollout policy, how often easy loses to a player who plays by it
without searching (a rough stand-in for a beginner's rules of thumb: Haunted House's is a
plain player, 18 Ghosts' half random). `--against hint` plays, instead, a player who always
takes `/escape hint`'s move (hard's search, its budget times `THOUGHT`, checked one turn
deep: `engines.ai.advise`) against normal, beside hard against normal on the same seeds:
the hint is worth taking when the first wins at least as often. Dark Castle runs only when named in `--games`: at
each party size, how often a party of bots escapes against a party of random players, and
how many steps a castle took (median and most). Every match is seeded, so a run repeats
exactly, except that a loaded machine can hit the time guard before the iteration budget.
`--jobs` plays matches in that many processes (the times are then those of a shared
machine). The numbers are measurements, not test assertions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace

from bot.service.learning.hints import LEVEL as HINT_LEVEL
from bot.service.learning.hints import THOUGHT
from engines import CHANCE, REGISTRY, Game
from engines.ai import LEVELS, advise, choose
from engines.ai.search import heuristics, rewards, sample

Timing = tuple[float, float]  # wall seconds, CPU seconds of the searching thread
Player = Callable[[Game, object, int, random.Random], tuple[str, Timing | None]]
LEVEL_ORDER = ("easy", "normal", "hard")
COMPETITIVE = "ghosts18,castle_doors,haunted_house,hidden_castle"
MAX_STEPS = 3000


def random_player(game: Game, state, seat: int, rng: random.Random) -> tuple[str, None]:
    legal = game.legal_actions(state, seat)
    return legal[int(rng.random() * len(legal))], None


@dataclass(frozen=True)
class AiPlayer:
    """A search at `level`, its budget scaled by `scale` (picklable, for `--jobs`)."""

    level: str
    scale: float = 1.0

    def __call__(self, game: Game, state, seat: int, rng: random.Random):
        lv = LEVELS[self.level]
        if self.scale != 1.0:
            lv = replace(lv, iterations=max(1, round(lv.iterations * self.scale)))
        decision = choose(game, state, seat, lv, random.Random(int(rng.random() * 2**62)))
        return decision.action, (decision.seconds, decision.cpu) if decision.iterations else None


@dataclass(frozen=True)
class HintPlayer:
    """Always plays the hint (`engines.ai.advise`, as `/escape hint` asks it)."""

    scale: float = 1.0

    def __call__(self, game: Game, state, seat: int, rng: random.Random):
        seed = int(rng.random() * 2**62)
        started, cpu = time.perf_counter(), time.process_time()
        advice = advise(game.id, game.dump(state), seat, HINT_LEVEL, seed, self.scale * THOUGHT)
        took = (time.perf_counter() - started, time.process_time() - cpu)
        return advice.action, took if advice.decision.iterations else None


@dataclass(frozen=True)
class PolicyPlayer:
    """The game's own rollout policy (its `ai.rollout`) played with no search: rules of thumb,
    as a beginner plays. Games without one have no such player."""

    def __call__(self, game: Game, state, seat: int, rng: random.Random) -> tuple[str, None]:
        legal = game.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0], None
        return heuristics(game).rollout(game, state, seat, legal, rng), None


@dataclass
class Played:
    rewards: list[float]
    steps: int
    times: list[tuple[int, Timing]] = field(default_factory=list)  # (seat, search time)


def match(game_id: str, players: list, seed: int) -> Played:
    """One game; each seat's reward (1 first, 0 last; shared in a co-operative game)."""
    game = REGISTRY[game_id]
    rng = random.Random(seed)
    state = game.setup([f"P{i + 1}" for i in range(len(players))], {})
    times: list[tuple[int, Timing]] = []
    steps = 0
    while steps < MAX_STEPS:
        acting = game.to_act(state)
        if not acting:
            break
        steps += 1
        if acting == [CHANCE]:
            state, _ = game.apply(state, CHANCE, sample(game.chance_outcomes(state), rng))
            continue
        seat = acting[0]
        action, took = players[seat](game, state, seat, rng)
        if took is not None:
            times.append((seat, took))
        state, _ = game.apply(state, seat, action)
    return Played(rewards(game, state, len(players)), steps, times)


PROGRESS = False  # --progress: each match's result as it ends (in order, so any jobs)


def _run(jobs: int, calls: list[tuple], first: int = 0, of: int | None = None) -> list[Played]:
    """The matches, each printed as its turn comes (--progress), so a long run stopped
    part way still says what it measured; `first`: how many of the `of` matches an earlier
    run played already (numbered on from there)."""
    of = of if of is not None else first + len(calls)
    if jobs <= 1:
        played = (match(*call) for call in calls)
        return [_said(k, of, p) for k, p in enumerate(played, start=first + 1)]
    with ProcessPoolExecutor(jobs) as pool:
        futures = [pool.submit(match, *call) for call in calls]
        return [_said(k, of, f.result()) for k, f in enumerate(futures, start=first + 1)]


def _said(k: int, of: int, played: Played) -> Played:
    if PROGRESS:
        print(f"  match {k}/{of}: {played.rewards}", flush=True)
    return played


def duel(
    game_id: str,
    mine: Player,
    other: Player,
    matches: int,
    seats: int,
    jobs: int,
    times: list[Timing],
    first: int = 0,
) -> float:
    """The share of matches `mine` wins against `other` in every other seat; `mine` sits in
    seat k mod `seats` in match k (seed 1000 + k). Only `mine`'s searches are timed (into
    `times`). `first`: a run continued, the matches before it left out (a long ladder
    measured over several sittings, each the same seeds it would have had)."""
    calls, where = [], []
    for k in range(first, matches):
        at = k % seats
        calls.append((game_id, [mine if s == at else other for s in range(seats)], 1000 + k))
        where.append(at)
    won = 0.0
    for at, played in zip(where, _run(jobs, calls, first, matches), strict=True):
        won += played.rewards[at]
        times += [took for seat, took in played.times if seat == at]
    return won / max(1, matches - first)


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


def hint_follower(args, game_id: str) -> None:
    """The hint-follower against normal, and hard against normal, over the same seeds."""
    normal = AiPlayer("normal", args.scale)
    for name, player in (("hint", HintPlayer(args.scale)), ("hard", AiPlayer("hard", args.scale))):
        times: list[Timing] = []
        start = time.perf_counter()
        share = duel(
            game_id, player, normal, args.matches, args.seats, args.jobs, times, args.first
        )
        print(
            f"{game_id:15} {name:7} {'-':>9} {share:9.0%}  {spread(times)}"
            f"   ({time.perf_counter() - start:.0f} s)",
            flush=True,
        )


def ladder(args, game_id: str) -> None:
    if args.against == "hint":
        hint_follower(args, game_id)
        return
    for level in [lv for lv in args.levels.split(",") if lv]:
        times: list[Timing] = []
        start = time.perf_counter()
        me = AiPlayer(level, args.scale)
        vs_random = f"{'-':>9}"
        if args.against in ("both", "random"):
            won = duel(
                game_id, me, random_player, args.matches, args.seats, args.jobs, times, args.first
            )
            vs_random = f"{won:9.0%}"
        has_policy = hasattr(heuristics(REGISTRY[game_id]), "rollout")
        if level == "easy" and has_policy and args.against in ("both", "policy"):
            lost = 1 - duel(
                game_id, me, PolicyPlayer(), args.matches, args.seats, args.jobs, [], args.first
            )
            print(f"{game_id:15} {'easy':7} loses to its rollout policy {lost:.0%}", flush=True)
        below = LEVEL_ORDER.index(level) - 1
        vs_below = f"{'-':>9}"
        if below >= 0 and args.against in ("both", "below"):
            lower = AiPlayer(LEVEL_ORDER[below], args.scale)
            share = duel(game_id, me, lower, args.matches, args.seats, args.jobs, times, args.first)
            vs_below = f"{share:9.0%}"
        print(
            f"{game_id:15} {level:7} {vs_random} {vs_below}  {spread(times)}"
            f"   ({time.perf_counter() - start:.0f} s)",
            flush=True,
        )


def parties(args) -> None:
    sizes = [int(n) for n in args.dark_sizes.split(",") if n]
    for size in sizes:
        rand = _run(
            args.jobs,
            [("dark_castle", [random_player] * size, 2000 + k) for k in range(args.matches)],
        )
        for level in [lv for lv in args.levels.split(",") if lv]:
            start = time.perf_counter()
            bots = _run(
                args.jobs,
                [
                    ("dark_castle", [AiPlayer(level, args.scale)] * size, 2000 + k)
                    for k in range(args.matches)
                ],
            )
            escaped = sum(p.rewards[0] for p in bots) / len(bots)
            random_escaped = sum(p.rewards[0] for p in rand) / len(rand)
            steps = [p.steps for p in bots]
            times = [t for p in bots for _, t in p.times]
            print(
                f"dark_castle x{size}  {level:7} bots escape {escaped:.0%}, random "
                f"{random_escaped:.0%}; steps a castle {statistics.median(steps):.0f} median, "
                f"{max(steps)} most  {spread(times)}   ({time.perf_counter() - start:.0f} s)",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=COMPETITIVE, help="dark_castle: the party section")
    parser.add_argument("--levels", default=",".join(LEVEL_ORDER))
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument(
        "--first",
        type=int,
        default=0,
        help="continue a run: start at this match (seed 1000 + it), the earlier ones left out",
    )
    parser.add_argument("--seats", type=int, default=2, help="players in a competitive match")
    parser.add_argument("--dark-sizes", default="1,2,3,4")
    parser.add_argument("--scale", type=float, default=1.0, help="share of each level's budget")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing matches")
    parser.add_argument(
        "--against", choices=("both", "random", "below", "policy", "hint"), default="both"
    )
    parser.add_argument("--progress", action="store_true", help="each match as it ends")
    args = parser.parse_args()
    global PROGRESS
    PROGRESS = args.progress
    games = [g for g in args.games.split(",") if g]
    if any(g != "dark_castle" for g in games):
        print(
            f"{'game':15} {'level':7} {'vs random':>9} {'vs below':>9}  "
            "CPU s median/p99  wall s median/p99"
        )
    for game_id in games:
        if game_id == "dark_castle":
            parties(args)
        else:
            ladder(args, game_id)


if __name__ == "__main__":
    main()
