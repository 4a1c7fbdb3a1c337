"""One bot on many processes and "machines" (issue 58): real `escape-bot run` processes, each
in a working directory of its own, on one real PostgreSQL, against stand-ins that enforce
the platforms' limits per bot token and per chat and count every breach."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import socket
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from bot.settings import webhook_secret
from bot.store import Store
from tests.e2e.discord_fixtures import mentioned
from tests.e2e.discord_standin import DiscordStandIn, Interaction, user_payload
from tests.e2e.discord_standin import Limits as DiscordLimits
from tests.e2e.discord_standin import Message as DiscordMessage
from tests.e2e.telegram_fixtures import (
    choice_buttons,
    escape_bot_run,
    mentioned_ids,
    stop_escape_bot,
    tg_local_only,  # noqa: F401
)
from tests.e2e.telegram_standin import Limits as TelegramLimits
from tests.e2e.telegram_standin import TelegramStandIn

IDENTIFY_EVERY = 5.0  # Discord: one IDENTIFY per max_concurrency bucket in 5 seconds


async def _until(check, timeout: float, every: float = 0.1):
    """Poll `check()` until it is truthy or `timeout` seconds pass (then TimeoutError)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = check()
        if found:
            return found
        if loop.time() > deadline:
            raise TimeoutError(f"never came: {check}")
        await asyncio.sleep(every)


async def test_four_shard_processes_started_at_once_identify_apart(
    tmp_path: Path,
    postgres_server,
    tg_local_only,  # noqa: F811
):
    """Four processes of one bot, one shard each, started together (a deploy, a host's
    reboot): Discord's max_concurrency is 2, so shards 0 and 2 share a bucket, 1 and 3 the
    other; no two IDENTIFYs of one bucket come within 5 seconds."""
    standin = DiscordStandIn()
    await standin.start()
    standin.max_concurrency = 2
    db = await postgres_server.new_schema()
    processes = []
    try:
        for shard in range(4):
            workdir = tmp_path / f"machine-{shard}"
            workdir.mkdir()
            settings = {
                "ESCAPE_DB": db,
                "DISCORD_TOKEN": "standin-token",
                "DISCORD_API_BASE": standin.api_base,
                "DISCORD_GATEWAY": standin.gateway_url,
                "ESCAPE_SHARDS": "4",
                "ESCAPE_SHARD_IDS": str(shard),
            }
            processes.append(await escape_bot_run(workdir, settings))
        await _until(lambda: len(standin.identified_at) >= 4, timeout=90)
        by_bucket: dict[int, list[float]] = {}
        for at, shard, count in standin.identified_at:
            assert count == 4
            by_bucket.setdefault(shard % standin.max_concurrency, []).append(at)
        assert sorted(len(times) for times in by_bucket.values()) == [2, 2]
        for times in by_bucket.values():
            times.sort()
            gaps = [b - a for a, b in itertools.pairwise(times)]
            assert all(gap >= IDENTIFY_EVERY for gap in gaps), gaps
        assert sorted(shard for _, shard, _ in standin.identified_at) == [0, 1, 2, 3]
    finally:
        outputs = []
        for process in processes:
            with contextlib.suppress(Exception):
                outputs.append(await stop_escape_bot(process))
        await standin.stop()
    for output in outputs:
        assert "Traceback" not in output, output


# ----- the flood ------------------------------------------------------------------------------
# Rates lowered from the platforms' figures by the settings, so that a flood of seconds
# meets every limit; each stand-in enforces the same. (bench/many_processes.py runs the
# minute at the published figures.)
TG_RATES = {
    "TELEGRAM_RATE_GLOBAL": "15/1",
    "TELEGRAM_RATE_GROUP": "8/10",
    "TELEGRAM_RATE_CHAT": "1/1",
}
DC_RATE = "10/1"
FLOOD = 20.0  # seconds
GROUPS = [-1001000000000 - n for n in range(6)]  # the first is flooded hardest
GUILDS = [910000000000000001, 910000000000000001 + (1 << 22)]  # one on each shard of two
COMMANDS = ["/escape board", "/help", "/escape join", "/escape log", "/escape games"]


