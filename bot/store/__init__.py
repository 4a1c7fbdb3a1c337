"""Persistence: the only package that speaks SQL."""

from bot.store.db import (
    NOTE_SEAT,
    ChatBusy,
    LogEntry,
    NewEntry,
    SchemaTooNew,
    SeatRow,
    SessionRow,
    StaleVersion,
    Store,
    StoreError,
)

__all__ = [
    "NOTE_SEAT",
    "ChatBusy",
    "LogEntry",
    "NewEntry",
    "SchemaTooNew",
    "SeatRow",
    "SessionRow",
    "StaleVersion",
    "Store",
    "StoreError",
]
