"""Discord's limits kept by two processes together (issue 58): each paces its HTTP
requests (bot/discord/pacing.py) in the windows they share on one PostgreSQL, so together
they keep the token's global rate and a route's bucket as Discord announces it, and a 429
one of them gets holds the other too. Requests go to the stand-in, which enforces both."""

from __future__ import annotations

import asyncio
import time

import aiohttp

from bot.discord.pacing import DiscordPacer, route_of
from bot.service import Rate, SharedRates
from bot.store import Store
from tests.e2e.discord_fixtures import *  # noqa: F403
from tests.e2e.discord_fixtures import CHANNEL
from tests.e2e.discord_standin import Limits


async def _post(session: aiohttp.ClientSession, base: str, n: int) -> int:
    async with session.post(
        f"{base}/channels/{CHANNEL}/messages", json={"content": f"message {n}"}
    ) as answer:
        return answer.status


async def test_two_processes_keep_discords_limits_together(standin, postgres_server):
    standin.limits = Limits(
        overall=(8, 1.0), buckets={"post": (5, 1.0), "edit": (5, 1.0), "hook": (5, 1.0)}
    )
    db = await postgres_server.new_schema()
    stores = [await Store.open(db), await Store.open(db)]
    sessions = [
        aiohttp.ClientSession(trace_configs=[DiscordPacer(SharedRates(s), Rate(8, 1.0)).trace()])
        for s in stores
    ]
    try:
        # a first post each teaches the processes the route's bucket (from its headers)
        assert await asyncio.gather(*(_post(s, standin.api_base, 0) for s in sessions)) == [
            200,
            200,
        ]
        started = time.monotonic()
        statuses = await asyncio.gather(
            *(_post(sessions[n % 2], standin.api_base, n) for n in range(1, 21))
        )
        assert statuses == [200] * 20
        assert standin.breaches == []
        assert time.monotonic() - started >= 3.0  # 22 posts at 5 a second: four more windows
        # a 429 one process meets is waited out by the other
        standin.fail_next("POST", r"/channels/\d+/messages", retry_after=1.0)
        assert await _post(sessions[0], standin.api_base, 99) == 429
        held = time.monotonic()
        assert await _post(sessions[1], standin.api_base, 100) == 200
        assert time.monotonic() - held >= 0.9
    finally:
        for session in sessions:
            await session.close()
        for store in stores:
            await store.close()


async def test_without_the_shared_windows_two_processes_breach(standin):
    """The same posts from two processes each counting alone (what discord.py's own
    buckets do): past the bucket, refused."""
    standin.limits = Limits(
        overall=(8, 1.0), buckets={"post": (5, 1.0), "edit": (5, 1.0), "hook": (5, 1.0)}
    )
    sessions = [
        aiohttp.ClientSession(trace_configs=[DiscordPacer(SharedRates(None), Rate(8, 1.0)).trace()])
        for _ in range(2)
    ]
    try:
        await asyncio.gather(*(_post(s, standin.api_base, 0) for s in sessions))
        await asyncio.gather(*(_post(sessions[n % 2], standin.api_base, n) for n in range(1, 21)))
        assert standin.breaches, "each process alone keeps only its own count"
    finally:
        for session in sessions:
            await session.close()


def test_routes_and_their_major_parameters():
    assert route_of("POST", "/api/v10/channels/920000000000000001/messages") == (
        "POST /channels/{major}/messages",
        "920000000000000001",
        False,
    )
    assert (
        route_of("PATCH", "/api/v10/channels/920000000000000001/messages/930000000000000022")[0]
        == "PATCH /channels/{major}/messages/{id}"
    )
    route, major, interaction = route_of(
        "PATCH", "/api/v10/webhooks/9000/tok123/messages/@original"
    )
    assert (route, major, interaction) == (
        "PATCH /webhooks/{major}/messages/@original",
        "9000/tok123",
        True,
    )
    assert route_of("POST", "/api/v10/interactions/123456/tok/callback")[2]
    assert not route_of("GET", "/api/v10/users/@me")[2]
