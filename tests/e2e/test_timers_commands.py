"""The `/escape clock` command and the Vote button through each real platform library and
its stand-in server (the adapters' only additions for play over days)."""

from __future__ import annotations

from bot.service.base import deadlines
from bot.service.timer_loop import Timers
from tests.e2e.discord_fixtures import *  # noqa: F403
from tests.e2e.discord_fixtures import ANN, BOB, DiscordBot
from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import GROUP, buttons, press_and_wait
from tests.e2e.test_timers_platforms import age_clock


async def test_discord_clock_command_and_vote_button(discord_bot: DiscordBot):
    start = await discord_bot.slash(ANN, "start", {"game": "ghosts18", "options": "timeout=vote"})
    (lobby,) = discord_bot.answers(start)
    assert "Clock: pace normal: 1d a turn" in lobby.content
    join = next(b["custom_id"] for b in lobby.buttons() if b["label"] == "Join")
    await discord_bot.click(BOB, lobby, join)
    asked = await discord_bot.slash(ANN, "clock", {"what": "pause"})
    (said,) = discord_bot.answers(asked)
    assert "Ann asks to pause the table; waiting for Bob" in said.content
    bad = await discord_bot.slash(BOB, "clock", {"what": "tz 99"})
    (refused,) = discord_bot.answers(bad)
    assert refused.ephemeral and "between -12 and +14" in refused.content
    [row] = await discord_bot.service.store.active_sessions()
    assert row.clock["pause_votes"] == [ANN["id"]]
    await age_clock(discord_bot.service, 25)  # Ann's time is up: a vote opens
    await Timers(discord_bot.service).tick()
    warning = discord_bot.public()[-1]
    assert warning.content.startswith("Time is up for Ann")
    (vote,) = [b for b in warning.buttons() if b["label"].startswith("Vote")]
    voted = await discord_bot.click(BOB, warning, vote["custom_id"])
    board = discord_bot.answers(voted)[0]
    assert "a stand-in takes over from Ann" in board.content
    [row] = await discord_bot.service.store.active_sessions()
    assert [s.kind for s in row.seats] == ["placeholder", "human"]


async def test_telegram_clock_command_and_vote_button(tg_bot):
    standin = tg_bot.standin
    mark = len(standin.calls)
    await standin.say(standin.ann, GROUP, "/escape start ghosts18 timeout=vote")
    lobby = await standin.wait_for(lambda c: c.method == "sendMessage", after=mark)
    assert "Clock: pace normal" in lobby.result["text"]
    mark = len(standin.calls)
    await standin.say(standin.bob, GROUP, "/escape join")
    await standin.wait_for(lambda c: c.method == "sendPhoto", after=mark)
    mark = len(standin.calls)
    await standin.say(standin.ann, GROUP, "/escape clock mute")
    said = await standin.wait_for(lambda c: c.method == "sendMessage", after=mark)
    assert "No more reminders for Ann this turn" in said.result["text"]
    await age_clock(tg_bot.service, 25)
    mark = len(standin.calls)
    report = await Timers(tg_bot.service).tick()
    assert report.reminders == [] and len(report.deadlines) == 1  # muted: no reminder
    warning = await standin.wait_for(lambda c: c.method == "sendMessage", after=mark)
    assert warning.result["text"].startswith("Time is up for Ann")
    [vote] = [b for b in buttons(warning.result) if b["text"].startswith("Vote")]
    await press_and_wait(standin, standin.bob, warning.result, vote["callback_data"])
    row = await tg_bot.live()
    assert [s.kind for s in row.seats] == ["placeholder", "human"]
    assert deadlines.running(row.clock) and row.clock["waiting"] == [str(standin.bob["id"])]
