"""Junk and floods at the web board's doors: every number in a path, a query, a sign-in
body or a socket message is checked (ASCII digits, a range) and refused with a 4xx or an
error on the socket, never a 500 or a dropped socket; hellos and presses are limited per
viewer and per address over all their sockets; a socket that never says hello is closed;
an address keeps a bounded number of sockets open."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from bot.service import GameService
from bot.store import Store
from bot.web import live_sockets
from tests.bot.web_fixtures import TG_ANN, TG_BOB, TG_GROUP, Page, serve_board
from tests.e2e.test_web_sign_in import init_data


@pytest.fixture
async def board(tmp_path):
    store = await Store.open(tmp_path / "web.sqlite3")
    service = GameService(store, seed_source=lambda: 1234, pictures=False)
    running = await serve_board(service)
    await service.start(TG_GROUP, TG_ANN, "ghosts18", "variant=short")
    await service.join(TG_GROUP, TG_BOB)
    running.sid = (await service.live(TG_GROUP)).id
    pages: list[Page] = []

    def page(token: str | None = None) -> Page:
        pages.append(Page(running.url, token=token))
        return pages[-1]

    running.page = page
    running.ann_token = running.board.signer.session(TG_ANN)
    yield running
    for p in pages:
        await p.close()
    await running.close()
    await store.close()


@pytest.mark.parametrize(
    "path",
    [
        "/api/tables/99999999999999999999999",
        "/api/tables/1?seat=%C2%B2",  # ² (its isdigit() is true)
        "/api/tables/1?seat=99999999999999999999",
        "/api/tables/%D9%A3",  # Arabic-Indic three: int() reads it as 3
        "/api/tables/-1",
        "/api/tables/1/frames/99999999999.png",
        "/api/tables/1/frames/%C2%B2.png",
        "/api/pictures/junk.png",
        "/api/pictures/" + "A" * 5000 + ".png",
        "/api/discord/channels/%C2%B2",
        "/table/%C2%B2",
        "/watch/1/" + "k" * 3000,
    ],
)
async def test_junk_in_a_path_or_query_is_a_4xx(board, path):
    page = board.page(board.ann_token)
    status, _ = await page.get(path)
    assert 200 <= status < 500, status
    if path.startswith("/api/tables/1?"):
        assert status == 200  # the seat asked for is ignored, the table shown


@pytest.mark.parametrize("table", ["²", "١", True, 1e400, -1, 2**80, [1], {"a": 1}, None, "1" * 40])
async def test_junk_in_a_sign_in_body_is_refused_or_ignored(board, table):
    page = board.page()
    status, signed = await page.post(
        "/api/auth/telegram", {"init_data": init_data(1001, "Ann"), "table": table}
    )
    assert status == 200 and signed["table"] is None


async def test_junk_on_the_socket_gets_an_error_and_the_socket_stays(board):
    page = board.page(board.ann_token)
    await page.connect()
    for junk in ("not json", "[1, 2]", '{"hello": 5}', '{"press": "x"}', "{}", "null"):
        said = await page.say(junk)
        assert "not one of ours" in said["error"], (junk, said)
    for table in ("²", 1e400, True, -1, 2**80, None, "1" * 40):
        said = await page.say({"hello": {"table": table, "token": board.ann_token}})
        assert "error" in said and "Which table" in said["error"], (table, said)
    said = await page.say('{"hello": {"table": 1e400}}')  # JSON's infinity, as a client sent it
    assert "error" in said
    assert not page.closed
    shown = await page.open(board.sid)  # the same socket still works
    assert shown["page"]["seat"] == 0
    for data in (5, None, "a:1:1:0:0" * 20, "j:" + "9" * 40, {"x": 1}):
        answer = await page.press(data)
        assert not answer["ok"] and answer["error"], data
    assert not page.closed


async def test_presses_are_limited_per_viewer_over_all_their_sockets(board):
    answers = []
    for _ in range(3):  # three tabs of one viewer
        page = board.page(board.ann_token)
        await page.open(board.sid)
        answers += [await page.press("junk") for _ in range(3)]
    limited = [a for a in answers if "Too many" in a["error"]]
    assert len(limited) == 9 - live_sockets.PRESSES[0]


async def test_hellos_are_limited_per_viewer(board):
    page = board.page(board.ann_token)
    said = [await page.open(board.sid) for _ in range(live_sockets.HELLOS[0] + 2)]
    assert all("page" in s for s in said[: live_sockets.HELLOS[0]])
    assert "Too many" in said[-1]["error"]


async def test_a_socket_that_never_says_hello_is_closed(board, monkeypatch):
    from bot.web import board_server

    monkeypatch.setattr(board_server, "HELLO_WITHIN", 0.2)
    page = board.page()
    await page.connect()
    await asyncio.sleep(0.6)
    assert page.ws.closed and page.ws.close_code == 4408


async def test_an_address_keeps_a_bounded_number_of_sockets(board, monkeypatch):
    monkeypatch.setattr(live_sockets, "SOCKETS_PER_ADDRESS", 4)
    pages = [board.page() for _ in range(5)]
    for page in pages[:4]:
        await page.connect()
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await pages[4].connect()
    assert refused.value.status == 429
    await pages[0].ws.close()
    await asyncio.sleep(0.1)
    await pages[4].connect()  # a closed socket makes room
