"""No secret in any log line (issue 29, item 2): the filter `escape-bot` puts on the root
logger's handlers replaces the tokens, the webhook secret (set or derived) and a database
password wherever a record carries them; httpx and httpcore are held to WARNING."""

from __future__ import annotations

import io
import logging
from urllib.parse import quote

import pytest

from bot.log_setup import HIDDEN, configure_logging
from bot.settings import Settings, webhook_secret
from bot.telemetry.logs import LIBRARY_FLOORS

TELEGRAM = "7000001:AAH-telegram-secret_part"
DISCORD = "MTA.discord.secret-token"
HOOK = "hook-secret-1234"
PASSWORD = "pg-pass-word"


@pytest.fixture
def written():
    """Everything the root logger writes, at DEBUG, through a handler like basicConfig's."""
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    names = ("httpx", "httpcore", *LIBRARY_FLOORS)
    quiet = {name: logging.getLogger(name).level for name in names}
    for name in LIBRARY_FLOORS:  # (another test may have configured them for a process)
        logging.getLogger(name).setLevel(logging.NOTSET)
    try:
        yield buffer
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
        for name, old in quiet.items():
            logging.getLogger(name).setLevel(old)


def _settings(**more) -> Settings:
    return Settings(
        db_path=f"postgresql://escape:{PASSWORD}@db.example/escape",
        discord_token=DISCORD,
        telegram_token=TELEGRAM,
        **more,
    )


def test_every_form_of_every_secret_is_replaced(written):
    configure_logging(_settings(telegram_webhook_secret=HOOK))
    log = logging.getLogger("telegram.ext.some.library")
    log.debug("Set Bot API URL: %s", f"https://api.telegram.org/bot{TELEGRAM}")
    log.info("GET %s", f"https://api.telegram.org/bot{quote(TELEGRAM, safe='')}/getMe")
    log.debug("Calling `setWebhook` with parameters `%s`", {"secret_token": HOOK})
    logging.getLogger("discord.http").warning("Authorization: Bot " + DISCORD)
    logging.getLogger("asyncpg").error("cannot connect to %s", f"escape:{PASSWORD}@db")
    try:
        raise RuntimeError(f"The token `{TELEGRAM}` was rejected by the server.")
    except RuntimeError:
        logging.getLogger("bot.runner").exception("the start failed")
    text = written.getvalue()
    for secret in (TELEGRAM, quote(TELEGRAM, safe=""), DISCORD, HOOK, PASSWORD):
        assert secret not in text, secret
    assert text.count(HIDDEN) == 6, text
    assert "Traceback" in text and "RuntimeError: The token `[secret]` was rejected" in text
    assert "AAH-telegram" not in text  # no part of the token is left over either


def test_the_derived_webhook_secret_is_a_secret_too(written):
    configure_logging(_settings())
    derived = webhook_secret(TELEGRAM)
    logging.getLogger("telegram.Bot").debug("secret_token=%s", derived)
    assert derived not in written.getvalue() and HIDDEN in written.getvalue()


def test_http_request_lines_are_held_back(written):
    configure_logging(_settings())
    logging.getLogger("httpx").info("HTTP Request: POST https://api.telegram.org/bot.../getMe")
    logging.getLogger("httpcore.connection").debug("connect_tcp.started")
    logging.getLogger("httpx").warning("a warning still shows")
    assert written.getvalue().splitlines() == ["WARNING httpx: a warning still shows"]


def test_a_second_configuration_replaces_the_secrets(written):
    configure_logging(_settings())
    configure_logging(Settings(telegram_token="7000002:another-one"))
    logging.getLogger("x").warning("%s and %s", TELEGRAM, "7000002:another-one")
    assert written.getvalue() == f"WARNING x: {TELEGRAM} and {HIDDEN}\n"


def test_settings_repr_holds_no_secret():
    text = repr(_settings(telegram_webhook_secret=HOOK))
    assert "telegram_webhook_url" in text and "escape:***@db.example" in text
    for secret in (TELEGRAM, DISCORD, HOOK, PASSWORD):
        assert secret not in text
