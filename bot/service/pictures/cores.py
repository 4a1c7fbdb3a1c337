"""Which cores the bot's own threads and its CPU workers run on (`ESCAPE_CPU_LAYOUT`).

A move wakes three things at once: the event loop's thread hands the board to a worker
and the transaction to the store's thread, then waits for both. On two cores the kernel
often queued the store's thread behind the worker that was drawing, though the loop's core
went idle microseconds later: the transaction began 0.2-1.7 ms late and the move cost its
picture plus its transaction (`python -m bench.move_path`, docs/measurements.md). `split`
keeps the bot's threads on one core and the workers on the others, so a move's
transaction and its picture do not queue behind each other: on 2 cores, every game's move
0.5-0.75 ms sooner after the bot's own work or after idle, the same or sooner back to back,
and at least as many moves a second with 24 tables (three alternated runs each). `shared` leaves every thread and worker free to run anywhere: for
several bot processes on one machine (deploy/compose.scale.yaml), whose threads would
otherwise all share one core, and on a machine of one core, where `split` changes nothing.
A job nobody waits for (an AI's search) may run on any core meanwhile
(`CpuPool._send`), or the boards beside it would share half a core with it.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass

SPLIT = "split"
SHARED = "shared"  # bot/settings.py reads ESCAPE_CPU_LAYOUT as one of these two


@dataclass(frozen=True)
class Cores:
    """The core the bot's threads run on, and those its workers run on."""

    bot: frozenset[int]
    workers: frozenset[int]


def allowed() -> frozenset[int]:
    """The cores this process may run on (a container's or `taskset`'s set); empty where the
    system does not say (not Linux)."""
    try:
        return frozenset(os.sched_getaffinity(0))
    except AttributeError:
        return frozenset()


def plan(layout: str, cores: frozenset[int] | None = None) -> Cores | None:
    """The split of `cores` (this process's) for `layout`; None where nothing is pinned: the
    layout is `shared`, or there are fewer than two cores to split."""
    cores = allowed() if cores is None else cores
    if layout != SPLIT or len(cores) < 2:
        return None
    bot = max(cores)  # the last: the first is where a machine's own daemons tend to land
    return Cores(frozenset({bot}), cores - {bot})


def pin_threads(cores: frozenset[int]) -> None:
    """Every thread of this process on `cores`; threads started later inherit it from the
    thread that starts them."""
    for tid in os.listdir("/proc/self/task"):
        with contextlib.suppress(OSError):  # a thread that has just ended
            os.sched_setaffinity(int(tid), cores)


def pin_process(pid: int, cores: frozenset[int]) -> None:
    """A worker (started by a pinned thread, so on the bot's core until now) on `cores`."""
    with contextlib.suppress(OSError):  # it has already exited: its loss is noticed anyway
        os.sched_setaffinity(pid, cores)
