"""Opening the store's database: an SQLite path or a `postgresql://` URL, checked (SQLite's
quick_check) and migrated to this code's schema; a damaged database is refused with the
steps to restore it. Used by `Store.open` and by `escape-bot migrate-db` (copy.py).

The running bot checks apart (`check_apart`): the quick_check reads the whole file, 50 ms
for 33 MB here when the file is in the page cache and about 0.7-1.9 s when it is not, and
it grows with the file. So the bot starts and answers reads meanwhile, while every write
waits for the check; a damaged file is still never written to, and stops the bot."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

from bot.store.dialects import Database, PostgresDatabase, is_url
from bot.store.errors import RESTORE_STEPS, DamagedStore, StoreError, is_damage
from bot.store.migrations import MIGRATIONS
from bot.store.sqlite_database import SQLiteDatabase


async def open_migrated(
    target: str | Path, busy_timeout: float = 5.0, pool_size: int = 10, check_apart: bool = False
) -> Database:
    """The database at `target`, migrated. Raises StoreError (with nothing left open) when
    it cannot be opened or is too new, DamagedStore when it is damaged. `check_apart`: an
    SQLite file's quick_check runs beside what follows (`Database.checked` says how it
    went), instead of before the database is handed over."""
    try:
        db = await open_database(target, busy_timeout, pool_size)
    except StoreError as exc:
        if is_damage(exc):
            raise DamagedStore(_damaged(target, str(exc.__cause__ or exc))) from exc
        raise
    try:
        if db.kind == "sqlite" and check_apart and str(target) != ":memory:":
            check = _ApartCheck(target)
            db.check_apart(check.run(), check.stop)
        elif db.kind == "sqlite":
            await _quick_check(db, target)
        await db.migrate(MIGRATIONS)
    except BaseException as exc:
        await db.close(grace=0)  # else aiosqlite's thread keeps the process alive
        if isinstance(exc, StoreError) and not isinstance(exc, DamagedStore) and is_damage(exc):
            raise DamagedStore(_damaged(target, str(exc.__cause__ or exc))) from exc
        raise
    return db


async def _quick_check(conn: Database, path: str | Path) -> None:
    """SQLite's quick_check at start (every page read once, seconds for a large file): a
    damaged file stops the bot before it appends moves to it."""
    async with conn.execute("PRAGMA quick_check(5)") as cur:
        problems = [row[0] for row in await cur.fetchall() if row[0] != "ok"]
    if problems:
        raise DamagedStore(_damaged(path, "; ".join(problems)))


class _ApartCheck:
    """The quick_check on a connection of its own, in a thread of its own."""

    def __init__(self, path: str | Path) -> None:
        self.path = path
        self._conn: sqlite3.Connection | None = None  # while the check runs
        self._stopped = threading.Event()
        self._lock = threading.Lock()

    async def run(self) -> None:
        problems = await asyncio.to_thread(self._problems)
        if problems:
            raise DamagedStore(_damaged(self.path, "; ".join(problems)))

    def _problems(self) -> list[str]:
        try:
            conn = sqlite3.connect(self.path, check_same_thread=False)
        except sqlite3.Error as exc:
            return [str(exc)]
        with self._lock:
            self._conn = conn
        try:
            if self._stopped.is_set():
                return []
            conn.execute("PRAGMA query_only=ON")
            rows = conn.execute("PRAGMA quick_check(5)").fetchall()
            return [row[0] for row in rows if row[0] != "ok"]
        except sqlite3.OperationalError as exc:
            if self._stopped.is_set():  # interrupted: the store closed first
                return []
            return [str(exc)]
        except sqlite3.DatabaseError as exc:  # malformed: damage itself
            return [str(exc)]
        finally:
            with self._lock:
                self._conn = None
            conn.close()

    def stop(self) -> None:
        self._stopped.set()
        with self._lock:
            if self._conn is not None:
                self._conn.interrupt()


def _damaged(path: str | Path, detail: str) -> str:
    return f"The database {path} is damaged ({detail}). Escape will not run on it: {RESTORE_STEPS}."


async def open_database(
    target: str | Path, busy_timeout: float = 5.0, pool_size: int = 10
) -> Database:
    """SQLite for a path, PostgreSQL for a `postgresql://` URL."""
    if is_url(target):
        return await PostgresDatabase.open(str(target), busy_timeout, pool_size)
    return await SQLiteDatabase.open(target, busy_timeout)
