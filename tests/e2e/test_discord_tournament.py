"""A tournament in a Discord channel, through the real discord.py against the stand-in
API: sign-up by `/escape tournament` and by the Join button, the start, a thread per
table with its board and both players pinged there, a result, the standings picture in
the channel; a stranger's start is refused to them alone."""

from __future__ import annotations

import random

from bot.service.timer_loop import Timers
from tests.bot.tournament_play import play_out, round_tables
from tests.e2e.discord_fixtures import *  # noqa: F403
from tests.e2e.discord_fixtures import ANN, BOB, CHANNEL, CID, mentioned


async def test_a_tournament_plays_its_tables_in_threads_and_posts_the_standings(discord_bot):
    bot = discord_bot
    record = await bot.slash(ANN, "tournament", {"what": "create ghosts18 variant=short rounds=2"})
    (signup,) = [m for m in bot.answers(record) if "opened a tournament" in m.content]
    assert not signup.ephemeral and signup.channel_id == CHANNEL
    join = next(b for b in signup.buttons() if b["label"] == "Join the tournament")
    for user in (ANN, BOB, CID):
        await bot.click(user, signup, join["custom_id"])
    assert sum("joins the tournament" in m.content for m in bot.public()) == 3

    refused = await bot.slash(BOB, "tournament", {"what": "start"})
    (answer,) = bot.answers(refused)
    assert answer.ephemeral and "organiser" in answer.content
    before = set(bot.server.channels)
    await bot.slash(ANN, "tournament", {"what": "start"})
    threads = [k for k in bot.server.channels if k not in before]
    assert len(threads) == 1  # three players: one table, and a bye
    thread = bot.server.channels[threads[0]]
    assert thread["parent_id"] == str(CHANNEL) and "round 1 · table 1" in thread["name"]
    in_thread = [m for m in bot.public() if m.channel_id == threads[0]]
    assert any(m.attachments for m in in_thread), "the table's board is in its thread"
    (ping,) = [m for m in in_thread if "Good luck" in m.content]
    service = bot.service
    t = (await service.store.tournaments_in_chat("discord", str(CHANNEL)))[0]
    (row,) = await round_tables(service, t.id)
    assert sorted(mentioned(ping)) == sorted(int(s.user_id) for s in row.seats)
    (announced,) = [m for m in bot.public() if "round 1 of 2:" in m.content]
    assert announced.channel_id == CHANNEL and f"<#{threads[0]}>" in announced.content

    await play_out(service, row, random.Random(2))
    seen = len(bot.public())
    await Timers(service, interval=30).tick()
    posted = bot.public()[seen:]
    (standings,) = [m for m in posted if "standings after round 1 of 2" in m.content]
    assert standings.channel_id == CHANNEL and standings.files
    assert standings.files[0][1].startswith(b"\x89PNG")
    assert any("Round 1 results:" in m.content for m in posted)
    assert len([k for k in bot.server.channels if k not in before]) == 2  # round 2's thread
