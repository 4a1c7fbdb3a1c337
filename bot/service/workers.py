"""CPU-bound work (pictures, AI decisions) off the event loop and on every core.

Threads share one GIL, so a picture drawn on a thread still stalls every other table on
a busy process; a process pool sized to the machine does not. The pool is started with
the bot and shut down with it; without one (tests, the terminal) work runs on a thread,
with the same results, since every job is a pure function of its arguments.

A worker ends when the bot that started it is gone, however it went (SIGKILL, the OOM
killer): otherwise it waits on the pool's call queue forever, since it and its sibling
workers hold that queue's write end open. Each worker watches its parent from a small
thread (`os.getppid()` changes once the parent has died and the worker was handed to
init or a subreaper). Linux's PR_SET_PDEATHSIG is not used: it fires when the *thread*
that started the worker ends, and the pool starts workers from whichever thread submits
work, so a finished thread would kill healthy workers and break the pool.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from functools import partial
from typing import Any, TypeVar

from bot.worker_process import warm, watch_parent

T = TypeVar("T")


def default_workers() -> int:
    """One worker per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class CpuPool:
    """Runs picklable module-level functions in worker processes (or on a thread)."""

    def __init__(self, workers: int = 0) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._in_flight = 0  # jobs handed to the pool and not yet answered
        self._warming: list[Future] = []  # each worker's warm-up, done once it has started

    def start(self) -> CpuPool:
        """Start the workers; `spawn` keeps them free of the parent's threads and loop (and
        makes this process each worker's parent, which the worker watches)."""
        if self.workers > 0 and self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=context,
                initializer=watch_parent,
                initargs=(os.getpid(),),
            )
            # the pool starts a worker only when a job waits for one: hand each its warm-up
            # now, so the renderers are imported while the bot is still starting, not on
            # the first board (nobody waits for these answers)
            self._warming = [self._pool.submit(warm) for _ in range(self.workers)]
        return self

    @property
    def in_processes(self) -> bool:
        return self._pool is not None

    @property
    def queue_length(self) -> int:
        """Jobs waiting for a free worker process (a metric: the pool is too small when it
        stays above 0)."""
        return max(0, self._in_flight - self.workers) if self._pool is not None else 0

    async def run(self, fn: Callable[..., T], /, *args: Any) -> T:
        if self._pool is None:
            return await asyncio.to_thread(fn, *args)
        loop = asyncio.get_running_loop()
        self._in_flight += 1
        try:
            return await loop.run_in_executor(self._pool, partial(fn, *args))
        finally:
            self._in_flight -= 1

    async def run_waited_for(self, fn: Callable[..., T], /, *args: Any) -> T:
        """A board somebody waits for: in a worker, or on a thread while no worker has
        started yet. A worker's start imports the renderers (half a second on a busy
        machine), so the first board after a restart would wait for it; this process has
        them already, and a picture is a pure function of its arguments, so it is the same.
        """
        if self._pool is not None and not any(w.done() for w in self._warming):
            return await asyncio.to_thread(fn, *args)
        return await self.run(fn, *args)

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
