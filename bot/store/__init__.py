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
from bot.store.tournament_queries import EntrantRow, PairingRow, TournamentRow

__all__ = [
    "NOTE_SEAT",
    "ChatBusy",
    "DamagedStore",
    "EntrantRow",
    "LogEntry",
    "NewEntry",
    "PairingRow",
    "RatingRow",
    "SchemaTooNew",
    "SeatRow",
    "SessionRow",
    "StaleVersion",
    "Store",
    "StoreError",
    "TournamentRow",
    "UndoRequest",
]
