"""The terminal hears every move made elsewhere (issue 60): `make run` (no token) in a
pseudo-terminal read through a terminal emulator (pyte), and a page of its local web board
on the same table. Each move pressed on the page, and each bot's turn after it, is printed
at the terminal as the page's log says it, with who made it, and then the menu of the
player to act; the terminal never sits on an old board."""

from __future__ import annotations

import asyncio
import re
import socket

import pyte

from tests.bot.console.test_console_handover import COLUMNS, Emulated
from tests.bot.web_fixtures import Page

LINK = re.compile(r"(http://127\.0\.0\.1:\d+)(/local/[A-Za-z0-9_.-]+)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_a_terminal_prints_each_browser_and_bot_move(tmp_path):
    screen = pyte.HistoryScreen(COLUMNS, 40, history=5000)
    term = Emulated(screen, ["run"], tmp_path, ESCAPE_WEB=f"127.0.0.1:{_free_port()}")
    wait = lambda *texts, after=0: asyncio.to_thread(term.wait_for, *texts, after=after)  # noqa: E731
    page = None
    try:
        _, at = await wait("its id]: ")
        base, local = LINK.search(term.raw.decode()).groups()
        term.type("hidden_castle")
        _, at = await wait("variant [", after=at)
        term.type("")
        _, at = await wait("Player names", after=at)
        term.type("Ann,Bob,bot")
        _, at = await wait("level [", after=at)
        term.type("easy")
        _, at = await wait("Ann> ", "Bob> ", after=at)

        page = Page(base)
        assert (await page.get(local))[0] == 303
        [table] = (await page.get("/api/local/tables"))[1]["tables"]
        shown = (await page.open(table["id"]))["page"]
        logged: list[str] = []
        presses = 0
        while presses < 4:  # the page plays Ann's and Bob's turns (within its press limit)
            if shown["result"]:
                break
            if not shown["moves"]:
                shown = (await page.next("update", timeout=30))["update"]
                logged += shown["log_add"]
                continue
            mover = shown["players"][shown["seat"]]["name"]
            answer = await page.press(shown["moves"][0]["data"])
            assert answer["ok"], answer
            presses += 1
            shown = (await page.next("update", timeout=30))["update"]
            logged += shown["log_add"]
            assert any(line.startswith(mover) for line in shown["log_add"]), shown["log_add"]
        assert any(line.startswith("Bot 1") for line in logged), logged  # the bot moved too
        # every line the page's log was pushed is printed at the terminal, in order
        start = place = at
        for line in logged:
            _, place = await wait(line, after=place)
        assert "Meanwhile, elsewhere:" in term.raw[start:].decode(errors="replace")
        while not shown["moves"] and not shown["result"]:  # the bot's turn, to its end
            shown = (await page.next("update", timeout=30))["update"]
            for line in shown["log_add"]:
                _, place = await wait(line, after=place)
        # and it ends at the menu of whoever is to act now, on the emulated screen
        acting = next(p["name"] for p in shown["players"] if p["acting"])
        await wait(f"{acting}> ", after=place)
        tail = term.lines()[-3:]
        assert tail[-1] == f"{acting}>", tail
        said = term.raw[start:].decode(errors="replace")
        assert all(said.count(line) == 1 for line in logged), said  # each said once
        assert any(re.match(r"\s+\d+\) ", line) for line in term.lines()[-14:])
    finally:
        if page is not None:
            await page.close()
        term.close()
