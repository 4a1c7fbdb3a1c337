"""Persistence: the only package that speaks SQL."""

from bot.store.db import (
    NOTE_SEAT,
    ChatBusy,
    LogEntry,
    NewEntry,
    SeatRow,
    SessionRow,
    StaleVersion,
    Store,
    StoreError,
)
from bot.store.memory import RatingRow, UndoRequest

__all__ = [
    "NOTE_SEAT",
    "ChatBusy",
    "LogEntry",
    "NewEntry",
    "RatingRow",
    "SeatRow",
    "SessionRow",
    "StaleVersion",
    "Store",
    "StoreError",
    "UndoRequest",
]
