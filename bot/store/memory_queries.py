"""The table's memory in SQL: finished games of a chat, ratings, undo requests.

A mixin of `Store` (it uses the store's connection and its version-checked writes), kept
apart so the queries behind history, ratings and undo have one home. Plain SQL that
SQLite and PostgreSQL both read through the database layer (bot/store/dialects.py): `?`
parameters, no JSON functions, upserts with `ON CONFLICT ... DO UPDATE`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from bot.store.errors import driver_errors_translated
from bot.store.query_base import QueryBase
from bot.store.session_rows import NOTE_SEAT, SESSION_COLUMNS, LogEntry, SessionRow

ENDED = ("finished", "aborted")


@dataclass(frozen=True)
class RatingRow:
    """One player's standing in one game on one server or group."""

    platform: str
    scope: str
    game: str
    user_id: str
    name: str
    mu: float
    sigma: float
    played: int = 0
    won: int = 0
    lost: int = 0


@dataclass(frozen=True)
class UndoRequest:
    session_id: int
    version: int  # the session's version when asked: any move since voids the request
    n: int  # the log row asked to be taken back
    seat: int
    user_id: str
    accepted: list[str]
    asked_at: float


_RATING_COLUMNS = "platform, scope, game, user_id, name, mu, sigma, played, won, lost"


