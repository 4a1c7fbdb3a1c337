"""Jobs that ask a CPU worker about itself, in a module that imports nothing else (so a
worker that runs them imports no more than it already had)."""

import os
import sys


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
    return resident()


def resident() -> int:
    """This process's resident memory in bytes."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
