"""A board made for a phone (issue 60), in real Chromium emulating one (390 x 844 CSS px,
touch, device pixel ratio 3): on the local page and in the Telegram Mini App, a game with a
narrow board (render/narrow) shows it across the screen with no sideways scroll, no word on
it under 11 CSS px (its smallest drawn size, measured by drawing the same view here, times
the scale the page shows it at), and every legal move of the positions met on the way has
its tap region on the board, one of which is tapped each turn to play on. Screenshots are
kept (ESCAPE_SHOTS). The Mini App also speaks to Telegram: ready, its Main button, and the
safe area it is told of keeps the page clear of Telegram's bars."""

from __future__ import annotations

import asyncio
import shutil
from urllib.parse import quote

import pytest

import render
from bot.service import ChatRef, GameService, UserRef
from bot.store import Store
from tests.bot.web_fixtures import serve_board
from tests.e2e.browser import SHOTS, board_loaded, chromium, start_local_game, until, version
from tests.e2e.discord_fixtures import *  # noqa: F403
from tests.render.narrow_checks import BUTTONS, smallest_drawn

NARROW = render.narrow.GAMES
WIDTH = render.narrow.WIDTH
TG_GROUP = ChatRef("telegram", "-1001234567890", "", "-1001234567890")
RECORDER = """
window.__posted = [];
window.TelegramWebviewProxy = {postEvent: (type, data) => window.__posted.push([type, data])};
"""


async def _view(service: GameService, table: int) -> tuple[str, dict]:
    row = await service.table.store.session(table)
    loaded = service.table.load(row)
    game = loaded.game
    seat = game.to_act(loaded.state)[0] if game.hidden_information else None
    return game.id, game.view(loaded.state, seat)


def _measure(browser) -> dict:
    return browser.execute_script(
        "const b = document.getElementById('board'), r = b.getBoundingClientRect();"
        "return {scroll: document.documentElement.scrollWidth, inner: window.innerWidth,"
        " natural: b.naturalWidth, shown: r.width, left: r.left, right: r.right,"
        " src: b.getAttribute('src') || '',"
        " narrow: document.getElementById('board-wrap').classList.contains('narrow')};"
    )


def _narrow_shown(shown: dict) -> bool:
    """The narrow board is up: asked for by its address (`?layout=narrow`), or for a
    player's own view (fetched, then shown from memory) by the page's layout and its width."""
    if "layout=narrow" in shown["src"]:
        return True
    return shown["src"].startswith("blob:") and shown["narrow"] and shown["natural"] == WIDTH


def _loaded_narrow(browser) -> dict | None:
    """The page's measures while it shows the narrow board, loaded; else None."""
    shown = _measure(browser)
    loaded = shown["natural"] > 0 and board_loaded(browser)
    return shown if loaded and _narrow_shown(shown) else None


def _tappable(browser, buttons: set[str]) -> tuple[list[str], list[str]]:
    """The moves of the page that must have a place (all but the kinds in `buttons`), and
    those with a tap region on the board."""
    return browser.execute_script(
        "const moves = S.page.moves.filter(m => !arguments[0].includes(m.kind)).map(m => m.data);"
        "const tapped = [...document.querySelectorAll('#board-regions button')]"
        ".flatMap(b => b.dataset.moves.split(' '));"
        "return [moves, tapped];",
        sorted(buttons),
    )


