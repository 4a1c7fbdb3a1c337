"""Moving a bot's data between stores (issue 13): `escape-bot migrate-db` copies an SQLite
file into PostgreSQL (and back), games and all, and the copy plays on; `escape-bot backup`
of a PostgreSQL store is an SQLite file; a destination that holds data is refused."""

from __future__ import annotations

import asyncio

import pytest

from bot.cli import main
from bot.service import ChatRef, GameService
from bot.store import NewEntry, Store
from tests.bot.conftest import ANN, BOB
from tests.bot.store.test_store_concurrency import _tables


async def _fill(target) -> tuple[list[int], dict]:
    store = await Store.open(target)
    try:
        service = GameService(store, seed_source=lambda: 1234, pictures=False)
        tables = await _tables(service, 3)
        for c, u, data, _ in tables[:2]:
            await service.press(c, u, data)
        sid = tables[2][3]
        row = await store.session(sid)
        # whole-number times in REAL columns (SQLite keeps them as integers)
        await store.record(
            sid, row.version, [NewEntry(0, "x", "u", [])], row.state, 0, deadline=100, wake_at=50
        )
        await store.set_meta("heartbeat.test", "12.5")
        await store.upsert_user("test", ANN.id, "Ann", private_chat="dm-1")
        ids = [sid for *_, sid in tables]
        return ids, {sid: (await store.session(sid), await store.log(sid)) for sid in ids}
    finally:
        await store.close()


async def _same(target, ids: list[int], before: dict, fresh_chat: str = "chan-new") -> None:
    store = await Store.open(target)
    try:
        for sid in ids:
            row, log = await store.session(sid), await store.log(sid)
            old_row, old_log = before[sid]
            assert (row.version, row.state, row.seats, row.clock, row.deadline, row.wake_at) == (
                old_row.version,
                old_row.state,
                old_row.seats,
                old_row.clock,
                old_row.deadline,
                old_row.wake_at,
            )
            assert [(e.n, e.action, e.events) for e in log] == [
                (e.n, e.action, e.events) for e in old_log
            ]
        assert await store.get_meta("heartbeat.test") == "12.5"
        assert (await store.user("test", ANN.id))["private_chat"] == "dm-1"
        # the copy plays on: a new game gets a new id, after the copied ones
        service = GameService(store, seed_source=lambda: 1234, pictures=False)
        fresh = ChatRef("test", fresh_chat, "", "guild-1")
        await service.start(fresh, ANN, "ghosts18")
        [board, *_] = await service.join(fresh, BOB)
        assert board.session_id > max(ids)
    finally:
        await store.close()


def test_migrate_db_sqlite_into_postgresql_and_back(tmp_path, postgres_server, capsys):
    src = tmp_path / "old.sqlite3"
    ids, before = asyncio.run(_fill(src))
    pg = asyncio.run(postgres_server.new_schema())
    assert main(["migrate-db", str(src), pg]) == 0
    assert "Copied" in capsys.readouterr().out
    asyncio.run(_same(pg, ids, before))

    assert main(["migrate-db", str(src), pg]) == 2  # it holds data now: refused
    assert "already holds data" in capsys.readouterr().err

    back = tmp_path / "back.sqlite3"
    assert main(["migrate-db", pg, str(back)]) == 0
    asyncio.run(_same(back, ids, before, "chan-newer"))


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_backup_is_an_sqlite_file_of_either_store(tmp_path, kind, request, monkeypatch):
    if kind == "sqlite":
        db = str(tmp_path / "live.sqlite3")
    else:
        db = asyncio.run(request.getfixturevalue("postgres_server").new_schema())
    ids, before = asyncio.run(_fill(db))
    monkeypatch.setenv("ESCAPE_DB", db)
    copy = tmp_path / "backup.sqlite3"
    assert main(["backup", str(copy)]) == 0
    asyncio.run(_same(copy, ids, before))


def test_migrate_db_from_nowhere_is_refused(tmp_path, capsys):
    assert main(["migrate-db", str(tmp_path / "missing.sqlite3"), str(tmp_path / "b.db")]) == 2
    assert "there is no database" in capsys.readouterr().err
