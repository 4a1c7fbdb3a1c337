"""The store keeps every accepted move: migrations, one transaction per move, versions."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.store import ChatBusy, NewEntry, SchemaTooNew, SeatRow, StaleVersion, Store, StoreError
from bot.store.dialects import split_script
from bot.store.migrations import MIGRATIONS
from tests.bot.conftest import on_both


async def _session(store: Store, chat: str = "c1"):
    return await store.create_session(
        platform="test",
        scope="g",
        chat=chat,
        thread="",
        game="ghosts18",
        options={"variant": "standard"},
        rules_version=1,
        creator="u1",
        seed=7,
        first_seat=SeatRow(0, "u1", "Ann"),
    )


async def test_migrations_run_once_and_set_the_pragmas(tmp_path):
    path = tmp_path / "db.sqlite3"
    store = await Store.open(path)
    assert await store.schema_version() == len(MIGRATIONS)
    row = await _session(store)
    await store.close()
    again = await Store.open(path)  # reopening must not re-run migration 1 (tables exist)
    assert (await again.session(row.id)).game == "ghosts18"
    await again.close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


@on_both
async def test_one_live_game_per_chat_and_thread(store):
    await _session(store, "c1")
    with pytest.raises(ChatBusy):
        await _session(store, "c1")
    other = await store.create_session(
        platform="test",
        scope="g",
        chat="c1",
        thread="topic-9",
        game="ghosts18",
        options={},
        rules_version=1,
        creator="u1",
        seed=1,
        first_seat=SeatRow(0, "u1", "Ann"),
    )
    assert other.thread == "topic-9"


@on_both
async def test_record_appends_log_and_snapshot_together(store):
    row = await _session(store)
    v = await store.record(
        row.id,
        row.version,
        [
            NewEntry(0, "place b1", "u1", [{"text": "x", "to": None, "kind": "info"}]),
            NewEntry(-1, "4", None, []),
        ],
        {"n": 1},
        chance_pos=1,
    )
    assert v == row.version + 1
    fresh = await store.session(row.id)
    assert fresh.state == {"n": 1} and fresh.chance_pos == 1 and fresh.status == "active"
    assert [(e.n, e.seat, e.action) for e in await store.log(row.id)] == [
        (1, 0, "place b1"),
        (2, -1, "4"),
    ]


@on_both
async def test_the_log_is_read_by_the_versions_its_changes_made(store):
    """Each log row says the version its change took the table to (migration 14): what
    happened between two versions is read without the rest (the terminal says the moves
    made elsewhere since the board it showed)."""
    row = await _session(store)
    v1 = await store.record(row.id, row.version, [NewEntry(0, "a", "u1", [])], {"n": 1}, 0)
    v2 = await store.record(
        row.id, v1, [NewEntry(0, "b", "u1", []), NewEntry(-1, "6", None, [])], {"n": 2}, 1
    )
    v3 = await store.record(row.id, v2, [NewEntry(0, "c", "u1", [])], {"n": 3}, 1)
    assert [e.action for e in await store.log_between_versions(row.id, v1, v3)] == ["b", "6", "c"]
    assert [e.action for e in await store.log_between_versions(row.id, v1, v2)] == ["b", "6"]
    assert await store.log_between_versions(row.id, v3, v3 + 5) == []
    await store.finish(row.id, v3, "aborted", "ended")
    assert [e.action for e in await store.log_between_versions(row.id, v3, v3 + 1)] == ["aborted"]


@on_both
async def test_a_stale_version_writes_nothing(store):
    row = await _session(store)
    await store.record(row.id, row.version, [NewEntry(0, "a", "u1", [])], {"n": 1}, 0)
    with pytest.raises(StaleVersion):
        await store.record(row.id, row.version, [NewEntry(0, "b", "u1", [])], {"n": 2}, 0)
    assert [e.action for e in await store.log(row.id)] == ["a"]
    assert (await store.session(row.id)).state == {"n": 1}


async def test_a_locked_database_refuses_the_write_and_keeps_earlier_moves(tmp_path):
    path = tmp_path / "db.sqlite3"
    store = await Store.open(path, busy_timeout=0.1)
    row = await _session(store)
    await store.record(row.id, row.version, [NewEntry(0, "a", "u1", [])], {"n": 1}, 0)
    blocker = sqlite3.connect(path, timeout=0.1, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    with pytest.raises(StoreError):
        await store.record(row.id, row.version + 1, [NewEntry(1, "b", "u2", [])], {"n": 2}, 0)
    blocker.execute("ROLLBACK")
    blocker.close()
    assert [e.action for e in await store.log(row.id)] == ["a"]
    assert (await store.session(row.id)).version == row.version + 1
    await store.close()


@on_both
async def test_online_backup_is_a_readable_copy(store, tmp_path):
    row = await _session(store)
    await store.backup(tmp_path / "copy.sqlite3")
    copy = await Store.open(tmp_path / "copy.sqlite3")
    assert (await copy.session(row.id)).creator == "u1"
    await copy.close()


@on_both
async def test_seats_and_users(store):
    row = await _session(store)
    await store.set_seats(row.id, row.version, [SeatRow(0, "u1", "Ann"), SeatRow(1, "u2", "Bob")])
    assert [s.name for s in (await store.session(row.id)).seats] == ["Ann", "Bob"]
    await store.upsert_user("test", "u2", "Bob", private_chat="dm-2")
    await store.upsert_user("test", "u2", "Bobby")
    assert await store.user("test", "u2") == {"name": "Bobby", "private_chat": "dm-2", "prefs": {}}
    assert [r.id for r in await store.sessions_of_user("test", "u2")] == [row.id]


@on_both
async def test_migrations_run_once_and_reopen(db_target):
    store = await Store.open(db_target)
    assert await store.schema_version() == len(MIGRATIONS)
    row = await _session(store)
    await store.close()
    again = await Store.open(db_target)  # reopening must not re-run migration 1
    assert (await again.session(row.id)).game == "ghosts18"
    assert await again.schema_version() == len(MIGRATIONS)
    await again.close()


@on_both
async def test_a_database_newer_than_the_code_is_refused(db_target):
    store = await Store.open(db_target)
    newer = len(MIGRATIONS) + 1
    if store.kind == "sqlite":
        await store._conn.execute(f"PRAGMA user_version = {newer}")
    else:
        await store._conn.execute("UPDATE escape_schema SET version = ?", (newer,))
    await store.close()
    with pytest.raises(SchemaTooNew, match=f"schema version {newer}, newer than this Escape"):
        await Store.open(db_target)


async def test_a_database_that_cannot_be_opened_says_so(tmp_path):
    (tmp_path / "blocker").write_text("a file, not a folder")
    with pytest.raises(StoreError, match="cannot open the database"):
        await Store.open(tmp_path / "blocker" / "escape.sqlite3")
    with pytest.raises(StoreError, match="cannot open the database at postgresql://u:\\*\\*\\*@"):
        await Store.open("postgresql://u:secret@127.0.0.1:1/none", busy_timeout=1)


def test_migration_scripts_split_on_statements_not_on_every_semicolon():
    script = """
    CREATE TABLE a (x TEXT DEFAULT 'one; two');  -- a comment; with a semicolon
    CREATE TRIGGER t AFTER INSERT ON a BEGIN
        UPDATE a SET x = 'y;' WHERE x = 'z'; DELETE FROM a WHERE x = ';';
    END;
    /* a block; comment */ CREATE INDEX a_x ON a (x)
    """
    parts = split_script(script)
    assert len(parts) == 3
    assert parts[0].startswith("CREATE TABLE a") and "'one; two'" in parts[0]
    assert "CREATE TRIGGER" in parts[1] and parts[1].endswith("END")
    assert parts[2].endswith("CREATE INDEX a_x ON a (x)")
    conn = sqlite3.connect(":memory:")
    for part in parts:
        conn.execute(part)
    conn.execute("INSERT INTO a (x) VALUES ('z')")
    assert conn.execute("SELECT x FROM a").fetchall() == [("y;",)]


@on_both
async def test_processes_starting_at_once_migrate_once(db_target):
    """Four bots starting together on an empty database: each waits its turn (SQLite's
    write lock, PostgreSQL's advisory lock) and finds the migrations done."""
    stores = await asyncio.gather(*(Store.open(db_target, busy_timeout=10) for _ in range(4)))
    try:
        assert [await s.schema_version() for s in stores] == [len(MIGRATIONS)] * 4
        row = await _session(stores[0])
        assert (await stores[3].session(row.id)).creator == "u1"
    finally:
        for s in stores:
            await s.close()