@driver_errors_translated  # as the Store's own methods: only StoreError and its kinds
class MemoryQueries(QueryBase):
    """Queries for a chat's history, ratings and undo (mixed into `Store`)."""

    # ----- a table's log, as its page shows it -----------------------------------------
    async def log_tail(self, session_id: int, last: int) -> list:
        """The last `last` rows of a table's log, oldest first (a page shows the recent
        log: reading it costs the same at any length of game)."""
        rows = await self.rows(
            "SELECT n, seat, action, user_id, events, at, undone FROM actions "
            "WHERE session_id = ? ORDER BY n DESC LIMIT ?",
            (session_id, last),
        )
        return [
            LogEntry(n, seat, a, u, json.loads(ev), at, bool(undone))
            for n, seat, a, u, ev, at, undone in reversed(rows)
        ]

    async def moves_made(self, session_id: int) -> int:
        """The players' moves in a table's log, those taken back left out (a replay's
        boards, counted without reading the log)."""
        rows = await self.rows(
            "SELECT COUNT(*) FROM actions WHERE session_id = ? AND seat >= 0 AND undone = 0",
            (session_id,),
        )
        return int(rows[0][0])

    # ----- history ----------------------------------------------------------------
    async def ended_in_chat(
        self, platform: str, chat: str, limit: int = 10, offset: int = 0
    ) -> list[SessionRow]:
        """Finished and aborted games of a channel or group (threads and topics too), newest
        first."""
        return await self.select_sessions(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE platform = ? AND chat = ? "
            "AND status IN ('finished', 'aborted') ORDER BY updated_at DESC, id DESC "
            "LIMIT ? OFFSET ?",
            (platform, chat, limit, offset),
        )

    async def count_ended_in_chat(self, platform: str, chat: str) -> int:
        rows = await self.rows(
            "SELECT COUNT(*) FROM sessions WHERE platform = ? AND chat = ? "
            "AND status IN ('finished', 'aborted')",
            (platform, chat),
        )
        return int(rows[0][0])

    async def latest_in_place(self, platform: str, chat: str, thread: str) -> SessionRow | None:
        """The game played here last (running or ended; not a lobby)."""
        rows = await self.select_sessions(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE platform = ? AND chat = ? "
            "AND thread = ? AND status <> 'lobby' ORDER BY id DESC LIMIT 1",
            (platform, chat, thread),
        )
        return rows[0] if rows else None

    # ----- ratings ----------------------------------------------------------------
    async def ratings_of(
        self, platform: str, scope: str, game: str, user_ids: list[str]
    ) -> dict[str, RatingRow]:
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        rows = await self.rows(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE platform = ? AND scope = ? "
            f"AND game = ? AND user_id IN ({marks})",
            (platform, scope, game, *user_ids),
        )
        return {r[3]: RatingRow(*r) for r in rows}

    async def save_ratings(
        self,
        session_id: int,
        rows: list[RatingRow],
        changes: dict,
        now: float,
        season: tuple[int, list[RatingRow]] | None = None,
    ) -> bool:
        """Store the new standings (all time, and `season`'s: its number and rows) and mark
        the game rated, in one transaction; False (and nothing written) if this game was
        rated already; StaleVersion (nothing written) if that season no longer runs."""

        async def work(conn) -> bool:
            async with conn.execute(
                "SELECT 1 FROM rated_sessions WHERE session_id = ?", (session_id,)
            ) as cur:
                if await cur.fetchone() is not None:
                    return False
            await conn.execute(
                "INSERT INTO rated_sessions (session_id, changes, rated_at) VALUES (?, ?, ?)",
                (session_id, json.dumps(changes), now),
            )
            await conn.executemany(
                f"INSERT INTO ratings ({_RATING_COLUMNS}, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (platform, scope, game, user_id) DO UPDATE SET "
                "name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, "
                "played = excluded.played, won = excluded.won, lost = excluded.lost, "
                "updated_at = excluded.updated_at",
                [
                    (
                        r.platform,
                        r.scope,
                        r.game,
                        r.user_id,
                        r.name,
                        r.mu,
                        r.sigma,
                        r.played,
                        r.won,
                        r.lost,
                        now,
                    )
                    for r in rows
                ],
            )
            if season is not None:
                await self._rate_in_season(conn, season[0], season[1], now)
            return True

        return await self.write(work)

    async def rating_changes(self, session_id: int) -> dict | None:
        rows = await self.rows(
            "SELECT changes FROM rated_sessions WHERE session_id = ?", (session_id,)
        )
        return json.loads(rows[0][0]) if rows else None

    async def leaderboard(
        self, platform: str, scope: str, game: str, limit: int = 10
    ) -> list[RatingRow]:
        """Best first: by mu - 3 sigma (a skill we are fairly sure of), then games won."""
        rows = await self.rows(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE platform = ? AND scope = ? "
            "AND game = ? ORDER BY mu - 3 * sigma DESC, won DESC, played DESC, name LIMIT ?",
            (platform, scope, game, limit),
        )
        return [RatingRow(*r) for r in rows]

    async def standings_of(self, platform: str, scope: str, user_id: str) -> list[RatingRow]:
        rows = await self.rows(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE platform = ? AND scope = ? "
            "AND user_id = ? ORDER BY game",
            (platform, scope, user_id),
        )
        return [RatingRow(*r) for r in rows]

    async def rated_games_in_scope(self, platform: str, scope: str) -> list[str]:
        rows = await self.rows(
            "SELECT game FROM ratings WHERE platform = ? AND scope = ? GROUP BY game "
            "ORDER BY SUM(played) DESC, game",
            (platform, scope),
        )
        return [r[0] for r in rows]

    # ----- undo -------------------------------------------------------------------
    async def undo_request(self, session_id: int) -> UndoRequest | None:
        rows = await self.rows(
            "SELECT session_id, version, n, seat, user_id, accepted, asked_at "
            "FROM undo_requests WHERE session_id = ?",
            (session_id,),
        )
        if not rows:
            return None
        sid, version, n, seat, user_id, accepted, asked_at = rows[0]
        return UndoRequest(sid, version, n, seat, user_id, json.loads(accepted), asked_at)

    async def put_undo_request(self, request: UndoRequest) -> None:
        """Ask (or replace an older request of this game)."""

        async def work(conn) -> None:
            await conn.execute(
                "DELETE FROM undo_requests WHERE session_id = ?", (request.session_id,)
            )
            await conn.execute(
                "INSERT INTO undo_requests (session_id, version, n, seat, user_id, accepted, "
                "asked_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    request.session_id,
                    request.version,
                    request.n,
                    request.seat,
                    request.user_id,
                    json.dumps(request.accepted),
                    request.asked_at,
                ),
            )

        await self.write(work)

    async def accept_undo(self, session_id: int, version: int, accepted: list[str]) -> bool:
        """Record who accepted, if the request is still the one read (False otherwise)."""

        async def work(conn) -> bool:
            cur = await conn.execute(
                "UPDATE undo_requests SET accepted = ? WHERE session_id = ? AND version = ?",
                (json.dumps(accepted), session_id, version),
            )
            return cur.rowcount == 1

        return await self.write(work)

    async def drop_undo_request(self, session_id: int) -> None:
        async def work(conn) -> None:
            await conn.execute("DELETE FROM undo_requests WHERE session_id = ?", (session_id,))

        await self.write(work)

    async def undo_move(
        self,
        session_id: int,
        version: int,
        n: int,
        state: dict,
        clock: dict,
        deadline: float | None,
        wake_at: float | None,
        note: str,
        now: float,
    ) -> None:
        """Take back log row `n` by agreement, in one transaction: the row is marked undone
        (never deleted), the snapshot goes back, the version moves on (old buttons go
        stale), a public note joins the log and the request is spent."""

        async def work(conn) -> None:
            await self.bump(
                conn,
                session_id,
                version,
                state=json.dumps(state),
                clock=json.dumps(clock),
                deadline=deadline,
                wake_at=wake_at,
            )
            await conn.execute(
                "UPDATE actions SET undone = 1 WHERE session_id = ? AND n = ?", (session_id, n)
            )
            async with conn.execute(
                "SELECT COALESCE(MAX(n), 0) FROM actions WHERE session_id = ?", (session_id,)
            ) as cur:
                (last,) = await cur.fetchone()
            event = [{"text": note, "to": None, "kind": "undo"}]
            await conn.execute(
                "INSERT INTO actions (session_id, n, seat, action, user_id, events, at, version) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    session_id,
                    last + 1,
                    NOTE_SEAT,
                    f"undo {n}",
                    None,
                    json.dumps(event),
                    now,
                    version + 1,
                ),
            )
            await conn.execute("DELETE FROM undo_requests WHERE session_id = ?", (session_id,))

        await self.write(work)
