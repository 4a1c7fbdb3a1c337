"""Several bot processes on one database (issue 13), real spawned processes on a real
SQLite file or PostgreSQL server: four processes moving in 50 games at the same instant all
succeed; then ten presses of one button spread over the processes apply exactly once."""

from __future__ import annotations

import asyncio
import multiprocessing as mp

from bot.service import GameService
from tests.bot.conftest import on_both
from tests.bot.press_worker import press_rounds
from tests.bot.store.test_store_concurrency import _tables

PROCESSES = 4


def _in_processes(target: str, rounds: list[list]) -> list[list[str]]:
    """Each round's presses dealt round-robin to the processes; outcomes per round."""
    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(PROCESSES)
    results = ctx.Queue()
    procs = [
        ctx.Process(
            target=press_rounds,
            args=(target, [r[i::PROCESSES] for r in rounds], barrier, results),
        )
        for i in range(PROCESSES)
    ]
    for p in procs:
        p.start()
    per_process = [results.get(timeout=180) for _ in procs]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    return [[o for proc in per_process for o in proc[n]] for n in range(len(rounds))]


@on_both
async def test_four_processes_fifty_games_then_one_button_ten_times(store, db_target):
    service = GameService(store, seed_source=lambda: 1234, pictures=False)
    tables = await _tables(service, 51)
    fifty, (c, u, d, contested) = tables[:50], tables[50]
    rounds = [[(c, u, d) for c, u, d, _ in fifty], [(c, u, d)] * 10]
    moves, presses = await asyncio.to_thread(_in_processes, str(db_target), rounds)

    assert moves == ["ok"] * 50  # no refusal without a conflict
    for *_, sid in fifty:
        assert len(await store.log(sid)) == 1

    assert presses.count("ok") == 1  # the button applies once; the others hear why not
    for o in presses:
        assert o == "ok" or (
            o.startswith("UserError") and ("moved on" in o or "board has changed" in o)
        ), o
    assert len(await store.log(contested)) == 1
