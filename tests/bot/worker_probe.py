"""Jobs that ask a CPU worker about itself, in a module that imports nothing a worker has
not already (bot.heap is the worker's own), so running them adds no module."""

import sys

from bot import heap


def modules() -> list[str]:
    return sorted(sys.modules)


_held: list[bytes] = []


def scatter(megabytes: int) -> int:
    """Allocate `megabytes` in blocks of 2 KB (glibc's heap, not Python's small-object
    arenas), keep one block in 64 and free the rest: freed memory glibc keeps, since the
    kept blocks pin the heap. The process's resident memory after, in bytes."""
    blocks = [bytes(2048) for _ in range(megabytes * 512)]
    _held.extend(blocks[::64])
    del blocks
    return heap.resident()


def given_back_at() -> int:
    """The worker's resident size when it last gave freed memory back (bot/worker_process.py)."""
    from bot import worker_process

    return worker_process._given_back_at
