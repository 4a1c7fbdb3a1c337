"""Discord's rate limits, counted for every shard process of one bot (issue 58).

Discord limits a bot per token: 50 requests a second in all (interactions' own endpoints
aside), and each route in buckets its answers announce (`X-RateLimit-Bucket`, `-Limit`,
`-Remaining`, `-Reset-After`), per channel, server or interaction. discord.py keeps both
in the memory of one process, so two shard processes each spent the whole budget. Every
HTTP request discord.py makes passes this pacer first (an aiohttp trace, awaited before
the request is sent): it waits for its turn in the token's window and in its route's
bucket, both kept in the windows the service shares between the bot's processes
(`SharedRates`). What a route's bucket is, the first answer on it tells, and every
process learns it from the store; an answer that says a bucket is spent holds it until
its reset for every process, and a 429 holds its bucket (or, a global one, every request)
for its retry_after. The calls are counted here too (`escape_platform_calls_total`).
"""

from __future__ import annotations

import logging
import re
import time

import aiohttp

from bot.service import Rate, SharedRates
from bot.telemetry import metrics

log = logging.getLogger(__name__)

# a path's first resource and its id (and an interaction's or webhook's token): the
# "major parameter" that splits a route's bucket
_MAJOR = re.compile(r"^/(channels|guilds)/(\d+)|^/(webhooks|interactions)/(\d+)/([^/]+)")
_ID = re.compile(r"/\d{5,}")


def route_of(method: str, path: str) -> tuple[str, str, bool]:
    """(route, major parameter, whether it is an interaction's endpoint) of a request:
    `POST /channels/{id}/messages`, the channel id, False."""
    path = re.sub(r"^/api/v\d+", "", path)
    major = ""
    rest = path
    found = _MAJOR.match(path)
    if found is not None:
        if found.group(1):
            major = found.group(2)
            rest = f"/{found.group(1)}/{{major}}" + path[found.end() :]
        else:
            major = f"{found.group(4)}/{found.group(5)}"
            rest = f"/{found.group(3)}/{{major}}" + path[found.end() :]
    route = f"{method} {_ID.sub('/{id}', rest)}"
    interaction = path.startswith("/interactions/") or (
        path.startswith("/webhooks/") and found is not None and not found.group(5).isdigit()
    )
    return route, major, interaction


class RouteBook:
    """What each route's bucket is (its hash, its limit and length), as Discord announced
    it, shared through the store so that a process learns it from another's answer."""

    def __init__(self, rates: SharedRates) -> None:
        self.rates = rates
        self.known: dict[str, tuple[str, int, float]] = {}

    async def bucket(self, route: str) -> tuple[str, int, float] | None:
        if route not in self.known:
            found = await self.rates.route(route)
            if found is not None:
                self.known[route] = found
        return self.known.get(route)

    async def learn(self, route: str, bucket: str, limit: int, length: float) -> None:
        before = self.known.get(route)
        if before is not None and before[0] == bucket and before[1] == limit:
            length = max(length, before[2])
            if length == before[2]:
                return
        self.known[route] = (bucket, limit, length)
        await self.rates.learn_route(route, bucket, limit, length)


class DiscordPacer:
    def __init__(self, rates: SharedRates, overall: Rate) -> None:
        self.rates = rates
        self.overall = overall  # DISCORD_RATE_GLOBAL
        self.routes = RouteBook(rates)

    def trace(self) -> aiohttp.TraceConfig:
        """The aiohttp trace discord.py's session runs every request through."""
        trace = aiohttp.TraceConfig()
        trace.on_request_start.append(self._starting)
        trace.on_request_end.append(self._ended)
        trace.on_request_exception.append(self._failed)
        return trace

    async def _starting(self, _session, context, params: aiohttp.TraceRequestStartParams) -> None:
        route, major, interaction = route_of(params.method, params.url.path)
        windows = [] if interaction else [("discord:all", self.overall)]
        known = await self.routes.bucket(route)
        if known is not None:
            bucket, limit, length = known
            windows.append((f"discord:bucket:{bucket}:{major}", Rate(limit, length)))
        await self.rates.turn(windows, "discord")
        # sent without its bucket's turn: counted there once its answer names the bucket
        context.unbucketed = time.monotonic() if known is None else None

    async def _ended(self, _session, context, params: aiohttp.TraceRequestEndParams) -> None:
        status = params.response.status
        result = "ok" if status < 400 else "rate_limited" if status == 429 else "failed"
        metrics.PLATFORM_CALLS.labels("discord", result).inc()
        sent = getattr(context, "unbucketed", None)
        ago = time.monotonic() - sent if sent is not None else None
        try:
            await self._heard(params.method, params.url.path, status, params.response.headers, ago)
        except Exception:  # a lost announcement costs a wait, never the request
            log.exception("could not note Discord's rate limit headers")

    async def _failed(self, _session, _context, _params) -> None:
        metrics.PLATFORM_CALLS.labels("discord", "failed").inc()

    async def _heard(self, method: str, path: str, status: int, headers, ago: float | None) -> None:
        """What an answer says of its bucket: learned (and the request, if it went before
        its bucket was known, counted in it), held until its reset when spent, held for a
        429's retry_after."""
        route, major, _ = route_of(method, path)
        bucket = headers.get("X-RateLimit-Bucket")
        limit = _number(headers.get("X-RateLimit-Limit"))
        remaining = _number(headers.get("X-RateLimit-Remaining"))
        reset_after = _number(headers.get("X-RateLimit-Reset-After"))
        key = f"discord:bucket:{bucket}:{major}" if bucket else None
        if bucket and limit and reset_after is not None:
            # the bucket's length: the longest reset seen (a fresh window's first answer
            # tells it whole)
            await self.routes.learn(route, bucket, int(limit), reset_after)
            if ago is not None and status != 429:
                await self.rates.note(key, Rate(int(limit), self.routes.known[route][2]), ago)
        if status == 429:
            retry = _number(headers.get("Retry-After")) or reset_after or 1.0
            scope = "global" if headers.get("X-RateLimit-Global") else "route"
            metrics.RATE_LIMITED.labels("discord", scope).inc()
            log.info(
                "discord asked to wait %.2f s (%s, %s); every process waits", retry, scope, route
            )
            held = ["discord:all"] if scope == "global" else [key] if key else []
            if held:
                await self.rates.hold(held, retry)
        elif key and remaining == 0 and reset_after:
            await self.rates.hold([key], reset_after)  # spent: until it resets, for everyone


def _number(text: str | None) -> float | None:
    try:
        return float(text) if text is not None else None
    except ValueError:
        return None
