"""`escape-bot health` (the Docker HEALTHCHECK): healthy while every configured platform's
timer heartbeat is fresh; the real command's exit code tells Docker."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from bot.health import check
from bot.service.timer_loop import HEARTBEAT
from bot.settings import Settings
from bot.store import Store

ROOT = Path(__file__).resolve().parents[2]
NOW = 1_800_000_000.0


async def test_health_follows_the_heartbeat_of_each_configured_platform(tmp_path):
    db = tmp_path / "escape.sqlite3"
    settings = Settings.from_env(
        {
            "ESCAPE_DB": str(db),
            "TELEGRAM_TOKEN": "t",
            "DISCORD_TOKEN": "d",
            "ESCAPE_TIMER_INTERVAL": "30",
        }
    )
    healthy, said = await check(settings, NOW)
    assert not healthy and "discord: no heartbeat yet" in said
    store = await Store.open(db)
    await store.set_meta(f"{HEARTBEAT}.discord", repr(NOW - 100))
    await store.set_meta(f"{HEARTBEAT}.telegram", repr(NOW - 5))
    healthy, said = await check(settings, NOW)
    assert healthy and said == "healthy: discord 100 s ago, telegram 5 s ago"
    await store.set_meta(f"{HEARTBEAT}.discord", repr(NOW - 121))  # past max(3 x 30 s, 2 min)
    await store.close()
    healthy, said = await check(settings, NOW)
    assert not healthy and "discord: last heartbeat 121 s ago" in said
    no_token = Settings.from_env({"ESCAPE_DB": str(db)})
    assert (await check(no_token, NOW))[0] is False


async def test_the_health_command_exits_0_only_when_alive(tmp_path):
    db = tmp_path / "escape.sqlite3"
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    env.update(ESCAPE_DB=str(db), TELEGRAM_TOKEN="123:abc")

    def health() -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "bot.cli", "health"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )

    first = health()
    assert first.returncode == 1 and "no heartbeat yet" in first.stdout
    assert "123:abc" not in first.stdout + first.stderr  # a token never in its output
    store = await Store.open(db)
    await store.set_meta(f"{HEARTBEAT}.telegram", repr(time.time()))
    await store.close()
    second = health()
    assert second.returncode == 0 and second.stdout.startswith("healthy: telegram")
