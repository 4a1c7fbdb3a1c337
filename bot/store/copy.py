"""Copy every table from one database into another of the same schema: a backup of a
PostgreSQL database into an SQLite file, and `escape-bot migrate-db` (SQLite into
PostgreSQL, or any other pair). Tables and columns are read from the databases themselves,
so tables that later migrations add are copied too.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from bot.store.dialects import Database, StoreError, is_url, redact
from bot.store.migrations import MIGRATIONS
from bot.store.opening import open_migrated
from bot.store.sqlite_database import SQLiteDatabase

_BATCH = 500


async def tables(db: Database) -> list[str]:
    """The data tables, in the order they were created (a table before those that refer
    to it), without the schema's own bookkeeping."""
    if db.kind == "sqlite":
        sql = (
            "SELECT name FROM sqlite_master WHERE type = 'table' "
            "AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
        )
    else:
        sql = (
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() AND c.relkind = 'r' "
            "AND c.relname <> 'escape_schema' ORDER BY c.oid"
        )
    return [name for (name,) in await (await db.execute(sql)).fetchall()]


async def columns(db: Database, table: str) -> list[str]:
    if db.kind == "sqlite":
        return [
            row[1] for row in await (await db.execute(f"PRAGMA table_info({table})")).fetchall()
        ]
    rows = await (
        await db.execute(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
            (table,),
        )
    ).fetchall()
    return [name for (name,) in rows]


async def copy_tables(src: Database, dst: Database) -> dict[str, int]:
    """Copy all rows of src into the empty, same-schema dst, reading one consistent snapshot
    of src and writing dst in one transaction; returns the rows copied per table."""
    if await src.schema_version() != await dst.schema_version():
        raise StoreError("the two databases are at different schema versions")
    names = await tables(src)
    for table in await tables(dst):
        (count,) = await (await dst.execute(f"SELECT COUNT(*) FROM {table}")).fetchone()
        if count:
            raise StoreError(f"the destination already holds data (table {table}): not copied")
    if dst.kind == "sqlite":  # rows arrive table by table: check references at the end
        await dst.execute("PRAGMA foreign_keys = OFF")
    copied: dict[str, int] = {}

    async def read(source: Database) -> None:
        if source.kind == "postgresql":  # one snapshot for every table
            await source.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        await dst.transaction(lambda target: write(source, target), waits_elsewhere=True)

    async def write(source: Database, target: Database) -> None:
        for table in names:
            cols = [c for c in await columns(source, table) if c in await columns(target, table)]
            listed = ", ".join(cols)
            rows = await (await source.execute(f"SELECT {listed} FROM {table}")).fetchall()
            marks = ", ".join("?" for _ in cols)
            for start in range(0, len(rows), _BATCH):
                await target.executemany(
                    f"INSERT INTO {table} ({listed}) VALUES ({marks})", rows[start : start + _BATCH]
                )
            copied[table] = len(rows)
        if target.kind == "postgresql":  # identity columns go on after the copied ids
            for table, column in await (
                await target.execute(
                    "SELECT table_name, column_name FROM information_schema.columns "
                    "WHERE table_schema = current_schema() AND is_identity = 'YES'"
                )
            ).fetchall():
                await target.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                    f"COALESCE((SELECT MAX({column}) FROM {table}), 0) + 1, false)"
                )

    try:
        await src.transaction(read, waits_elsewhere=True)
    finally:
        if dst.kind == "sqlite":
            await dst.execute("PRAGMA foreign_keys = ON")
    if dst.kind == "sqlite":
        bad = await (await dst.execute("PRAGMA foreign_key_check")).fetchall()
        if bad:
            raise StoreError(f"the copy has rows that refer to nothing: {bad[:3]}")
    return copied


async def copy_database(src: Database, destination: str | Path) -> dict[str, int]:
    """A backup of src into a new SQLite file, written beside it and renamed into place."""
    path = Path(destination)
    path.parent.mkdir(parents=True, exist_ok=True)  # `backup backups/today.sqlite3`
    partial = path.with_name(path.name + ".partial")
    with contextlib.suppress(FileNotFoundError):
        partial.unlink()
    dst = await SQLiteDatabase.open(partial, src.busy_timeout)
    try:
        await dst.migrate(MIGRATIONS)
        copied = await copy_tables(src, dst)
    finally:
        await dst.close(grace=0)
    for suffix in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{partial}{suffix}")
    os.replace(partial, path)
    return copied


async def migrate_db(source: str | Path, destination: str | Path) -> dict[str, int]:
    """`escape-bot migrate-db`: the source is migrated to this code's schema, the
    destination created (or migrated) and filled; refused if it already holds data."""
    if not is_url(source) and not Path(source).is_file():
        raise StoreError(f"there is no database at {redact(source)}")
    src = await open_migrated(source)
    try:
        dst = await open_migrated(destination)
        try:
            return await copy_tables(src, dst)
        finally:
            await dst.close()
    finally:
        await src.close()
