"""Junk and floods at the web board's doors: every number in a path, a query, a sign-in
body or a socket message is checked (ASCII digits, a range) and refused with a 4xx or an
error on the socket, never a 500 or a dropped socket; hellos and presses are limited per
viewer and per address over all their sockets; a socket that never says hello is closed;
an address keeps a bounded number of sockets open."""

from __future__ import annotations

import asyncio
import ipaddress

import aiohttp
import pytest

from bot.service import GameService
from bot.store import Store
from bot.web import live_sockets
from tests.bot.web_fixtures import TG_ANN, TG_BOB, TG_GROUP, Page, serve_board
from tests.e2e.test_web_sign_in import init_data
from tests.polling import until


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


@pytest.mark.parametrize(
    "path",
    [
        "/api/tables/1/describe",
        "/api/learn",
        "/api/local/tables",
        "/api/auth/telegram",
        "/api/auth/discord",
    ],
)
@pytest.mark.parametrize("body", [b"[" * 5000, b'{"what": ' + b"[" * 5000, b"\xff\xfe", b"[1]"])
async def test_junk_in_a_json_body_is_a_4xx_with_words(board, path, body):
    """Tried from outside: JSON nested 5,000 deep posted to the page's questions was a 500
    (RecursionError out of json.loads); every body the board reads is refused in words."""
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            board.url + path, data=body, headers={"Content-Type": "application/json"}
        ) as answer,
    ):
        assert 400 <= answer.status < 500, (path, answer.status)
        assert (await answer.json())["error"]


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
    await until(lambda: page.ws.closed, what="the socket closed")
    assert page.ws.close_code == 4408


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


@pytest.mark.parametrize(
    "frame",
    [
        "[" * 5000,  # under 16 KiB, nested past Python's recursion limit
        '{"hello": ' * 3000 + "1" + "}" * 3000,
        '{"press": {"data": "' + "x" * 100_000 + '"}}',  # 100 KiB: longer than any of ours
        b"\x00\x01 binary",
    ],
    ids=["nested-list", "nested-hello", "huge", "binary"],
)
async def test_nested_huge_or_binary_frames_get_an_error_and_the_socket_stays(board, frame):
    page = board.page(board.ann_token)
    await page.connect()
    if isinstance(frame, bytes):
        await page.ws.send_bytes(frame)
    else:
        await page.ws.send_str(frame)
    said = await page.next("error")
    assert "not one of ours" in said["error"]
    assert not page.closed
    shown = await page.open(board.sid)  # the same socket still works
    assert shown["page"]["seat"] == 0


async def test_every_frame_counts_a_flood_is_told_once_then_read_at_the_limit(board, monkeypatch):
    """Junk frames past a socket's limit are not dropped nor the socket closed: it is told
    once, then read no faster than the limit, each frame answered in turn; meanwhile the
    door answers anyone else."""
    monkeypatch.setattr(live_sockets, "FRAMES", (5, 0.3))
    page = board.page(board.ann_token)
    await page.connect()
    for n in range(20):
        await page.ws.send_str(f"junk {n}")
    other = board.page()
    status, _ = await other.get("/api/config")  # an unrelated request, during the flood
    assert status == 200
    answers = [(await page.next("error"))["error"] for _ in range(21)]
    slowed = [a for a in answers if "Too many messages" in a]
    assert len(slowed) == 1 and answers.index(slowed[0]) == 5  # after the first five
    assert sum("not one of ours" in a for a in answers) == 20
    assert not page.closed
    assert (await page.open(board.sid))["page"]["seat"] == 0


async def test_an_addresss_sockets_share_one_frame_limit(board, monkeypatch):
    monkeypatch.setattr(live_sockets, "FRAMES_PER_ADDRESS", (6, 0.5))
    pages = [board.page() for _ in range(3)]
    for page in pages:
        await page.connect()
    for page in pages:
        for n in range(3):
            await page.ws.send_str(f"junk {n}")
    told = []
    for page in pages:
        told += [(await page.next("error"))["error"] for _ in range(3)]
    told += [m["error"] for p in pages for m in p.kept]  # (a notice may come among them)
    assert any("Too many messages" in t for t in told)  # 9 frames, 6 allowed at once
    assert all(not p.closed for p in pages)


