"""Structured logs (issue 27): with ESCAPE_LOG_FORMAT=json every line is one JSON object
with the time, level, logger and message, and a line about a table carries its platform,
chat, table id, game and version, bound once per request and gone after it."""

from __future__ import annotations

import io
import json
import logging
from datetime import datetime

import pytest

from bot.service import UserError
from bot.telemetry import logs
from tests.bot.conftest import ANN, BOB, CHAT


@pytest.fixture
def json_lines():
    """The root logger's output as JSON, as `logs.configure("json")` sets it up; the
    loggers as they were afterwards."""
    root = logging.getLogger()
    saved = (
        root.handlers[:],
        root.level,
        {n: logging.getLogger(n).level for n in logs.LIBRARY_FLOORS},
    )
    out = io.StringIO()
    root.handlers = [logging.StreamHandler(out)]
    root.setLevel(logging.INFO)
    logs.configure("json", root)

    def read() -> list[dict]:
        return [json.loads(line) for line in out.getvalue().splitlines()]

    try:
        yield read
    finally:
        root.handlers, level, floors = saved
        root.setLevel(level)
        for name, was in floors.items():
            logging.getLogger(name).setLevel(was)


def test_each_line_is_one_object_with_time_level_logger_message(json_lines):
    log = logging.getLogger("bot.example")
    log.info("plain %s", "words")
    with logs.bound(platform="discord", chat="c1"):
        logs.bind(table=7, game="ghosts18", version=3)
        try:
            raise ValueError("boom")
        except ValueError:
            log.exception("it broke\non two lines")
    log.warning("after the request")
    first, broke, after = json_lines()
    assert first["message"] == "plain words" and first["level"] == "INFO"
    assert first["logger"] == "bot.example"
    assert datetime.fromisoformat(first["time"]).tzinfo is not None
    assert broke["message"] == "it broke\non two lines" and "ValueError: boom" in broke["exc"]
    assert {k: broke[k] for k in ("platform", "chat", "table", "game", "version")} == {
        "platform": "discord",
        "chat": "c1",
        "table": 7,
        "game": "ghosts18",
        "version": 3,
    }
    assert "table" not in after and "platform" not in after  # nothing leaks past the request


def test_the_chat_libraries_stay_at_info_when_log_level_is_debug(json_lines):
    logging.getLogger().setLevel(logging.DEBUG)
    logs.configure("json")
    assert logging.getLogger("telegram").getEffectiveLevel() == logging.INFO
    assert logging.getLogger("discord.gateway").getEffectiveLevel() == logging.INFO
    assert logging.getLogger("httpx").getEffectiveLevel() == logging.WARNING
    assert logging.getLogger("bot.service").getEffectiveLevel() == logging.DEBUG


async def test_a_request_about_a_table_logs_its_fields(json_lines, service):
    await service.start(CHAT, ANN, "ghosts18", "variant=short")
    [board] = await service.join(CHAT, BOB)
    row = await service.live(CHAT)
    await service.store._conn.execute(  # a damaged snapshot: the move logs why it cannot go on
        "UPDATE sessions SET state = ? WHERE id = ?", ('{"not": "a ghosts18 state"}', row.id)
    )
    with pytest.raises(UserError, match="cannot be read"):
        await service.move(CHAT, board.mention[0], "anything")
    [line] = [x for x in json_lines() if x["level"] == "ERROR"]
    assert line["logger"] == "bot.service.tables.table" and "cannot be read" in line["message"]
    assert (line["platform"], line["chat"], line["table"], line["game"], line["version"]) == (
        "test",
        CHAT.chat,
        row.id,
        "ghosts18",
        row.version,
    )
    assert "thread" not in line  # empty fields are left out
    assert logs.current() == {}  # the request's scope is closed
