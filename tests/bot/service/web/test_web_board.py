"""The web board over HTTP and its socket, against a real store and service: the personal
link and its cookie, the page a player and a spectator get, moves by tap data with the
board's version, pages pushed after every change, pictures at signed addresses, local
play, and refusals that change nothing."""

from __future__ import annotations

import json

import pytest

from bot.service import GameService, UserError
from bot.service.base.web_links import WebSigner
from bot.store import Store
from tests.bot.web_fixtures import SECRET, TG_ANN, TG_BOB, TG_GROUP, Page, serve_board


@pytest.fixture
async def board(tmp_path):
    store = await Store.open(tmp_path / "web.sqlite3")
    service = GameService(store, seed_source=lambda: 1234)
    running = await serve_board(service, local=True)
    pages: list[Page] = []

    def page() -> Page:
        pages.append(Page(running.url))
        return pages[-1]

    running.page = page
    yield running
    for p in pages:
        await p.close()
    await running.close()
    await store.close()


async def _table(
    service: GameService, game: str = "ghosts18", options: str = "variant=short"
) -> int:
    await service.start(TG_GROUP, TG_ANN, game, options)
    await service.join(TG_GROUP, TG_BOB)
    row = await service.live(TG_GROUP)
    if row.status == "lobby":
        await service.begin(TG_GROUP, TG_ANN)
    return row.id


async def _signed_in(board, user) -> tuple[Page, int]:
    plan = await board.service.web_link(TG_GROUP, user)
    [reply] = plan.replies
    assert reply.to == user and plan.quiet  # the link is the asker's alone
    link = reply.text.split(": ", 1)[1].split()[0]
    page = board.page()
    status, _ = await page.get(link.removeprefix(board.url))
    assert status == 303
    return page, reply.session_id


async def test_a_signed_link_opens_once_and_leaves_an_httponly_cookie(board):
    sid = await _table(board.service)
    plan = await board.service.web_link(TG_GROUP, TG_ANN)
    link = plan[0].text.split(": ", 1)[1].split()[0].removeprefix(board.url)
    page = board.page()
    async with page.http.get(board.url + link, allow_redirects=False) as r:
        assert r.status == 303 and r.headers["Location"] == f"/table/{sid}"
        cookie = r.headers["Set-Cookie"]
        assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
        assert "frame-ancestors 'self' https://discord.com" in r.headers["Content-Security-Policy"]
    status, page_json = await page.get(f"/api/tables/{sid}")
    assert status == 200 and page_json["you"] == "Ann" and page_json["seat"] == 0
    again = board.page()
    status, body = await again.get(link)
    assert status == 403 and b"opened already" in body  # replayed


async def test_forged_and_expired_links_are_refused_with_a_clear_message(board):
    await _table(board.service)
    plan = await board.service.web_link(TG_GROUP, TG_ANN)
    link = plan[0].text.split(": ", 1)[1].split()[0].removeprefix(board.url)
    forged = link[:-3] + ("AAA" if not link.endswith("AAA") else "BBB")
    status, body = await board.page().get(forged)
    assert status == 403 and b"not one of ours" in body
    late = WebSigner(SECRET, clock=lambda: 10**10)  # a clock far past the link's expiry
    with pytest.raises(UserError, match="expired"):
        late.read(link.removeprefix("/link/"), "link")
    status, body = await board.page().get("/api/tables/1")
    assert status == 404 and "no such table" in body["error"]  # nobody: as if it did not exist


async def test_a_move_by_its_tap_data_reaches_the_table_and_every_open_page(board):
    sid = await _table(board.service)
    ann, _ = await _signed_in(board, TG_ANN)
    watcher = board.page()
    opened = (await ann.open(sid))["page"]
    key = opened["watch_key"]
    assert (await watcher.open(sid, watch=key))["page"]["table"] == sid
    move = next(m for m in opened["moves"] if m["region"] is not None)
    status, png = await watcher.get(opened["board"])  # a signed address: no cookie, no key
    assert status == 200 and png.startswith(b"\x89PNG")
    answer = await ann.press(move["data"])
    assert answer["ok"], answer
    pushed = (await watcher.next("update"))["update"]
    assert pushed["version"] == opened["version"] + 1
    assert pushed["log_add"] and pushed["moves"] == [] and pushed["standing"] == "spectator"
    mine = (await ann.next("update"))["update"]
    assert mine["notes"] == pushed["log_add"]  # what changed, not the whole view again
    row = await board.service.live(TG_GROUP)
    assert row.version == opened["version"] + 1
    # the same button again: the board has moved on, refused, nothing changed
    stale = await ann.press(move["data"])
    assert not stale["ok"] and stale["stale"]
    assert (await board.service.live(TG_GROUP)).version == row.version
    status, old = await watcher.get(opened["board"])  # an address names one version's board
    assert status == 200 and old == png


async def test_a_spectator_sees_the_public_board_and_cannot_move(board):
    sid = await _table(board.service, "haunted_house", "specials=off")
    ann, _ = await _signed_in(board, TG_ANN)
    _, own = await ann.get(f"/api/tables/{sid}")
    assert own["private_text"] and own["seat"] == 0 and own["view"]
    status, png = await ann.get(own["view"])  # her view, with her session
    assert status == 200 and png.startswith(b"\x89PNG")
    watcher = board.page()
    status, public = await watcher.get(f"/api/tables/{sid}?watch={own['watch_key']}")
    assert status == 200 and public["moves"] == [] and public["private_text"] == ""
    assert public["seat"] is None and public["own_log"] == [] and public["view"] is None
    assert public["watch_key"] is None and public["standing"] == "spectator"
    hand = own["private_text"]
    assert hand not in str(public)
    status, refused = await watcher.get(own["view"])  # her view's address, without her session
    assert status == 403 and "another player" in refused["error"]
    status, refused = await watcher.get(f"/api/tables/{sid}?watch=not-the-key")
    assert status == 404 and "no such table" in refused["error"]
    await watcher.open(sid, watch=own["watch_key"])
    refused = await watcher.press(f"a:{sid}:{own['version']}:0:0")
    assert not refused["ok"] and "You are not playing in this game" in refused["error"]


