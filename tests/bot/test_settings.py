"""The `.env` reader: read as python-dotenv reads it (comments, `export`, quotes), and the
real environment always wins over the file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[2]

ENV_FILE = """\
# a comment line
export ESCAPE_DB=games.sqlite3   # my database, not part of the name
ESCAPE_PICTURES="my pictures"  # quoted, with a space
ESCAPE_PACE=relaxed
LOG_LEVEL=warning
TELEGRAM_WEBHOOK_SECRET='a#b'
DISCORD_GUILD_IDS=1, 2
"""


def _settings_in(folder: Path, extra_env: dict[str, str]) -> dict[str, str]:
    """Run the real entry point's reader in a fresh process (os.environ stays untouched)."""
    code = (
        "from bot.settings import Settings, load_dotenv; load_dotenv(); s = Settings.from_env();"
        "print(repr((str(s.db_path), str(s.pictures_dir), s.default_pace, s.log_level,"
        " s.telegram_webhook_secret, s.discord_guild_ids)))"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ESCAPE_", "LOG_", "TELE"))}
    env.update(extra_env, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=folder, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return eval(done.stdout)


def test_env_file_with_inline_comments_export_and_quotes(tmp_path):
    (tmp_path / ".env").write_text(ENV_FILE, encoding="utf-8")
    db, pictures, pace, level, secret, guilds = _settings_in(tmp_path, {})
    assert db == "games.sqlite3"
    assert pictures == "my pictures"
    assert (pace, level, secret, guilds) == ("relaxed", "WARNING", "a#b", [1, 2])


def test_the_real_environment_wins_over_the_file(tmp_path):
    (tmp_path / ".env").write_text(ENV_FILE, encoding="utf-8")
    db, _, pace, *_ = _settings_in(tmp_path, {"ESCAPE_DB": "/srv/x.sqlite3", "ESCAPE_PACE": "fast"})
    assert (db, pace) == ("/srv/x.sqlite3", "fast")


def test_no_env_file_gives_the_documented_defaults(tmp_path):
    db, pictures, pace, level, *_ = _settings_in(tmp_path, {})
    assert (db, pictures, pace, level) == ("data/escape.sqlite3", "pictures", "normal", "INFO")
    assert Settings.from_env({}).db_path == Path("data/escape.sqlite3")


def test_env_example_reads_cleanly(tmp_path):
    """`.env.example` copied to `.env` as the README says: every value is what it looks like."""
    (tmp_path / ".env").write_text((ROOT / ".env.example").read_text(encoding="utf-8"))
    db, pictures, pace, level, secret, guilds = _settings_in(tmp_path, {})
    assert (db, pictures, pace, level, secret, guilds) == (
        "data/escape.sqlite3",
        "pictures",
        "normal",
        "INFO",
        "",
        [],
    )


def test_the_shared_limits_and_the_update_lease_are_settings():
    """Issue 58: each rate defaults to the platform's published figure; a lowered one is
    read as calls per seconds; nonsense is refused with the setting named."""
    import pytest

    defaults = Settings.from_env({})
    assert defaults.telegram_rate_global == (30, 1.0)
    assert defaults.telegram_rate_group == (20, 60.0)
    assert defaults.telegram_rate_chat == (1, 1.0)
    assert defaults.discord_rate_global == (50, 1.0)
    assert defaults.telegram_update_lease == 30.0
    lowered = Settings.from_env({"DISCORD_RATE_GLOBAL": "10/2", "TELEGRAM_UPDATE_LEASE": "5"})
    assert lowered.discord_rate_global == (10, 2.0) and lowered.telegram_update_lease == 5.0
    for name, value in [
        ("TELEGRAM_RATE_GROUP", "twenty"),
        ("TELEGRAM_RATE_CHAT", "1/0"),
        ("TELEGRAM_UPDATE_LEASE", "0"),
    ]:
        with pytest.raises(ValueError, match=name):
            Settings.from_env({name: value})


def test_the_retention_of_finished_games_is_read_from_its_setting():
    assert Settings.from_env({}).keep_games_days is None  # kept for ever
    assert Settings.from_env({"ESCAPE_KEEP_GAMES_DAYS": "90"}).keep_games_days == 90
    for junk in ("0", "-3", "٣", "1_0", "+3", "forever"):
        with pytest.raises(ValueError, match="ESCAPE_KEEP_GAMES_DAYS"):
            Settings.from_env({"ESCAPE_KEEP_GAMES_DAYS": junk})


def test_where_the_bots_threads_and_workers_run_is_a_setting():
    """split unless told; shared for several processes on one machine; nonsense refused."""
    assert Settings.from_env({}).cpu_layout == "split"
    assert Settings.from_env({"ESCAPE_CPU_LAYOUT": " Shared "}).cpu_layout == "shared"
    for junk in ("apart", "1", "split,shared"):
        with pytest.raises(ValueError, match="ESCAPE_CPU_LAYOUT"):
            Settings.from_env({"ESCAPE_CPU_LAYOUT": junk})
