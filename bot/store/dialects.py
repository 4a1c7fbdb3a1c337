"""One database behind the store: SQLite (a file, the embedded default) or PostgreSQL (a URL).

The store writes every query once, in portable SQL with `?` placeholders; this module is the
thin dialect layer under it: placeholders, column types in migrations, JSON fields, error
codes, schema versions and how a write transaction is taken. Both kinds offer the same
small, aiosqlite-like surface, so store code reads the same on either:

    async with db.execute(sql, params) as cur:   # or: cur = await db.execute(...)
        row = await cur.fetchone()                # rows are fetched at once
    await db.transaction(work)                    # work(tx) runs in one transaction

What guards a write (docs/deployment.md, "Running at scale"): on SQLite
(sqlite_database.py), a process's transactions run one after another in its writer
connection's thread, a whole transaction (or several, committed together) in one trip, so
a second `BEGIN` never lands inside the first; `BEGIN IMMEDIATE` with a busy timeout
serialises processes on the file. On PostgreSQL each transaction has its own pooled
connection; the compare-and-set `UPDATE ... WHERE version = ?` takes the row lock, and a
racing writer re-reads the row after the winner commits, finds another version and
changes nothing. A busy, locked or deadlocked database is retried, whole transaction, for
a bounded time.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import re
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from bot.store.errors import ChatBusy, DamagedStore, StaleVersion, StoreError, is_damage
from bot.telemetry import metrics


class SchemaTooNew(StoreError):
    """The database was written by a newer Escape than this one."""


LIVE_GAME_INDEX = "one_live_game_per_chat"  # the unique index behind ChatBusy
_RETRY_PAUSE = 0.01  # first pause before a busy transaction is tried again (doubles)


def is_url(target: str | Path) -> bool:
    """A PostgreSQL URL rather than an SQLite path."""
    return str(target).startswith(("postgresql://", "postgres://"))


def redact(target: str | Path) -> str:
    """A database name fit for a log line or an error: no password."""
    return re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", str(target))


def split_script(script: str) -> list[str]:
    """A migration script's statements. A `;` inside a string, a comment or a trigger body
    does not end a statement: SQLite's own parser (complete_statement) says where one ends."""
    statements, current = [], ""
    for piece in script.split(";"):
        current += piece + ";"
        if sqlite3.complete_statement(current):
            if current.strip(" \t\r\n;"):
                statements.append(current.strip().rstrip(";").strip())
            current = ""
    if current.strip(" \t\r\n;"):
        statements.append(current.strip().rstrip(";").strip())
    return statements


class Result:
    """Rows fetched at once, with the row count and (SQLite) the last row id."""

    def __init__(self, rows: Sequence[Sequence[Any]], rowcount: int, lastrowid: int | None):
        self.rows = [tuple(r) for r in rows]
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    async def fetchone(self) -> tuple | None:
        return self.rows[0] if self.rows else None

    async def fetchall(self) -> list[tuple]:
        return self.rows

    async def __aenter__(self) -> Result:
        return self

    async def __aexit__(self, *exc) -> None:
        return None


class _Pending:
    """`await db.execute(...)` and `async with db.execute(...) as cur` both work."""

    def __init__(self, coro: Awaitable[Result]):
        self._coro = coro

    def __await__(self):
        return self._coro.__await__()

    async def __aenter__(self) -> Result:
        return await self._coro

    async def __aexit__(self, *exc) -> None:
        return None


