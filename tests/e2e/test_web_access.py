"""Who gets into a table through the web doors, tried as strangers would, with the real
python-telegram-bot and discord.py answering the access rule's questions from the stand-ins
(getChatMember; a guild member's view permission in the channel):

- a signed-in Telegram user of another group, a Discord user, a player of another table:
  nothing to read, join, press or post, and no spectator key, on any door (a personal
  link's session, a Mini App's initData, an Activity's code);
- a member of the table's group who does not play: watches, and joins its lobby;
- a member who leaves the group is told so on their open page, which is closed.
"""

from __future__ import annotations

import asyncio
import json

from bot.service import ChatRef, UserRef
from tests.bot.web_fixtures import Page, serve_board
from tests.e2e.discord_fixtures import *  # noqa: F403
from tests.e2e.discord_fixtures import ANN as D_ANN
from tests.e2e.discord_fixtures import BOB as D_BOB
from tests.e2e.discord_fixtures import CHANNEL, CID, DiscordBot
from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import GROUP, open_table
from tests.e2e.test_web_sign_in import init_data

OTHER_GROUP = -1009999999999
TG_GROUP_CHAT = ChatRef("telegram", str(GROUP), "", str(GROUP))
OTHER_CHAT = ChatRef("telegram", str(OTHER_GROUP), "", str(OTHER_GROUP))


def _tg(user: dict) -> UserRef:
    return UserRef("telegram", str(user["id"]), user["first_name"])


async def _signed_in_app(web, user: dict, start: str = "") -> Page:
    """A Mini App page signed in with the user's genuine initData (no cookie)."""
    page = Page(web.url)
    status, signed = await page.post(
        "/api/auth/telegram", {"init_data": init_data(user["id"], user["first_name"], start=start)}
    )
    assert status == 200, signed
    page.token = signed["token"]
    return page


async def test_telegram_strangers_get_nothing_and_members_watch_and_join(tg_bot, tg_standin):
    standin, service = tg_standin, tg_bot.service
    web = await serve_board(service)
    pages: list[Page] = []
    try:
        # a lobby in the group (Ann), and a running table of another group (Carol and Dave)
        mark = len(standin.calls)
        await standin.say(standin.ann, GROUP, "/escape start ghosts18 variant=short")
        await standin.wait_for(lambda c: c.method == "sendMessage", after=mark)
        lobby = (await service.live(TG_GROUP_CHAT)).id
        standin.add_group(OTHER_GROUP, "Another club")
        await service.start(OTHER_CHAT, _tg(standin.carol), "ghosts18", "variant=short")
        await service.join(OTHER_CHAT, _tg(standin.dave))
        other = (await service.live(OTHER_CHAT)).id
        standin.join_group(OTHER_GROUP, standin.carol)
        standin.join_group(OTHER_GROUP, standin.dave)
        eve = standin.add_user(1005, "Eve")  # in no group of ours

        # Eve opens the Mini App at each table: genuine initData, no table for her
        for sid in (lobby, other):
            eve_page = await _signed_in_app(web, eve, start=str(sid))
            pages.append(eve_page)
            status, said = await eve_page.get(f"/api/tables/{sid}")
            assert status == 404 and "no such table" in said["error"], said
            hello = await eve_page.open(sid)
            assert "no such table" in hello["error"]
            refused = await eve_page.press(f"j:{sid}")
            assert not refused["ok"]
            assert web.board.signer.watch(sid) not in json.dumps([said, hello, refused])
        assert len((await service.live(TG_GROUP_CHAT)).seats) == 1  # nobody joined

        # Carol, a player of the other table, cannot read or join this group's lobby
        carol = await _signed_in_app(web, standin.carol)
        pages.append(carol)
        assert (await carol.get(f"/api/tables/{lobby}"))[0] == 404
        assert (await carol.get(f"/api/tables/{other}"))[0] == 200  # her own table

        # a Discord user's session never acts on a Telegram table
        discord_page = Page(
            web.url, token=web.board.signer.session(UserRef("discord", str(1001), "Ann"))
        )
        pages.append(discord_page)
        assert (await discord_page.get(f"/api/tables/{lobby}"))[0] == 404

        # a stranger's buttons that would post into the group post nothing there
        mark = len(standin.calls)
        for data in (f"g:{lobby}", f"y:{lobby}", f"n:{lobby}:0", f"b:{lobby}", f"o:{lobby}"):
            answer = await eve_page.press(data)
            assert not answer["ok"], data
        posted = [c for c in standin.calls[mark:] if str(c.params.get("chat_id")) == str(GROUP)]
        assert posted == []

        # Bob is in the group (he wrote there): he watches the lobby and joins it from the app
        await standin.say(standin.bob, GROUP, "hello everyone")
        bob = await _signed_in_app(web, standin.bob, start=str(lobby))
        pages.append(bob)
        shown = (await bob.open(lobby))["page"]
        assert shown["standing"] == "member" and [b["label"] for b in shown["shared"]] == ["Join"]
        mark = len(standin.calls)
        joined = await bob.press(shown["shared"][0]["data"])
        assert joined["ok"], joined
        row = await service.live(TG_GROUP_CHAT)
        assert [s.name for s in row.seats] == ["Ann", "Bob"] and row.status == "active"
        await standin.wait_for(
            lambda c: c.method == "sendPhoto" and str(c.params["chat_id"]) == str(GROUP), after=mark
        )
        now = (await bob.next("update"))["update"]
        assert now["standing"] == "player" and now["seat"] == 1
    finally:
        for page in pages:
            await page.close()
        await web.close()


