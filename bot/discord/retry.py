"""Discord's 429s past discord.py's own retries: wait and try again, in the caller's task.

discord.py tries a request five times when Discord answers 429, then raises. An answer or
a board must not be lost to a longer burst, so `persist` waits (as long as Discord asked,
more each round) and tries again a few rounds more. The waits happen in the caller's own
task (one interaction, one channel's post): other chats go on meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord

from bot.telemetry import metrics

log = logging.getLogger(__name__)

RETRY_ROUNDS = 5  # after discord.py's own five tries: rounds of waiting, then trying again
RETRY_LONGEST = 120.0  # seconds: the longest wait between two rounds


def transient(exc: Exception) -> float | None:
    """Seconds to wait when Discord refused for a passing reason (429, 5xx), else None."""
    if isinstance(exc, discord.RateLimited):
        return exc.retry_after
    if isinstance(exc, discord.HTTPException) and (exc.status == 429 or exc.status >= 500):
        header = exc.response.headers.get("Retry-After") if exc.response is not None else None
        try:
            return max(float(header), 0.05) if header else 1.0
        except ValueError:
            return 1.0
    return None


async def persist(send: Callable[[], Awaitable], what: str):
    """`send()`, tried again after a wait while Discord refuses for a passing reason:
    an answer or a board is never lost to a burst of 429s. The waits happen in the
    caller's own task (one interaction, one channel): other chats go on meanwhile."""
    for attempt in range(RETRY_ROUNDS + 1):
        try:
            return await send()
        except (discord.HTTPException, discord.RateLimited) as exc:
            wait = transient(exc)
            if wait is None or attempt == RETRY_ROUNDS:
                raise
        log.info("Discord refused %s for now; trying again in %.1f s", what, wait)
        metrics.PLATFORM_RETRIES.labels("discord").inc()
        await asyncio.sleep(min(wait * (attempt + 1), RETRY_LONGEST))
    raise AssertionError("unreachable")


def fresh_file(kwargs: dict) -> dict:
    """The keyword arguments for one more try: a file is read from its start again."""
    file = kwargs.get("file")
    if isinstance(file, discord.File):
        file.reset()
    return kwargs
