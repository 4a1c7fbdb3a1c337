"""Links and sessions survive a restart (issue 60): the web board's signing keys are kept
with the data, so the link a tokenless `make run` printed, and the session a browser got
from it, still open after the bot is stopped and started again on the same database; on
another database they are not ours."""

from __future__ import annotations

import asyncio
import os
import pty
import re
import signal
import socket
import subprocess
import sys
import time

import aiohttp

LINK = re.compile(rb"(http://127\.0\.0\.1:\d+/local/[A-Za-z0-9_.-]+)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalBot:
    """`escape-bot run` with no token, at a pseudo-terminal (as `make run` is typed): the
    terminal's set-up waits at its prompt while the web board serves."""

    def __init__(self, tmp_path, db, port: int) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TELEGRAM_"))}
        env.update(
            ESCAPE_DB=str(db),
            ESCAPE_WEB=f"127.0.0.1:{port}",
            ESCAPE_PRACTICE="0",
            LANG="C.UTF-8",
            PYTHONUNBUFFERED="1",
        )
        env.pop("ESCAPE_WEB_SECRET", None)
        self.keyboard, tty = pty.openpty()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bot.cli", "run"],
            cwd=tmp_path,
            env=env,
            stdin=tty,
            stdout=tty,
            stderr=tty,
        )
        os.close(tty)
        self.out = b""

    def link(self, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while not (found := LINK.search(self.out)):
            assert time.monotonic() < deadline and self.proc.poll() is None, self.out
            self.out += os.read(self.keyboard, 4096)
        return found.group(1).decode()

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            code = self.proc.wait(20)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            os.close(self.keyboard)
        return code


async def _open(link: str, jar: aiohttp.CookieJar) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession(cookie_jar=jar) as http,
        http.get(link, allow_redirects=False) as answer,
    ):
        return answer.status, await answer.text()


async def _local_tables(base: str, jar: aiohttp.CookieJar) -> int:
    async with (
        aiohttp.ClientSession(cookie_jar=jar) as http,
        http.get(f"{base}/api/local/tables") as answer,
    ):
        return answer.status


async def _serving(base: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            async with aiohttp.ClientSession() as http, http.get(f"{base}/api/config") as answer:
                if answer.status == 200:
                    return
        except aiohttp.ClientError:
            pass
        assert time.monotonic() < deadline, "the web board never answered"
        await asyncio.sleep(0.1)


async def test_a_link_made_before_a_restart_opens_after_it(tmp_path):
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    db = tmp_path / "escape.sqlite3"

    first = LocalBot(tmp_path, db, port)
    try:
        link = await asyncio.to_thread(first.link)
        await _serving(base)
        jar = aiohttp.CookieJar(unsafe=True)
        status, _ = await _open(link, jar)
        assert status == 303  # opened, a session cookie kept
        assert await _local_tables(base, jar) == 200
    finally:
        assert first.stop() == 0, first.out

    second = LocalBot(tmp_path, db, port)  # the same database, a new process
    try:
        await asyncio.to_thread(second.link)
        await _serving(base)
        assert await _local_tables(base, jar) == 200  # the session from before the restart
        status, text = await _open(link, aiohttp.CookieJar(unsafe=True))
        assert status == 303, text  # and the link itself
    finally:
        assert second.stop() == 0, second.out

    elsewhere = LocalBot(tmp_path, tmp_path / "another.sqlite3", port)  # another database
    try:
        await asyncio.to_thread(elsewhere.link)
        await _serving(base)
        status, text = await _open(link, aiohttp.CookieJar(unsafe=True))
        assert status == 403 and "not one of ours" in text
        assert await _local_tables(base, jar) == 401
    finally:
        elsewhere.stop()
