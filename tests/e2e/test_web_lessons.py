"""The web page's Learn: the viewer's own lesson beside the table, in a real browser (local
play, German): a wrong button explained, the lesson played through by its own prompts,
its end beginning a real game against a bot at this machine. Over HTTP: a spectator key or
nobody is refused, and one player's press never moves another's lesson."""

from __future__ import annotations

import asyncio
import re
import shutil

import pytest

from bot.service.learning.tutorial import LESSONS
from languages import say
from tests.bot.web_fixtures import TG_ANN, TG_BOB, TG_GROUP, Page, board_on_a_store
from tests.e2e.test_web_browser import SHOTS, _chromium, until


@pytest.fixture
async def board(tmp_path):
    async with board_on_a_store(tmp_path / "web.sqlite3", local=True) as running:
        yield running


async def _signed_in(board, user) -> Page:
    link = (await board.service.web_link(TG_GROUP, user))[0].text.split(": ", 1)[1].split()[0]
    page = board.page()
    status, _ = await page.get(link.removeprefix(board.url))
    assert status == 303
    return page


async def test_a_lesson_over_http_is_its_players_alone(board):
    service = board.service
    await service.start(TG_GROUP, TG_ANN, "ghosts18")
    await service.join(TG_GROUP, TG_BOB)
    row = await service.live(TG_GROUP)
    ann, bob = await _signed_in(board, TG_ANN), await _signed_in(board, TG_BOB)
    status, step = await ann.post("/api/learn", {"what": "ghosts18"})
    assert status == 200 and step["picture"].startswith("data:image/png;base64,")
    assert "Lesson: 18 Ghosts." in step["text"] and len(step["choices"]) >= 2
    # Bob pressing Ann's button acts on Bob's own lesson: refused, Ann's unmoved
    status, refused = await bob.post("/api/learn", {"press": step["choices"][0]["data"]})
    assert status == 403 and "earlier step" in refused["error"]
    # a spectator (the table's key, no sign-in) and a stranger have no lesson
    spectator = board.page()
    key = board.board.signer.watch(row.id)
    status, refused = await spectator.post("/api/learn", {"what": "ghosts18", "watch": key})
    assert status == 401 and "own link" in refused["error"]
    for junk in ({"what": 3}, {"press": ["x"]}, {"press": "t:0:0:9999"}, {"press": "a:1:1:1:1"}):
        status, refused = await ann.post("/api/learn", junk)
        assert status in (403, 401) and refused["error"], junk
    async with ann.http.post(board.url + "/api/learn", data=b"not json") as r:
        assert r.status == 403
    status, again = await ann.post("/api/learn", {"what": "ghosts18"})
    assert again["text"].splitlines()[-1] == step["text"].splitlines()[-1]  # still step 1


def _prompt(text: str) -> tuple[str, str]:
    """The label and the move the prompt names: `Dein Zug: LABEL (`move`)`."""
    line = next(line for line in reversed(text.splitlines()) if "(`" in line)
    label, move = re.match(r"^[^:]+: (.*) \(`([^`]+)`\)$", line).groups()
    return label, move


async def test_the_learn_button_in_a_german_browser(board, tmp_path):
    from selenium.webdriver.common.by import By

    browser = _chromium(tmp_path, "de-DE")
    try:
        lesson = LESSONS["ghosts18"]
        page = board.page()
        await page.get(f"/local/{board.board.signer.sign('local', {}, 60)}")
        status, made = await page.post(
            "/api/local/tables", {"game": "ghosts18", "players": "Ann,bot"}
        )
        assert status == 200
        await asyncio.to_thread(
            browser.get, f"{board.url}/local/{board.board.signer.sign('local', {}, 60)}"
        )
        await asyncio.to_thread(browser.get, f"{board.url}/table/{made['table']}")
        learn = await until(
            lambda: [b for b in browser.find_elements(By.ID, "learn") if b.is_displayed()]
        )
        assert "Lerne dieses Spiel" in learn[0].text
        await asyncio.to_thread(learn[0].click)
        text = await until(lambda: browser.find_element(By.ID, "lesson-text").text)
        assert text.startswith("Lektion: 18 Geister.")
        await until(
            lambda: browser.execute_script(
                "const i = document.getElementById('lesson-board'); return i.complete && i.naturalWidth > 0"
            )
        )
        SHOTS.mkdir(parents=True, exist_ok=True)
        await asyncio.to_thread(browser.save_screenshot, str(SHOTS / "lesson-de-start.png"))
        for n, step in enumerate(lesson.steps):
            label, move = _prompt(text)
            buttons = browser.find_elements(By.CSS_SELECTOR, "#lesson-moves button")
            if n == 0:  # a wrong button: explained, asked again
                wrong = next(b for b in buttons if b.text != label)
                await asyncio.to_thread(wrong.click)
                said = say(step.wrong, "de")
                text = await until(
                    lambda s=said: (
                        s in browser.find_element(By.ID, "lesson-text").text
                        and browser.find_element(By.ID, "lesson-text").text
                    )
                )
                assert _prompt(text) == (label, move)
                buttons = browser.find_elements(By.CSS_SELECTOR, "#lesson-moves button")
            right = next(b for b in buttons if b.text == label)
            before = text
            await asyncio.to_thread(right.click)
            text = await until(
                lambda b=before: (t := browser.find_element(By.ID, "lesson-text").text) != b and t
            )
        assert say(lesson.closing, "de") in text
        await asyncio.to_thread(browser.save_screenshot, str(SHOTS / "lesson-de-end.png"))
        [play] = browser.find_elements(By.CSS_SELECTOR, "#lesson-moves button")
        assert play.text == "Gegen einen Bot spielen"
        await asyncio.to_thread(play.click)
        await until(
            lambda: (
                f"/table/{made['table']}" not in browser.current_url
                and "/table/" in browser.current_url
            )
        )
        players = await until(lambda: browser.find_element(By.ID, "players").text)
        assert "Bot" in players
    finally:
        browser.quit()
        shutil.rmtree(tmp_path / "chromium", ignore_errors=True)
