"""Fixtures for the Telegram end-to-end tests: the stand-in Bot API and the real adapter
(`run_telegram`, unmodified python-telegram-bot with its long polling) pointed at it.

Imported by the test modules (`from tests.e2e.telegram_fixtures import *`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.service import GameService
from bot.settings import Settings
from bot.store import Store
from bot.telegram import run_telegram
from bot.telegram.ratelimit import NO_LIMITS, SharedRateLimiter
from tests.e2e.telegram_standin import BOT_ID, PNG, TelegramStandIn

__all__ = [
    "BOARD_CALLS",
    "BOT_ID",
    "GROUP",
    "PNG",
    "TelegramBot",
    "board_photos",
    "buttons",
    "choice_buttons",
    "current_board",
    "escape_bot_run",
    "mentioned_ids",
    "open_table",
    "press_and_wait",
    "stop_escape_bot",
    "tg_bot",
    "tg_local_only",
    "tg_standin",
    "until_shown",
]

GROUP = -1001234567890
LOCAL = {"127.0.0.1", "localhost", "::1"}


@pytest.fixture
def tg_local_only(monkeypatch):
    """No test may reach Telegram: resolving any other host fails loudly."""
    real = socket.getaddrinfo

    def guarded(host, *args, **kwargs):
        if host not in LOCAL:
            raise AssertionError(f"a test tried to reach {host!r}")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", guarded)


@pytest.fixture
async def tg_standin(tg_local_only):
    standin = TelegramStandIn()
    await standin.start()
    standin.ann = standin.add_user(1001, "Ann")
    standin.bob = standin.add_user(1002, "Bob", "bob")
    standin.carol = standin.add_user(1003, "Carol")
    standin.dave = standin.add_user(1004, "Dave")
    standin.add_group(GROUP, "Escape club")
    standin.admins[GROUP] = {1004}
    try:
        yield standin
    finally:
        await standin.close()
    assert not standin.violations, standin.violations


def buttons(message: dict) -> list[dict]:
    rows = (message.get("reply_markup") or {}).get("inline_keyboard", [])
    return [b for row in rows for b in row]


def choice_buttons(message: dict) -> list[dict]:
    return [b for b in buttons(message) if (b.get("callback_data") or "").startswith("e|a:")]


def mentioned_ids(message: dict) -> list[int]:
    return [int(x) for x in re.findall(r"tg://user\?id=(\d+)", message.get("html") or "")]


BOARD_CALLS = ("editMessageMedia", "sendPhoto")


def board_photos(standin: TelegramStandIn, chat_id: int = GROUP) -> list[dict]:
    """The bot's photos the chat shows now (deleted ones gone)."""
    return [m for m in standin.bot_messages(chat_id) if "photo" in m]


def current_board(standin: TelegramStandIn, chat_id: int = GROUP) -> dict:
    photos = board_photos(standin, chat_id)
    assert photos, "no board on show"
    return photos[-1]


async def open_table(standin: TelegramStandIn, variant: str = "short", session: int = 1) -> dict:
    """Ann opens 18 Ghosts, Bob joins (the table is full, so it begins): the first board."""
    mark = len(standin.calls)
    await standin.say(standin.ann, GROUP, f"/escape start ghosts18 variant={variant}")
    lobby = await standin.wait_for(lambda c: c.method == "sendMessage", after=mark)
    assert "opened a table" in lobby.result["text"]
    assert [b["callback_data"] for b in buttons(lobby.result)] == [
        f"e|j:{session}",
        f"e|l:{session}",
        f"e|o:{session}",
    ]
    mark = len(standin.calls)
    await standin.say(standin.bob, GROUP, "/escape@escape_test_bot join")
    await standin.wait_for(lambda c: c.method == "sendPhoto", after=mark)
    await standin.wait_for(lambda c: c.method == "deleteMessage", after=mark)  # the lobby
    return current_board(standin)


async def press_and_wait(standin, user, message, data, *, after_methods=BOARD_CALLS) -> dict:
    mark = len(standin.calls)
    query = await standin.press(user, message, data)
    answer = await standin.answer(query)
    assert not answer.get("show_alert"), answer.get("text")
    if after_methods:
        await standin.wait_for(lambda c: c.method in after_methods, after=mark)
    return answer


async def until_shown(standin, check, timeout: float = 10) -> bool:
    """Whether `check()` comes to hold of what the chat shows within `timeout`. A board's
    call is made in the middle of the bot's delivery: retiring the old board and tidying
    at the game's end come after it, so what a chat ends up showing is asked this way."""
    after = max(len(standin.calls) - 1, 0)
    try:
        await standin.wait_for(lambda _call: check(), after=after, timeout=timeout)
    except TimeoutError:
        return False
    return True


