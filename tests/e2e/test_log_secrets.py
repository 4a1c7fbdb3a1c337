"""The Telegram token and the webhook secret never reach the log (issue 29, item 2), with
every logger of the real `escape-bot run` process writing at DEBUG: a whole game by long
polling, a start in webhook mode (whose setWebhook call PTB logs with its parameters) and
a refused token (whose PTB message repeats the token). Everything the process writes, its
log and its error lines, is read."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import random
import signal
import socket
from dataclasses import replace
from urllib.parse import quote

from bot.log_setup import FORMAT, QUIET, configure_logging
from bot.settings import webhook_secret
from bot.telemetry import logs
from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import (
    GROUP,
    TelegramBot,
    choice_buttons,
    current_board,
    escape_bot_run,
    fast_limiter,
    mentioned_ids,
    open_table,
    press_and_wait,
)
from tests.e2e.test_telegram_game import play_until_won


def _debug(standin, tmp_path, **more) -> dict[str, str]:
    return {
        "TELEGRAM_TOKEN": standin.token,
        "TELEGRAM_BASE_URL": standin.base_url,
        "TELEGRAM_BASE_FILE_URL": standin.base_file_url,
        "ESCAPE_DB": str(tmp_path / "escape.sqlite3"),
        "ESCAPE_AI_SCALE": "0.02",
        "LOG_LEVEL": "DEBUG",
        **more,
    }


class Logged:
    """The process's output, read as it comes: at DEBUG it is far more than a pipe holds, and
    a process whose pipe is full stops at its next log line."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.chunks: list[bytes] = []
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        while chunk := await self.process.stdout.read(65536):
            self.chunks.append(chunk)

    async def stop(self) -> str:
        """Ctrl-C (if still running); everything it wrote."""
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGINT)
        try:
            await asyncio.wait_for(self.process.wait(), 30)
        finally:
            if self.process.returncode is None:
                self.process.kill()
                await self.process.wait()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.reader, 10)
        return b"".join(self.chunks).decode(errors="replace")


def assert_no_secret(output: str, *secrets: str) -> None:
    for secret in secrets:
        for form in (secret, quote(secret, safe=""), quote(secret)):
            assert form not in output, f"{form!r} is in the log"


async def test_a_whole_game_logged_at_debug_holds_no_token(tg_standin, tmp_path):
    """In this process (the group's pace limit off, as in test_telegram_game, or a game takes
    minutes): logging configured as `escape-bot` does, every logger at DEBUG, one handler on
    the root where every record ends up."""
    standin = tg_standin
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    handler.setFormatter(logging.Formatter(FORMAT))
    root = logging.getLogger()
    saved = root.level, {name: logging.getLogger(name).level for name in QUIET}
    root.addHandler(handler)
    bot = TelegramBot(standin, tmp_path / "escape.sqlite3", limiter=fast_limiter())
    try:
        configure_logging(replace(bot.settings, log_level="DEBUG"))
        logs.configure("text")  # as escape-bot does: the chat libraries stay at INFO
        root.setLevel(logging.DEBUG)
        await bot.start()
        try:
            await open_table(standin)
            moves = await play_until_won(standin, random.Random(7))
        finally:
            await bot.stop()
    finally:
        root.removeHandler(handler)
        root.setLevel(saved[0])
        for name, level in saved[1].items():
            logging.getLogger(name).setLevel(level)
    assert moves > 10 and " wins with " in current_board(standin, GROUP)["caption"]
    output = buffer.getvalue()
    lines = output.splitlines()
    assert any("is running" in line for line in lines), output[:3000]
    assert_no_secret(output, standin.token)
    # a library's DEBUG lines carry what it sends (a hand's caption, a stored position):
    # at LOG_LEVEL=DEBUG the libraries stay at INFO, so no hand reaches the log
    assert not any(" DEBUG telegram" in line or " DEBUG aiosqlite" in line for line in lines)
    assert "Your hand" not in output


async def test_a_short_game_of_the_real_process_at_debug_holds_no_token(tg_standin, tmp_path):
    """The real `escape-bot run`, LOG_LEVEL=DEBUG: its start, a table and the first moves."""
    standin = tg_standin
    process = await escape_bot_run(tmp_path, _debug(standin, tmp_path))
    logged = Logged(process)
    try:
        await standin.wait_for(lambda c: c.method == "setMyCommands", timeout=30)
        board = await open_table(standin)
        users = {u["id"]: u for u in (standin.ann, standin.bob)}
        for _ in range(3):
            actor = users[mentioned_ids(board)[0]]
            await press_and_wait(standin, actor, board, choice_buttons(board)[0]["callback_data"])
            board = current_board(standin)
    finally:
        output = await logged.stop()
    assert process.returncode == 0, output[-3000:]
    lines = output.splitlines()
    assert any("is running" in line for line in lines), output[:3000]
    assert_no_secret(output, standin.token)
    assert not any(" DEBUG telegram" in line or " DEBUG aiosqlite" in line for line in lines)


async def test_webhook_mode_at_debug_holds_neither_the_token_nor_the_secret(tg_standin, tmp_path):
    standin = tg_standin
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    secret = "the-webhook-secret-of-this-test"
    settings = _debug(
        standin,
        tmp_path,
        TELEGRAM_WEBHOOK_URL="https://escape.example.org/telegram/hook",
        TELEGRAM_WEBHOOK_LISTEN="127.0.0.1",
        TELEGRAM_WEBHOOK_PORT=str(port),
        TELEGRAM_WEBHOOK_SECRET=secret,
    )
    process = await escape_bot_run(tmp_path, settings)
    logged = Logged(process)
    try:
        hook = await standin.wait_for(lambda c: c.method == "setWebhook", timeout=30)
        assert hook.params["secret_token"] == secret
        await standin.wait_for(lambda c: c.method == "setMyCommands", timeout=30)
        mark = len(standin.calls)
        typed = standin.typed(standin.ann, GROUP, "/escape start ghosts18 variant=short")
        local = f"http://127.0.0.1:{port}/telegram/hook"
        for _ in range(50):  # the listener starts just after setWebhook
            try:
                status = await standin.post_webhook(local, {"message": typed}, secret=secret)
                break
            except OSError:
                await asyncio.sleep(0.1)
        assert status == 200
        await standin.wait_for(lambda c: c.method == "sendMessage", after=mark, timeout=30)
    finally:
        output = await logged.stop()
    assert process.returncode == 0, output[-3000:]
    assert_no_secret(output, standin.token, secret, webhook_secret(standin.token))


async def test_a_refused_token_at_debug_is_not_repeated(tg_standin, tmp_path):
    wrong = "7000001:WRONG-token-for-the-test"
    process = await escape_bot_run(tmp_path, _debug(tg_standin, tmp_path, TELEGRAM_TOKEN=wrong))
    logged = Logged(process)
    await asyncio.wait_for(process.wait(), 60)  # it stops by itself
    text = await logged.stop()
    assert process.returncode == 4, text
    assert "rejected TELEGRAM_TOKEN" in text and "Traceback" not in text
    assert_no_secret(text, wrong, "WRONG-token")
