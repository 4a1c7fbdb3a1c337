"""`python -m bench.review [games] [--moves N]`: the cost of a game's review (`/escape
review`) for a game of N player moves (default 100), as the bot computes it: one job in
the worker pool (a real worker process), the chances judged after every move, the turning
moves and the AI's preferred moves, the chart drawn.

For each game a seeded game is played by the game's own rollout policy (a plain player)
and cut at its N-th player move (or taken whole if it ends sooner, which the report says).
Reported: the worker's CPU seconds (target: under 30), the wall time, and what the event
loop spent meanwhile (its own thread's CPU time and its longest stall, probed every 10
ms): the review must leave the loop free. Measurements on whatever machine runs it, not
test assertions.
"""

from __future__ import annotations

import asyncio
import sys
import time

from bot.service.learning.reviews import reviewed
from bot.service.pictures.workers import CpuPool
from engines import CHANCE, REGISTRY
from engines.ai.search import heuristics
from engines.playout import play

PLAYERS = {"hidden_castle": 3}


def timed_review(*args) -> tuple[float, int, int]:
    """In the worker: the review and its chart, and the CPU seconds they took there."""
    started = time.process_time()
    done, picture = reviewed(*args)
    return time.process_time() - started, len(done.points) - 1, len(picture.png) if picture else 0


def game_of(game_id: str, moves: int) -> tuple[list[str], dict, list[tuple[int, str]], int]:
    """A seeded game's names, options and log up to its `moves`-th player move."""
    game = REGISTRY[game_id]
    policy = getattr(heuristics(game), "rollout", None)
    kw = {"policy": policy} if policy else {}
    best = None
    for seed in range(1, 40):
        run = play(game, PLAYERS.get(game_id, 2), {}, seed, max_steps=20_000, **kw)
        made = sum(1 for seat, _ in run.log if seat >= 0)
        if best is None or made > best[1]:
            best = (run, made)
        if made >= moves:
            break
    run = best[0]
    entries, made = [], 0
    for seat, action in run.log:
        if seat >= 0:
            if made == moves:
                break
            made += 1
        if seat >= 0 or seat == CHANCE:
            entries.append((seat, action))
    return run.names, dict(run.options), entries, made


async def measure(game_id: str, moves: int, pool: CpuPool) -> dict[str, str]:
    names, options, entries, made = game_of(game_id, moves)
    game = REGISTRY[game_id]
    viewer = 0 if game.hidden_information else None
    stalls: list[float] = []
    done = asyncio.Event()

    async def probe() -> None:  # the loop's longest stall while the review runs
        while not done.is_set():
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            stalls.append(time.perf_counter() - before - 0.01)

    prober = asyncio.create_task(probe())
    wall, loop_cpu = time.perf_counter(), time.thread_time()
    cpu, points, png = await pool.run(
        timed_review, game_id, names, options, entries, viewer, 7, 1, "en", True
    )
    loop_cpu, wall = time.thread_time() - loop_cpu, time.perf_counter() - wall
    done.set()
    await prober
    stall = 1000 * max(stalls, default=0)
    whole = "" if made == moves else " (the whole game)"
    return {
        "game": game_id,
        "moves": f"{made}{whole}",
        "worker CPU s": f"{cpu:.1f}",
        "wall s": f"{wall:.1f}",
        "loop CPU s": f"{loop_cpu:.3f}",
        "loop's longest stall ms": f"{stall:.0f}",
        "chart KB": f"{png / 1024:.0f}",
        "points": str(points),
    }


async def main(argv: list[str]) -> int:
    moves = 100
    if "--moves" in argv:
        i = argv.index("--moves")
        moves = int(argv[i + 1])
        argv = argv[:i] + argv[i + 2 :]
    games = argv or sorted(REGISTRY)
    pool = CpuPool(1).start()
    try:
        await pool.run(abs, 1)  # the worker started (a stall of its own) before measuring
        for game_id in games:
            row = await measure(game_id, moves, pool)
            print("  ".join(f"{k}: {v}" for k, v in row.items()), flush=True)
    finally:
        await pool.close()
    return 0


if __name__ == "__main__":
    # run from the module by its name: a CPU worker imports `bench.review.timed_review` by
    # that name (it never runs the main script, so a job may not live in `__main__`)
    from bench import review

    sys.exit(asyncio.run(review.main(sys.argv[1:])))
