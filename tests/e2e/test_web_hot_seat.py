"""Hot-seat on the local page (`make run`'s web board at this machine), in real Chromium:
the page plays the seat chosen in "Playing as" and follows the turn from one local player
to the next, so two people at one screen play a whole game by turns; in a game with
secrets the device is handed over first (the next player's view stays covered until they
take it)."""

from __future__ import annotations

import asyncio
import itertools
import shutil

import pytest

from bot.service import GameService
from bot.store import Store
from tests.bot.web_fixtures import serve_board
from tests.e2e.browser import SHOTS, chromium, start_local_game, until, version

PAGE_STATE = """
const p = S.page;
if (!p) return null;
return {version: p.version, seat: p.seat, result: p.result, busy: S.busy,
  acting: p.players.filter(x => x.acting).map(x => x.seat),
  names: p.players.map(x => x.name), moves: p.moves.length,
  picked: document.getElementById('seat').value,
  pickShown: !document.getElementById('seat-pick').hidden,
  notes: document.getElementById('notes').textContent,
  covered: !(document.getElementById('handover') || {hidden: true}).hidden,
  tableShown: !document.getElementById('table').hidden};
"""


class PressClock:
    """The page's press limit (5 in 5 s) is a flood guard, not what these tests play
    against: each press is a second later on its clock."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.fixture
async def local_board(tmp_path):
    store = await Store.open(tmp_path / "local.sqlite3")
    service = GameService(store, seed_source=lambda: 5)
    web = await serve_board(service, local=True)
    web.board.sockets.now = PressClock()
    browser = chromium(tmp_path)
    try:
        yield web, browser
    finally:
        browser.quit()
        shutil.rmtree(tmp_path / "chromium", ignore_errors=True)
        await web.close()
        await store.close()


def shown_move(browser):
    """The first move the page shows: a place on the board, else a move's button (the
    moves tapped on the board are also in the list, folded); None while neither shows (the
    board's places come once its picture has loaded)."""
    from selenium.webdriver.common.by import By

    for selector in ("#board-regions button", "#moves button"):
        shown = [b for b in browser.find_elements(By.CSS_SELECTOR, selector) if b.is_displayed()]
        if shown:
            return shown[0]
    return None


async def first_move(browser):
    """The first move to press, once the page shows one (on a loaded machine the picture,
    and so its places, may come a while after the page's moves)."""
    return await until(lambda: shown_move(browser), timeout=15)


def state(browser) -> dict | None:
    return browser.execute_script(PAGE_STATE)


async def settled(browser) -> dict:
    """The page once it shows the seat to act (or the game's end), not mid-press."""

    def ready():
        s = state(browser)
        if s is None or s["busy"]:
            return None
        if s["result"]:
            return s
        return s if s["acting"] and s["seat"] in s["acting"] and s["moves"] else None

    return await until(ready, timeout=15)


async def test_two_players_at_one_page_play_a_whole_game_by_turns(local_board):
    """Hidden Castle for Ann and Bob at one page: every move is pressed on the page as it
    stands (never switching "Playing as" by hand), each is accepted for the player to act,
    and the game ends with both having moved."""

    web, browser = local_board
    await start_local_game(browser, web, "hidden_castle", "Ann,Bob")
    movers: list[str] = []
    for _ in range(200):
        s = await settled(browser)
        if s["result"]:
            break
        assert s["pickShown"] and int(s["picked"]) == s["seat"], s  # "Playing as" says who
        movers.append(s["names"][s["seat"]])
        before = s["version"]
        await asyncio.to_thread((await first_move(browser)).click)
        await until(lambda before=before: (version(browser) or 0) > before, timeout=10)
        notes = state(browser)["notes"]
        assert "another player" not in notes and "not your turn" not in notes.lower(), notes
    else:
        pytest.fail("the game never ended")
    assert {"Ann", "Bob"} <= set(movers), movers
    assert any(a != b for a, b in itertools.pairwise(movers))  # by turns
    row = await web.service.live_tables("console", "terminal")
    assert row == []  # the game is over: no table left live
    SHOTS.mkdir(parents=True, exist_ok=True)
    await asyncio.to_thread(browser.save_screenshot, str(SHOTS / "hot-seat-end.png"))


async def test_playing_as_is_obeyed_and_the_turn_is_followed(local_board):
    """Picking the player who is not to act shows them with no moves; when the turn moves
    on, the page follows it to the local player to act."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    web, browser = local_board
    await start_local_game(browser, web, "ghosts18", "Ann,Bob")
    s = await settled(browser)
    first = s["seat"]
    other = 1 - first
    await asyncio.to_thread(Select(browser.find_element(By.ID, "seat")).select_by_value, str(other))
    await until(lambda: state(browser)["seat"] == other)
    assert state(browser)["moves"] == 0  # not their turn: nothing to press
    await asyncio.to_thread(Select(browser.find_element(By.ID, "seat")).select_by_value, str(first))
    s = await settled(browser)
    assert s["seat"] == first
    await asyncio.to_thread((await first_move(browser)).click)
    s = await until(
        lambda: (lambda t: t if t and t["version"] > s["version"] and t["seat"] == other else None)(
            state(browser)
        )
    )
    assert s["acting"] == [other] and s["moves"] and not s["covered"]  # no secrets: no cover


async def test_in_a_game_with_secrets_the_device_is_handed_over(local_board):
    """Haunted House: after Ann's move the page covers the table and asks for the device
    to pass to Bob; only when Bob takes it are his view and moves shown."""
    from selenium.webdriver.common.by import By

    web, browser = local_board
    await start_local_game(browser, web, "haunted_house", "Ann,Bob")
    s = await settled(browser)
    first, other = s["seat"], 1 - s["seat"]

    def covered():
        t = state(browser)
        return t if t and t["covered"] and t["seat"] == other else None

    while s["acting"] == [first]:  # Ann's turn, to its end (a room, then what it asks)
        assert not s["covered"]
        await asyncio.to_thread((await first_move(browser)).click)
        before = s["version"]

        def moved(before=before):
            t = state(browser)
            return covered() or (t if t["version"] > before and not t["busy"] else None)

        s = await until(moved, timeout=10)
    try:
        t = await until(covered, timeout=10)
    except TimeoutError:
        print("STATE", state(browser), s)
        raise
    assert not t["tableShown"]
    cover = browser.find_element(By.ID, "handover").text
    assert t["names"][other] in cover and t["names"][first] not in cover
    view = browser.find_element(By.ID, "view-text")
    assert not view.is_displayed()
    SHOTS.mkdir(parents=True, exist_ok=True)
    await asyncio.to_thread(browser.save_screenshot, str(SHOTS / "hot-seat-hand-over.png"))
    await asyncio.to_thread(browser.find_element(By.ID, "handover-show").click)
    t = await until(lambda: (lambda x: x if x["tableShown"] else None)(state(browser)))
    assert not t["covered"] and t["seat"] == other
    if other in t["acting"]:
        assert t["moves"]