async def _play_by_taps(
    browser, service, table: int, turns: int, shot: str, buttons: set[str] = frozenset()
) -> None:
    """Each turn: the board fits, reads at 11 CSS px or more, every move has its place
    (but those of the kinds in `buttons`); then the first place is tapped (a chooser's
    first move, if several share it), or with none the first move's button."""
    from selenium.webdriver.common.by import By

    for turn in range(turns):
        await until(lambda: browser.execute_script("return !!S.page && !S.busy"), timeout=15)
        if browser.execute_script("return !document.getElementById('handover').hidden"):
            show = browser.find_element(By.ID, "handover-show")  # hot-seat: the device handed on
            await asyncio.to_thread(show.click)
        page = browser.execute_script("return {moves: S.page.moves.length, result: S.page.result}")
        if page["result"]:
            break
        if not page["moves"]:  # another's turn: a bot's move, or this machine's next player
            before = version(browser)  # (hot-seat: the page follows the turn to their seat)
            await until(
                lambda before=before: (
                    (version(browser) or 0) > before
                    or browser.execute_script("return !!S.page && S.page.moves.length > 0")
                ),
                timeout=20,
            )
            continue
        # measured once the narrow board has loaded, from that very look (a moment later
        # the page may be loading the next version's picture: naturalWidth 0)
        shown = await until(lambda: _loaded_narrow(browser))
        assert shown["scroll"] <= shown["inner"], shown  # no sideways scroll
        assert shown["natural"] == render.narrow.WIDTH and shown["right"] <= shown["inner"]
        game_id, view = await _view(service, table)
        smallest = smallest_drawn(game_id, view) * shown["shown"] / shown["natural"]
        assert smallest >= 11, (smallest, shown)
        moves, tapped = await until(
            lambda: (lambda m, t: (m, t) if set(m) <= set(t) else None)(
                *_tappable(browser, buttons)
            ),
            timeout=5,
        )
        assert set(moves) <= set(tapped)  # every legal move has its place on the board
        if turn == 0:
            SHOTS.mkdir(parents=True, exist_ok=True)
            await asyncio.to_thread(browser.save_screenshot, str(SHOTS / f"{shot}.png"))
        before = version(browser)
        regions = browser.find_elements(By.CSS_SELECTOR, "#board-regions button")
        if regions:
            await asyncio.to_thread(regions[0].click)
        else:  # only moves with no place (kinds in `buttons`): the first one's button
            first = browser.find_elements(By.CSS_SELECTOR, "#moves > li > button")
            if not first:  # a long kind is folded: opened first
                summary = browser.find_element(By.CSS_SELECTOR, "#moves details summary")
                await asyncio.to_thread(summary.click)
                first = browser.find_elements(By.CSS_SELECTOR, "#moves details button")
            await asyncio.to_thread(first[0].click)
        if browser.execute_script("return !document.getElementById('chooser').hidden"):
            first = browser.find_elements(By.CSS_SELECTOR, "#chooser button")[0]
            await asyncio.to_thread(first.click)
        await until(lambda before=before: (version(browser) or 0) > before, timeout=15)


@pytest.fixture
async def phone_service(tmp_path):
    store = await Store.open(tmp_path / "phone.sqlite3")
    service = GameService(store, seed_source=lambda: 5)
    web = await serve_board(service, local=True)
    browser = chromium(tmp_path, phone=True)
    try:
        yield service, web, browser
    finally:
        browser.quit()
        shutil.rmtree(tmp_path / "chromium", ignore_errors=True)
        await web.close()
        await store.close()


@pytest.mark.parametrize("game", NARROW)
async def test_the_local_page_fits_a_phone_and_every_move_is_a_tap(phone_service, game):
    service, web, browser = phone_service
    web.board.sockets.now = iter(range(10**6, 10**9, 2)).__next__  # (no flood guard here)
    await start_local_game(browser, web, game, "Ann,Bob")
    table = browser.execute_script("return S.table")
    await _play_by_taps(browser, service, table, 24, f"phone-local-{game}", BUTTONS[game])
    shown = _measure(browser)
    assert shown["scroll"] <= shown["inner"]