class Database:
    """What the store needs of a database; SQLiteDatabase and PostgresDatabase provide it."""

    kind = ""
    # the connection of the transaction this task is inside, if any (per database)
    _tx: contextvars.ContextVar

    def __init__(self, target: str, busy_timeout: float):
        self.target = target
        self.busy_timeout = busy_timeout
        self._tx = contextvars.ContextVar(f"tx-{id(self)}", default=None)
        self._open_tx = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._closing = False
        self._closed = False
        self._checking: asyncio.Future | None = None  # an integrity check running apart
        self._stop_check: Callable[[], None] | None = None

    # ----- an integrity check beside the start ------------------------------------
    def check_apart(self, check: Awaitable[None], stop: Callable[[], None]) -> None:
        """Run `check` (it raises DamagedStore on damage) while the bot starts and serves
        reads: every write transaction waits for it, and none runs once it has failed.
        `stop` cuts it short when the store closes first."""
        self._checking = asyncio.ensure_future(check)
        self._checking.add_done_callback(_seen)  # awaited by the runner; else told by writes
        self._stop_check = stop

    async def checked(self) -> None:
        """Once the check running apart has passed (at once when there is none); raises
        DamagedStore if it found damage."""
        if self._checking is not None:
            await asyncio.shield(self._checking)

    # ----- the surface the store uses ---------------------------------------------
    def execute(self, sql: str, params: Iterable[Any] = ()) -> _Pending:
        return _Pending(self._open_then(self._execute, sql, tuple(params)))

    def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> _Pending:
        return _Pending(self._open_then(self._executemany, sql, [tuple(r) for r in rows]))

    async def _open_then(self, run, sql: str, params) -> Result:
        try:
            if self._closed:  # a request still in hand after shutdown: a store error, not a crash
                raise StoreError("the store is closed")
            return await run(sql, params)
        except StoreError as exc:
            if self._tx.get() is None:  # (inside a transaction, the transaction counts it)
                self._count_error(exc)
            raise

    def _count_error(self, exc: StoreError) -> None:
        """A failure in `escape_store_errors_total`; a lost race (a stale version, a chat
        that has a game) is an answer, not a failure."""
        if isinstance(exc, StaleVersion | ChatBusy):
            return
        kind = "damaged" if isinstance(exc, DamagedStore) or is_damage(exc) else "error"
        metrics.STORE_ERRORS.labels(self.kind, kind).inc()

    async def transaction(
        self, work: Callable[[Database], Awaitable[Any]], *, waits_elsewhere: bool = False
    ) -> Any:
        """Run work(db) in one write transaction (all or nothing); a busy database is tried
        again, whole, until busy_timeout has passed. Inside, db.execute runs in the
        transaction (reads see its writes). `waits_elsewhere`: work also awaits something
        other than this database's statements (SQLite runs other works in one trip to its
        writer's thread, sqlite_database.py)."""
        if self._tx.get() is not None:  # nested: part of the transaction already open
            return await work(self)
        if self._closing:
            raise StoreError("the store is closing")
        if self._checking is not None:
            try:
                await self.checked()
            except StoreError as exc:
                self._count_error(exc)
                raise
        self._open_tx += 1
        self._idle.clear()
        started = time.monotonic()
        try:
            deadline = started + self.busy_timeout
            pause = _RETRY_PAUSE
            while True:
                try:
                    result = await self._transaction(work, waits_elsewhere)
                except Busy as busy:
                    if time.monotonic() + pause > deadline:
                        metrics.STORE_ERRORS.labels(self.kind, "busy").inc()
                        raise StoreError(f"the database stayed busy: {busy}") from busy.__cause__
                    metrics.STORE_BUSY_RETRIES.labels(self.kind).inc()
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, 0.2)
                except StoreError as exc:
                    self._count_error(exc)
                    raise
                else:
                    metrics.STORE_TRANSACTION_SECONDS.labels(self.kind).observe(
                        time.monotonic() - started
                    )
                    return result
        finally:
            self._open_tx -= 1
            if self._open_tx == 0:
                self._idle.set()

    async def close(self, grace: float = 5.0) -> None:
        """Refuse new transactions, let the open ones finish (for up to `grace` seconds),
        then close."""
        self._closing = True
        if self._checking is not None and not self._checking.done() and self._stop_check:
            self._stop_check()  # its thread ends at once: nothing waits for it
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), grace)
        if not self._closed:
            self._closed = True
            await self._close()

    def json_number(self, column: str, key: str) -> str:
        """SQL for a number inside a JSON text column (NULL when absent)."""
        raise NotImplementedError

    # SQL for the database's own clock, Unix seconds: every process that shares the
    # database reads the same time, whatever its machine's clock says (leases, rates)
    now_sql = ""

    async def schema_version(self) -> int:
        raise NotImplementedError

    async def migrate(self, migrations: Sequence[str | tuple]) -> None:
        """Each pending migration in its own transaction; the version is read inside it
        (after the kind's own guard, `_migration_guard`), so two processes starting at
        once do not both run one. A database newer than this code is refused. One already
        at this code's version is left as it is, without a transaction (a write would wait
        for an integrity check running apart)."""
        if await self.schema_version() == len(migrations):
            return
        for number, script in enumerate(migrations, start=1):

            async def step(db: Database, number: int = number, script: str = script) -> bool:
                await self._migration_guard(db)
                current = await db.schema_version()
                if current > len(migrations):
                    raise _too_new(self.target, current, len(migrations))
                if current >= number:
                    return False
                sql, data_step = script if isinstance(script, tuple) else (script, None)
                for statement in split_script(sql):
                    await db.execute(self._ddl(statement))
                if data_step is not None:
                    await data_step(db)
                await self._set_schema_version(db, number)
                return True

            await self.transaction(step)
        current = await self.schema_version()
        if current > len(migrations):
            raise _too_new(self.target, current, len(migrations))

    # ----- for the kinds ------------------------------------------------------------
    async def _migration_guard(self, db: Database) -> None:
        """Inside a migration's transaction, before its version is read."""

    def _ddl(self, statement: str) -> str:
        """A portable migration statement in this kind's SQL."""
        return statement

    async def _set_schema_version(self, db: Database, number: int) -> None:
        raise NotImplementedError

    async def _execute(self, sql: str, params: tuple) -> Result:
        raise NotImplementedError

    async def _executemany(self, sql: str, rows: list[tuple]) -> Result:
        raise NotImplementedError

    async def _transaction(
        self, work: Callable[[Database], Awaitable[Any]], waits_elsewhere: bool = False
    ) -> Any:
        raise NotImplementedError

    async def _close(self) -> None:
        raise NotImplementedError


