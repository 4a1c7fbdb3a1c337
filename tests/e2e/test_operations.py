"""What an operator sees of the real bot (issue 27), against the stand-ins on 127.0.0.1:

- `escape-bot run` with ESCAPE_METRICS and ESCAPE_LOG_FORMAT=json: /healthz, /readyz and
  /metrics answer; a move shows in the counters; every line it logs is JSON; SIGTERM still
  ends it with 0;
- /readyz fails while Discord's gateway is dropped or Telegram's poll is refused, and
  recovers;
- a board Telegram keeps refusing is counted as owed (429s, retries, the owed gauge) until
  it is posted.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import random
import signal
import socket

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot.http_server import HttpServer
from bot.probes import Probes
from bot.telemetry import logs, metrics
from tests.e2e.discord_fixtures import *  # noqa: F403
from tests.e2e.discord_fixtures import DiscordBot
from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import (
    BOARD_CALLS,
    GROUP,
    TelegramBot,
    choice_buttons,
    current_board,
    escape_bot_run,
    fast_limiter,
    mentioned_ids,
    open_table,
)
from tests.e2e.telegram_standin import visible
from tests.e2e.test_telegram_secrets import open_hand, open_haunted_house


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def _get(port: int, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}", timeout=aiohttp.ClientTimeout(total=5)) as r,
    ):
        return r.status, await r.text()


async def _until(port: int, path: str, status: int, timeout: float = 30) -> str:
    """Ask `path` until it answers `status`; its last body."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        try:
            got, body = await _get(port, path)
        except aiohttp.ClientError:
            got, body = 0, ""
        if got == status:
            return body
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"{path} answered {got}, not {status}: {body}")
        await asyncio.sleep(0.1)


