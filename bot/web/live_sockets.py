"""The web board's live pages: one websocket a page, pushed its table after every change.

The service's table-changed signal (after every commit here, and on PostgreSQL from every
process) reaches `LiveSockets.changed`; one task a table then asks the service once for
what each of that table's open pages shows now (`GameService.web_board.updates`) and sends it
to each. Signals that come while a table's push is under way are folded into one more
push of the newest version.

Floods are bounded here, where the sockets are: a socket must say hello within
`HELLO_WITHIN` seconds, an address keeps at most `SOCKETS_PER_ADDRESS` open, and hellos and
presses are limited per viewer and per address across all their sockets. Every frame a
socket sends, whatever it holds, counts against `FRAMES` (per socket) and
`FRAMES_PER_ADDRESS` (over all the address's sockets): past either, the socket is told once (again
only after a quiet while) and then read no faster than the limit allows (`pace`), so a flood waits in its own TCP
buffers instead of taking the event loop from everyone else.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from aiohttp import web

from bot.service import WebPass

log = logging.getLogger(__name__)

HELLO_WITHIN = 5.0  # seconds a new socket has to say which table it shows
SOCKETS_PER_ADDRESS = 32  # open sockets one address may keep (a household, a small office)
PRESSES = (5, 5.0)  # presses a viewer may send in so many seconds, over all their sockets
PRESSES_PER_ADDRESS = (20, 5.0)  # and an address, over all its viewers
HELLOS = (10, 10.0)  # hellos (tables opened) a viewer may send in so many seconds
HELLOS_PER_ADDRESS = (30, 10.0)
FRAMES = (20, 5.0)  # frames one socket may send in so many seconds (a page sends a few)
FRAMES_PER_ADDRESS = (60, 5.0)  # and an address, over all its sockets
SEND_TIMEOUT = 5.0
KEYS_KEPT = 50_000  # rate-limit records kept before idle ones are forgotten

Push = Callable[[int, int, list[WebPass]], Awaitable[list[dict | None]]]


@dataclass(eq=False)
class OpenPage:
    """One socket: where it comes from, and what it shows once it said hello."""

    ws: web.WebSocketResponse
    address: str
    web: WebPass | None = None
    token: str | None = None  # an app's session, as its hello gave it
    language: str = "en"
    frames: RateLimit | None = None  # its own frames (`LiveSockets.pace`)
    slowed: bool = False  # told that it sends too much (again once it was quiet a while)


@dataclass
class RateLimit:
    """At most `count` events in any `window` seconds."""

    count: int
    window: float
    times: list[float] = field(default_factory=list)

    def allow(self, now: float) -> bool:
        self.times = [t for t in self.times if now - t < self.window]
        if len(self.times) >= self.count:
            return False
        self.times.append(now)
        return True

    def idle(self, now: float) -> bool:
        return not self.times or now - self.times[-1] >= self.window

    def room_in(self, now: float) -> float:
        """Seconds until one more event is allowed (0: now)."""
        self.times = [t for t in self.times if now - t < self.window]
        if len(self.times) < self.count:
            return 0.0
        return self.times[0] + self.window - now


class LiveSockets:
    def __init__(self, push: Push, clock: Callable[[], float] = time.monotonic) -> None:
        self.push = push
        self.now = clock
        self.by_table: dict[int, set[OpenPage]] = {}
        self.per_address: dict[str, int] = {}
        self._limits: dict[tuple, RateLimit] = {}
        self._pushing: dict[int, int] = {}  # table -> the newest version to push next
        self._tasks: set[asyncio.Task] = set()

    def later(self, work: Awaitable) -> None:
        """Run `work` in a task of its own, held until it is done."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @property
    def open(self) -> int:
        return sum(self.per_address.values())

    # ----- sockets ----------------------------------------------------------------------
    def room_for(self, address: str) -> bool:
        return self.per_address.get(address, 0) < SOCKETS_PER_ADDRESS

    def opened(self, page: OpenPage) -> None:
        self.per_address[page.address] = self.per_address.get(page.address, 0) + 1

    def closed(self, page: OpenPage) -> None:
        self._unwatch(page)
        left = self.per_address.get(page.address, 1) - 1
        if left > 0:
            self.per_address[page.address] = left
        else:
            self.per_address.pop(page.address, None)

    def close_unless_hello(self, page: OpenPage, seconds: float) -> asyncio.TimerHandle:
        """Close a socket that has not shown a table within `seconds` (a refused hello
        does not count); cancel the handle once the socket ends."""

        def late() -> None:
            if page.web is None and not page.ws.closed:
                self.later(page.ws.close(code=4408, message=b"no hello"))

        return asyncio.get_running_loop().call_later(seconds, late)

    def watch(self, page: OpenPage, pass_: WebPass) -> None:
        self._unwatch(page)
        page.web = pass_
        self.by_table.setdefault(pass_.table, set()).add(page)

    def _unwatch(self, page: OpenPage) -> None:
        if page.web is None:
            return
        pages = self.by_table.get(page.web.table)
        if pages is not None:
            pages.discard(page)
            if not pages:
                self.by_table.pop(page.web.table, None)

    # ----- limits ------------------------------------------------------------------------
    def allow(self, kind: str, viewer: str, address: str) -> bool:
        """One more hello or press from this viewer at this address (both must have room)."""
        each, per_address = (
            (HELLOS, HELLOS_PER_ADDRESS) if kind == "hello" else (PRESSES, PRESSES_PER_ADDRESS)
        )
        now = self.now()
        if len(self._limits) > KEYS_KEPT:
            self._limits = {k: v for k, v in self._limits.items() if not v.idle(now)}
        mine = self._limits.setdefault((kind, "viewer", viewer), RateLimit(*each))
        theirs = self._limits.setdefault((kind, "address", address), RateLimit(*per_address))
        return mine.allow(now) and theirs.allow(now)

    async def pace(self, page: OpenPage, tell: Callable[[], Awaitable[None]]) -> None:
        """One more frame of `page`: at once while it and its address have room, else
        after waiting for it (`tell` is awaited once when it first has to wait)."""
        if page.frames is None:
            page.frames = RateLimit(*FRAMES)
        theirs = self._limits.setdefault(
            ("frame", "address", page.address), RateLimit(*FRAMES_PER_ADDRESS)
        )
        if page.frames.idle(self.now()):  # quiet for a whole window: told again if need be
            page.slowed = False
        while True:
            now = self.now()
            wait = max(page.frames.room_in(now), theirs.room_in(now))
            if wait <= 0:
                page.frames.times.append(now)
                theirs.times.append(now)
                return
            if not page.slowed:
                page.slowed = True
                await tell()
            await asyncio.sleep(min(wait, 1.0) + 0.001)

    # ----- pushing ------------------------------------------------------------------------
    def changed(self, table: int, version: int) -> None:
        """From the table signal (a plain callback): push the table to its open pages."""
        if table not in self.by_table:
            return
        running = table in self._pushing
        self._pushing[table] = max(version, self._pushing.get(table, version))
        if not running:
            self.later(self._push_table(table))

    async def _push_table(self, table: int) -> None:
        """Push the newest version of a table to its pages, again while newer ones come."""
        try:
            while (version := self._pushing.get(table)) is not None:
                pages = [p for p in self.by_table.get(table, ()) if p.web is not None]
                said: list[dict | None] = []
                if pages:
                    try:
                        said = await self.push(table, version, [p.web for p in pages])
                    except Exception:  # one table's trouble must not stop the others' pushes
                        log.exception("could not push table %s to its pages", table)
                await asyncio.gather(
                    *(self._tell(p, shown) for p, shown in zip(pages, said, strict=False))
                )
                if self._pushing.get(table) == version:
                    del self._pushing[table]
        except BaseException:
            self._pushing.pop(table, None)
            raise

    async def _tell(self, page: OpenPage, shown: dict | None) -> None:
        """A page is pushed what it shows now; one whose viewer may no longer watch the
        table (they left its chat) is told so and closed."""
        if shown is not None:
            await _send(page.ws, {"update": shown})
            return
        self._unwatch(page)
        page.web = None
        await _send(page.ws, {"gone": True})
        with contextlib.suppress(Exception):
            await page.ws.close()

    async def close_all(self) -> None:
        for pages in list(self.by_table.values()):
            for page in list(pages):
                with contextlib.suppress(Exception):
                    await page.ws.close()
        self.by_table.clear()


async def _send(ws: web.WebSocketResponse, message: dict) -> None:
    if ws.closed:
        return
    try:
        await asyncio.wait_for(ws.send_json(message), SEND_TIMEOUT)
    except (ConnectionError, RuntimeError, TimeoutError):
        log.debug("a page's socket went away while it was pushed a change")
