"""Persistence: the only package that speaks SQL."""

from bot.store.daily_queries import DailyResult, DailyTotal
from bot.store.delivery_queries import BoardRecord, DeliveryNote
from bot.store.dialects import SchemaTooNew
from bot.store.errors import ChatBusy, DamagedStore, StaleVersion, StoreError
from bot.store.memory_queries import RatingRow, UndoRequest
from bot.store.season_queries import SeasonRow
from bot.store.session_rows import NOTE_SEAT, LogEntry, NewEntry, OpenedWith, SeatRow, SessionRow
from bot.store.store import Store
from bot.store.tournament_queries import EntrantRow, PairingRow, TournamentRow
from bot.store.update_queries import QueuedUpdate

__all__ = [
    "NOTE_SEAT",
    "BoardRecord",
    "ChatBusy",
    "DailyResult",
    "DailyTotal",
    "DamagedStore",
    "DeliveryNote",
    "EntrantRow",
    "LogEntry",
    "NewEntry",
    "OpenedWith",
    "PairingRow",
    "QueuedUpdate",
    "RatingRow",
    "SchemaTooNew",
    "SeasonRow",
    "SeatRow",
    "SessionRow",
    "StaleVersion",
    "Store",
    "StoreError",
    "TournamentRow",
    "UndoRequest",
]
