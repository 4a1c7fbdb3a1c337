"""What can go wrong in the store, as the rest of the bot sees it, whatever the driver said.

A busy, locked or full database is `StoreError` (trying again may help); a damaged one
(a corrupt page, a file that is not a database, bytes that are not text) is `DamagedStore`
(only a restore from a backup helps), so the user and the operator are told what it is.
"""

from __future__ import annotations

import functools
import inspect
import json
import sqlite3
from typing import TypeVar

RESTORE_STEPS = (
    "stop the bot, put your latest backup (made with `escape-bot backup FILE`) in place of "
    "the database file and remove any -wal and -shm files beside it (docs/deployment.md: Data and backups)"
)

# SQLite's words for a damaged file, for drivers that do not give the error's name
_DAMAGE_WORDS = ("malformed", "not a database", "could not decode to utf-8")


class StoreError(Exception):
    """The database could not do what was asked (locked, full, unreadable)."""


class StaleVersion(StoreError):
    """The session changed since it was read: someone else acted first."""


class ChatBusy(StoreError):
    """A chat (or thread) already has a live game."""


class DamagedStore(StoreError):
    """The database file is damaged: trying again will not help, a restore will."""


def is_damage(exc: BaseException | None) -> bool:
    """Whether a driver error (or a StoreError made from one) means a damaged file."""
    if isinstance(exc, DamagedStore):
        return True
    if isinstance(exc, StoreError):
        return is_damage(exc.__cause__)
    if isinstance(exc, json.JSONDecodeError | UnicodeDecodeError):
        return True  # a stored JSON column that no longer parses: its page was overwritten
    if isinstance(exc, sqlite3.Error):
        name = getattr(exc, "sqlite_errorname", "") or ""
        if name.startswith("SQLITE_CORRUPT") or name == "SQLITE_NOTADB":
            return True
        return any(word in str(exc).lower() for word in _DAMAGE_WORDS)
    return False


def translated(exc: BaseException) -> StoreError:
    """The StoreError to raise for a driver error met while serving a request."""
    if isinstance(exc, DamagedStore) or (isinstance(exc, StoreError) and not is_damage(exc)):
        return exc
    return DamagedStore(str(exc)) if is_damage(exc) else StoreError(str(exc))


_DRIVER_ERRORS = (sqlite3.Error, json.JSONDecodeError, UnicodeDecodeError, StoreError)

T = TypeVar("T")


def driver_errors_translated(cls: type[T]) -> type[T]:
    """Every public coroutine of a store raises only StoreError and its kinds, never the
    driver's own exceptions: one place, so a read added later cannot leak a raw
    `sqlite3.DatabaseError` to a user."""
    for name, method in list(vars(cls).items()):
        if name.startswith("_") or not inspect.iscoroutinefunction(method):
            continue

        def wrap(method):
            @functools.wraps(method)
            async def guarded(*args, **kwargs):
                try:
                    return await method(*args, **kwargs)
                except _DRIVER_ERRORS as exc:
                    error = translated(exc)
                    if error is exc:
                        raise
                    raise error from exc

            return guarded

        setattr(cls, name, wrap(method))
    return cls
