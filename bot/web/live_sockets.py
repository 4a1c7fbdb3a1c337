"""The web board's live updates: one websocket a page, told when its table changed.

The service's table-changed signal (after every commit here, and on PostgreSQL from every
process) reaches `LiveSockets.changed`, which sends `{"changed": {"version": V}}` to each
socket watching that table; the page then reads the table again for its viewer. The
signal carries no content, so a spectator's socket and a player's hear the same words.

A socket must come from an allowed origin (the page's own, the public URL's, Discord's
proxy), and the moves sent over it are rate-limited per connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from aiohttp import web

log = logging.getLogger(__name__)

MOVES_PER_WINDOW = 5  # moves a connection may send ...
WINDOW = 5.0  # ... within this many seconds
SEND_TIMEOUT = 5.0


@dataclass
class RateLimit:
    """At most `count` events in any `window` seconds."""

    count: int = MOVES_PER_WINDOW
    window: float = WINDOW
    clock: Callable[[], float] = time.monotonic
    times: list[float] = field(default_factory=list)

    def allow(self) -> bool:
        now = self.clock()
        self.times = [t for t in self.times if now - t < self.window]
        if len(self.times) >= self.count:
            return False
        self.times.append(now)
        return True


class LiveSockets:
    def __init__(self) -> None:
        self.by_table: dict[int, set[web.WebSocketResponse]] = {}
        self._tasks: set[asyncio.Task] = set()  # sends under way (kept until done)

    def later(self, work) -> None:
        """Run `work` in a task of its own, held until it is done."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @property
    def open(self) -> int:
        return sum(len(s) for s in self.by_table.values())

    def watch(self, table: int, ws: web.WebSocketResponse) -> None:
        self.by_table.setdefault(table, set()).add(ws)

    def drop(self, table: int, ws: web.WebSocketResponse) -> None:
        sockets = self.by_table.get(table)
        if sockets is not None:
            sockets.discard(ws)
            if not sockets:
                self.by_table.pop(table, None)

    def changed(self, table: int, version: int) -> None:
        """From the table signal (a plain callback): tell every page of the table."""
        sockets = self.by_table.get(table)
        if not sockets:
            return
        message = {"changed": {"version": version}}
        for ws in list(sockets):
            self.later(_send(ws, message))

    async def close_all(self) -> None:
        for sockets in list(self.by_table.values()):
            for ws in list(sockets):
                with contextlib.suppress(Exception):
                    await ws.close()
        self.by_table.clear()


async def _send(ws: web.WebSocketResponse, message: dict) -> None:
    if ws.closed:
        return
    try:
        await asyncio.wait_for(ws.send_json(message), SEND_TIMEOUT)
    except (ConnectionError, RuntimeError, TimeoutError):
        log.debug("a page's socket went away while it was told of a change")
