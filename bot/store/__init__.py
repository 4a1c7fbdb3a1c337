"""Persistence: the only package that speaks SQL."""

from bot.store.db import (
    ChatBusy,
    LogEntry,
    NewEntry,
    SeatRow,
    SessionRow,
    StaleVersion,
    Store,
    StoreError,
)

__all__ = [
    "ChatBusy",
    "LogEntry",
    "NewEntry",
    "SeatRow",
    "SessionRow",
    "StaleVersion",
    "Store",
    "StoreError",
]
