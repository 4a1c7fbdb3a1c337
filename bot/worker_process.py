"""What a CPU worker process runs before its first job, kept apart from `bot.service`: a
worker imports only what its jobs need (`render` for a picture, about a third of a second),
never the whole service stack, which importing `bot.service.workers` would pull in.

`watch_parent` is the pool's initializer (see bot/service/workers.py for why a worker
watches its parent); `warm` is the job the pool sends each worker as it starts, so that
the renderers are imported while the bot itself is still starting."""

from __future__ import annotations

import os
import threading
import time

PARENT_POLL = 0.25  # seconds between a worker's looks at its parent


def watch_parent(parent: int) -> None:
    """Worker initializer: exit as soon as `parent` (the bot's pid) is no longer this
    process's parent; at once if it died before the worker got here."""
    if os.getppid() != parent:
        os._exit(0)
    threading.Thread(target=_exit_with, args=(parent,), name="parent-watch", daemon=True).start()


def _exit_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL)
    os._exit(0)  # nothing to save: every job is a pure function, its caller is gone


def warm() -> int:
    """Import the renderers (the first board then costs only its drawing)."""
    import render  # noqa: F401

    return os.getpid()