def _rate(text: str) -> tuple[int, float]:
    count, _, per = text.partition("/")
    return int(count), float(per or 1)


async def _until_async(check, timeout: float, every: float = 0.2):
    """Poll `await check()` until it is falsy (nothing left) or `timeout` seconds pass."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while await check():
        if loop.time() > deadline:
            raise TimeoutError(f"never settled: {check}")
        await asyncio.sleep(every)


@dataclass
class Sent:
    """An update the stand-in delivered and a worker acknowledged."""

    update_id: int
    chat: int
    query: str | None  # a press's query id


@dataclass
class TelegramSide:
    standin: TelegramStandIn
    db: str
    workdir: Path
    ports: list[int]
    processes: list = field(default_factory=list)
    acknowledged: list[Sent] = field(default_factory=list)
    refused_posts: int = 0  # posts a dead worker did not take (sent to the other)

    def settings(self, port: int) -> dict[str, str]:
        return {
            "ESCAPE_DB": self.db,
            "TELEGRAM_TOKEN": self.standin.token,
            "TELEGRAM_BASE_URL": self.standin.base_url,
            "TELEGRAM_BASE_FILE_URL": self.standin.base_file_url,
            "TELEGRAM_WEBHOOK_URL": "https://escape.example.org/telegram/hook",
            "TELEGRAM_WEBHOOK_LISTEN": "127.0.0.1",
            "TELEGRAM_WEBHOOK_PORT": str(port),
            "TELEGRAM_UPDATE_LEASE": "5",
            "LOG_LEVEL": "INFO",  # (into its log file: read when a test fails)
            **TG_RATES,
        }

    async def start(self, n: int, name: str) -> None:
        workdir = self.workdir / name
        workdir.mkdir()
        process = await escape_bot_run(
            workdir, self.settings(self.ports[n]), log=workdir / "output.log"
        )
        if n < len(self.processes):
            self.processes[n] = process
        else:
            self.processes.append(process)
        await _until(lambda: _listening(self.ports[n]), timeout=60, every=0.2)

    async def post(self, update: dict, chat: int, query: str | None, prefer: int) -> None:
        """Deliver one update as Telegram behind a balancer: to one worker, and to the
        other (the same update id) when that one is down or dies before answering."""
        update_id = self.standin.new_update_id()
        secret = webhook_secret(self.standin.token)
        for attempt in range(40):
            port = self.ports[(prefer + attempt) % len(self.ports)]
            url = f"http://127.0.0.1:{port}/telegram/hook"
            try:
                status = await self.standin.post_webhook(
                    url, update, secret=secret, update_id=update_id
                )
            except (aiohttp.ClientError, OSError):
                self.refused_posts += 1
                await asyncio.sleep(0.1)
                continue
            if status == 200:
                self.acknowledged.append(Sent(update_id, chat, query))
                return
            await asyncio.sleep(0.2)
        raise AssertionError(f"no worker took update {update_id}")


def _notable(tmp_path: Path) -> str:
    """What the processes logged above INFO, and every update taken over (for a failure's
    message)."""
    lines = []
    for log in sorted(tmp_path.glob("*/output.log")):
        for line in log.read_text(errors="replace").splitlines():
            if " WARNING " in line or " ERROR " in line or "taken over" in line:
                lines.append(f"{log.parent.name}: {line}")
    return "\n".join(lines[-40:])


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _tg_board(standin: TelegramStandIn, chat: int) -> dict | None:
    photos = [m for m in standin.bot_messages(chat) if "photo" in m]
    return photos[-1] if photos else None


async def _tg_open(side: TelegramSide, chat: int, players: list[dict]) -> None:
    standin = side.standin
    standin.add_group(chat, f"Group {chat}")
    start = standin.typed(players[0], chat, "/escape start ghosts18 variant=short")
    await side.post({"message": start}, chat, None, 0)
    await _until(lambda: standin.bot_messages(chat), timeout=60)
    join = standin.typed(players[1], chat, "/escape join")
    await side.post({"message": join}, chat, None, 1)
    await _until(lambda: _tg_board(standin, chat), timeout=60)


async def _tg_flood(side: TelegramSide, chat: int, people: list[dict], pause: float, until: float):
    """Presses on the board the group shows and typed commands, one after another."""
    standin = side.standin
    rng = random.Random(chat)
    n = 0
    loop = asyncio.get_running_loop()
    while loop.time() < until:
        n += 1
        board = _tg_board(standin, chat)
        choices = [b["callback_data"] for b in choice_buttons(board)] if board else []
        user = rng.choice(people)
        if choices and rng.random() < 0.75:
            if rng.random() < 0.6:  # the player to act, more often than not
                acting = [u for u in people if u["id"] in mentioned_ids(board)]
                user = acting[0] if acting else user
            query, update = standin.pressing(user, board, rng.choice(choices))
            await side.post(update, chat, query, n)
        else:
            message = standin.typed(user, chat, rng.choice(COMMANDS))
            await side.post({"message": message}, chat, None, n)
        await asyncio.sleep(pause * rng.uniform(0.5, 1.5))


@dataclass
class DiscordSide:
    standin: DiscordStandIn
    clicks: list[Interaction] = field(default_factory=list)

    def board(self, channel: int) -> DiscordMessage | None:
        boards = [
            m
            for m in self.standin.messages.values()
            if m.channel_id == channel and m.attachments and not m.deleted and not m.ephemeral
        ]
        return boards[-1] if boards else None


async def _dc_open(side: DiscordSide, channel: int, players: list[dict]) -> None:
    standin = side.standin
    start = standin.slash_payload(
        players[0], channel, "start", {"game": "ghosts18", "options": "variant=short"}
    )
    record = await standin.push(start)
    lobby = await _until(
        lambda: [m for m in standin.messages_for(record.token) if m.buttons()], timeout=60
    )
    join = next(b["custom_id"] for b in lobby[0].buttons() if b["label"] == "Join")
    await standin.push(standin.click_payload(players[1], lobby[0], join))
    await _until(lambda: side.board(channel), timeout=60)


async def _dc_flood(
    side: DiscordSide, channel: int, people: list[dict], pause: float, until: float
):
    standin = side.standin
    rng = random.Random(channel)
    loop = asyncio.get_running_loop()
    while loop.time() < until:
        board = side.board(channel)
        buttons = (
            [b["custom_id"] for b in board.buttons() if b["custom_id"].startswith("escape:a:")]
            if board
            else []
        )
        user = rng.choice(people)
        if buttons and rng.random() < 0.8:
            if rng.random() < 0.6:
                acting = [u for u in people if int(u["id"]) in mentioned(board)]
                user = acting[0] if acting else user
            payload = standin.click_payload(user, board, rng.choice(buttons))
        else:
            payload = standin.slash_payload(user, channel, rng.choice(["board", "log", "join"]))
        side.clicks.append(await standin.push(payload))
        await asyncio.sleep(pause * rng.uniform(0.5, 1.5))


def _settled(telegram: TelegramStandIn, tg: TelegramSide, dc: DiscordSide) -> bool:
    """Every acknowledged press answered and every interaction called back."""
    presses = [s.query for s in tg.acknowledged if s.query is not None]
    return all(telegram.answers.get(q) for q in presses) and all(r.callbacks for r in dc.clicks)


async def test_a_flood_over_two_telegram_workers_and_two_discord_shards(
    tmp_path: Path,
    postgres_server,
    tg_local_only,  # noqa: F811
):
    """Two Telegram webhook workers and two Discord shard processes on one PostgreSQL, each
    in its own working directory; users flood one group hard and five others, and four
    Discord channels on two shards, with presses and commands; a Telegram worker is killed
    with kill -9 in the middle and started again. The stand-ins count no breach of the
    limits; every acknowledged update is run once, in its chat's order; every press is
    answered once; each game shows one board, the latest; no move is lost."""
    db = await postgres_server.new_schema()
    telegram = TelegramStandIn()
    await telegram.start()
    telegram.limits = TelegramLimits(
        overall=_rate(TG_RATES["TELEGRAM_RATE_GLOBAL"]),
        chat=_rate(TG_RATES["TELEGRAM_RATE_CHAT"]),
        group=_rate(TG_RATES["TELEGRAM_RATE_GROUP"]),
    )
    users = [telegram.add_user(2000 + n, f"User{n}") for n in range(30)]
    discord_standin = DiscordStandIn()
    await discord_standin.start()
    discord_standin.add_guild(GUILDS[1])
    channels = [920000000000000101 + n for n in range(4)]
    for n, channel in enumerate(channels):
        discord_standin.text_channel(channel, f"games-{n}", GUILDS[n % 2])
    discord_standin.limits = DiscordLimits(overall=_rate(DC_RATE))
    members = [user_payload(930000000000000100 + n, f"Member{n}") for n in range(12)]
    tg = TelegramSide(telegram, db, tmp_path, [_free_port(), _free_port()])
    dc = DiscordSide(discord_standin)
    shards = []
    try:
        for n in range(2):
            await tg.start(n, f"telegram-{n}")
        for shard in range(2):
            workdir = tmp_path / f"discord-{shard}"
            workdir.mkdir()
            settings = {
                "ESCAPE_DB": db,
                "DISCORD_TOKEN": "standin-token",
                "DISCORD_API_BASE": discord_standin.api_base,
                "DISCORD_GATEWAY": discord_standin.gateway_url,
                "ESCAPE_SHARDS": "2",
                "ESCAPE_SHARD_IDS": str(shard),
                "DISCORD_RATE_GLOBAL": DC_RATE,
                "LOG_LEVEL": "INFO",
            }
            shards.append(await escape_bot_run(workdir, settings, log=workdir / "output.log"))
        await _until(lambda: len(discord_standin.identified_at) >= 2, timeout=90)
        await asyncio.gather(
            *(_tg_open(tg, chat, users[2 * n : 2 * n + 2]) for n, chat in enumerate(GROUPS)),
            *(_dc_open(dc, ch, members[2 * n : 2 * n + 2]) for n, ch in enumerate(channels)),
        )
        opened = len(tg.acknowledged)
        loop = asyncio.get_running_loop()
        until = loop.time() + FLOOD
        flood = [
            asyncio.create_task(
                _tg_flood(tg, chat, users, 0.15 if n == 0 else 0.6, until)
                if n == 0
                else _tg_flood(
                    tg, chat, users[2 * n : 2 * n + 2] + users[12 + 3 * n : 15 + 3 * n], 0.6, until
                )
            )
            for n, chat in enumerate(GROUPS)
        ] + [
            asyncio.create_task(
                _dc_flood(dc, ch, members[2 * n : 2 * n + 2] + members[8:], 0.5, until)
            )
            for n, ch in enumerate(channels)
        ]
        await asyncio.sleep(FLOOD / 3)
        tg.processes[0].kill()  # kill -9, mid-flood
        await tg.processes[0].communicate()
        await asyncio.sleep(FLOOD / 6)
        await tg.start(0, "telegram-0-again")  # back, in a new working directory
        await asyncio.gather(*flood)

        # everything acknowledged is run, and every press answered
        store = await Store.open(db)
        try:
            await _until(lambda: _settled(telegram, tg, dc), timeout=120, every=0.5)

            async def unfinished() -> int:
                return (
                    await store.rows(
                        "SELECT COUNT(*) FROM platform_updates WHERE state <> 'done'", ()
                    )
                )[0][0]

            await _until_async(unfinished, timeout=60)
            assert telegram.breaches == [], (telegram.breaches[:5], _notable(tmp_path))
            assert discord_standin.breaches == [], (
                discord_standin.breaches[:5],
                _notable(tmp_path),
            )
            assert not telegram.violations, telegram.violations
            pressed = [s for s in tg.acknowledged if s.query is not None]
            assert all(telegram.answers.get(s.query) == 1 for s in pressed)
            ids = [s.update_id for s in tg.acknowledged]
            assert len(ids) == len(set(ids))
            done = dict(
                await store.rows(
                    "SELECT update_id, lease FROM platform_updates WHERE state = 'done'", ()
                )
            )
            taken_over = (
                await store.rows("SELECT COUNT(*) FROM platform_updates WHERE tries > 1", ())
            )[0][0]
            assert set(ids) <= set(done), "an acknowledged update was never run"
            for chat in GROUPS:  # one after another, in the order they came
                ran = [done[s.update_id] for s in tg.acknowledged if s.chat == chat]
                order = [s.update_id for s in tg.acknowledged if s.chat == chat]
                assert [u for _, u in sorted(zip(ran, order, strict=True))] == sorted(order)
                answered = [
                    c.params["callback_query_id"]
                    for c in telegram.calls_of("answerCallbackQuery")
                    if str(c.params["callback_query_id"])
                    in {s.query for s in pressed if s.chat == chat}
                ]
                by_query = {s.query: s.update_id for s in pressed}
                assert [by_query[str(q)] for q in answered] == sorted(
                    by_query[str(q)] for q in answered
                )
            # each game shows one board, the latest; every accepted press is a move
            for chat in GROUPS:
                row = (
                    await store.live_session("telegram", str(chat), "")
                    or (await store.ended_in_chat("telegram", str(chat)))[0]
                )
                photos = [m for m in telegram.bot_messages(chat) if "photo" in m]
                assert len(photos) == 1, f"{len(photos)} boards in {chat}\n{_notable(tmp_path)}"
                live = choice_buttons(photos[0])
                if live:
                    assert int(live[0]["callback_data"].split(":")[2]) == row.version
                moves = [e for e in await store.log(row.id) if e.seat >= 0]
                answers = [telegram.answered_with[s.query] for s in pressed if s.chat == chat]
                plain = sum(not a.get("show_alert") and not a.get("text") for a in answers)
                working = sum(not a.get("show_alert") and bool(a.get("text")) for a in answers)
                # every press answered as a move is in the log; a press answered "working"
                # may have moved or not, and so may one whose worker died before answering
                assert plain <= len(moves) <= plain + working + taken_over, (chat, len(moves))
            for channel in channels:
                row = await store.live_session("discord", str(channel), "")
                boards = [
                    m
                    for m in discord_standin.messages.values()
                    if m.channel_id == channel
                    and m.attachments
                    and not m.deleted
                    and not m.ephemeral
                ]
                assert len(boards) == 1, (
                    f"{len(boards)} boards in channel {channel}\n{_notable(tmp_path)}"
                )
                if row is not None:
                    versions = {
                        int(b["custom_id"].split(":")[3])
                        for b in boards[0].buttons()
                        if b["custom_id"].startswith("escape:a:")
                    }
                    assert versions <= {row.version}
            assert all(record.callbacks for record in dc.clicks), "an interaction unanswered"
        finally:
            await store.close()
    finally:
        for process in [*tg.processes, *shards]:
            with contextlib.suppress(Exception):
                await stop_escape_bot(process)
        await telegram.close()
        await discord_standin.stop()
    assert opened and tg.refused_posts >= 0
    for log in tmp_path.glob("*/output.log"):
        output = log.read_text(errors="replace")
        assert "Traceback" not in output, f"{log.parent.name}: {output[-3000:]}"