@dataclass
class TelegramBot:
    """The adapter as `escape-bot run` starts it: run_telegram(settings, service) in a task."""

    standin: TelegramStandIn
    db: object
    limiter: object = None
    task: asyncio.Task | None = None
    store: Store | None = None
    service: GameService | None = None
    runs: int = 0
    overrides: dict = field(default_factory=dict)  # more settings, e.g. webhook mode
    seed: int = 1234  # the chance seed of every game the service starts from now on
    settings: Settings = field(init=False)

    def __post_init__(self) -> None:
        self.settings = Settings(
            db_path=self.db,
            telegram_token=self.standin.token,
            telegram_base_url=self.standin.base_url,
            telegram_base_file_url=self.standin.base_file_url,
            **self.overrides,
        )

    async def start(self) -> None:
        self.store = await Store.open(self.db)
        self.service = GameService(self.store, seed_source=lambda: self.seed)
        ready = asyncio.Event()
        self.task = asyncio.create_task(
            run_telegram(self.settings, self.service, rate_limiter=self.limiter, ready=ready)
        )
        waiter = asyncio.create_task(ready.wait())
        done, _ = await asyncio.wait({waiter, self.task}, timeout=15, return_when="FIRST_COMPLETED")
        if self.task in done:
            waiter.cancel()
            self.task.result()
        assert waiter in done, "run_telegram did not get ready"
        self.runs += 1

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(self.task, 15)
            self.task = None
        if self.store is not None:
            await self.store.close()
            self.store = None

    async def restart(self) -> None:
        """A new process, as far as the bot can tell: new Application, service and store."""
        await self.stop()
        await self.start()

    async def live(self, chat_id: int = GROUP, thread: str = ""):
        from bot.service import ChatRef

        return await self.service.live(ChatRef("telegram", str(chat_id), thread, str(chat_id)))


GUARD = f"""# Written by the e2e tests: this process may resolve only {sorted(LOCAL)}.
import socket

_real = socket.getaddrinfo


def _guarded(host, *args, **kwargs):
    name = host.decode() if isinstance(host, bytes) else host
    if name not in {sorted(LOCAL)!r}:
        raise OSError(f"the escape-bot under test tried to reach {{name!r}}")
    return _real(host, *args, **kwargs)


socket.getaddrinfo = _guarded
"""


async def escape_bot_run(
    workdir: Path,
    settings: dict[str, str],
    command: str = "run",
    own_group: bool = False,
    log: Path | None = None,
) -> asyncio.subprocess.Process:
    """The real `escape-bot run` (or another `command`) in a process of its own, in `workdir`
    (no stray .env), with only `settings` from our DISCORD_/TELEGRAM_/ESCAPE_ variables (and
    LOG_LEVEL; its CPU workers do not practise unless `settings` say so, as in every test),
    and a sitecustomize that refuses to resolve any host but this machine's.
    `own_group`: in a process group of its own, as a terminal runs it (Ctrl-C signals the
    whole group). `log`: its output goes to this file rather than a pipe (a long run's
    lines would fill a pipe nobody reads until it ends)."""
    guard = workdir / "guard"
    guard.mkdir(exist_ok=True)
    (guard / "sitecustomize.py").write_text(GUARD, encoding="utf-8")
    project = Path(__file__).resolve().parents[2]
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "TELEGRAM_", "ESCAPE_", "PYTHONPATH"))
    }
    env |= {
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": f"{guard}{os.pathsep}{project}",
        "ESCAPE_PRACTICE": os.environ.get("ESCAPE_PRACTICE", "0"),
        **settings,
    }
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        command,
        cwd=workdir,
        env=env,
        stdout=log.open("ab") if log is not None else asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        start_new_session=own_group,
    )


async def stop_escape_bot(process: asyncio.subprocess.Process) -> str:
    """Ctrl-C, as a person (or systemd's SIGINT) would; its output, after it has exited."""
    if process.returncode is None:
        process.send_signal(signal.SIGINT)
    output, _ = await asyncio.wait_for(process.communicate(), 20)
    return output.decode(errors="replace") if output is not None else ""


def fast_limiter() -> SharedRateLimiter:
    """The bot's own limiter (it retries a 429, holding the chat's windows), without the
    platform's paces that would make a whole game take minutes."""
    return SharedRateLimiter(None, NO_LIMITS, retries=3)


@pytest.fixture
async def tg_bot(tg_standin, tmp_path):
    bot = TelegramBot(tg_standin, tmp_path / "escape.sqlite3", limiter=fast_limiter())
    await bot.start()
    try:
        yield bot
    finally:
        await bot.stop()
        leftover = [
            t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()
        ]
        assert not [t for t in leftover if "telegram" in repr(t.get_coro()).lower()], leftover
