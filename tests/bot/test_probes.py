"""The operator's HTTP endpoints (issue 27) on a real server on 127.0.0.1: /metrics parses
with Prometheus' own parser and counts the stored games; /healthz fails when the event loop
or the timer loop stops answering; /readyz fails while the store is unreachable, a platform
is down, or the process is stopping, and recovers; `escape-bot health` asks /healthz."""

from __future__ import annotations

import asyncio
import os

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot import probes as probes_module
from bot.health import ask_http, check, local_url
from bot.http_server import HttpServer
from bot.probes import Probes
from bot.service import FrontEnd, GameService, Link
from bot.service.timer_loop import Timers
from bot.settings import Settings
from bot.store import Store
from tests.bot.conftest import ANN, BOB, CHAT
from tests.postgres import NoServer, PostgresServer


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


async def get(server: HttpServer, path: str) -> tuple[int, str, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{server.port}{path}") as answer,
    ):
        return answer.status, answer.headers["Content-Type"], await answer.text()


@pytest.fixture
async def served(store):
    """A service with its probes on an HTTP server on a free port (platform `test`)."""
    service = GameService(store, seed_source=lambda: 1234, pictures=False)
    probes = Probes(service, Timers(service, interval=30), ["test"])
    server = HttpServer(("127.0.0.1", 0), [probes.part])
    await server.start()
    yield service, probes, server
    await server.stop()


def connect(service: GameService, links: list[Link]) -> None:
    async def deliver(chat, plan) -> None:
        return None

    service.add_front_end("test", FrontEnd(deliver, links=lambda: links))


def families(text: str) -> dict:
    return {f.name: f for f in text_string_to_metric_families(text)}


async def test_metrics_parse_and_count_the_stored_games(served, monkeypatch):
    service, _probes, server = served
    connect(service, [Link("0", True, 0.042), Link("1", False)])
    await service.start(CHAT, ANN, "ghosts18")
    status, kind, text = await get(server, "/metrics")
    assert status == 200 and kind.startswith("text/plain")
    found = families(text)
    games = {s.labels["status"]: s.value for s in found["escape_games"].samples}
    assert games == {"lobby": 1}
    up = {s.labels["shard"]: s.value for s in found["escape_platform_up"].samples}
    assert up == {"0": 1, "1": 0}
    [latency] = found["escape_gateway_latency_seconds"].samples
    assert latency.labels == {"platform": "test", "shard": "0"} and latency.value == 0.042
    assert "escape_cpu_pool_queue_length" in found and "escape_event_loop_lag_seconds" in found

    await service.join(CHAT, BOB)  # the game begins; the count is kept a few seconds
    _, _, text = await get(server, "/metrics")
    assert {s.labels["status"]: s.value for s in families(text)["escape_games"].samples} == {
        "lobby": 1
    }
    monkeypatch.setattr(probes_module, "COUNTS_TTL", 0.0)
    _, _, text = await get(server, "/metrics")
    assert {s.labels["status"]: s.value for s in families(text)["escape_games"].samples} == {
        "active": 1
    }


async def test_healthz_answers_while_both_loops_do(served):
    _service, probes, server = served
    status, _, body = await get(server, "/healthz")
    assert status == 200 and '"ok": true' in body
    clock = Clock()
    probes.now, probes.beat, probes.started = clock, clock.t, clock.t
    assert set(probes.health().values()) == {"ok"}
    clock.t += 5  # the loop watch has not woken for 5 s: the event loop is stuck
    assert probes.health()["event_loop"].startswith("stuck")
    probes.beat = clock.t
    clock.t += probes.timers.gap + probes.timers.interval + 1  # and no timer scan for as long
    probes.beat = clock.t
    assert probes.health()["timers"].startswith("no scan for")
    probes.timers.last_scan = clock.t - 1
    assert set(probes.health().values()) == {"ok"}


