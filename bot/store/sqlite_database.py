"""SQLite behind the store: a file (the embedded default), in WAL mode, fsync'd at every
commit.

Two connections, each with its own thread (aiosqlite):
- **the writer** takes every write. A transaction is handed to its thread whole: the
  thread runs BEGIN, the work's statements and COMMIT in one trip. The transactions that
  queue meanwhile go together in the next trip, each inside a savepoint of one
  transaction, under one COMMIT (one fsync): group commit. Each caller hears its outcome
  only once that COMMIT is on disk, and a work that fails (a stale version) is rolled back
  to its savepoint alone; the others commit.
- **the reader** (`PRAGMA query_only`) answers a SELECT made outside a transaction. In WAL
  a reader sees the last commit and never waits for the writer.

Why: with one connection and an asyncio lock around each transaction, a transaction held
the lock for five trips to the thread, each waiting for a busy event loop to resume it;
with 24 tables moving at once nearly every table was waiting for that lock, which was held
only about 60% of the time (docs/measurements.md, "Issue 34, the store's one door").

A work handed to the writer's thread must await nothing but this database's statements
(the store's queries do only that); one that also waits for something else (a copy
reading another database) says so, `waits_elsewhere=True`, and runs trip by trip on the
writer while it holds the connection alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import sqlite3
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.dialects import Busy, Database, Result, StoreError
from bot.store.errors import ChatBusy

BATCH = 64  # transactions at most in one trip to the writer's thread (one COMMIT)


def _statement(conn: sqlite3.Connection, sql: str, params: tuple) -> tuple[list, int, int | None]:
    """Run in a connection's own thread: its rows, count and row id in one trip."""
    cursor = conn.execute(sql, params)
    try:
        return cursor.fetchall(), cursor.rowcount, cursor.lastrowid
    finally:
        cursor.close()


def _reads_only(sql: str) -> bool:
    return sql.lstrip()[:6].upper() == "SELECT"