def _samples(text: str) -> dict[tuple[str, tuple], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def test_escape_bot_run_serves_metrics_health_and_readiness(tg_standin, tmp_path):
    standin = tg_standin
    port, web = _free_port(), _free_port()
    process = await escape_bot_run(
        tmp_path,
        {
            "ESCAPE_WEB": f"127.0.0.1:{web}",
            "TELEGRAM_TOKEN": standin.token,
            "TELEGRAM_BASE_URL": standin.base_url,
            "TELEGRAM_BASE_FILE_URL": standin.base_file_url,
            "ESCAPE_DB": str(tmp_path / "escape.sqlite3"),
            "ESCAPE_METRICS": f"127.0.0.1:{port}",
            "ESCAPE_LOG_FORMAT": "json",
            "LOG_LEVEL": "INFO",
        },
    )
    try:
        await _until(port, "/healthz", 200)
        ready = json.loads(await _until(port, "/readyz", 200))
        assert ready["checks"] == {"process": "ok", "store": "ok", "telegram": "ok"}
        # the web board's public address answers the probes, never /metrics
        assert (await _until(web, "/readyz", 200)) and (await _get(web, "/healthz"))[0] == 200
        assert (await _get(web, "/metrics"))[0] == 404
        board = await open_table(standin)
        actor = {u["id"]: u for u in (standin.ann, standin.bob)}[mentioned_ids(board)[0]]
        mark = len(standin.calls)
        query = await standin.press(actor, board, choice_buttons(board)[0]["callback_data"])
        assert not (await standin.answer(query)).get("show_alert")
        await standin.wait_for(lambda c: c.method == "editMessageMedia", after=mark)

        status, text = await _get(port, "/metrics")
        assert status == 200
        found = _samples(text)
        game = (("game", "ghosts18"), ("platform", "telegram"))
        assert found[("escape_moves_accepted_total", game)] == 1
        assert found[("escape_move_seconds_count", game)] == 1
        assert found[("escape_games", (("platform", "telegram"), ("status", "active")))] == 1
        assert found[("escape_platform_up", (("platform", "telegram"), ("shard", "")))] == 1
        assert (
            found[("escape_platform_calls_total", (("platform", "telegram"), ("result", "ok")))]
            >= 4
        )
        assert found[("escape_picture_encode_seconds_count", (("game", "ghosts18"),))] >= 2
        assert found[("escape_cpu_pool_workers", ())] >= 1  # pictures are drawn by workers
        assert (
            found[("escape_process_info", (("role", "telegram-polling"), ("version", "0.1.0")))]
            == 1
        )
        process.send_signal(signal.SIGTERM)
        output, _ = await asyncio.wait_for(process.communicate(), 30)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 0, output
    lines = output.decode().splitlines()
    assert lines, "it logged nothing at INFO"
    parsed = [json.loads(line) for line in lines]  # every line is one JSON object
    assert all({"time", "level", "logger", "message"} <= set(p) for p in parsed)
    assert any("serving /metrics" in p["message"] for p in parsed)
    assert standin.token not in output.decode()


async def test_readyz_fails_while_the_discord_gateway_is_down_and_recovers(discord_bot):
    service = discord_bot.service
    probes = Probes(service, None, ["discord"])
    server = HttpServer(("127.0.0.1", 0), [probes.part])
    await server.start()
    try:
        await _until(server.port, "/readyz", 200, timeout=10)
        await discord_bot.server.drop_gateway()
        body = json.loads(await _until(server.port, "/readyz", 503, timeout=10))
        assert body["checks"]["discord"] == "down: 0" and body["checks"]["store"] == "ok"
        _, text = await _get(server.port, "/metrics")
        assert (
            _samples(text)[("escape_platform_up", (("platform", "discord"), ("shard", "0")))] == 0
        )
        discord_bot.server.restore_gateway()
        await _until(server.port, "/readyz", 200, timeout=30)  # discord.py reconnects itself
    finally:
        await server.stop()


async def test_readyz_fails_while_the_shards_are_down(standin, tmp_path):
    bot = DiscordBot(standin, tmp_path / "escape.sqlite3", overrides={"discord_shards": "2"})
    await bot.start()
    try:
        await standin.wait_for(lambda: standin.connected == 2, timeout=10)
        probes = Probes(bot.service, None, ["discord"])
        for _ in range(100):
            if (await probes.readiness())["discord"] == "ok":
                break
            await asyncio.sleep(0.1)
        assert (await probes.readiness())["discord"] == "ok"
        assert [link.name for link in bot.service.links()["discord"]] == ["0", "1"]
        await standin.drop_gateway()
        await standin.wait_for(lambda: standin.connected == 0, timeout=10)
        assert (await probes.readiness())["discord"] == "down: 0, 1"
        standin.restore_gateway()
        for _ in range(300):  # each shard reconnects by itself
            if (await probes.readiness())["discord"] == "ok":
                break
            await asyncio.sleep(0.1)
        assert (await probes.readiness())["discord"] == "ok"
    finally:
        await bot.stop()


async def test_readyz_fails_while_telegram_refuses_the_poll_and_recovers(tg_bot):
    standin = tg_bot.standin
    probes = Probes(tg_bot.service, None, ["telegram"])
    for _ in range(100):  # the first poll answered
        if (await probes.readiness())["telegram"] == "ok":
            break
        await asyncio.sleep(0.05)
    assert (await probes.readiness())["telegram"] == "ok"
    standin.fail_next("getUpdates", code=502, times=2)  # the next two polls: Bad Gateway
    await standin.say(standin.carol, GROUP, "/escape help")  # ends the poll in progress
    for _ in range(100):
        if (await probes.readiness())["telegram"] != "ok":
            break
        await asyncio.sleep(0.05)
    assert (await probes.readiness())["telegram"] == "down: telegram"
    await standin.say(standin.carol, GROUP, "/escape help")  # waiting for the next good poll
    for _ in range(200):  # PTB polls again after 1 s, then 1.5 s
        if (await probes.readiness())["telegram"] == "ok":
            break
        await asyncio.sleep(0.05)
    assert (await probes.readiness())["telegram"] == "ok"


async def test_a_refused_board_is_counted_as_owed_until_it_is_posted(tg_standin, tmp_path):
    def read(name: str, **labels: str) -> float:
        return metrics.REGISTRY.get_sample_value(name, {"platform": "telegram", **labels}) or 0.0

    before = [
        read("escape_posts_owed_total"),
        read("escape_platform_retries_total"),
        read("escape_platform_calls_total", result="rate_limited"),
    ]
    # the bot's own limiter (three tries after a 429, chat by chat), without the group pace
    bot = TelegramBot(tg_standin, tmp_path / "escape.sqlite3", limiter=fast_limiter())
    await bot.start()
    try:
        board = await open_table(tg_standin)
        actor = {u["id"]: u for u in (tg_standin.ann, tg_standin.bob)}[mentioned_ids(board)[0]]
        tg_standin.fail_next("editMessageMedia", code=429, retry_after=1, times=4)
        tg_standin.fail_next("sendPhoto", code=429, retry_after=1, times=4)
        mark = len(tg_standin.calls)
        await tg_standin.press(actor, board, choice_buttons(board)[0]["callback_data"])
        for _ in range(200):
            if read("escape_boards_owed") == 1:
                break
            await asyncio.sleep(0.05)
        assert read("escape_boards_owed") == 1
        await tg_standin.wait_for(
            lambda c: c.method == "sendPhoto" and c.status == 200, after=mark, timeout=30
        )
        for _ in range(100):
            if read("escape_boards_owed") == 0:
                break
            await asyncio.sleep(0.05)
        assert read("escape_boards_owed") == 0
        owed, retries, limited = (
            read("escape_posts_owed_total") - before[0],
            read("escape_platform_retries_total") - before[1],
            read("escape_platform_calls_total", result="rate_limited") - before[2],
        )
        assert owed == 1 and limited == 8 and retries >= 6
    finally:
        await bot.stop()


async def test_a_whole_logged_game_shows_no_token_and_no_hand(tg_standin, tmp_path):
    """A bot's run with a game with secrets from start to end (aborted after twelve moves),
    logged as JSON at DEBUG, the worst an operator can set: no line holds the token or a
    line of a hand."""
    standin = tg_standin
    root = logging.getLogger()
    quieted = [*logs.LIBRARY_FLOORS, "aiohttp.access"]
    saved = root.handlers[:], root.level, {n: logging.getLogger(n).level for n in quieted}
    out = io.StringIO()
    root.handlers = [logging.StreamHandler(out)]
    root.setLevel(logging.DEBUG)
    logs.configure("json", root)
    # (the stand-in's own server runs in this process: its access log shows the URLs the
    # bot called, token included, which no bot process logs)
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
    users = {u["id"]: u for u in (standin.ann, standin.bob)}
    tg_bot = TelegramBot(standin, tmp_path / "escape.sqlite3", limiter=fast_limiter())
    try:
        await tg_bot.start()
        await open_haunted_house(standin)
        rng = random.Random(8)
        for _ in range(12):
            actor = users[mentioned_ids(current_board(standin))[0]]
            mine = await open_hand(standin, actor)
            mark = len(standin.calls)
            pressed = rng.choice(choice_buttons(mine))["callback_data"]
            assert not (await standin.answer(await standin.press(actor, mine, pressed))).get(
                "show_alert"
            )
            if await tg_bot.live() is None:
                break
            await standin.wait_for(
                lambda c, m=mark: c.method in BOARD_CALLS and c.params["chat_id"] == GROUP,
                after=mark,
            )
        if await tg_bot.live() is not None:
            mark = len(standin.calls)
            await standin.say(standin.ann, GROUP, "/escape abort")
            await standin.wait_for(lambda c: c.params.get("chat_id") == GROUP, after=mark)
        await asyncio.sleep(0.2)  # what the end tidies
    finally:
        await tg_bot.stop()
        root.handlers, level, floors = saved
        root.setLevel(level)
        for name, was in floors.items():
            logging.getLogger(name).setLevel(was)
    logged = out.getvalue()
    lines = [json.loads(line) for line in logged.splitlines()]
    assert any(line["logger"].startswith("telegram") for line in lines), "PTB logged its start"
    assert standin.token not in logged
    assert standin.token.split(":")[-1] not in logged
    public = " ".join(_texts(standin, GROUP))
    hands = {
        line.strip()
        for chat in users
        for text in _texts(standin, chat)
        for line in text.splitlines()
        if len(line.strip()) >= 12 and line.strip() not in public
    }
    assert hands, "the players were sent private lines"
    leaked = [line for line in hands if line in logged]
    assert not leaked, leaked


def _texts(standin, chat_id: int) -> list[str]:
    """Everything the bot wrote into one chat: texts, captions and button labels."""
    out = []
    for call in standin.calls:
        if str(call.params.get("chat_id")) != str(chat_id):
            continue
        for key in ("text", "caption"):
            if isinstance(call.params.get(key), str):
                out.append(visible(call.params[key]))
        markup = call.params.get("reply_markup") or {}
        if isinstance(markup, str):
            markup = json.loads(markup)
        out += [b.get("text", "") for row in markup.get("inline_keyboard", []) for b in row]
    return out
