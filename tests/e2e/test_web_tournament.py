"""A tournament's page on the web board, in real headless Chromium and tried as strangers:
a player of a Telegram forum group's tournament opens their signed link (`/escape
tournament web`) and reads the standings, both rounds and the tables with links, and
follows a table's link to its board; a member of the group who does not play reads it too;
a Telegram user of no group of ours, a Discord user, a replayed or forged link and a
tournament that does not exist all get the same refusal, from the access rule in the
service (python-telegram-bot answers its membership question from the stand-in)."""

from __future__ import annotations

import asyncio
import random

from bot.service import ChatRef, UserRef
from bot.service.timer_loop import Timers
from tests.bot.tournament_play import play_out, round_tables
from tests.bot.web_fixtures import SECRET, Page, serve_board
from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.test_web_browser import SHOTS, browser, until  # noqa: F401

FORUM = -1009998887776
HOME = ChatRef("telegram", str(FORUM), "", str(FORUM))


def _tg(user: dict) -> UserRef:
    return UserRef("telegram", str(user["id"]), user["first_name"])


async def _signed_in(web, user: UserRef) -> Page:
    """A page whose visitor proved to be `user` (a session of the web board's own signer,
    as any of its doors hands out)."""
    from bot.service.base.web_links import WebSigner

    page = Page(web.url)
    page.token = WebSigner(SECRET).session(user)
    return page


async def test_a_tournaments_page_for_its_players_and_members_and_nobody_else(
    tg_bot,
    tg_standin,
    browser,  # noqa: F811
):
    from selenium.webdriver.common.by import By

    standin, service = tg_standin, tg_bot.service
    standin.add_group(FORUM, "Tournament club", forum=True)
    ann, bob, carol, dave = standin.ann, standin.bob, standin.carol, standin.dave
    for user in (ann, bob, carol, dave):
        standin.join_group(FORUM, user)
    web = await serve_board(service)
    pages: list[Page] = []
    try:
        await service.tournament(HOME, _tg(ann), "create ghosts18 variant=short rounds=2")
        for user in (ann, bob, carol):
            await service.tournament(HOME, _tg(user), "join")
        await service.tournament(HOME, _tg(ann), "start")
        t = (await service.store.tournaments_in_chat("telegram", str(FORUM)))[0]
        [first] = await round_tables(service, t.id)
        await play_out(service, first, random.Random(4))
        await Timers(service, interval=30).tick()  # round 1 over: round 2 paired and opened
        [second] = await round_tables(service, t.id)
        assert second.id != first.id

        # Ann's link, in the browser: the page, then a table's page from its link
        [reply] = await service.tournament_link(HOME, _tg(ann))
        assert reply.to is not None and reply.kind == "private"
        link = reply.text.split(": ", 1)[1].split()[0]
        assert "/tournament-link/" in link
        await asyncio.to_thread(browser.get, link)
        heading = await until(lambda: browser.find_elements(By.CSS_SELECTOR, "main.tournament h1"))
        assert heading[0].text == f"Tournament #{t.id}: 18 Ghosts"
        names = [
            r.find_elements(By.TAG_NAME, "td")[1].text
            for r in browser.find_elements(By.CSS_SELECTOR, "table.standings tbody tr")
        ]
        assert len(names) == 3 and any("(you)" in n and n.startswith("Ann") for n in names)
        rounds = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "section.round h2")]
        assert rounds == ["Round 2", "Round 1"]
        tables = browser.find_elements(By.CSS_SELECTOR, "section.round li[data-table]")
        assert {int(li.get_attribute("data-table")) for li in tables} == {first.id, second.id}
        assert len(browser.find_elements(By.CSS_SELECTOR, "li.bye")) == 2  # one a round
        SHOTS.mkdir(parents=True, exist_ok=True)
        await asyncio.to_thread(browser.save_screenshot, str(SHOTS / "tournament.png"))
        # the first round's table is over: its points; its link opens its board
        done = next(li for li in tables if li.get_attribute("data-table") == str(first.id))
        assert "over" in done.text and done.find_elements(By.TAG_NAME, "b")
        await asyncio.to_thread(done.find_element(By.TAG_NAME, "a").click)
        await until(lambda: browser.current_url.endswith(f"/table/{first.id}"))
        await until(lambda: browser.find_elements(By.CSS_SELECTOR, "#board img, #board-regions"))

        # the same link again: used; a forged one: refused; neither signs anybody in
        page = Page(web.url)
        pages.append(page)
        path = link[len(web.url) :]
        status, body = await page.get(path)
        assert status == 403 and b"This link was opened already" in body
        status, body = await page.get(path[:-3] + ("abc" if not path.endswith("abc") else "xyz"))
        assert status == 403 and b"not one of ours" in body and b"Tournament #" not in body
        assert "set-cookie" not in {
            k.lower() for k in (await page.http.get(web.url + path, allow_redirects=False)).headers
        }
        status, said = await page.get(f"/api/tournaments/{t.id}")
        assert status == 404 and said["error"] == "There is no such tournament."

        # Dave, a member who does not play, reads it; strangers hear it does not exist
        dave_page = await _signed_in(web, _tg(dave))
        pages.append(dave_page)
        status, said = await dave_page.get(f"/api/tournaments/{t.id}")
        assert status == 200 and said["standing"] == "member" and len(said["standings"]) == 3
        eve = standin.add_user(1005, "Eve")  # in no group of ours
        strangers = [
            _tg(eve),
            UserRef("discord", str(ann["id"]), "Ann"),
            UserRef("console", "local:ann", "Ann"),
        ]
        nothing = None
        for stranger in strangers:
            visitor = await _signed_in(web, stranger)
            pages.append(visitor)
            status, said = await visitor.get(f"/api/tournaments/{t.id}")
            assert status == 404 and said == {
                "error": "There is no such tournament.",
                "reason": "no_table",
            }
            status, body = await visitor.get(f"/tournament/{t.id}")
            assert status == 404 and b"There is no such tournament." in body and b"Ann" not in body
            nothing = nothing or said
        status, none = await dave_page.get("/api/tournaments/999999")
        assert (status, none) == (404, nothing)  # the very words a tournament that is not gets
        status, _ = await dave_page.get("/api/tournaments/1x")
        assert status == 404
        # Dave leaves the group: the page is closed to him
        standin.leave_group(FORUM, dave)
        service.access._remembered.clear()  # (the rule remembers an answer for a minute)
        status, said = await dave_page.get(f"/api/tournaments/{t.id}")
        assert status == 404 and said["error"] == "There is no such tournament."
    finally:
        for page in pages:
            await page.http.close()
        await web.close()
