"""Persistence: the only package that speaks SQL."""

from bot.store.db import (
    NOTE_SEAT,
    LogEntry,
    NewEntry,
    SchemaTooNew,
    SeatRow,
    SessionRow,
    Store,
)
from bot.store.errors import ChatBusy, DamagedStore, StaleVersion, StoreError
from bot.store.memory_queries import RatingRow, UndoRequest

__all__ = [
    "NOTE_SEAT",
    "ChatBusy",
    "DamagedStore",
    "LogEntry",
    "NewEntry",
    "RatingRow",
    "SchemaTooNew",
    "SeatRow",
    "SessionRow",
    "StaleVersion",
    "Store",
    "StoreError",
    "UndoRequest",
]
