"""Each picture of a table drawn once per version, language and seat (None: the public
board), then shared: the chat's board, every open web page, a player's private view in
their chat and on their page all take the one drawing.

A drawing is kept as the future of its work on the CPU pool, so a second asker waits for
the first drawing instead of starting another. The newest few hundred are kept; a table
that moved on leaves its older pictures to be forgotten first.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.service.base.delivery_plan import Picture

KEEP = 512  # pictures kept (a board PNG is 50-150 kB: some tens of MB at most)


@dataclass(frozen=True)
class PictureKey:
    table: int
    version: int
    seat: int | None  # None: the public board
    language: str


class DrawnPictures:
    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self._drawn: OrderedDict[PictureKey, asyncio.Future] = OrderedDict()
        self.draws = 0  # drawings started (bench/web.py counts them)

    def drawing(
        self, key: PictureKey, draw: Callable[[], Awaitable[Picture | None]]
    ) -> asyncio.Future:
        """The picture of `key`: the drawing already made or under way, else `draw()`
        started now and kept for whoever asks next."""
        found = self._drawn.get(key)
        if found is not None and not found.cancelled():
            self._drawn.move_to_end(key)
            return found
        self.draws += 1
        future = asyncio.ensure_future(draw())
        self._drawn[key] = future
        future.add_done_callback(lambda done: self._failed(key, done))
        while len(self._drawn) > self.keep:
            self._drawn.popitem(last=False)
        return future

    def found(self, key: PictureKey) -> asyncio.Future | None:
        """The drawing of `key` if it was made or is under way."""
        found = self._drawn.get(key)
        return found if found is not None and not found.cancelled() else None

    async def picture(
        self, key: PictureKey, draw: Callable[[], Awaitable[Picture | None]]
    ) -> Picture | None:
        return await asyncio.shield(self.drawing(key, draw))

    def drop(self, key: PictureKey) -> None:
        """A change that was not stored: its picture is never shown (a drawing the pool
        has begun runs on, unwaited)."""
        future = self._drawn.pop(key, None)
        if future is not None:
            future.cancel()

    def _failed(self, key: PictureKey, done: asyncio.Future) -> None:
        """A drawing that failed or was called off is not kept: the next asker draws."""
        if (done.cancelled() or done.exception() is not None) and self._drawn.get(key) is done:
            del self._drawn[key]