async def test_readyz_needs_the_store_and_every_platform_connected(served):
    service, probes, server = served
    status, _, body = await get(server, "/readyz")
    assert status == 503 and "not connected yet" in body
    links = [Link("0", True)]
    connect(service, links)
    assert (await get(server, "/readyz"))[0] == 200
    links[0] = Link("0", False)  # the gateway dropped
    status, _, body = await get(server, "/readyz")
    assert status == 503 and "down: 0" in body
    links[0] = Link("0", True)  # and came back
    assert (await get(server, "/readyz"))[0] == 200
    probes.stopping = True  # a stop signal: traffic goes elsewhere while it drains
    status, _, body = await get(server, "/readyz")
    assert status == 503 and "stopping" in body
    assert (await get(server, "/healthz"))[0] == 200  # still alive meanwhile


async def test_readyz_fails_once_the_store_is_closed(tmp_path):
    store = await Store.open(tmp_path / "gone.sqlite3")
    service = GameService(store, pictures=False)
    probes = Probes(service, None, [])
    assert set((await probes.readiness()).values()) == {"ok"}
    await store.close()
    assert (await probes.readiness())["store"].startswith("unavailable")


async def test_readyz_fails_while_postgresql_is_down_and_recovers():
    try:
        server = await asyncio.to_thread(PostgresServer().start)
    except (NoServer, OSError) as exc:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"PostgreSQL could not start, and CI must test it: {exc}")
        pytest.skip(f"PostgreSQL could not start: {exc}")
    try:
        store = await Store.open(await server.new_schema(), busy_timeout=0.5)
        service = GameService(store, pictures=False)
        probes = Probes(service, None, [])
        assert (await probes.readiness())["store"] == "ok"
        await asyncio.to_thread(server.halt)
        assert (await probes.readiness())["store"] != "ok"
        await asyncio.to_thread(server.resume)
        for _ in range(50):  # the pool opens a new connection on the next try
            if (await probes.readiness())["store"] == "ok":
                break
            await asyncio.sleep(0.1)
        assert (await probes.readiness())["store"] == "ok"
        await store.close()
    finally:
        await asyncio.to_thread(server.stop)


async def test_escape_bot_health_asks_healthz_when_http_is_on(served, tmp_path):
    _service, probes, server = served
    settings = Settings(
        db_path=tmp_path / "never-opened.sqlite3", metrics_address=("0.0.0.0", server.port)
    )
    assert (
        local_url(settings.metrics_address, "/healthz") == f"http://127.0.0.1:{server.port}/healthz"
    )
    healthy, said = await check(settings)
    assert healthy and said.startswith("healthy: event_loop ok"), said
    assert not (tmp_path / "never-opened.sqlite3").exists()  # the database was not read
    probes.timers.last_scan = -1e9  # long ago
    healthy, said = await asyncio.to_thread(
        ask_http, local_url(settings.metrics_address, "/healthz")
    )
    assert not healthy and "timers no scan for" in said
    await server.stop()
    healthy, said = await asyncio.to_thread(
        ask_http, local_url(settings.metrics_address, "/healthz"), 2
    )
    assert not healthy and "did not answer" in said


def test_the_settings_read_the_address_and_the_log_format():
    assert Settings.from_env({}).metrics_address is None
    assert Settings.from_env({"ESCAPE_METRICS": ":9100"}).metrics_address == ("0.0.0.0", 9100)
    assert Settings.from_env({"ESCAPE_METRICS": "[::1]:9100"}).metrics_address == ("::1", 9100)
    assert Settings.from_env({"ESCAPE_LOG_FORMAT": "JSON"}).log_format == "json"
    for bad in (
        {"ESCAPE_METRICS": "9100"},
        {"ESCAPE_METRICS": "host:99999"},
        {"ESCAPE_LOG_FORMAT": "xml"},
    ):
        with pytest.raises(ValueError):
            Settings.from_env(bad)
