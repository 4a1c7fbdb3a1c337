"""The Store: every query mixin in one object (sessions, memory, channels, preferences,
tournaments, seasons, the daily game, delivery's records, the update queue, the rate
windows, bars and blocks), opened on one database, pinged, counted, backed up and closed.
The only code that speaks SQL is under bot/store/; the dialects are in dialects.py (SQLite
in sqlite_database.py), opening and migrating in opening.py."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from bot.store.channel_queries import ChannelQueries
from bot.store.copy import copy_database
from bot.store.daily_queries import DailyQueries
from bot.store.delivery_queries import DeliveryQueries
from bot.store.dialects import SchemaTooNew
from bot.store.errors import (
    ChatBusy,
    DamagedStore,
    StaleVersion,
    StoreError,
    driver_errors_translated,
)
from bot.store.listening import Listening
from bot.store.memory_queries import MemoryQueries
from bot.store.moderation_queries import ModerationQueries
from bot.store.opening import open_migrated
from bot.store.personal_queries import PersonalQueries
from bot.store.preference_queries import PreferenceQueries
from bot.store.rate_queries import RateQueries
from bot.store.season_queries import SeasonQueries
from bot.store.session_queries import SessionQueries
from bot.store.sqlite_database import SQLiteDatabase
from bot.store.tournament_queries import TournamentQueries
from bot.store.update_queries import UpdateQueries

__all__ = ["ChatBusy", "DamagedStore", "SchemaTooNew", "StaleVersion", "Store", "StoreError"]


@driver_errors_translated
class Store(
    SessionQueries,
    MemoryQueries,
    ChannelQueries,
    PreferenceQueries,
    TournamentQueries,
    SeasonQueries,
    DailyQueries,
    DeliveryQueries,
    UpdateQueries,
    RateQueries,
    ModerationQueries,
    PersonalQueries,
):
    """Every query of the store in one object, opened on one database (each mixin stands on
    `QueryBase`: the database, the clock, a write transaction, a session's version bump)."""

    # ----- opening ----------------------------------------------------------------
    @classmethod
    async def open(
        cls,
        target: str | Path,
        clock: Callable[[], float] = time.time,
        busy_timeout: float = 5.0,
        pool_size: int = 10,
        check_apart: bool = False,
    ) -> Store:
        """An SQLite path or a `postgresql://` URL; migrated to this code's schema. Raises
        StoreError (with nothing left open) when it cannot be opened or is too new.
        `check_apart`: SQLite's integrity check runs beside the start (writes wait for it;
        `checked` tells how it went), not before the store is handed over."""
        return cls(await open_migrated(target, busy_timeout, pool_size, check_apart), clock)

    async def checked(self) -> None:
        """Once the integrity check running apart has passed; DamagedStore if it failed."""
        await self._conn.checked()

    @property
    def kind(self) -> str:
        """'sqlite' or 'postgresql'."""
        return self._conn.kind

    async def close(self, grace: float = 5.0) -> None:
        """Let open transactions finish (up to `grace` seconds), then close."""
        await self.signals.close()
        await self._conn.close(grace)

    async def schema_version(self) -> int:
        return await self._conn.schema_version()

    def listen(self, channel: str, heard: Callable[[str], None]) -> Listening | None:
        """`heard(payload)` at each NOTIFY on `channel` by any process (PostgreSQL; None on
        SQLite, where no other process writes)."""
        if self.kind != "postgresql":
            return None
        return Listening(self._conn.target, channel, heard)

    # ----- for the operator ---------------------------------------------------------
    async def ping(self) -> None:
        """One trivial query: raises StoreError when the database does not answer (readiness)."""
        await self._conn.execute("SELECT 1")

    async def game_counts(self) -> dict[tuple[str, str], int]:
        """(platform, status) -> games: one grouped count, which both databases answer from
        the (platform, scope, status) index without reading a game's state."""
        async with self._conn.execute(
            "SELECT platform, status, COUNT(*) FROM sessions GROUP BY platform, status"
        ) as cur:
            return {(platform, status): n for platform, status, n in await cur.fetchall()}

    async def backup(self, destination: str | Path) -> None:
        """A consistent copy into an SQLite file while the bot keeps running (SQLite's
        online backup; from PostgreSQL, one snapshot transaction copied table by table)."""
        if isinstance(self._conn, SQLiteDatabase):
            await self._conn.backup_to(destination)
            return
        await copy_database(self._conn, destination)
