"""A wrong or unreachable token, and nothing configured at all (issue 29, items 3 and 4): the
real `escape-bot run` and `escape-bot sync` say in one line which setting and what cause,
with no traceback; a refused token exits 4 (which the systemd unit does not restart), an
unreachable API is tried a bounded number of times and exits 1, and no token with no
terminal is not a success."""

from __future__ import annotations

import asyncio
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bot.startup_errors import EXIT_FAILED, EXIT_SETTINGS
from tests.e2e.discord_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import escape_bot_run

LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ [A-Z]+ ")
RETRY = "trying again in"
UNIT = Path(__file__).resolve().parents[2] / "deploy" / "escape-bot.service"


def closed_port() -> int:
    """A port on 127.0.0.1 where nothing listens (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def finished(workdir: Path, settings: dict[str, str], command: str) -> tuple[int, str]:
    process = await escape_bot_run(
        workdir, {"ESCAPE_DB": str(workdir / "x.db"), **settings}, command
    )
    try:
        output, _ = await asyncio.wait_for(process.communicate(), 60)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    return process.returncode, output.decode(errors="replace")


def said(output: str) -> tuple[list[str], list[str]]:
    """(what the process printed beyond its log lines, its retry warnings)."""
    lines = [line for line in output.splitlines() if line.strip()]
    return (
        [line for line in lines if not LOG_LINE.match(line)],
        [line for line in lines if LOG_LINE.match(line) and RETRY in line],
    )


def test_the_unit_does_not_restart_a_refused_setting():
    (line,) = [
        x for x in UNIT.read_text().splitlines() if x.startswith("RestartPreventExitStatus=")
    ]
    assert str(EXIT_SETTINGS) in line.split("=")[1].split()
    assert str(EXIT_FAILED) not in line.split("=")[1].split()  # a network failure is retried


# ----- Telegram -----------------------------------------------------------------------------
async def test_a_refused_telegram_token_is_one_line_and_exit_4(tg_standin, tmp_path):
    wrong = "7000001:WRONG-token-for-the-test"
    code, output = await finished(
        tmp_path,
        {"TELEGRAM_TOKEN": wrong, "TELEGRAM_BASE_URL": tg_standin.base_url, "LOG_LEVEL": "INFO"},
        "run",
    )
    assert code == EXIT_SETTINGS, output
    printed, retries = said(output)
    assert printed == [
        f"escape-bot: Telegram (127.0.0.1:{tg_standin.port}) rejected TELEGRAM_TOKEN: copy the token again from @BotFather"
    ], output
    assert not retries, "a refused token is not tried again"
    assert "Traceback" not in output and wrong not in output and "WRONG" not in output


async def test_an_unreachable_telegram_api_is_tried_then_one_line_and_exit_1(
    tmp_path, tg_local_only
):
    port = closed_port()
    code, output = await finished(
        tmp_path,
        {
            "TELEGRAM_TOKEN": "7000001:some-token",
            "TELEGRAM_BASE_URL": f"http://127.0.0.1:{port}/bot",
            "ESCAPE_CONNECT_TRIES": "3",
        },
        "run",
    )
    assert code == EXIT_FAILED, output
    printed, retries = said(output)
    assert len(printed) == 1, output
    assert printed[0].startswith(
        f"escape-bot: cannot reach the Telegram Bot API (127.0.0.1:{port}): "
    ), output
    assert len(retries) == 2 and "try 2 of 3" in retries[-1], output
    assert "Traceback" not in output and "some-token" not in output


# ----- Discord ------------------------------------------------------------------------------
def _discord(standin, token: str = "the-wrong-token") -> dict[str, str]:
    return {
        "DISCORD_TOKEN": token,
        "DISCORD_API_BASE": standin.api_base,
        "DISCORD_GATEWAY": standin.gateway_url,
        "LOG_LEVEL": "INFO",
    }


@pytest.mark.parametrize("command", ["run", "sync"])
async def test_a_refused_discord_token_is_one_line_and_exit_4(standin, tmp_path, command):
    standin.token = "the-right-token"
    code, output = await finished(tmp_path, _discord(standin), command)
    assert code == EXIT_SETTINGS, output
    printed, retries = said(output)
    assert printed == [
        "escape-bot: Discord rejected DISCORD_TOKEN (401 Unauthorized): copy the token again from the Bot page of the Developer Portal"
    ], output
    assert not retries and "Traceback" not in output and "the-wrong-token" not in output
    assert [c.status for c in standin.calls] == [401], "one try, and nothing after it"
    assert not standin.connected and standin.identify_count == 0


@pytest.mark.parametrize("command", ["run", "sync"])
async def test_an_unreachable_discord_api_is_tried_then_one_line_and_exit_1(
    tmp_path, local_only, command
):
    port = closed_port()
    settings = {
        "DISCORD_TOKEN": "some-token",
        "DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10",
        "DISCORD_GATEWAY": f"ws://127.0.0.1:{port}/gateway",
        "ESCAPE_CONNECT_TRIES": "2",
    }
    code, output = await finished(tmp_path, settings, command)
    assert code == EXIT_FAILED, output
    printed, retries = said(output)
    assert len(printed) == 1, output
    assert printed[0].startswith(
        f"escape-bot: cannot reach the Discord API (http://127.0.0.1:{port}/api/v10): Cannot connect to host 127.0.0.1:{port}"
    ), output
    assert len(retries) == 1 and "try 1 of 2" in retries[0], output
    assert "Traceback" not in output and "some-token" not in output


async def test_the_right_discord_token_still_starts(standin, tmp_path):
    """The stand-in's token check lets the right token through: `sync` publishes."""
    standin.token = "the-right-token"
    code, output = await finished(tmp_path, _discord(standin, "the-right-token"), "sync")
    assert code == 0, output
    assert any(c.method == "PUT" and c.status == 200 for c in standin.calls), output


# ----- nothing configured -------------------------------------------------------------------
def _no_token_env(tmp_path: Path) -> dict[str, str]:
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TELEGRAM_"))}
    return env | {"ESCAPE_DB": str(tmp_path / "escape.sqlite3")}


def test_no_token_and_no_terminal_names_the_settings_and_fails(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "run"],
        cwd=tmp_path,
        env=_no_token_env(tmp_path),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == EXIT_SETTINGS, done.stdout + done.stderr
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert "DISCORD_TOKEN" in line and "TELEGRAM_TOKEN" in line and "terminal" in line
    assert not (tmp_path / "escape.sqlite3").exists(), "nothing was opened"
