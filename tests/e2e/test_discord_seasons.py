"""Seasons on a Discord server, through the real discord.py against the stand-in API: a
member without Manage Messages is refused to them alone and nothing changes; an admin's
junk length is refused; an admin starts a season and the channel hears it; anyone reads it."""

from __future__ import annotations

from tests.e2e.discord_fixtures import *  # noqa: F403
from tests.e2e.discord_fixtures import ADMIN_PERMISSIONS, ANN, BOB, CHANNEL


async def test_seasons_are_an_admins_to_start_and_everyones_to_read(discord_bot):
    bot = discord_bot
    store = bot.service.store
    (refused,) = bot.answers(await bot.slash(ANN, "season", {"what": "start 3mo"}))
    assert refused.ephemeral and "Only an admin of this chat" in refused.content
    (junk,) = bot.answers(await bot.slash(BOB, "season", {"what": "start 3 fortnights"}, permissions=ADMIN_PERMISSIONS))  # fmt: skip
    assert junk.ephemeral and "written like 2w, 30d or 3mo" in junk.content
    async with store._conn.execute("SELECT COUNT(*) FROM seasons") as cur:
        assert (await cur.fetchone())[0] == 0  # nothing changed

    started = bot.answers(await bot.slash(BOB, "season", {"what": "start 3mo"}, permissions=ADMIN_PERMISSIONS))  # fmt: skip
    (said,) = [m for m in started if "season 1 runs until" in m.content]
    assert not said.ephemeral and said.channel_id == CHANNEL
    assert "Bob started seasons of 3 months on this server" in said.content
    (status,) = bot.answers(await bot.slash(ANN, "season"))
    assert "Season 1 of this server: 3 months" in status.content
