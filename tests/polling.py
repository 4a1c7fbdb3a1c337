"""Waiting in tests: a check polled until it holds, with a deadline, never a fixed sleep
(a fixed sleep is too short on a loaded machine and wasted on a quiet one)."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable
from typing import Any


async def until(
    check: Callable[[], Any], timeout: float = 5.0, every: float = 0.02, what: str = ""
) -> Any:
    """What `check()` (a plain or an async function) answers once it is true; TimeoutError
    naming `what` when `timeout` seconds pass first."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = check()
        if inspect.isawaitable(found):
            found = await found
        if found:
            return found
        if loop.time() > deadline:
            raise TimeoutError(f"never: {what or check}")
        await asyncio.sleep(every)


def until_now(
    check: Callable[[], Any], timeout: float = 5.0, every: float = 0.02, what: str = ""
) -> Any:
    """`until` for a test without an event loop (a process it drives, a thread)."""
    deadline = time.monotonic() + timeout
    while not (found := check()):
        if time.monotonic() > deadline:
            raise TimeoutError(f"never: {what or check}")
        time.sleep(every)
    return found
