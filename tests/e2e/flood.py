"""A flood over one bot's processes (issue 58), as a test and a bench run it: two Telegram
webhook workers and two Discord shard processes (real `escape-bot run` processes, each in a
working directory of its own) on one PostgreSQL, against stand-ins that enforce the
platforms' limits per bot token and per chat and count every breach. Users flood one
Telegram group hard and five others, and four Discord channels on two shards, with presses
and commands; Telegram worker 0 is killed with kill -9 a third of the way in and started
again in a new working directory. `run_flood` returns what the stand-ins and the store saw
and what went wrong (tests/e2e/test_many_processes.py asserts nothing did; bench/flood.py
runs a minute at the platforms' published rates).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from bot.settings import RATE_DEFAULTS, webhook_secret
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
)
from tests.e2e.telegram_standin import Limits as TelegramLimits
from tests.e2e.telegram_standin import TelegramStandIn
from tests.polling import until

PUBLISHED = dict(RATE_DEFAULTS)  # the platforms' figures


GROUPS = [-1001000000000 - n for n in range(6)]  # the first is flooded hardest
GUILDS = [910000000000000001, 910000000000000001 + (1 << 22)]  # one on each shard of two
COMMANDS = ["/escape board", "/help", "/escape join", "/escape log", "/escape games"]


def _rate(text: str) -> tuple[int, float]:
    count, _, per = text.partition("/")
    return int(count), float(per or 1)


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
    rates: dict[str, str]
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
            "ESCAPE_CPU_LAYOUT": "shared",  # processes sharing a machine, as at scale
            "LOG_LEVEL": "INFO",  # (into its log file: read when a test fails)
            **self.rates,
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
        await until(lambda: _listening(self.ports[n]), timeout=60, every=0.2)

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
    await until(lambda: standin.bot_messages(chat), timeout=60)
    join = standin.typed(players[1], chat, "/escape join")
    await side.post({"message": join}, chat, None, 1)
    await until(lambda: _tg_board(standin, chat), timeout=60)


async def _tg_flood(side: TelegramSide, chat: int, people: list[dict], pause: float, end: float):
    """Presses on the board the group shows and typed commands, one after another."""
    standin = side.standin
    rng = random.Random(chat)
    n = 0
    loop = asyncio.get_running_loop()
    while loop.time() < end:
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
    lobby = await until(
        lambda: [m for m in standin.messages_for(record.token) if m.buttons()], timeout=60
    )
    join = next(b["custom_id"] for b in lobby[0].buttons() if b["label"] == "Join")
    await standin.push(standin.click_payload(players[1], lobby[0], join))
    await until(lambda: side.board(channel), timeout=60)


async def _dc_flood(side: DiscordSide, channel: int, people: list[dict], pause: float, end: float):
    standin = side.standin
    rng = random.Random(channel)
    loop = asyncio.get_running_loop()
    while loop.time() < end:
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
            payload = standin.slash_payload(
                user, channel, rng.choice(["board", "records log", "join"])
            )
        side.clicks.append(await standin.push(payload))
        await asyncio.sleep(pause * rng.uniform(0.5, 1.5))


def _settled(telegram: TelegramStandIn, tg: TelegramSide, dc: DiscordSide) -> bool:
    """Every acknowledged press answered and every interaction called back."""
    presses = [s.query for s in tg.acknowledged if s.query is not None]
    return all(telegram.answers.get(q) for q in presses) and all(r.callbacks for r in dc.clicks)


@dataclass
class Flood:
    """What a flood did and what went wrong (each problem a line; none: all held)."""

    seconds: float
    acknowledged: int = 0  # Telegram updates the workers acknowledged
    presses: int = 0  # of which presses
    interactions: int = 0  # Discord interactions pushed
    telegram_calls: int = 0
    discord_calls: int = 0
    taken_over: int = 0  # updates another worker took over after the kill
    moves: int = 0  # moves in the games' logs
    posts_refused: int = 0  # webhook posts a dead worker did not take
    breaches: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notable: str = ""  # what the processes logged above INFO


async def run_flood(
    workdir: Path, db: str, seconds: float, tg_rates: dict[str, str], dc_rate: str
) -> Flood:
    result = Flood(seconds)
    telegram = TelegramStandIn()
    await telegram.start()
    telegram.limits = TelegramLimits(
        overall=_rate(tg_rates["TELEGRAM_RATE_GLOBAL"]),
        chat=_rate(tg_rates["TELEGRAM_RATE_CHAT"]),
        group=_rate(tg_rates["TELEGRAM_RATE_GROUP"]),
    )
    users = [telegram.add_user(2000 + n, f"User{n}") for n in range(30)]
    discord = DiscordStandIn()
    await discord.start()
    discord.add_guild(GUILDS[1])
    channels = [920000000000000101 + n for n in range(4)]
    for n, channel in enumerate(channels):
        discord.text_channel(channel, f"games-{n}", GUILDS[n % 2])
    discord.limits = DiscordLimits(overall=_rate(dc_rate))
    members = [user_payload(930000000000000100 + n, f"Member{n}") for n in range(12)]
    tg = TelegramSide(telegram, db, workdir, [_free_port(), _free_port()], tg_rates)
    dc = DiscordSide(discord)
    shards = []
    try:
        for n in range(2):
            await tg.start(n, f"telegram-{n}")
        for shard in range(2):
            place = workdir / f"discord-{shard}"
            place.mkdir()
            settings = {
                "ESCAPE_DB": db,
                "DISCORD_TOKEN": "standin-token",
                "DISCORD_API_BASE": discord.api_base,
                "DISCORD_GATEWAY": discord.gateway_url,
                "ESCAPE_SHARDS": "2",
                "ESCAPE_SHARD_IDS": str(shard),
                "DISCORD_RATE_GLOBAL": dc_rate,
                "ESCAPE_CPU_LAYOUT": "shared",
                "LOG_LEVEL": "INFO",
            }
            shards.append(await escape_bot_run(place, settings, log=place / "output.log"))
        await until(lambda: len(discord.identified_at) >= 2, timeout=90)
        await asyncio.gather(
            *(_tg_open(tg, chat, users[2 * n : 2 * n + 2]) for n, chat in enumerate(GROUPS)),
            *(_dc_open(dc, ch, members[2 * n : 2 * n + 2]) for n, ch in enumerate(channels)),
        )
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds
        flood = [
            asyncio.create_task(_tg_flood(tg, GROUPS[0], users, 0.15, end)),
            *(
                asyncio.create_task(
                    _tg_flood(
                        tg,
                        chat,
                        users[2 * n : 2 * n + 2] + users[12 + 3 * n : 15 + 3 * n],
                        0.6,
                        end,
                    )
                )
                for n, chat in enumerate(GROUPS)
                if n
            ),
            *(
                asyncio.create_task(
                    _dc_flood(dc, ch, members[2 * n : 2 * n + 2] + members[8:], 0.5, end)
                )
                for n, ch in enumerate(channels)
            ),
        ]
        await asyncio.sleep(seconds / 3)
        tg.processes[0].kill()  # kill -9, mid-flood
        await tg.processes[0].communicate()
        await asyncio.sleep(seconds / 6)
        await tg.start(0, "telegram-0-again")  # back, in a new working directory
        await asyncio.gather(*flood)
        store = await Store.open(db)
        try:
            await until(
                lambda: _settled(telegram, tg, dc), timeout=max(120, seconds * 3), every=0.5
            )

            async def unfinished() -> int:
                return (
                    await store.rows(
                        "SELECT COUNT(*) FROM platform_updates WHERE state <> 'done'", ()
                    )
                )[0][0]

            async def all_done() -> bool:
                return not await unfinished()

            try:
                await until(all_done, timeout=60, every=0.2)
            except TimeoutError:
                result.problems.append(f"{await unfinished()} updates still unfinished at the end")
            await asyncio.sleep(2.0)  # what the last updates post
            await _check(result, store, telegram, discord, tg, dc, channels)
        finally:
            await store.close()
    finally:
        for process in [*tg.processes, *shards]:
            with contextlib.suppress(Exception):
                await stop_escape_bot(process)
        await telegram.close()
        await discord.stop()
    for log in workdir.glob("*/output.log"):
        output = log.read_text(errors="replace")
        if "Traceback" in output:
            result.problems.append(f"{log.parent.name} logged a traceback: {output[-2000:]}")
    result.notable = _notable(workdir)
    return result


async def _check(
    result: Flood,
    store: Store,
    telegram: TelegramStandIn,
    discord: DiscordStandIn,
    tg: TelegramSide,
    dc: DiscordSide,
    channels: list[int],
) -> None:
    """What went wrong, in `result.problems` (and the breaches the stand-ins counted)."""
    problems = result.problems
    result.breaches = telegram.breaches + discord.breaches
    problems += [f"telegram: {v}" for v in telegram.violations]
    pressed = [s for s in tg.acknowledged if s.query is not None]
    result.acknowledged, result.presses = len(tg.acknowledged), len(pressed)
    result.interactions = len(dc.clicks)
    result.telegram_calls, result.discord_calls = len(telegram.calls), len(discord.calls)
    result.posts_refused = tg.refused_posts
    problems += [
        f"press {s.query} answered {telegram.answers.get(s.query, 0)} times"
        for s in pressed
        if telegram.answers.get(s.query) != 1
    ]
    ids = [s.update_id for s in tg.acknowledged]
    if len(ids) != len(set(ids)):
        problems.append("an update id was acknowledged twice")
    done = dict(
        await store.rows("SELECT update_id, lease FROM platform_updates WHERE state = 'done'", ())
    )
    result.taken_over = (
        await store.rows("SELECT COUNT(*) FROM platform_updates WHERE tries > 1", ())
    )[0][0]
    problems += [f"update {u} acknowledged and never run" for u in set(ids) - set(done)]
    by_query = {s.query: s.update_id for s in pressed}
    for chat in GROUPS:  # one after another, in the order they came
        order = [s.update_id for s in tg.acknowledged if s.chat == chat and s.update_id in done]
        ran = sorted(order, key=lambda u: done[u])
        if ran != sorted(order):
            problems.append(f"the updates of {chat} ran out of order")
        answered = [
            by_query[str(c.params["callback_query_id"])]
            for c in telegram.calls_of("answerCallbackQuery")
            if str(c.params["callback_query_id"]) in by_query
            and any(
                s.chat == chat and s.query == str(c.params["callback_query_id"]) for s in pressed
            )
        ]
        if answered != sorted(answered):
            problems.append(f"the presses of {chat} were answered out of order")
    for chat in GROUPS:  # each game shows one board, the latest; every accepted press a move
        row = (
            await store.live_session("telegram", str(chat), "")
            or (await store.ended_in_chat("telegram", str(chat)))[0]
        )
        photos = [m for m in telegram.bot_messages(chat) if "photo" in m]
        if len(photos) != 1:
            problems.append(f"{len(photos)} boards in group {chat}")
            continue
        live = choice_buttons(photos[0])
        if live and int(live[0]["callback_data"].split(":")[2]) != row.version:
            problems.append(
                f"group {chat} shows version {live[0]['callback_data']}, not {row.version}"
            )
        moves = [e for e in await store.log(row.id) if e.seat >= 0]
        result.moves += len(moves)
        answers = [telegram.answered_with[s.query] for s in pressed if s.chat == chat]
        plain = sum(not a.get("show_alert") and not a.get("text") for a in answers)
        working = sum(not a.get("show_alert") and bool(a.get("text")) for a in answers)
        # every press answered as a move is in the log; a press answered "working" may have
        # moved or not, and so may one whose worker died before answering
        if not plain <= len(moves) <= plain + working + result.taken_over:
            problems.append(f"group {chat}: {len(moves)} moves for {plain} accepted presses")
    for channel in channels:
        row = await store.live_session("discord", str(channel), "")
        boards = [
            m
            for m in discord.messages.values()
            if m.channel_id == channel and m.attachments and not m.deleted and not m.ephemeral
        ]
        if row is not None:
            result.moves += len([e for e in await store.log(row.id) if e.seat >= 0])
        if len(boards) != 1:
            problems.append(f"{len(boards)} boards in channel {channel}")
            continue
        versions = {
            int(b["custom_id"].split(":")[3])
            for b in boards[0].buttons()
            if b["custom_id"].startswith("escape:a:")
        }
        if row is not None and not versions <= {row.version}:
            problems.append(f"channel {channel} shows versions {versions}, not {row.version}")
    problems += [
        f"interaction {record.id} never answered" for record in dc.clicks if not record.callbacks
    ]
