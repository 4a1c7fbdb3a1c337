"""Opening the store's database: an SQLite path or a `postgresql://` URL, checked (SQLite's
quick_check) and migrated to this code's schema; a damaged database is refused with the
steps to restore it. Used by `Store.open` and by `escape-bot migrate-db` (copy.py)."""

from __future__ import annotations

from pathlib import Path

from bot.store.dialects import Database, PostgresDatabase, is_url
from bot.store.errors import RESTORE_STEPS, DamagedStore, StoreError, is_damage
from bot.store.migrations import MIGRATIONS
from bot.store.sqlite_database import SQLiteDatabase


async def open_migrated(
    target: str | Path, busy_timeout: float = 5.0, pool_size: int = 10
) -> Database:
    """The database at `target`, migrated. Raises StoreError (with nothing left open) when
    it cannot be opened or is too new, DamagedStore when it is damaged."""
    try:
        db = await open_database(target, busy_timeout, pool_size)
    except StoreError as exc:
        if is_damage(exc):
            raise DamagedStore(_damaged(target, str(exc.__cause__ or exc))) from exc
        raise
    try:
        if db.kind == "sqlite":
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


def _damaged(path: str | Path, detail: str) -> str:
    return f"The database {path} is damaged ({detail}). Escape will not run on it: {RESTORE_STEPS}."


async def open_database(
    target: str | Path, busy_timeout: float = 5.0, pool_size: int = 10
) -> Database:
    """SQLite for a path, PostgreSQL for a `postgresql://` URL."""
    if is_url(target):
        return await PostgresDatabase.open(str(target), busy_timeout, pool_size)
    return await SQLiteDatabase.open(target, busy_timeout)
