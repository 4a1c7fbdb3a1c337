"""A sign that an answer is on its way: a hint's search takes seconds, and a chat or a
keyboard that says nothing for that long looks broken. Each front end gives its own sign
(Telegram: "typing…" under the chat's name, or a note on the pressed button; the terminal:
a line); Discord's deferred "thinking" message is that sign already."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from languages import msg

log = logging.getLogger(__name__)
T = TypeVar("T")
WORKING = msg("Working on it: the answer follows in a moment.")
SIGN_AFTER = 1.0  # seconds an answer may take before the asker is shown it is coming


async def signalled(
    work: Awaitable[T], sign: Callable[[], Awaitable[None]], after: float | None = None
) -> T:
    """`work`'s result (or its error), with `sign` given once if `work` outlasts `after`
    seconds (default `SIGN_AFTER`). A fast answer shows no sign at all."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=SIGN_AFTER if after is None else after)
    if not done:
        try:
            await sign()
        except Exception:  # only a sign: the answer still comes
            log.warning("could not show that an answer is coming", exc_info=True)
    return await task