async def test_a_member_who_leaves_the_group_is_told_and_closed(tg_bot, tg_standin):
    standin, service = tg_standin, tg_bot.service
    web = await serve_board(service)
    carol = None
    try:
        await open_table(standin)
        sid = (await service.live(TG_GROUP_CHAT)).id
        await standin.say(standin.carol, GROUP, "I will watch")
        carol = await _signed_in_app(web, standin.carol, start=str(sid))
        assert (await carol.open(sid))["page"]["standing"] == "member"
        standin.leave_group(GROUP, standin.carol)
        clock = service.access.now
        service.access.now = lambda: clock() + 120  # the platform's answer has expired
        row = await service.live(TG_GROUP_CHAT)
        ann = next(s for s in row.seats if s.seat == 0)
        plan = await service.board(TG_GROUP_CHAT)
        data = next(c.data for c in plan[0].choices if c.for_user == ann.user_id)
        await service.press(TG_GROUP_CHAT, UserRef("telegram", ann.user_id, ann.name), data)
        assert (await carol.next("gone", "update")) == {"gone": True}
        assert (await carol.get(f"/api/tables/{sid}"))[0] == 404
    finally:
        if carol is not None:
            await carol.close()
        await web.close()


async def test_discord_activity_strangers_and_members(standin, tmp_path):
    """The Activity's doors: a Discord user outside the server, or who cannot see the
    channel, finds no table there; a member who can see it watches; a Telegram session
    never reads a Discord table."""
    from tests.e2e.discord_standin import APP_ID

    bot = DiscordBot(standin, tmp_path / "d.sqlite3")
    await bot.start()
    web = await serve_board(
        bot.service,
        discord_client_id=str(APP_ID),
        discord_client_secret=standin.client_secret,
        discord_api=standin.api_base,
    )
    pages: list[Page] = []

    async def activity(user: dict) -> Page:
        code = f"code-{user['id']}-{len(pages)}"
        standin.oauth_codes[code] = user
        page = Page(web.url)
        pages.append(page)
        status, signed = await page.post("/api/auth/discord", {"code": code})
        assert status == 200, signed
        page.token = signed["token"]
        return page

    try:
        chat = ChatRef("discord", str(CHANNEL), "", "910000000000000001")
        await bot.service.start(
            chat, UserRef("discord", D_ANN["id"], "Ann"), "ghosts18", "variant=short"
        )
        sid = (await bot.service.live(chat)).id
        outsider = {
            "id": "930000000000000099",
            "username": "zed",
            "global_name": "Zed",
            "discriminator": "0",
            "avatar": None,
            "bot": False,
            "public_flags": 0,
        }
        page = await activity(outsider)  # not in the server
        status, said = await page.get(f"/api/discord/channels/{CHANNEL}")
        assert status == 404 and "No table you can see" in said["error"]
        assert (await page.get(f"/api/tables/{sid}"))[0] == 404
        assert "no such table" in (await page.open(sid))["error"]

        standin.join_guild(CID)  # in the server, but the channel is hidden from Cid
        await standin.hide_channel_from(CHANNEL, CID)
        page = await activity(CID)
        for _ in range(40):  # (until discord.py has taken the CHANNEL_UPDATE in)
            status, _ = await page.get(f"/api/discord/channels/{CHANNEL}")
            if status == 404:
                break
            bot.service.access._remembered.clear()
            await asyncio.sleep(0.05)
        assert status == 404

        standin.join_guild(D_BOB)  # a member who sees the channel: watches, and may join
        page = await activity(D_BOB)
        status, found = await page.get(f"/api/discord/channels/{CHANNEL}")
        assert status == 200 and found == {"table": sid}
        shown = (await page.open(sid))["page"]
        assert shown["standing"] == "member" and [b["label"] for b in shown["shared"]] == ["Join"]

        telegram = Page(
            web.url, token=web.board.signer.session(UserRef("telegram", D_ANN["id"], "Ann"))
        )
        pages.append(telegram)
        assert (await telegram.get(f"/api/tables/{sid}"))[0] == 404
        assert (await telegram.get(f"/api/discord/channels/{CHANNEL}"))[0] == 401
    finally:
        for page in pages:
            await page.close()
        await web.close()
        await bot.stop()