async def test_the_socket_refuses_a_foreign_origin_and_limits_moves(board):
    sid = await _table(board.service)
    ann, _ = await _signed_in(board, TG_ANN)
    import aiohttp

    with pytest.raises(aiohttp.WSServerHandshakeError):
        await ann.open(sid, origin="https://evil.example")
    await ann.open(sid)
    answers = [await ann.press("junk") for _ in range(6)]
    assert all(not a["ok"] for a in answers)
    assert "not one of ours" in answers[0]["error"]
    assert "Too many moves" in answers[-1]["error"]


async def test_local_play_starts_a_terminal_table_and_plays_hot_seat(board):
    page = board.page()
    token = board.board.signer.sign("local", {}, 60)
    status, _ = await page.get(f"/local/{token}")
    assert status == 303
    status, made = await page.post(
        "/api/local/tables", {"game": "ghosts18", "players": "Ann,Bob", "options": "variant=short"}
    )
    assert status == 200, made
    sid = made["table"]
    _, listed = await page.get("/api/local/tables")
    assert [t["id"] for t in listed["tables"]] == [sid]
    now = (await page.open(sid))["page"]
    assert now["you"] is None and now["standing"] == "player"  # playing as Ann and Bob, not "You"
    for _ in range(4):  # Ann and Bob take turns at one browser
        assert now["seats_you_may_play"] == [0, 1]
        answer = await page.press(now["moves"][0]["data"], seat=now["seat"])
        assert answer["ok"], answer
        now = (await page.next("update"))["update"]
    row = await board.service.live(
        board.service.web_tables.chat(await board.service.web_tables.row(sid))
    )
    assert row.version == now["version"]
    stranger = board.page()
    status, refused = await stranger.post("/api/local/tables", {"game": "ghosts18", "players": "X"})
    assert status == 401 and "this machine" in refused["error"]


async def test_a_local_press_acts_for_the_seat_its_move_was_offered_to(board):
    """Hot-seat at one page: a move pressed with no seat named (or the other player's)
    is made for the player it was offered to, never refused as another player's; a move
    button for a seat that is no local player's is refused."""
    page = board.page()
    await page.get(f"/local/{board.board.signer.sign('local', {}, 60)}")
    _, made = await page.post(
        "/api/local/tables", {"game": "ghosts18", "players": "Ann,Bob", "options": "variant=short"}
    )
    now = (await page.open(made["table"]))["page"]
    first = now["seat"]
    assert (await page.press(now["moves"][0]["data"], seat=None))["ok"]
    await page.next("update")
    bob = (await page.say({"hello": {"table": made["table"], "seat": 1 - first}}))["page"]
    answer = await page.press(bob["moves"][0]["data"], seat=first)  # the page said the other
    assert answer["ok"], answer
    row = await board.service.web_tables.row(made["table"])
    moves = await board.service.store.log_tail(row.id, 10)
    assert [e.seat for e in moves if e.seat >= 0][-2:] == [first, 1 - first]
    forged = bob["moves"][0]["data"].split(":")
    forged[2], forged[3] = str(row.version), "7"  # a seat nobody plays
    answer = await page.press(":".join(forged), seat=None)
    assert not answer["ok"] and answer["error"]


async def test_the_page_is_said_in_the_browsers_language_and_its_script_words_too(board):
    """Issue 26: the page's own headings and the words its script puts together follow
    the reader's language (their setting, else Accept-Language); nothing is left English."""
    import html as html_lib
    import re

    from bot.web.page_words import PAGE, SCRIPT
    from languages import say

    page = board.page()
    said = {}
    for header in ("de-DE,de;q=0.9,en;q=0.5", "en-GB"):
        async with page.http.get(board.url + "/", headers={"Accept-Language": header}) as r:
            assert r.status == 200 and r.headers["Content-Language"] == header[:2]
            said[header[:2]] = await r.text()
    german, english = said["de"], said["en"]
    assert '<html lang="de">' in german and "{{" not in german
    for key, text in PAGE.items():
        assert html_lib.escape(say(text, "de")) in german, key
        assert say(text, "de") != say(text, "en"), key  # translated, not copied
    words = json.loads(re.search(r'id="words">(.*?)</script>', german, re.S).group(1))
    assert words == {key: say(text, "de") for key, text in SCRIPT.items()}
    assert "Deine Züge" in german and "Your moves" in english and "Your moves" not in german


async def test_an_ended_game_says_so_where_the_moves_were(board):
    sid = await _table(board.service)
    ann, _ = await _signed_in(board, TG_ANN)
    opened = (await ann.open(sid))["page"]
    assert opened["result"] == "" and opened["moves"]
    await board.service.abort(TG_GROUP, TG_ANN)
    ended = (await ann.next("update"))["update"]
    assert ended["status"] == "aborted" and ended["moves"] == []
    assert ended["result"] == "This game was ended before its end."