def _seen(check: asyncio.Future) -> None:
    if not check.cancelled():
        check.exception()  # looked at: a failed check is told by every write, not as unretrieved


class Busy(Exception):
    """A transaction that may succeed if tried again (locked, busy, deadlock, serialisation)."""


def _too_new(target: str, found: int, known: int) -> SchemaTooNew:
    return SchemaTooNew(
        f"the database at {redact(target)} has schema version {found}, newer than this "
        f"Escape knows ({known}): run the newer Escape, or restore a backup"
    )


# ----- PostgreSQL -----------------------------------------------------------------------
_PG_TYPES = [
    # SQLite's rowid alias becomes an identity column (an explicit id still goes in)
    (
        re.compile(r"\bINTEGER\s+PRIMARY\s+KEY(\s+AUTOINCREMENT)?\b", re.I),
        "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
    ),
    (re.compile(r"\bINTEGER\b", re.I), "BIGINT"),  # SQLite integers are 64-bit
    (re.compile(r"\bREAL\b", re.I), "DOUBLE PRECISION"),  # PostgreSQL's REAL is 32-bit
    (re.compile(r"\bBLOB\b", re.I), "BYTEA"),
]
_MIGRATION_LOCK = 0x45534350  # pg_advisory_xact_lock key: one process migrates at a time


def pg_ddl(statement: str) -> str:
    """A portable migration statement in PostgreSQL's types."""
    for pattern, replacement in _PG_TYPES:
        statement = pattern.sub(replacement, statement)
    return statement


def pg_placeholders(sql: str) -> str:
    """`?` to `$1, $2, ...`, leaving question marks inside quotes alone."""
    out, n, quote = [], 0, None
    for ch in sql:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "?":
            n += 1
            out.append(f"${n}")
            continue
        out.append(ch)
    return "".join(out)


def _returns_rows(sql: str) -> bool:
    head = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
    return head in ("SELECT", "WITH", "VALUES", "SHOW") or " RETURNING " in f" {sql.upper()} "


