"""Seasons in a Telegram group, through the real python-telegram-bot against the stand-in
Bot API: a member who is not an admin is refused, an admin starts a season, a rated game
counts in it, /escape top shows the season above all time as a picture, and the season's
end posts its final standings in the group."""

from __future__ import annotations

import random

from tests.bot.tournament_play import play_out
from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import GROUP, PNG, open_table


def _text(call) -> str:
    return call.params.get("text") or call.params.get("caption") or ""


async def test_an_admin_runs_seasons_and_the_group_sees_them(tg_bot):
    standin = tg_bot.standin
    ann, dave = standin.ann, standin.dave  # Dave is the group's admin
    mark = len(standin.calls)
    await standin.say(ann, GROUP, "/escape season start 2w")
    refused = await standin.wait_for(lambda c: c.method == "sendMessage", after=mark)
    assert "Only an admin of this chat" in _text(refused)
    assert await tg_bot.service.store.last_season("telegram", str(GROUP)) is None
    mark = len(standin.calls)
    await standin.say(dave, GROUP, "/escape season start 2 weeks")
    said = await standin.wait_for(lambda c: "season 1 runs until" in _text(c), after=mark)
    assert "Dave started seasons of 2 weeks on this group" in _text(said)

    await open_table(standin)
    row = await tg_bot.service.store.live_session("telegram", str(GROUP), "")
    row = await play_out(tg_bot.service, row, random.Random(5))
    assert row.status == "finished"
    mark = len(standin.calls)
    await standin.say(ann, GROUP, "/escape top ghosts18")
    board = await standin.wait_for(lambda c: c.method == "sendPhoto", after=mark)
    caption = _text(board)
    assert caption.index("Season 1 (until") < caption.index("All time")
    assert "Ann" in caption and "Bob" in caption
    assert any(f.startswith(PNG) for f in board.files.values())

    mark = len(standin.calls)
    await standin.say(dave, GROUP, "/escape season end")
    await standin.wait_for(lambda c: "ended season 1; season 2 begins" in _text(c), after=mark)
    ended = await standin.wait_for(
        lambda c: "Season 1 of this group has ended (1 rated game)." in _text(c), after=mark
    )
    final = await standin.wait_for(
        lambda c: c.method == "sendPhoto" and "final standings of season 1" in _text(c), after=mark
    )
    assert ended.params["chat_id"] == final.params["chat_id"] == GROUP
    posts = [c for c in standin.calls[mark:] if "Season 1 of this group has ended" in _text(c)]
    assert len(posts) == 1
