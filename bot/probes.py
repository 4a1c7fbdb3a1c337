"""What an operator's tools ask a running bot over HTTP (docs/operations.md).

- `/metrics`: every metric of bot/telemetry/metrics.py in Prometheus' text format; the
  values read at scrape time (games by status, platform connections, the CPU pool's queue)
  are read first. The games are one grouped count in the store, kept `COUNTS_TTL` seconds.
- `/healthz`: the process is alive. Its event loop woke a short sleep within `LOOP_BOUND`
  (a loop blocked longer stalls every chat), and the timer loop finished a scan within the
  gap after which the bot counts itself as down: the question `escape-bot health` answers
  from the database's heartbeat for installs without HTTP. 200 or 503.
- `/readyz`: the process can serve: the store answers within `STORE_BOUND`, and every
  configured platform is connected (each Discord shard's gateway, Telegram's poll or
  webhook). 503 from the stop signal on, so traffic goes elsewhere while it drains.

Both probes answer JSON: `{"ok": bool, "checks": {name: "ok" or why not}}`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from bot.service import GameService
from bot.service.timer_loop import Timers
from bot.settings import Settings
from bot.store import StoreError
from bot.telemetry import metrics

if TYPE_CHECKING:  # aiohttp is imported only once an HTTP server is served (start-up time)
    from aiohttp import web

LOOP_BEAT = 0.5  # seconds between two wake-ups of the loop watch
LOOP_BOUND = 2.0  # seconds late (or silent) before the event loop counts as stuck
STORE_BOUND = 2.0  # seconds for the store to answer a trivial query
COUNTS_TTL = 5.0  # seconds a count of the games is kept (several scrapers, one query)


def configured_platforms(settings: Settings) -> list[str]:
    return [
        p
        for p, token in (("discord", settings.discord_token), ("telegram", settings.telegram_token))
        if token
    ]


def process_role(settings: Settings) -> str:
    """What this process serves, for `escape_process_info{role=...}`: e.g. `discord`,
    `discord-shards-0,1-of-4`, `telegram-webhook`, `discord+telegram-polling`."""
    parts = []
    if settings.discord_token:
        shards = settings.discord_shards
        if shards == "auto":
            parts.append("discord-auto-sharded")
        elif shards:
            ids = settings.discord_shard_ids or list(range(int(shards)))
            parts.append(f"discord-shards-{','.join(map(str, ids))}-of-{shards}")
        else:
            parts.append("discord")
    if settings.telegram_token:
        parts.append("telegram-webhook" if settings.telegram_webhook_url else "telegram-polling")
    return "+".join(parts) or "none"


def version() -> str:
    """Imported here: `importlib.metadata` takes about 30 ms to import, at every start."""
    from importlib import metadata

    try:
        return metadata.version("escape-bot")
    except metadata.PackageNotFoundError:
        return "unknown"


class Probes:
    def __init__(
        self,
        service: GameService,
        timers: Timers | None,
        platforms: Sequence[str],
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.service = service
        self.timers = timers
        self.platforms = list(platforms)
        self.now = clock
        self.started = clock()
        self.stopping = False  # set by the runner at the stop signal: not ready any more
        self.beat = clock()  # the loop watch's last wake-up
        self._counts: dict[tuple[str, str], int] = {}
        self._counted_at: float | None = None
        self._watch: asyncio.Task | None = None
        self._hooked = False

    # ----- the part of the HTTP server ---------------------------------------------------
    def part(self, app: web.Application) -> None:
        """The operator's address (ESCAPE_METRICS): /metrics and the two probes."""
        app.router.add_get("/metrics", self.metrics)
        self.health_part(app)

    def health_part(self, app: web.Application) -> None:
        """The probes alone, for the web board's public address (an orchestrator asks
        them there; /metrics stays on the operator's own address)."""
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/readyz", self.readyz)
        if not self._hooked:  # one loop watch, whichever server starts it
            self._hooked = True
            app.on_startup.append(self._start_watch)
            app.on_cleanup.append(self._stop_watch)

    async def _start_watch(self, _app: web.Application) -> None:
        self._watch = asyncio.create_task(self._watch_loop(), name="loop-watch")

    async def _stop_watch(self, _app: web.Application) -> None:
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch

    async def _watch_loop(self) -> None:
        """Sleep LOOP_BEAT, again and again; how late each wake-up comes is the loop's lag."""
        while True:
            before = self.now()
            await asyncio.sleep(LOOP_BEAT)
            self.beat = self.now()
            metrics.LOOP_LAG.set(max(0.0, self.beat - before - LOOP_BEAT))

    # ----- the answers ---------------------------------------------------------------------
    def health(self) -> dict[str, str]:
        now = self.now()
        checks = {}
        silent = now - self.beat - LOOP_BEAT
        checks["event_loop"] = "ok" if silent <= LOOP_BOUND else f"stuck for {silent:.1f} s"
        if self.timers is not None:
            gap = self.timers.gap + self.timers.interval  # (its first scan waits an interval)
            last = self.timers.last_scan if self.timers.last_scan is not None else self.started
            late = now - last
            checks["timers"] = (
                "ok" if late <= gap else f"no scan for {late:.0f} s (limit {gap:.0f} s)"
            )
        return checks

    async def readiness(self) -> dict[str, str]:
        checks = {"process": "stopping" if self.stopping else "ok"}
        try:
            await asyncio.wait_for(self.service.store.ping(), STORE_BOUND)
            checks["store"] = "ok"
        except TimeoutError:
            checks["store"] = f"no answer within {STORE_BOUND:.0f} s"
        except StoreError as exc:
            checks["store"] = f"unavailable: {exc}"
        links = self.service.links()
        for platform in self.platforms:
            found = links.get(platform)
            if not found:
                checks[platform] = "not connected yet"
                continue
            down = [link.name or platform for link in found if not link.up]
            checks[platform] = "ok" if not down else "down: " + ", ".join(down)
        return checks

    async def healthz(self, _request: web.Request) -> web.Response:
        return _answer(self.health())

    async def readyz(self, _request: web.Request) -> web.Response:
        return _answer(await self.readiness())

    async def metrics(self, _request: web.Request) -> web.Response:
        await self.read_at_scrape()
        from aiohttp import web

        return web.Response(
            body=metrics.exposition(), headers={"Content-Type": metrics.CONTENT_TYPE}
        )

    # ----- values read at scrape time -----------------------------------------------------
    async def read_at_scrape(self) -> None:
        await self._count_games()
        metrics.PLATFORM_UP.clear()
        metrics.GATEWAY_LATENCY.clear()
        for platform, links in self.service.links().items():
            for link in links:
                metrics.PLATFORM_UP.labels(platform, link.name).set(1 if link.up else 0)
                if link.latency is not None:
                    metrics.GATEWAY_LATENCY.labels(platform, link.name).set(link.latency)
        metrics.CPU_POOL_QUEUE.set(self.service.cpu.queue_length)
        metrics.CPU_POOL_WORKERS.set(
            self.service.cpu.workers if self.service.cpu.in_processes else 0
        )

    async def _count_games(self) -> None:
        """The games by platform and status; a store that does not answer leaves the last
        count in place (its failure is counted by the store's own metrics)."""
        now = self.now()
        if self._counted_at is not None and now - self._counted_at < COUNTS_TTL:
            return
        try:
            counts = await asyncio.wait_for(self.service.store.game_counts(), STORE_BOUND)
        except (StoreError, TimeoutError):
            return
        self._counts, self._counted_at = counts, now
        metrics.GAMES.clear()
        for (platform, status), n in sorted(counts.items()):
            metrics.GAMES.labels(platform, status).set(n)


def _answer(checks: dict[str, str]) -> web.Response:
    ok = all(v == "ok" for v in checks.values())
    from aiohttp import web

    return web.json_response({"ok": ok, "checks": checks}, status=200 if ok else 503)


def describe_process(settings: Settings) -> None:
    """`escape_process_info`: this process's role and version."""
    metrics.PROCESS.info({"role": process_role(settings), "version": version()})
