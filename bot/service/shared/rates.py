"""The platforms' rate limits, counted per bot token and per chat for every process of the
bot (issue 58): a call waits for its turn in each window it counts in (the token's, its
chat's, its group's, a Discord route's), reserved in the store's shared windows on
PostgreSQL (bot/store/rate_queries.py), or in this process on SQLite, where the bot is one
process. A 429's retry_after holds the windows it concerns for every process (`hold`).

A window's length is stretched by a margin (`MARGIN_SECONDS` and `MARGIN_SHARE` of it): a
call reaches the platform a little after its reserved time, and not always the same
little (a photo's upload, a busy machine: up to 0.17 s measured on two loaded cores), so
two calls reserved exactly a window apart could arrive within it. The price: one message
a second in a chat is one every 1.26 s. A call woken
more than `LATE` after its time (a busy event loop) reserves again rather than send late.
If the store cannot be reached, this process keeps the windows alone until it can.
"""

from __future__ import annotations

import asyncio
import logging
import time
from bisect import insort
from collections.abc import Sequence
from dataclasses import dataclass

from bot.store import Store
from bot.store.rate_queries import Window, earliest
from bot.telemetry import metrics

log = logging.getLogger(__name__)

MARGIN_SECONDS = 0.25  # added to every window's length ...
MARGIN_SHARE = 0.01  # ... and this share of it (a 60 s window: 0.85 s)
LATE = 0.05  # seconds: a call woken later than this after its turn reserves again
TRIES = 3  # reservations before a call that keeps waking late is sent anyway
PRUNE_EVERY = 600.0  # seconds between two removals of unused windows


@dataclass(frozen=True)
class Rate:
    """At most `count` calls in any `per` seconds; a count of 0 is no limit."""

    count: int
    per: float = 1.0

    def __bool__(self) -> bool:
        return self.count > 0 and self.per > 0

    def __str__(self) -> str:
        return f"{self.count}/{self.per:g}" if self else "0"


def stretched(rate: Rate) -> float:
    return rate.per * (1 + MARGIN_SHARE) + MARGIN_SECONDS


class SharedRates:
    """The rate windows of one bot, shared by its processes through the store."""

    def __init__(self, store: Store | None) -> None:
        self.store = store if store is not None and store.kind == "postgresql" else None
        self._local: dict[str, tuple[list[float], float]] = {}  # key -> (times, held)
        self._routes: dict[str, tuple[str, int, float]] = {}  # Discord's, learned here
        self._pruned = time.monotonic()

    async def turn(
        self, windows: Sequence[tuple[str, Rate]], platform: str, most: float | None = None
    ) -> bool:
        """Wait for one call's turn in every window (key, rate); False at once, nothing
        reserved, when it would wait more than `most` seconds."""
        # (a window with no limit still counts for a 429's hold)
        counted = [
            Window(key, rate.count, stretched(rate)) if rate else Window(key, 0, 0.0)
            for key, rate in windows
        ]
        if not counted:
            return True
        started = time.monotonic()
        for attempt in range(TRIES):
            wait = await self._reserve(counted, most if attempt == 0 else None)
            if wait is None:
                return False
            due = time.monotonic() + wait
            if wait > 0:
                await asyncio.sleep(wait)
            if time.monotonic() - due <= LATE:
                break
        metrics.RATE_WAIT_SECONDS.labels(platform).observe(time.monotonic() - started)
        return True

    async def note(self, key: str, rate: Rate, ago: float) -> None:
        """A call made `ago` seconds ago without its turn in this window (its bucket was
        unknown until its answer told it): counted, as the platform counted it."""
        window = Window(key, rate.count, stretched(rate))
        if self.store is not None:
            try:
                await self.store.note_rate(window, ago)
                return
            except Exception:
                log.warning("could not note a call in the shared windows; kept in this process")
        now = time.time()
        times, held = self._local.get(key, ([], 0.0))
        times = [t for t in times if t > now - window.per]
        insort(times, now - ago)
        self._local[key] = (times, held)

    async def hold(self, keys: Sequence[str], seconds: float) -> None:
        """The platform answered 429 and asked to wait `seconds`: no call counted in these
        windows goes before then, from any process."""
        if self.store is not None:
            try:
                await self.store.hold_rates(keys, seconds)
                return
            except Exception:
                log.warning("could not share a platform's wait; kept in this process")
        until = time.time() + seconds
        for key in keys:
            times, held = self._local.get(key, ([], 0.0))
            self._local[key] = (times, max(held, until))

    async def route(self, route: str) -> tuple[str, int, float] | None:
        """A Discord route's bucket (hash, limit, length in seconds), as some process of
        the bot learned it from Discord's answer."""
        if self.store is not None:
            try:
                return await self.store.rate_route(route)
            except Exception:
                log.warning("could not read a route's bucket; as if unknown")
        return self._routes.get(route)

    async def learn_route(self, route: str, bucket: str, limit: int, length: float) -> None:
        self._routes[route] = (bucket, limit, length)
        if self.store is not None:
            try:
                await self.store.learn_rate_route(route, bucket, limit, length)
            except Exception:
                log.warning("could not share a route's bucket; kept in this process")

    async def _reserve(self, windows: list[Window], most: float | None) -> float | None:
        if self.store is not None:
            try:
                wait = await self.store.rate_turn(windows, most)
                await self._prune()
                return wait
            except Exception:  # the store away for a moment: this process counts alone
                log.warning("could not reach the shared rate windows; counting in this process")
        return self._reserve_here(windows, most)

    def _reserve_here(self, windows: list[Window], most: float | None) -> float | None:
        now = time.time()
        if time.monotonic() - self._pruned > PRUNE_EVERY:  # windows of chats gone quiet
            self._pruned = time.monotonic()
            self._local = {
                k: (times, held)
                for k, (times, held) in self._local.items()
                if held > now or (times and times[-1] > now - PRUNE_EVERY)
            }
        found = {w.key: self._local.get(w.key, ([], 0.0)) for w in windows}
        at = earliest(now, [(w, *found[w.key]) for w in windows])
        if most is not None and at - now > most:
            return None
        for w in windows:
            times, held = found[w.key]
            times = [t for t in times if t > now - w.per]
            if w.count > 0:
                insort(times, at)
            if times or held > now:
                self._local[w.key] = (times, held)
        return at - now

    async def _prune(self) -> None:
        if time.monotonic() - self._pruned > PRUNE_EVERY:
            self._pruned = time.monotonic()
            await self.store.prune_rates()
