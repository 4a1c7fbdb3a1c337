"""What start-up built, put out of the garbage collector's sight.

Everything imported and built before the first move (the modules of the bot, the engines,
the renderers, their tables and caches: some 100,000 objects in the bot's process) lives as
long as the process. Python's full collection walks all of it each time it runs, which took
20-30 ms here, a pause for whichever move or board was under way. `gc.freeze` moves what
exists now into a generation the collector never visits; what is made later is collected
as before. Called by what starts a long-lived process: the runner, each CPU worker, and
the bench in its stead (a terminal game is one player's and short: it does not freeze).

`give_back` returns freed memory to the system: a CPU worker calls it once its practice is
done, and when idle once it has grown by `GIVE_BACK` since (bot/worker_process.py).
"""

from __future__ import annotations

import gc
import os


def settle() -> None:
    """Collect what start-up left over (frozen, it would be kept for good), then freeze the
    rest: called once a process has imported and built what it keeps."""
    gc.collect()
    gc.freeze()


def resident() -> int:
    """This process's resident memory in bytes (0 where /proc has no statm)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def give_back() -> bool:
    """Return the pages of freed memory to the system (glibc's `malloc_trim`); whether any
    went back. A CPU worker's practice frees most of what its boards allocated, but glibc
    keeps the freed pages: measured, a worker stood at 126 MB after practice and 84 MB once
    they were returned, and 88 MB after 200 more boards. Nothing where the C library has no
    such call (musl, macOS)."""
    import ctypes

    trim = getattr(ctypes.CDLL(None), "malloc_trim", None)
    return bool(trim(0)) if trim is not None else False
