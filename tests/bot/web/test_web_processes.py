"""The web board's settings and secrets, and a page kept live across two bot processes on
one PostgreSQL (two stores and services stand for the processes)."""

from __future__ import annotations

import logging

import pytest

from bot.log_setup import RedactSecrets
from bot.service import GameService
from bot.settings import Settings
from bot.store import Store
from tests.bot.web_fixtures import TG_ANN, TG_BOB, TG_GROUP, Page, serve_board


def test_web_settings_and_their_secrets():
    s = Settings.from_env(
        {
            "ESCAPE_WEB": "127.0.0.1:8080",
            "ESCAPE_PUBLIC_URL": "https://escape.example.org/",
            "ESCAPE_METRICS": "127.0.0.1:9100",
            "ESCAPE_WEB_SECRET": "web-secret-of-the-test",
            "DISCORD_CLIENT_SECRET": "client-secret-of-the-test",
            "TELEGRAM_WEBAPP": "board",
        }
    )
    assert s.web_address == ("127.0.0.1", 8080) and s.metrics_address == ("127.0.0.1", 9100)
    with pytest.raises(ValueError, match="address of its own"):  # /metrics never on the public one
        Settings.from_env({"ESCAPE_WEB": "127.0.0.1:8080", "ESCAPE_METRICS": "127.0.0.1:8080"})
    assert s.public_url == "https://escape.example.org" and s.telegram_webapp == "board"
    assert "web-secret" not in repr(s) and "client-secret" not in repr(s)
    redact = RedactSecrets(s.secrets())
    record = logging.LogRecord(
        "x",
        logging.INFO,
        "",
        0,
        "key %s and %s",
        ("web-secret-of-the-test", "client-secret-of-the-test"),
        None,
    )
    redact.filter(record)
    assert "secret-of-the-test" not in record.getMessage()
    with pytest.raises(ValueError, match="ESCAPE_WEB"):
        Settings.from_env({"ESCAPE_WEB": "nowhere"})
    with pytest.raises(ValueError, match="ESCAPE_PUBLIC_URL"):
        Settings.from_env({"ESCAPE_PUBLIC_URL": "escape.example.org"})
    derived = Settings.from_env({"TELEGRAM_TOKEN": "1:abc"}).web_key()
    assert derived == Settings.from_env({"TELEGRAM_TOKEN": "1:abc"}).web_key()  # every process
    assert derived != Settings.from_env({"TELEGRAM_TOKEN": "1:abd"}).web_key()
    assert Settings.from_env({}).web_key() is None


async def test_the_web_proxies_are_read_from_their_setting(tmp_path):
    """ESCAPE_WEB_PROXIES: the only peers whose X-Forwarded-For is believed (none unset);
    the runner hands them to the board."""
    from bot.runner import web_board

    s = Settings.from_env(
        {"ESCAPE_WEB": "127.0.0.1:8080", "ESCAPE_WEB_PROXIES": "127.0.0.1, 172.16.0.0/12"}
    )
    assert [str(n) for n in s.web_proxies] == ["127.0.0.1/32", "172.16.0.0/12"]
    assert Settings.from_env({}).web_proxies == ()
    with pytest.raises(ValueError, match="ESCAPE_WEB_PROXIES"):
        Settings.from_env({"ESCAPE_WEB_PROXIES": "the proxy"})
    store = await Store.open(tmp_path / "proxies.sqlite3")
    board = await web_board(s, GameService(store, pictures=False))
    assert board.config.proxies == s.web_proxies
    await store.close()


async def test_a_move_stored_by_one_process_reaches_a_page_of_the_other(postgres_server):
    url = await postgres_server.new_schema()
    store_a, store_b = await Store.open(url), await Store.open(url)
    a = GameService(store_a, seed_source=lambda: 1234, pictures=False)
    b = GameService(store_b, seed_source=lambda: 1234, pictures=False)
    running = await serve_board(b)
    page = Page(running.url)
    try:
        await a.start(TG_GROUP, TG_ANN, "ghosts18", "variant=short")
        await a.join(TG_GROUP, TG_BOB)
        row = await a.live(TG_GROUP)
        page.token = running.board.signer.session(TG_ANN)
        await page.open(row.id)
        await store_b.signals.listening()
        [(action, _)] = (await a.choices(TG_GROUP, TG_ANN))[:1]
        await a.move(TG_GROUP, TG_ANN, action)
        pushed = (await page.next("update", timeout=5))["update"]
        assert pushed["version"] == row.version + 1  # read once, from the store, for its pages
        assert pushed["log"] and pushed["players"][1]["acting"]  # the whole log, as read
    finally:
        await page.close()
        await running.close()
        await store_a.close()
        await store_b.close()
