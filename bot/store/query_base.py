"""What every query mixin of the `Store` stands on: the database, the clock and the table
signals, one write transaction (`write`), a session's compare-and-set version bump
(`bump`), and sessions read with their seats (`select_sessions`).

Each mixin (session_queries.py, memory_queries.py, tournament_queries.py ...) subclasses
`QueryBase`, so what it calls is declared here and typed. These methods are the mixins'
tools, used inside the store's own queries: `bump` and `note_change` run inside a `write`
transaction, and they are not wrapped by `driver_errors_translated` (a driver's busy
error must reach the transaction, which tries again), so the service calls the mixins'
public queries, not these.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from typing import Any

from bot.store.dialects import Database
from bot.store.errors import StaleVersion
from bot.store.session_rows import SEAT_COLUMNS, SeatRow, SessionRow, seat_row, session_row
from bot.store.table_signals import CHANNEL as SIGNAL_CHANNEL
from bot.store.table_signals import TableSignals


class QueryBase:
    """`_conn` is the Database (SQLite connection or PostgreSQL pool): `_conn.execute` for
    reads, `write(work)` for a transaction; work(conn) gets the same execute/executemany."""

    def __init__(self, db: Database, clock: Callable[[], float] = time.time):
        self._conn = db
        self._clock = clock
        # after each commit: which sessions changed (the web board's live updates)
        self.signals = TableSignals(db.target if db.kind == "postgresql" else None)

    async def rows(self, sql: str, params: tuple) -> list[tuple]:
        """A query's rows, fetched at once."""
        async with self._conn.execute(sql, params) as cur:
            return list(await cur.fetchall())

    async def write(self, work: Callable[[Database], Any]) -> Any:
        """work(conn) in one write transaction; the sessions it changed are announced once
        it has committed."""
        noting, committed = self.signals.collecting(), False
        try:
            result = await self._conn.transaction(work)
            committed = True
            return result
        finally:
            self.signals.settle(noting, committed)

    async def note_change(self, conn: Database, session_id: int, version: int) -> None:
        """Note a change for the table signal; PostgreSQL tells the other processes."""
        payload = self.signals.note(session_id, version)
        if payload is not None:
            await conn.execute("SELECT pg_notify(?, ?)", (SIGNAL_CHANNEL, payload))

    async def bump(
        self, conn: Database, session_id: int, version: int, touch: bool = True, **cols
    ) -> None:
        """Set `cols` of a session and move its version on, if it is still at `version`
        (else StaleVersion). touch=False: a change made by the clock, not a player (the idle
        limit runs on). `expect_clock`: also refused if the clock is no longer this one."""
        expect = cols.pop("expect_clock", None)
        if touch:
            cols["updated_at"] = self._clock()
        sets = "".join(f"{name} = ?, " for name in cols)
        sql = f"UPDATE sessions SET {sets}version = version + 1 WHERE id = ? AND version = ?"
        params = (*cols.values(), session_id, version)
        if expect is not None:
            sql += " AND clock = ?"
            params += (json.dumps(expect),)
        cur = await conn.execute(sql, params)
        if cur.rowcount != 1:
            raise StaleVersion(f"session {session_id} is no longer at version {version}")
        await self.note_change(conn, session_id, version + 1)

    async def select_sessions(self, sql: str, params: Iterable[Any]) -> list[SessionRow]:
        """The sessions a `SELECT {SESSION_COLUMNS} FROM sessions ...` finds, each with its
        seats."""
        async with self._conn.execute(sql, tuple(params)) as cur:
            rows = await cur.fetchall()
        if not rows:
            return []
        seats: dict[int, list[SeatRow]] = {row[0]: [] for row in rows}
        ids = list(seats)
        for start in range(0, len(ids), 500):  # one query per 500 sessions, not one each
            chunk = ids[start : start + 500]
            async with self._conn.execute(
                f"SELECT session_id, {SEAT_COLUMNS} FROM seats "
                f"WHERE session_id IN ({', '.join('?' for _ in chunk)}) ORDER BY session_id, seat",
                chunk,
            ) as cur:
                for session_id, *seat in await cur.fetchall():
                    seats[session_id].append(seat_row(seat))
        return [session_row(row, seats[row[0]]) for row in rows]
