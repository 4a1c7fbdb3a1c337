"""SQLite's two connections (bot/store/sqlite_database.py): the transactions that queue
while the writer is busy commit together, under one COMMIT, each in its own savepoint; a
read made meanwhile answers at once from the last commit."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import NewEntry, SeatRow, StaleVersion, Store


async def _session(store: Store, n: int):
    return await store.create_session(
        platform="test",
        scope="g",
        chat=f"c{n}",
        thread="",
        game="ghosts18",
        options={},
        rules_version=1,
        creator="u1",
        seed=7,
        first_seat=SeatRow(0, "u1", "Ann"),
    )


async def _statements(db) -> list[str]:
    """Every statement the writer's connection runs from now on (SQLite's trace)."""
    seen: list[str] = []
    await db.conn._execute(db.conn._conn.set_trace_callback, seen.append)
    return seen


async def test_queued_moves_commit_together_and_a_stale_one_alone_is_refused(tmp_path):
    store = await Store.open(tmp_path / "escape.sqlite3")
    db = store._conn
    try:
        rows = [await _session(store, n) for n in range(4)]
        statements = await _statements(db)
        go = asyncio.Event()

        async def hold_the_writer(tx):  # a transaction that waits on something else
            await tx.execute("UPDATE sessions SET creator = 'held' WHERE id = ?", (rows[0].id,))
            await go.wait()

        held = asyncio.create_task(db.transaction(hold_the_writer, waits_elsewhere=True))
        await asyncio.sleep(0.05)
        # a read meanwhile answers now, from the last commit (not the held write)
        seen = await asyncio.wait_for(store.session(rows[0].id), 2)
        assert seen.creator == "u1"

        def move(row, text):
            return store.record(row.id, row.version, [NewEntry(0, text, "u1", [])], {"m": text}, 0)

        moves = [asyncio.create_task(move(row, f"move {row.id}")) for row in rows]
        stale = asyncio.create_task(move(rows[1], "too late"))  # the version rows[1] had
        await asyncio.sleep(0.05)
        assert not any(t.done() for t in [*moves, stale]), "they wait for the writer"
        go.set()
        await held
        assert await asyncio.gather(*moves) == [row.version + 1 for row in rows]
        with pytest.raises(StaleVersion):
            await stale

        commits = [s for s in statements if s.strip().upper() == "COMMIT"]
        assert len(commits) == 2, statements  # the held transaction's, then one for the five
        for row in rows:
            after = await store.session(row.id)
            assert after.version == row.version + 1
            assert [a.action for a in await store.log(row.id)] == [f"move {row.id}"]
        assert (await store.session(rows[0].id)).creator == "held"
    finally:
        await store.close()


async def test_a_transaction_that_awaits_something_else_must_say_so(tmp_path):
    store = await Store.open(tmp_path / "escape.sqlite3")
    db = store._conn
    try:
        row = await _session(store, 0)

        async def sleepy(tx):
            await tx.execute("UPDATE sessions SET creator = 'sleepy' WHERE id = ?", (row.id,))
            await asyncio.sleep(0)

        with pytest.raises(RuntimeError, match="waits_elsewhere=True"):
            await db.transaction(sleepy)
        assert (await store.session(row.id)).creator == "u1", "rolled back"
        await db.transaction(sleepy, waits_elsewhere=True)
        assert (await store.session(row.id)).creator == "sleepy"
    finally:
        await store.close()


async def test_the_reader_refuses_to_write(tmp_path):
    """A statement is sent to the reader only if it reads; were a write ever sent there,
    it would fail rather than slip past the writer."""
    store = await Store.open(tmp_path / "escape.sqlite3")
    db = store._conn
    try:
        with pytest.raises(Exception, match="readonly"):
            await db.reader.execute("CREATE TABLE scratch_one (x)")
        await db.execute("CREATE TABLE scratch_two (x)")  # not a SELECT: the writer's
    finally:
        await store.close()


async def test_a_work_that_fails_in_a_batch_fails_alone(tmp_path):
    """A work that raises (not a store error) is rolled back to its savepoint and its caller
    hears it; the move queued beside it commits, and the writer goes on."""
    store = await Store.open(tmp_path / "escape.sqlite3")
    db = store._conn
    try:
        row = await _session(store, 0)
        go = asyncio.Event()

        async def hold(tx):
            await go.wait()

        async def broken(tx):
            await tx.execute("UPDATE sessions SET creator = 'broken' WHERE id = ?", (row.id,))
            raise ValueError("a bug in a query")

        held = asyncio.create_task(db.transaction(hold, waits_elsewhere=True))
        await asyncio.sleep(0.02)
        bad = asyncio.create_task(db.transaction(broken))
        good = asyncio.create_task(
            store.record(row.id, row.version, [NewEntry(0, "fine", "u1", [])], {}, 0)
        )
        await asyncio.sleep(0.02)
        go.set()
        await held
        with pytest.raises(ValueError, match="a bug"):
            await bad
        assert await good == row.version + 1
        after = await store.session(row.id)
        assert after.creator == "u1" and after.version == row.version + 1
        assert await store.record(row.id, after.version, [], {}, 0) == after.version + 1
    finally:
        await store.close()
