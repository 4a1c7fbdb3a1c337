"""A reminder and a deadline reach the game's channel through each real platform library
and its stand-in server: the timer loop's notifier path, end to end."""

from __future__ import annotations

from bot.service import ChatRef, UserRef
from bot.service.base import deadlines
from bot.service.timer_loop import Timers
from tests.e2e.discord_fixtures import *  # noqa: F403
from tests.e2e.discord_fixtures import ANN, DiscordBot, mentioned
from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import GROUP, mentioned_ids, open_table
from tests.e2e.test_discord_game import open_ghosts


async def age_clock(service, hours: float) -> None:
    """Move the only running game's clock `hours` into the past (as if that time passed)."""
    [row] = await service.store.active_sessions()
    assert await service.save_clock(row, deadlines.shift(row.clock, -hours * deadlines.HOUR))


async def test_discord_reminder_and_deadline_arrive_in_the_channel(discord_bot: DiscordBot):
    await open_ghosts(discord_bot)
    timers = Timers(discord_bot.service)
    before = len(discord_bot.public())
    await age_clock(discord_bot.service, 13)  # past the first reminder (12 h into a day)
    report = await timers.tick()
    assert len(report.reminders) == 1
    [reminder] = discord_bot.public()[before:]
    assert reminder.content.startswith("Reminder: Ann") and "left" in reminder.content
    assert mentioned(reminder) == [int(ANN["id"])]
    assert (await timers.tick()).reminders == []  # once only
    await age_clock(discord_bot.service, 12)  # past the deadline: the default placement
    assert len((await timers.tick()).deadlines) == 1
    board = discord_bot.public()[-1]
    assert "Time is up for Ann: the bot plays" in board.content and board.attachments


async def test_telegram_reminder_and_deadline_arrive_in_the_group(tg_bot):
    await open_table(tg_bot.standin)
    timers = Timers(tg_bot.service)
    mark = len(tg_bot.standin.calls)
    await age_clock(tg_bot.service, 13)
    assert len((await timers.tick()).reminders) == 1
    sent = await tg_bot.standin.wait_for(lambda c: c.method == "sendMessage", after=mark)
    message = sent.result
    assert message["chat"]["id"] == GROUP and "Reminder: Ann" in message["text"]
    assert mentioned_ids(message) == [tg_bot.standin.ann["id"]]
    mark = len(tg_bot.standin.calls)
    await age_clock(tg_bot.service, 12)
    assert len((await timers.tick()).deadlines) == 1
    board = await tg_bot.standin.wait_for(
        lambda c: c.method in ("sendPhoto", "editMessageMedia"), after=mark
    )
    assert "Time is up for Ann" in (board.result.get("caption") or "")


async def test_telegram_reminder_also_in_private_for_a_player_who_opted_in(tg_bot):
    standin = tg_bot.standin
    await open_table(standin)
    await standin.say(standin.ann, standin.ann["id"], "/start")
    await standin.wait_for(lambda c: c.params.get("chat_id") == standin.ann["id"])
    row = await tg_bot.live()
    ann = next(s for s in row.seats if s.seat == 0)
    chat = ChatRef("telegram", row.chat, row.thread, row.scope)
    await tg_bot.service.clock_command(chat, UserRef("telegram", ann.user_id, ann.name), "dm on")
    await age_clock(tg_bot.service, 13)
    mark = len(standin.calls)
    assert len((await Timers(tg_bot.service).tick()).reminders) == 1
    await standin.wait_for(lambda c: c.params.get("chat_id") == standin.ann["id"], after=mark)
    sent = [c.params["chat_id"] for c in standin.calls_of("sendMessage", after=mark)]
    assert sent == [GROUP, standin.ann["id"]]


async def test_telegram_reminder_stays_in_the_games_forum_topic(tg_bot):
    standin = tg_bot.standin
    forum = -1009998887776
    standin.add_group(forum, "Games forum", forum=True)
    standin.add_topic(forum, 77)
    for user, text, expect in [
        (standin.ann, "/escape start ghosts18", "sendMessage"),
        (standin.bob, "/escape join", "sendPhoto"),
    ]:
        mark = len(standin.calls)
        await standin.say(user, forum, text, thread=77)
        await standin.wait_for(lambda c, expect=expect: c.method == expect, after=mark)
    await age_clock(tg_bot.service, 13)
    mark = len(standin.calls)
    assert len((await Timers(tg_bot.service).tick()).reminders) == 1
    sent = await standin.wait_for(lambda c: c.method == "sendMessage", after=mark)
    assert (sent.params["chat_id"], sent.params["message_thread_id"]) == (forum, 77)
    assert "Reminder: Ann" in sent.params["text"]