class PostgresDatabase(Database):
    """A pool of asyncpg connections; each transaction holds one for its length."""

    kind = "postgresql"

    def __init__(self, pool, target: str, busy_timeout: float):
        super().__init__(target, busy_timeout)
        self.pool = pool
        self._sql_cache: dict[str, str] = {}

    @classmethod
    async def open(cls, url: str, busy_timeout: float, pool_size: int = 10) -> PostgresDatabase:
        import asyncpg

        try:
            pool = await asyncpg.create_pool(
                # connecting may take a while on a loaded host: not the busy timeout
                url,
                min_size=1,
                max_size=pool_size,
                timeout=max(busy_timeout, 10.0),
                command_timeout=max(busy_timeout * 6, 30),
            )
        except (OSError, TimeoutError, asyncpg.PostgresError, ValueError) as exc:
            raise StoreError(f"cannot open the database at {redact(url)}: {exc}") from exc
        except asyncpg.InterfaceError as exc:
            raise StoreError(f"cannot open the database at {redact(url)}: {exc}") from exc
        return cls(pool, url, busy_timeout)

    def _pg(self, sql: str) -> str:
        found = self._sql_cache.get(sql)
        if found is None:
            found = self._sql_cache[sql] = pg_placeholders(sql)
        return found

    async def _run(self, conn, sql: str, params: tuple) -> Result:
        pg = self._pg(sql)
        if _returns_rows(sql):
            rows = await conn.fetch(pg, *params)
            return Result(rows, len(rows), None)
        status = await conn.execute(pg, *params)
        last = status.rsplit(" ", 1)[-1]
        return Result([], int(last) if last.isdigit() else -1, None)

    async def _execute(self, sql: str, params: tuple) -> Result:
        conn = self._tx.get()
        try:
            if conn is not None:
                return await self._run(conn, sql, params)
            async with self.pool.acquire() as conn:
                return await self._run(conn, sql, params)
        except Exception as exc:
            raise _pg_error(exc) from exc

    async def _executemany(self, sql: str, rows: list[tuple]) -> Result:
        conn = self._tx.get()
        try:
            if conn is not None:
                await conn.executemany(self._pg(sql), rows)
            else:
                async with self.pool.acquire() as conn:
                    await conn.executemany(self._pg(sql), rows)
            return Result([], len(rows), None)
        except Exception as exc:
            raise _pg_error(exc) from exc

    async def _transaction(self, work, waits_elsewhere: bool = False):
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                token = self._tx.set(conn)
                try:
                    return await work(self)
                finally:
                    self._tx.reset(token)
        except StoreError as exc:
            cause = exc.__cause__
            if cause is not None and _pg_retry(cause):
                raise Busy(str(cause)) from cause
            raise
        except Exception as exc:
            if _pg_retry(exc):
                raise Busy(str(exc)) from exc
            mapped = _pg_error(exc)
            if mapped is exc:
                raise
            raise mapped from exc

    async def _close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.pool.close(), 5)
        self.pool.terminate()

    def json_number(self, column: str, key: str) -> str:
        return f"CAST(CAST({column} AS json) ->> '{key}' AS DOUBLE PRECISION)"

    now_sql = "CAST(EXTRACT(EPOCH FROM clock_timestamp()) AS DOUBLE PRECISION)"

    async def schema_version(self) -> int:
        found = await (
            await self.execute(
                "SELECT COUNT(*) FROM information_schema.tables "
                "WHERE table_schema = current_schema() AND table_name = 'escape_schema'"
            )
        ).fetchone()
        if not found[0]:
            return 0
        row = await (await self.execute("SELECT MAX(version) FROM escape_schema")).fetchone()
        return row[0] or 0

    async def _migration_guard(self, db: Database) -> None:
        """An advisory lock: processes starting at once take turns, and only the first
        runs a migration."""
        await db.execute(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})")
        await db.execute("CREATE TABLE IF NOT EXISTS escape_schema (version BIGINT)")

    def _ddl(self, statement: str) -> str:
        return pg_ddl(statement)

    async def _set_schema_version(self, db: Database, number: int) -> None:
        await db.execute("DELETE FROM escape_schema")
        await db.execute("INSERT INTO escape_schema (version) VALUES (?)", (number,))


def _pg_retry(exc: BaseException) -> bool:
    """Worth trying the whole transaction again (within the busy timeout): a serialisation
    failure, a deadlock, a connection the server dropped or that took too long to open (the
    pool opens a new one)."""
    import asyncpg

    return isinstance(
        exc,
        asyncpg.SerializationError
        | asyncpg.DeadlockDetectedError
        | asyncpg.ConnectionDoesNotExistError
        | asyncpg.CannotConnectNowError
        | ConnectionError
        | TimeoutError,
    )


def _pg_error(exc: BaseException) -> BaseException:
    """The store's exception for a driver's; our own exceptions pass through unchanged."""
    import asyncpg

    if isinstance(exc, StoreError):
        return exc
    if isinstance(exc, asyncpg.UniqueViolationError) and exc.constraint_name == LIVE_GAME_INDEX:
        return ChatBusy("this chat already has a game")
    if isinstance(exc, TimeoutError):  # before OSError, of which it is a kind
        return StoreError("the database did not answer in time")
    if isinstance(exc, asyncpg.PostgresError | asyncpg.InterfaceError | OSError):
        return StoreError(str(exc) or type(exc).__name__)
    return exc
