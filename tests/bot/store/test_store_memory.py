"""The table's memory in the store: ended games of a chat, ratings per server or group,
undo requests and moves taken back (bot/store/memory.py), on SQLite and PostgreSQL."""

from __future__ import annotations

from bot.store import NewEntry, RatingRow, SeatRow, Store, UndoRequest
from tests.bot.conftest import on_both


async def _ended(store: Store, chat: str, scope: str = "g", status: str = "finished") -> int:
    row = await store.create_session(
        platform="test",
        scope=scope,
        chat=chat,
        thread="",
        game="ghosts18",
        options={},
        rules_version=1,
        creator="u1",
        seed=7,
        first_seat=SeatRow(0, "u1", "Ann"),
    )
    await store.record(row.id, row.version, [NewEntry(0, "x", "u1", [])], {}, 0, status=status)
    return row.id


@on_both
async def test_ended_games_of_a_chat_newest_first_and_nowhere_else(store):
    first = await _ended(store, "c1")
    second = await _ended(store, "c1", status="aborted")
    await _ended(store, "c2")
    rows = await store.ended_in_chat("test", "c1")
    assert [r.id for r in rows] == [second, first]
    assert await store.count_ended_in_chat("test", "c1") == 2
    assert [r.id for r in await store.ended_in_chat("test", "c1", 1, 1)] == [first]
    assert (await store.latest_in_place("test", "c1", "")).id == second
    assert await store.latest_in_place("test", "c9", "") is None


@on_both
async def test_ratings_are_saved_once_per_game_and_kept_per_server(store):
    sid = await _ended(store, "c1")
    ann = RatingRow("test", "g", "ghosts18", "u1", "Ann", 27.5, 7.9, 1, 1, 0)
    bob = RatingRow("test", "g", "ghosts18", "u2", "Bob", 22.5, 7.9, 1, 0, 1)
    assert await store.save_ratings(sid, [ann, bob], {"u1": [0.0, 3.8]}, 100.0)
    again = RatingRow("test", "g", "ghosts18", "u1", "Ann", 99.0, 1.0, 9, 9, 0)
    assert not await store.save_ratings(sid, [again], {}, 101.0)  # rated already: no change
    got = await store.ratings_of("test", "g", "ghosts18", ["u1", "u2", "u3"])
    assert got == {"u1": ann, "u2": bob}
    assert await store.rating_changes(sid) == {"u1": [0.0, 3.8]}
    assert [r.user_id for r in await store.leaderboard("test", "g", "ghosts18")] == ["u1", "u2"]
    assert await store.leaderboard("test", "other", "ghosts18") == []
    assert [r.game for r in await store.standings_of("test", "g", "u2")] == ["ghosts18"]
    assert await store.rated_games_in_scope("test", "g") == ["ghosts18"]
    # an upsert: the next game's standing replaces the row
    sid2 = await _ended(store, "c1")
    newer = RatingRow("test", "g", "ghosts18", "u1", "Ann B.", 29.0, 7.0, 2, 2, 0)
    assert await store.save_ratings(sid2, [newer], {}, 102.0)
    assert (await store.ratings_of("test", "g", "ghosts18", ["u1"]))["u1"] == newer


@on_both
async def test_an_undo_request_and_a_move_taken_back(store):
    row = await store.create_session(
        platform="test",
        scope="g",
        chat="c1",
        thread="",
        game="ghosts18",
        options={},
        rules_version=1,
        creator="u1",
        seed=7,
        first_seat=SeatRow(0, "u1", "Ann"),
    )
    version = await store.record(row.id, row.version, [NewEntry(0, "a", "u1", [])], {"s": 1}, 0)
    request = UndoRequest(row.id, version, 1, 0, "u1", [], 50.0)
    await store.put_undo_request(request)
    assert await store.undo_request(row.id) == request
    assert await store.accept_undo(row.id, version, ["u2"])
    assert not await store.accept_undo(row.id, version + 5, ["u3"])  # not the request read
    assert (await store.undo_request(row.id)).accepted == ["u2"]
    await store.undo_move(row.id, version, 1, {"s": 0}, {}, None, None, "taken back", 60.0)
    assert await store.undo_request(row.id) is None
    log = await store.log(row.id)
    assert [(e.n, e.undone) for e in log] == [(1, True), (2, False)]
    assert log[1].events[0]["text"] == "taken back"
    fresh = await store.session(row.id)
    assert fresh.state == {"s": 0} and fresh.version == version + 1
