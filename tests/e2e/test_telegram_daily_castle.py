"""The daily castle in a Telegram group, through the real python-telegram-bot against the
stand-in Bot API: daily=on for another game refused, the day's castle opened and played
by a party to its end, the day's board as a picture; the
same players again refused, clearly, with nothing opened (docs/community.md)."""

from __future__ import annotations

import random

from bot.service.base import daily_castle
from tests.bot.tournament_play import play_out
from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import GROUP, PNG


def _text(call) -> str:
    return call.params.get("text") or call.params.get("caption") or ""


async def test_a_party_plays_the_days_castle_once(tg_bot):
    standin, service = tg_bot.standin, tg_bot.service
    ann, bob = standin.ann, standin.bob
    mark = len(standin.calls)
    await standin.say(ann, GROUP, "/escape start ghosts18 daily=on")
    said = await standin.wait_for(lambda c: c.method == "sendMessage", after=mark)
    assert "Only Dark Castle has a daily castle" in _text(said)
    assert await service.store.live_session("telegram", str(GROUP), "") is None

    mark = len(standin.calls)
    await standin.say(ann, GROUP, "/escape start dark_castle daily=on")
    lobby = await standin.wait_for(lambda c: "opened the daily castle of" in _text(c), after=mark)
    day = daily_castle.day_of(service.table.now())
    assert f"daily castle of {day}" in _text(lobby)
    mark = len(standin.calls)
    await standin.say(bob, GROUP, "/escape join")
    await standin.wait_for(lambda c: "Bob" in _text(c), after=mark)
    mark = len(standin.calls)
    await standin.say(ann, GROUP, "/escape begin")
    await standin.wait_for(lambda c: c.method == "sendPhoto", after=mark)
    row = await service.store.live_session("telegram", str(GROUP), "")
    assert row.seed == daily_castle.seed_of(day)
    row = await play_out(service, row, random.Random(6))
    assert row.status == "finished"
    mark = len(standin.calls)
    await standin.say(bob, GROUP, "/escape top dark_castle daily")
    board = await standin.wait_for(lambda c: c.method == "sendPhoto", after=mark)
    assert f"The daily castle of {day} on this group" in _text(board)
    assert "1. Ann, Bob · " in _text(board)
    assert any(f.startswith(PNG) for f in board.files.values())

    # the same players again: refused, and no table opened
    mark = len(standin.calls)
    await standin.say(ann, GROUP, "/escape start dark_castle daily=on")
    refused = await standin.wait_for(lambda c: c.method == "sendMessage", after=mark)
    assert f"Ann has played the daily castle of {day} already" in _text(refused)
    assert "midnight UTC" in _text(refused)
    assert await service.store.live_session("telegram", str(GROUP), "") is None