class _InThread:
    """The transaction under way in the writer's thread: its statements run at once."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn


@dataclass
class _Queued:
    context: contextvars.Context  # the caller's (what it notes for the table signal)
    work: Callable[[Database], Awaitable[Any]]
    future: asyncio.Future


class SQLiteDatabase(Database):
    kind = "sqlite"

    def __init__(
        self,
        conn: aiosqlite.Connection,
        reader: aiosqlite.Connection | None,
        target: str,
        busy_timeout: float,
    ):
        super().__init__(target, busy_timeout)
        self.conn = conn
        self.reader = reader  # None for ":memory:", which a second connection would not share
        # the writer between trips: a batch, a transaction that waits elsewhere, or a
        # statement outside a transaction (none lands inside another's transaction)
        self._lock = asyncio.Lock()
        self._queued: list[_Queued] = []
        self._writing: asyncio.Task | None = None

    @classmethod
    async def open(cls, path: str | Path, busy_timeout: float) -> SQLiteDatabase:
        target = str(path)
        conn = reader = None
        try:
            if target != ":memory:":
                Path(target).parent.mkdir(parents=True, exist_ok=True)
            conn = await aiosqlite.connect(target, isolation_level=None, timeout=busy_timeout)
            await _wal_mode(conn, busy_timeout)
            await conn.execute("PRAGMA synchronous=FULL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
            if target != ":memory:":
                reader = await aiosqlite.connect(target, isolation_level=None, timeout=busy_timeout)
                await reader.execute("PRAGMA query_only=ON")
        except (sqlite3.Error, OSError) as exc:
            for opened in (reader, conn):
                if opened is not None:
                    with contextlib.suppress(Exception):
                        await opened.close()
            raise StoreError(f"cannot open the database at {target}: {exc}") from exc
        return cls(conn, reader, target, busy_timeout)

    # ----- statements -----------------------------------------------------------------
    async def _run(self, conn: aiosqlite.Connection, sql: str, params: tuple) -> Result:
        """One statement in one trip to `conn`'s thread (aiosqlite's cursor would take
        three: execute, fetch, close)."""
        rows, count, last = await conn._execute(_statement, conn._conn, sql, params)
        return Result(rows, count, last)

    async def _execute(self, sql: str, params: tuple) -> Result:
        tx = self._tx.get()
        try:
            if isinstance(tx, _InThread):
                return Result(*_statement(tx.conn, sql, params))
            if tx is not None:
                return await self._run(self.conn, sql, params)
            if self.reader is not None and _reads_only(sql):
                return await self._run(self.reader, sql, params)
            async with self._lock:
                return await self._run(self.conn, sql, params)
        except sqlite3.Error as exc:
            raise _sqlite_error(exc) from exc

    async def _executemany(self, sql: str, rows: list[tuple]) -> Result:
        tx = self._tx.get()
        try:
            if isinstance(tx, _InThread):
                return Result([], tx.conn.executemany(sql, rows).rowcount, None)
            if tx is not None:
                cur = await self.conn.executemany(sql, rows)
            else:
                async with self._lock:
                    cur = await self.conn.executemany(sql, rows)
            return Result([], cur.rowcount, None)
        except sqlite3.Error as exc:
            raise _sqlite_error(exc) from exc

    # ----- transactions ---------------------------------------------------------------
    async def _transaction(self, work, waits_elsewhere: bool = False):
        if waits_elsewhere:
            return await self._in_trips(work)
        future = asyncio.get_running_loop().create_future()
        self._queued.append(_Queued(contextvars.copy_context(), work, future))
        if self._writing is None or self._writing.done():
            self._writing = asyncio.create_task(self._write_queued())
        return await future

    async def _write_queued(self) -> None:
        """The writer's task: what has queued goes to the thread in one trip, until none is
        left. Its callers may go (cancelled); what they handed over still commits."""
        while self._queued:
            async with self._lock:  # (what queued while it was taken joins this trip)
                batch, self._queued = self._queued[:BATCH], self._queued[BATCH:]
                try:
                    outcomes = await self.conn._execute(self._batch_in_thread, batch)
                except asyncio.CancelledError:  # the loop is going away
                    for queued in batch:
                        queued.future.cancel()
                    raise
                except Exception as exc:  # the connection itself failed (closed, gone)
                    outcomes = [(False, _store_error(exc)) for _ in batch]
            for queued, (ok, value) in zip(batch, outcomes, strict=True):
                if queued.future.done():
                    continue
                if ok:
                    queued.future.set_result(value)
                else:
                    queued.future.set_exception(value)

    def _batch_in_thread(self, batch: list[_Queued]) -> list[tuple[bool, Any]]:
        """In the writer's thread: one transaction, a savepoint for each work. A failure of
        the transaction itself (BEGIN, a savepoint, COMMIT) fails every work in it and
        leaves no transaction open."""
        conn = self.conn._conn
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            return [(False, _failure(exc)) for _ in batch]
        try:
            outcomes = [self._in_savepoint(conn, n, queued) for n, queued in enumerate(batch)]
            conn.execute("COMMIT")
        except BaseException as exc:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            return [(False, _failure(exc)) for _ in batch]
        return outcomes

    def _in_savepoint(self, conn: sqlite3.Connection, n: int, queued: _Queued) -> tuple[bool, Any]:
        """One work's outcome; a work that fails is rolled back to its savepoint alone."""
        conn.execute(f"SAVEPOINT w{n}")
        try:
            result = queued.context.run(self._work_in_thread, conn, queued.work)
        except Exception as exc:
            conn.execute(f"ROLLBACK TO w{n}")
            conn.execute(f"RELEASE w{n}")
            return False, _failure(exc)
        conn.execute(f"RELEASE w{n}")
        return True, result

    def _work_in_thread(self, conn: sqlite3.Connection, work) -> Any:
        """`work(self)` driven to its end here: each statement it awaits runs at once, so
        it never suspends; one that does waits for something else, which cannot come."""
        self._tx.set(_InThread(conn))  # in the caller's copied context only
        coro = work(self)
        try:
            coro.send(None)
        except StopIteration as done:
            return done.value
        coro.close()
        raise RuntimeError(
            "a store transaction awaited something other than its own statements: "
            "pass waits_elsewhere=True"
        )

    async def _in_trips(self, work):
        """A transaction whose work also awaits something else: statement by statement,
        holding the writer alone meanwhile."""
        async with self._lock:
            try:
                await self.conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise _failure(exc) from exc
            token = self._tx.set(self.conn)
            try:
                result = await work(self)
                await self.conn.execute("COMMIT")
                return result
            except BaseException as exc:
                with contextlib.suppress(sqlite3.Error):
                    await self.conn.execute("ROLLBACK")
                failure = _failure(exc)
                if failure is exc:
                    raise
                raise failure from exc
            finally:
                self._tx.reset(token)

    async def _close(self) -> None:
        if self.reader is not None:
            await self.reader.close()
        await self.conn.close()

    # ----- the rest of the surface ----------------------------------------------------
    def json_number(self, column: str, key: str) -> str:
        return f"json_extract({column}, '$.{key}')"

    now_sql = "((julianday('now') - 2440587.5) * 86400.0)"

    async def schema_version(self) -> int:
        return (await (await self.execute("PRAGMA user_version")).fetchone())[0]

    async def _set_schema_version(self, db: Database, number: int) -> None:
        await db.execute(f"PRAGMA user_version = {number}")

    async def backup_to(self, destination: str | Path) -> None:
        """SQLite's online backup: a consistent copy while the bot keeps running."""
        target = await aiosqlite.connect(str(destination))
        try:
            async with self._lock:
                await self.conn.backup(target)
        finally:
            await target.close()


def _failure(exc: BaseException) -> BaseException:
    """What a transaction's caller hears of `exc`: a busy database is worth trying again
    (`Busy`), an SQLite error is the store's; the store's own exceptions pass as they are."""
    cause = exc.__cause__ if isinstance(exc, StoreError) else exc
    failure: BaseException = exc
    if isinstance(cause, sqlite3.OperationalError) and _sqlite_busy(cause):
        failure = Busy(str(cause))
    elif isinstance(exc, sqlite3.Error):
        failure = _sqlite_error(exc)
    if failure is not exc:
        failure.__cause__ = cause
    return failure


def _store_error(exc: BaseException) -> BaseException:
    if isinstance(exc, StoreError | Busy):
        return exc
    failure = StoreError(str(exc) or repr(exc))
    failure.__cause__ = exc
    return failure


async def _wal_mode(conn: aiosqlite.Connection, busy_timeout: float) -> None:
    """Switch to WAL, retried: while another process creates the database, SQLite can
    answer the switch with "locked" at once, without waiting on the busy handler."""
    deadline = time.monotonic() + busy_timeout
    while True:
        try:
            await conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if not _sqlite_busy(exc) or time.monotonic() >= deadline:
                raise
            await asyncio.sleep(0.02)


def _sqlite_busy(exc: sqlite3.Error) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def _sqlite_error(exc: sqlite3.Error) -> StoreError:
    if isinstance(exc, sqlite3.IntegrityError) and "sessions.platform" in str(exc):
        return ChatBusy("this chat already has a game")
    return StoreError(str(exc))
