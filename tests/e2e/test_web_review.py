"""The web page's Review: a finished game's review beside its replay, in a real browser (a
player's signed link); over HTTP a stranger hears what the page's other doors tell one,
and a player's review is their own seat's even when they name another seat."""

from __future__ import annotations

import asyncio
import random
import shutil

import pytest

from engines import CHANCE, REGISTRY
from tests.bot.web_fixtures import TG_ANN, TG_BOB, TG_GROUP, board_on_a_store
from tests.e2e.test_web_browser import SHOTS, _chromium, until


@pytest.fixture
async def board(tmp_path):
    async with board_on_a_store(tmp_path / "web.sqlite3", ai_scale=0.05) as running:
        yield running


async def _finished(service) -> tuple[int, dict]:
    """A short game of 18 Ghosts played to its end by random moves of both players, and
    each player's link to its page (asked while it ran)."""
    await service.start(TG_GROUP, TG_ANN, "ghosts18", "variant=short")
    await service.join(TG_GROUP, TG_BOB)
    row = await service.live(TG_GROUP)
    if row.status == "lobby":
        await service.begin(TG_GROUP, TG_ANN)
    links = {user.name: await _link(service, user) for user in (TG_ANN, TG_BOB)}
    rng, sid = random.Random(3), row.id
    for _ in range(3000):
        row = await service.live(TG_GROUP)
        if row is None or row.status != "active":
            break
        game = REGISTRY[row.game]
        state = game.load(row.state)
        seat = next(s for s in game.to_act(state) if s != CHANCE)
        await service.move(
            TG_GROUP, (TG_ANN, TG_BOB)[seat], rng.choice(game.legal_actions(state, seat))
        )
    assert (await service.store.session(sid)).status == "finished"
    return sid, links


async def _link(service, user) -> str:
    return (await service.web_link(TG_GROUP, user))[0].text.split(": ", 1)[1].split()[0]


async def test_the_review_over_http_is_the_viewers_own(board):
    service = board.service
    sid, links = await _finished(service)
    bob = board.page()
    status, _ = await bob.get(links["Bob"].removeprefix(board.url))
    assert status == 303
    status, mine = await bob.get(f"/api/tables/{sid}/review?seat=0")  # Ann's seat: not his
    assert status == 200 and mine["text"].startswith(
        f"Review of game #{sid}, 18 Ghosts, as Bob saw it"
    )
    assert mine["picture"].startswith("data:image/png;base64,") and "line chart" in mine["alt"]
    # a stranger (no link, no key): the same answer as the table itself gives them
    stranger = board.page()
    status, refused = await stranger.get(f"/api/tables/{sid}/review")
    table_status, table_refused = await stranger.get(f"/api/tables/{sid}")
    assert (status, refused) == (table_status, table_refused) and status == 404
    assert refused["reason"] == "no_table" and "no such table" in refused["error"]
    status, junk = await stranger.get("/api/tables/99999999/review?seat=x")
    assert status == 404 and junk["error"]
    # the table's spectator key: 18 Ghosts has no secrets, so the review of no seat
    key = board.board.signer.watch(sid)
    status, theirs = await stranger.get(f"/api/tables/{sid}/review?watch={key}&seat=1")
    assert status == 200 and theirs["text"].startswith(
        f"Review of game #{sid}, 18 Ghosts (the chart"
    )


async def test_the_review_beside_the_replay_in_a_browser(board, tmp_path):
    from selenium.webdriver.common.by import By

    service = board.service
    sid, links = await _finished(service)
    browser = _chromium(tmp_path)
    try:
        await asyncio.to_thread(browser.get, links["Ann"])
        button = await until(
            lambda: [b for b in browser.find_elements(By.ID, "review") if b.is_displayed()], 10
        )
        assert "Review this game" in button[0].text
        await asyncio.to_thread(button[0].click)
        text = await until(
            lambda: (
                (t := browser.find_element(By.ID, "review-text").text).startswith("Review of game")
                and t
            ),
            30,
        )
        assert (
            text.startswith(f"Review of game #{sid}, 18 Ghosts, as Ann saw it")
            and "1. Move " in text
        )
        await until(
            lambda: browser.execute_script(
                "const i = document.getElementById('review-chart'); return i.complete && i.naturalWidth === 1100"
            )
        )
        alt = browser.find_element(By.ID, "review-chart").get_attribute("alt")
        assert alt.startswith(f"A line chart of game #{sid}")
        # beside the replay: the same row as the replay's board
        beside = browser.execute_script(
            "return document.getElementById('review-box').parentElement.contains(document.getElementById('frame'))"
        )
        assert beside
        SHOTS.mkdir(parents=True, exist_ok=True)
        await asyncio.to_thread(browser.save_screenshot, str(SHOTS / "review.png"))
    finally:
        browser.quit()
        shutil.rmtree(tmp_path / "chromium", ignore_errors=True)
