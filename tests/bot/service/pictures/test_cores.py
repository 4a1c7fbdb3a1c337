"""ESCAPE_CPU_LAYOUT (bot/service/pictures/cores.py): with `split`, a bot's threads run on
one core and its CPU workers on the others, so a move's transaction never queues behind a
board being drawn; read from the system itself (each thread's and worker's affinity), in a
process of its own, since it pins every thread of the process it runs in."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.service.pictures import cores

ROOT = Path(__file__).resolve().parents[4]
CORES = sorted(cores.allowed())

# A bot's process in small: a thread started before the pool (the store's), the pool, a
# thread started after it, each worker's own cores; then the pool closed.
_PROBE = """
import asyncio, json, os, sys, threading
from bot.service.pictures.workers import CpuPool

async def affinities(pool):  # each worker's cores (a builtin: a worker unpickles it)
    return sorted(sorted(cores) for cores in await pool.on_each(os.sched_getaffinity, 0))

def threads():
    return sorted({tuple(sorted(os.sched_getaffinity(int(t)))) for t in os.listdir("/proc/self/task")})

async def main(layout, only):
    if only:
        os.sched_setaffinity(0, set(only))
    stop = threading.Event()
    before = threading.Thread(target=stop.wait, daemon=True); before.start()
    pool = CpuPool(2, layout=layout).start()
    while sum(w.ready for w in pool._pool) < 2:  # on_each asks the workers that are up
        await asyncio.sleep(0.05)
        await pool.on_each(os.getpid)
    workers = await affinities(pool)
    searched = sorted(await pool.run(os.sched_getaffinity, 0))  # a job nobody waits for
    boards = [sorted(await pool.run_waited_for(os.sched_getaffinity, 0)) for _ in range(4)]
    after = threading.Thread(target=stop.wait, daemon=True); after.start()
    pinned = threads()
    respawned = None
    victim = pool._pool[0].process
    victim.kill(); victim.wait()
    while True:  # the worker that takes its place
        await asyncio.sleep(0.05)
        ready = [w for w in pool._pool if w.ready and w.process is not victim]
        if len(ready) == 2:
            respawned = await affinities(pool)
            break
    await pool.close()
    freed = threads()
    stop.set(); before.join(); after.join()
    print(json.dumps({"workers": workers, "pinned": pinned, "respawned": respawned, "freed": freed,
                      "searched": searched, "boards": boards}))

asyncio.run(main(sys.argv[1], json.loads(sys.argv[2])))
"""


def _probe(layout: str, only: list[int] | None = None) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, layout, json.dumps(only or [])],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_split_of_a_machines_cores() -> None:
    assert cores.plan(cores.SPLIT, frozenset({0, 1, 2, 3})) == cores.Cores(
        frozenset({3}), frozenset({0, 1, 2})
    )
    assert cores.plan(cores.SPLIT, frozenset({4})) is None  # one core: nothing to split
    assert cores.plan(cores.SHARED, frozenset({0, 1})) is None


@pytest.mark.skipif(len(CORES) < 2, reason="a split needs two cores")
def test_split_keeps_the_bots_threads_off_its_workers_cores() -> None:
    """Every thread of the bot on its one core (those started before the pool and after),
    each worker on the others, a worker started in place of a dead one too; a job nobody
    waits for (an AI's search) on any core, and boards after it on the workers' again; once
    the pool is closed, the threads are free again."""
    seen = _probe(cores.SPLIT)
    bot, rest = [CORES[-1]], CORES[:-1]
    assert seen["pinned"] == [bot]
    assert seen["workers"] == [rest, rest] and seen["respawned"] == [rest, rest]
    assert seen["searched"] == CORES and seen["boards"] == [rest] * 4
    assert seen["freed"] == [CORES]


@pytest.mark.skipif(len(CORES) < 2, reason="a split needs two cores")
def test_shared_and_a_single_core_pin_nothing() -> None:
    for layout, only in ((cores.SHARED, None), (cores.SPLIT, CORES[:1])):
        seen = _probe(layout, only)
        allowed = only or CORES
        assert seen["pinned"] == [allowed] == seen["freed"]
        assert seen["workers"] == [allowed, allowed]
        assert seen["searched"] == allowed and seen["boards"] == [allowed] * 4