async def test_the_own_origin_is_configured_never_taken_from_host(board):
    page = board.page()
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await page.connect("http://evil.example", headers={"Host": "evil.example"})
    assert refused.value.status == 403
    await page.connect()  # the board's own origin (it listens at board.url) connects


async def test_x_forwarded_for_is_believed_only_from_a_configured_proxy(board, monkeypatch):
    """From 127.0.0.1, which is no configured proxy here, a forged X-Forwarded-For does
    not get round the per-address cap; once 127.0.0.1 is configured as the proxy, the
    addresses it forwards are counted apart."""
    monkeypatch.setattr(live_sockets, "SOCKETS_PER_ADDRESS", 3)
    pages = [board.page() for _ in range(4)]
    for n, page in enumerate(pages[:3]):
        await page.connect(headers={"X-Forwarded-For": f"203.0.113.{n}"})
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await pages[3].connect(headers={"X-Forwarded-For": "203.0.113.99"})
    assert refused.value.status == 429
    assert board.board.sockets.per_address == {"127.0.0.1": 3}
    for page in pages[:3]:
        await page.ws.close()
    await until(lambda: not board.board.sockets.per_address)

    proxied = await _proxied_board(board.service)
    try:
        tabs = [Page(proxied.url) for _ in range(4)]
        for n, tab in enumerate(tabs):
            await tab.connect(headers={"X-Forwarded-For": f"198.51.100.7, 203.0.113.{n}"})
        assert set(proxied.board.sockets.per_address) == {f"203.0.113.{n}" for n in range(4)}
        for tab in tabs:
            await tab.close()
    finally:
        await proxied.close()


async def _proxied_board(service: GameService):
    from tests.bot.web_fixtures import serve_board as serve

    return await serve(service, proxies=(ipaddress.ip_network("127.0.0.1/32"),))


async def test_during_a_twenty_socket_junk_flood_the_door_answers(board, monkeypatch):
    """20 sockets send junk (nested, huge, binary, unparseable) without pause; an unrelated
    request is answered meanwhile and every socket stays open (its time is measured in
    bench/web_flood.py, not asserted here)."""
    junk = ["[" * 5000, "x" * 100_000, "not json", '{"press": {"data": "x"}}']
    monkeypatch.setattr(live_sockets, "HELLOS", (40, 10.0))  # 20 spectators' hellos at once
    monkeypatch.setattr(live_sockets, "HELLOS_PER_ADDRESS", (40, 10.0))
    pages = [board.page() for _ in range(20)]
    key = board.board.signer.watch(board.sid)
    for page in pages:  # spectators of the table (a socket with no hello is closed anyway)
        await page.connect(close_within=0.1)
        assert "page" in await page.open(board.sid, watch=key)
    stop = asyncio.Event()

    async def flood(page: Page) -> None:
        n = 0
        while not stop.is_set():
            await page.ws.send_str(junk[n % len(junk)])
            n += 1
            await asyncio.sleep(0)

    flooding = [asyncio.create_task(flood(p)) for p in pages]
    try:
        await asyncio.sleep(0.3)
        other = board.page()
        for _ in range(5):
            status, shown = await other.get(f"/api/tables/{board.sid}?watch={key}")
            assert status == 200 and shown["seat"] is None
            status, _ = await other.get("/api/config")
            assert status == 200
    finally:
        stop.set()
        for task in flooding:  # (a send the board holds back would wait for its turn)
            task.cancel()
        await asyncio.gather(*flooding, return_exceptions=True)
    assert all(not p.closed for p in pages)
    assert any("Too many messages" in m.get("error", "") for p in pages for m in _heard(p))


def _heard(page: Page) -> list[dict]:
    out = list(page.kept)
    while not page.heard.empty():
        out.append(page.heard.get_nowait())
    return out
