"""The timer loop's scans of a platform read what is due, not every game ever stored there
(issue 34): SQLite's work for a scan stays the same however many finished games it holds.
Before the indexes of migration 8 the planner read every game of the platform, twice a scan
(13 ms a query with 10,000 stored games)."""

from __future__ import annotations

import sqlite3

from bot.store import Store

NOW = 100 * 86400.0
DAY = 86400.0
SCAN = (
    ("due_sessions", (NOW, ["discord"])),
    ("next_wake", (["discord"],)),
    ("idle_sessions", (NOW, 14, ["discord"], 2)),
)


async def _database(path, finished: int) -> None:
    """`finished` finished games on the platform, a running game due now, and a lobby
    untouched for 20 days; written directly, the schema by the store."""
    store = await Store.open(path)
    await store.close()
    rows = [("finished", None, NOW - DAY)] * finished + [
        ("active", NOW - 60, NOW - 60),  # its wake time has come
        ("lobby", None, NOW - 20 * DAY),  # idle past the default 14 days
    ]
    with sqlite3.connect(path) as db:
        db.executemany(
            "INSERT INTO sessions (platform, chat, game, options, rules_version, status, "
            "creator, seed, created_at, updated_at, wake_at) "
            "VALUES ('discord', 'c' || ?, 'ghosts18', '{}', 1, ?, 'u', 1, ?, ?, ?)",
            [(n, status, at, at, wake) for n, (status, wake, at) in enumerate(rows)],
        )


async def _scan_steps(path) -> tuple[int, list]:
    """SQLite's virtual-machine steps for the scan's statements as the store sends them,
    and what the scan found."""
    statements: list[str] = []
    store = await Store.open(path)
    try:
        await store._conn.conn.set_trace_callback(statements.append)
        found = [await getattr(store, name)(*args) for name, args in SCAN]
    finally:
        await store.close()
    steps = 0

    def count() -> int:
        nonlocal steps
        steps += 1
        return 0

    with sqlite3.connect(path) as db:
        db.set_progress_handler(count, 1)
        for sql in statements:
            if sql.lstrip().upper().startswith("SELECT"):
                db.execute(sql).fetchall()
    summary = [[r.status for r in found[0]], found[1], [r.status for r in found[2]]]
    return steps, summary


async def _scan_steps_of(path, finished: int) -> tuple[int, list]:
    await _database(path, finished)
    return await _scan_steps(path)


async def test_a_scan_does_not_read_the_finished_games(tmp_path):
    few, few_found = await _scan_steps_of(tmp_path / "few.sqlite3", 100)
    many, many_found = await _scan_steps_of(tmp_path / "many.sqlite3", 2_000)
    assert few_found == many_found == [["active"], NOW - 60, ["lobby"]]
    assert many - few < 500, (few, many)  # reading 1,900 more games costs thousands
