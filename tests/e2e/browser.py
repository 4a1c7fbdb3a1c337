"""Real Chromium for the web board's tests (Debian's chromium, driven by Selenium through
Debian's chromedriver), at a desktop's size or as a phone (390 x 844 CSS px, touch, device
pixel ratio 3), and the small questions the tests ask of a page.

`make test` installs chromium and chromium-driver where they are missing; without them a
browser test skips on a developer's machine and fails under CI=true."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from tests import polling

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
SHOTS = Path(os.environ.get("ESCAPE_SHOTS", "/tmp/escape-web-shots"))
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def chromium(tmp_path, language: str = "en-US", phone: bool = False):
    if not (Path(CHROMIUM).exists() and Path(DRIVER).exists()):
        message = "chromium and chromium-driver are not installed (make test installs them)"
        if IN_CI:
            pytest.fail(message + "; CI must run the browser test")
        pytest.skip(message)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--window-size=1280,1400",
        f"--lang={language}",
        f"--user-data-dir={tmp_path / 'chromium'}",
    ):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    if phone:  # (a headless window is never narrower than about 500 px: a phone is emulated)
        metrics = {"width": 390, "height": 844, "pixelRatio": 3.0, "touch": True}
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": metrics})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_page_load_timeout(20)
    return driver


async def until(check, timeout: float = 5.0, step: float = 0.05):
    """`check()` (run on a thread: Selenium blocks) until it answers something true."""
    return await polling.until(
        lambda: asyncio.to_thread(check), timeout, step, "the page never showed it"
    )


def version(browser) -> int | None:
    return browser.execute_script("return S.version")


def board_loaded(browser) -> bool:
    return browser.execute_script(
        "const b = document.getElementById('board');"
        "return !!b && !b.hidden && b.complete && b.naturalWidth > 0;"
    )


async def start_local_game(browser, web, game: str, players: str) -> None:
    """A new table from the local page's start form: `game` for `players` ("Ann,bot")."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    await asyncio.to_thread(browser.get, web.board.local_link())
    await until(lambda: browser.find_elements(By.CSS_SELECTOR, "#game option"))
    await asyncio.to_thread(Select(browser.find_element(By.ID, "game")).select_by_value, game)
    names = browser.find_element(By.ID, "player-names")
    await asyncio.to_thread(names.clear)
    await asyncio.to_thread(names.send_keys, players)
    await asyncio.to_thread(
        browser.find_element(By.CSS_SELECTOR, "#new-game button[type=submit]").click
    )
    await until(lambda: version(browser) is not None, timeout=10)
