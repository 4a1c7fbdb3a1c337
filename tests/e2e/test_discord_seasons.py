"""Seasons on a Discord server, through the real discord.py against the stand-in API: a
member without Manage Messages is refused to them alone and nothing changes; an admin's
junk length is refused; an admin starts a season and the channel hears it; anyone reads it.
And `/escape tournament web`: a link for the asker alone that opens the tournament's page."""

from __future__ import annotations

from tests.e2e.discord_fixtures import *  # noqa: F403
from tests.e2e.discord_fixtures import ADMIN_PERMISSIONS, ANN, BOB, CHANNEL


async def test_seasons_are_an_admins_to_start_and_everyones_to_read(discord_bot):
    bot = discord_bot
    store = bot.service.store
    (refused,) = bot.answers(await bot.slash(ANN, "season", {"what": "start 3mo"}))
    assert refused.ephemeral and "Only an admin of this chat" in refused.content
    (junk,) = bot.answers(
        await bot.slash(
            BOB, "season", {"what": "start 3 fortnights"}, permissions=ADMIN_PERMISSIONS
        )
    )
    assert junk.ephemeral and "written like 2w, 30d or 3mo" in junk.content
    async with store._conn.execute("SELECT COUNT(*) FROM seasons") as cur:
        assert (await cur.fetchone())[0] == 0  # nothing changed

    started = bot.answers(
        await bot.slash(BOB, "season", {"what": "start 3mo"}, permissions=ADMIN_PERMISSIONS)
    )
    (said,) = [m for m in started if "season 1 runs until" in m.content]
    assert not said.ephemeral and said.channel_id == CHANNEL
    assert "Bob started seasons of 3 months on this server" in said.content
    (status,) = bot.answers(await bot.slash(ANN, "season"))
    assert "Season 1 of this server: 3 months" in status.content


async def test_a_tournaments_web_link_is_the_askers_alone_and_opens_its_page(discord_bot):
    """`/escape tournament web` on Discord: the link is answered to the asker alone; it
    signs them in and opens the tournament's page; opened again it is refused."""
    from tests.bot.web_fixtures import Page, serve_board

    bot = discord_bot
    web = await serve_board(bot.service)
    page = Page(web.url)
    try:
        await bot.slash(ANN, "tournament", {"what": "create ghosts18 variant=short rounds=2"})
        await bot.slash(ANN, "tournament", {"what": "join"})
        public = len(bot.public())
        (answer,) = bot.answers(await bot.slash(ANN, "tournament", {"what": "web"}))
        assert answer.ephemeral and "/tournament-link/" in answer.content
        assert len(bot.public()) == public  # nothing said in the channel
        link = next(w for w in answer.content.split() if "/tournament-link/" in w)
        path = link[len(web.url) :]
        status, _ = await page.get(path)
        assert status == 303
        t = (await bot.service.store.tournaments_in_chat("discord", str(CHANNEL)))[0]
        status, body = await page.get(f"/tournament/{t.id}")
        assert status == 200 and f"Tournament #{t.id}: 18 Ghosts".encode() in body
        assert b"Ann <em>(you)</em>" in body and b"No round has begun yet." in body
        again = Page(web.url)
        try:
            status, body = await again.get(path)
        finally:
            await again.http.close()
        assert status == 403 and b"This link was opened already" in body
    finally:
        await page.http.close()
        await web.close()