async def test_the_mini_app_fits_a_phone_and_speaks_to_telegram(tmp_path):
    """The Mini App entry, as a phone's Telegram opens it: the narrow board with its taps,
    and the page tells Telegram it is ready, shows the Main button for the one thing to
    do, and keeps clear of the safe area Telegram says."""

    from tests.e2e.test_web_sign_in import init_data

    store = await Store.open(tmp_path / "tg.sqlite3")
    service = GameService(store, seed_source=lambda: 5)
    web = await serve_board(service)
    web.board.sockets.now = iter(range(10**6, 10**9, 2)).__next__
    browser = chromium(tmp_path, phone=True)
    try:
        ann, bob = UserRef("telegram", "1001", "Ann"), UserRef("telegram", "1002", "Bob")
        await service.start(TG_GROUP, ann, "ghosts18", "")
        await service.join(TG_GROUP, bob)
        row = await service.live(TG_GROUP)
        if row.status == "lobby":
            await service.begin(TG_GROUP, ann)
        row = await service.live(TG_GROUP)
        loaded = service.table.load(row)
        first = row.seats[loaded.game.to_act(loaded.state)[0]]  # who is to act signs in
        browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER})
        data = init_data(int(first.user_id), first.name, start=str(row.id))
        await asyncio.to_thread(
            browser.get, f"{web.url}/tg#tgWebAppData={quote(data)}&tgWebAppVersion=8.0"
        )
        await until(lambda: board_loaded(browser), timeout=15)
        posted = [p[0] for p in browser.execute_script("return window.__posted")]
        assert "web_app_ready" in posted and "web_app_request_safe_area" in posted
        assert "web_app_setup_main_button" in posted and "web_app_setup_back_button" in posted
        browser.execute_script(
            "Telegram.WebView.receiveEvent('safe_area_changed', {top: 48, bottom: 20, left: 0, right: 0})"
        )
        top = browser.execute_script(
            "return parseFloat(getComputedStyle(document.body).paddingTop)"
        )
        assert top >= 48
        await _play_by_taps(browser, service, row.id, 1, "phone-mini-app")  # a tap moves
    finally:
        browser.quit()
        shutil.rmtree(tmp_path / "chromium", ignore_errors=True)
        await web.close()
        await store.close()


async def test_the_activity_fits_a_phone_and_every_move_is_a_tap(standin, tmp_path):
    """The Discord Activity on a phone (Discord's mobile client gives it the whole screen;
    the stand-in client frames it so below 800 px): signed in through the Embedded App SDK,
    the narrow board across the frame, no sideways scroll, every word at 11 CSS px or more,
    and a tap plays a move."""
    from selenium.webdriver.common.by import By

    from tests.e2e.activity_frame import activity_board, client_url
    from tests.e2e.discord_fixtures import ANN, BOB, CHANNEL, GUILD_ID

    async with activity_board(standin, tmp_path) as (bot, web):
        web.board.sockets.now = iter(range(10**6, 10**9, 2)).__next__  # (no flood guard)
        chat = ChatRef("discord", str(CHANNEL), "", str(GUILD_ID))
        ann, bob = UserRef("discord", ANN["id"], "Ann"), UserRef("discord", BOB["id"], "Bob")
        await bot.service.start(chat, ann, "ghosts18", "")
        await bot.service.join(chat, bob)
        if (await bot.service.live(chat)).status == "lobby":
            await bot.service.begin(chat, ann)
        standin.join_guild(ANN)
        standin.join_guild(BOB)
        row = await bot.service.live(chat)
        loaded = bot.service.table.load(row)
        acting = row.seats[loaded.game.to_act(loaded.state)[0]]
        first = ANN if acting.user_id == ANN["id"] else BOB
        browser = chromium(tmp_path, phone=True)
        try:
            url = client_url(standin, web, first, platform="mobile")
            await asyncio.to_thread(browser.get, url)
            frame = browser.find_element(By.ID, "app")
            width = browser.execute_script(
                "return arguments[0].getBoundingClientRect().width", frame
            )
            assert width <= browser.execute_script("return window.innerWidth")  # whole screen
            await asyncio.to_thread(browser.switch_to.frame, frame)
            await until(lambda: board_loaded(browser), timeout=15)
            await _play_by_taps(browser, bot.service, row.id, 1, "phone-activity")
        finally:
            browser.quit()
            shutil.rmtree(tmp_path / "chromium", ignore_errors=True)
