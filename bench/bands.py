"""`python -m bench.bands`: band reuse with many tables moving at once (issue 58).

A move's board is painted on the canvas its table's last board was (render/work.py), kept
by the worker that drew it, and deflates only the bands of rows that changed. Boards of N tables, interleaved (each table's next
board after one of every other table's), are drawn through a pool of CPU workers as the
bot draws them, in two ways: as before issue 58 (any free worker draws a board, which
is painted on the last canvas of its game and language that worker kept), and now (a
table's boards go to its worker, which keeps that table's canvas). Prints, for 1, 2 and 24
tables, the share of rows not deflated again and the median and p99 time to encode a board.
Measurements on whatever machine runs it, not test assertions: say how loaded it was.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics

from bot.service.pictures.workers import CpuPool
from engines import REGISTRY
from engines.playout import play
from render import work


def _boards(tables: int, moves: int, games: list[str]) -> list[tuple[str, list[dict]]]:
    """Each table's game and its public views, one per move, from seeded random games
    (the tables' games taken in turn from `games`)."""
    out = []
    for table in range(tables):
        game = REGISTRY[games[table % len(games)]]
        players = max(2, game.min_players) if game.max_players > 1 else 1
        run = play(game, players, {}, seed=100 + table, max_steps=moves + 1, keep_states=True)
        out.append((game.id, [game.view(state, None) for state in run.states[: moves + 1]]))
    return out


async def _measure(
    tables: int, moves: int, workers: int, by_table: bool, games: list[str]
) -> tuple[float, float, float]:
    """(share of rows not deflated again, median and p99 encode ms) of `tables` tables' boards."""
    pool = CpuPool(workers).start()
    try:
        while len(set(await pool.on_each(os.getpid))) < workers:  # every worker up
            await pool.run(os.getpid)
            await asyncio.sleep(0.2)
        before = await pool.on_each(work.reuse)
        views = _boards(tables, moves, games)
        encode: list[float] = []
        for step in range(moves + 1):
            drawing = []
            for table, (game_id, table_views) in enumerate(views):
                if step >= len(table_views):
                    continue
                table_id = 1000 + table if by_table else None
                drawing.append(
                    pool.run_waited_for(
                        work.board,
                        game_id,
                        table_views[step],
                        None,
                        "en",
                        None,
                        (table_id, None),
                        home=table_id,
                    )
                )
            for _png, _alt, _drawn, encoded in await asyncio.gather(*drawing):
                encode.append(encoded)
        after = await pool.on_each(work.reuse)
        rows = sum(a[1] for a in after) - sum(b[1] for b in before)
        deflated = sum(a[2] for a in after) - sum(b[2] for b in before)
        encode.sort()
        return (
            1 - deflated / max(1, rows),
            statistics.median(encode) * 1000,
            encode[int(len(encode) * 0.99)] * 1000,
        )
    finally:
        await pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bands", description=__doc__)
    parser.add_argument("--tables", default="1,2,24")
    parser.add_argument("--moves", type=int, default=40, help="boards per table")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--games", default=",".join(sorted(REGISTRY)), help="tables' games, in turn"
    )
    args = parser.parse_args()
    games = args.games.split(",")
    print(
        f"{'tables':>6} {'boards go to':<20} {'rows kept':>12} {'encode p50 ms':>13} {'p99 ms':>7}"
    )
    for tables in [int(n) for n in args.tables.split(",")]:
        for by_table, name in ((False, "any free worker"), (True, "the table's worker")):
            share, p50, p99 = asyncio.run(
                _measure(tables, args.moves, args.workers, by_table, games)
            )
            print(
                f"{tables:>6} {name:<20} {share * 100:>11.0f}% {p50:>13.1f} {p99:>7.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
