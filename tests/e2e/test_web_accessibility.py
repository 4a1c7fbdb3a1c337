"""The web board for a player who does not see the picture (issue 60), in real Chromium at
a phone's size: axe-core (from npm, injected by this test, never served by the page) finds
no violation on the local page's start form nor on a table of each game; the board is there
in words, every legal move is a button in a list that the keyboard walks (Tab to it, the
arrow keys along it, Enter to make it), and a question about the board is answered in
words on the page.

`make test` installs axe-core with npm (tests/e2e/axe); without it this test skips on a
developer's machine and fails under CI=true."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from bot.service import GameService
from bot.store import Store
from tests.bot.web_fixtures import serve_board
from tests.e2e.browser import IN_CI, SHOTS, chromium, start_local_game, until, version

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
GAMES = {
    "ghosts18": "Ann,bot",
    "castle_doors": "Ann,bot",
    "hidden_castle": "Ann,bot",
    "haunted_house": "Ann,bot",
    "dark_castle": "Ann",
}


def _axe() -> str:
    if not AXE.is_file():
        message = "axe-core is not installed (make test installs it with npm)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    return AXE.read_text(encoding="utf-8")


def violations(browser, axe: str) -> list[str]:
    """axe-core's violations of the page as it is now (WCAG 2.1 A and AA, best practice)."""
    browser.execute_script(axe)
    found = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']})"
        ".then(r => done(r.violations.map(v => v.id + ': ' + v.help + ' ' +"
        " v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '))))"
        ".catch(e => done(['axe failed: ' + e]));"
    )
    return list(found)


@pytest.fixture
async def phone_board(tmp_path):
    axe = _axe()
    store = await Store.open(tmp_path / "local.sqlite3")
    web = await serve_board(GameService(store, seed_source=lambda: 5), local=True)
    browser = chromium(tmp_path, phone=True)
    browser.set_script_timeout(30)
    try:
        yield web, browser, axe
    finally:
        browser.quit()
        shutil.rmtree(tmp_path / "chromium", ignore_errors=True)
        await web.close()
        await store.close()


async def test_the_start_form_has_no_violation_at_a_phones_width(phone_board):
    from selenium.webdriver.common.by import By

    web, browser, axe = phone_board
    await asyncio.to_thread(browser.get, web.board.local_link())
    await until(lambda: browser.find_elements(By.CSS_SELECTOR, "#game option"))
    assert violations(browser, axe) == []


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_table_has_no_violation_at_a_phones_width(phone_board, game):

    web, browser, axe = phone_board
    await start_local_game(browser, web, game, GAMES[game])
    await until(
        lambda: browser.execute_script("return !!S.page && S.page.moves.length > 0"), timeout=30
    )
    found = violations(browser, axe)
    SHOTS.mkdir(parents=True, exist_ok=True)
    await asyncio.to_thread(browser.save_screenshot, str(SHOTS / f"a11y-{game}.png"))
    assert found == [], found
    words = browser.execute_script(  # the board in words is on the page (a player's own
        "return document.getElementById('alt').textContent"  # view, in a game with secrets)
        " || document.getElementById('view-text').textContent"
    )
    assert len(words) > 40


async def test_the_moves_are_a_list_the_keyboard_walks_and_a_question_is_answered(phone_board):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    web, browser, _axe_text = phone_board
    await start_local_game(browser, web, "ghosts18", "Ann,Bob")
    await until(lambda: browser.execute_script("return !!S.page && S.page.moves.length > 1"))
    # every move is in the list: those tapped on the board folded under one heading
    items = browser.find_elements(By.CSS_SELECTOR, "ul#moves button")
    assert len(items) == browser.execute_script("return S.page.moves.length")
    folded = browser.find_elements(By.CSS_SELECTOR, "ul#moves details > summary")
    if folded:  # opened from the keyboard
        await asyncio.to_thread(folded[0].send_keys, Keys.ENTER)
        await until(lambda: items[0].is_displayed())
    first = items[0]
    await asyncio.to_thread(first.send_keys, Keys.ARROW_DOWN)  # along the list
    assert browser.execute_script("return document.activeElement") == items[1]
    await asyncio.to_thread(items[1].send_keys, Keys.END)
    assert browser.execute_script("return document.activeElement") == items[-1]
    label = items[-1].text
    before = version(browser)
    await asyncio.to_thread(items[-1].send_keys, Keys.ENTER)  # the move, by the keyboard
    await until(lambda: (version(browser) or 0) > before, timeout=10)
    square = label.split()[-1]
    # the log says the move (its square), once the page has written the new version's log
    await until(
        lambda: (
            square in browser.execute_script("return document.getElementById('log').textContent")
        ),
        timeout=10,
    )
    ask = browser.find_element(By.ID, "ask-what")
    await asyncio.to_thread(ask.send_keys, square, Keys.ENTER)
    answer = await until(lambda: browser.find_element(By.ID, "ask-answer").text, timeout=10)
    assert square in answer and "Ann" in answer, answer
