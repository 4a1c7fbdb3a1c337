"""Seasons of a server's or group's ratings in SQL (migration 6).

A mixin of `Store`, like `MemoryQueries`: portable SQL both databases read. What must
happen once across processes is a compare-and-set: a season ends by moving `status` from
'running' (the next season inserted in the same transaction); its final standings are
posted by the process that holds the lease on them (`claimed_at`), and marked posted
(`posted_at`) once delivered. A game counts in a season only in the transaction that rates
it, while the season still runs: that transaction takes the season's row lock (it counts
the game in `games`), so it orders itself against the season's end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.store.errors import StaleVersion, driver_errors_translated
from bot.store.memory_queries import RatingRow
from bot.store.query_base import QueryBase

_S_COLUMNS = (
    "platform, scope, number, status, length, repeats, starts_at, ends_at, chat, thread, "
    "language, games, ended_at, claimed_at, posted_at"
)
_R_COLUMNS = "platform, scope, game, user_id, name, mu, sigma, played, won, lost"


@dataclass(frozen=True)
class SeasonRow:
    platform: str
    scope: str
    number: int
    status: str  # running, ended
    length: str  # as set: 3mo, 2w, 30d
    repeats: bool  # a next season follows this one's end
    starts_at: float
    ends_at: float
    chat: str  # where its end is posted
    thread: str
    language: str
    games: int  # rated games counted in it
    ended_at: float | None = None
    claimed_at: float | None = None
    posted_at: float | None = None


def _season(row: Sequence[Any]) -> SeasonRow:
    values = list(row)
    values[5] = bool(values[5])
    return SeasonRow(*values)


@driver_errors_translated
class SeasonQueries(QueryBase):
    """Queries of seasons and their ratings (mixed into `Store`)."""

    async def running_season(self, platform: str, scope: str) -> SeasonRow | None:
        rows = await self.rows(
            f"SELECT {_S_COLUMNS} FROM seasons WHERE platform = ? AND scope = ? "
            "AND status = 'running'",
            (platform, scope),
        )
        return _season(rows[0]) if rows else None

    async def season(self, platform: str, scope: str, number: int) -> SeasonRow | None:
        rows = await self.rows(
            f"SELECT {_S_COLUMNS} FROM seasons WHERE platform = ? AND scope = ? AND number = ?",
            (platform, scope, number),
        )
        return _season(rows[0]) if rows else None

    async def last_season(self, platform: str, scope: str) -> SeasonRow | None:
        rows = await self.rows(
            f"SELECT {_S_COLUMNS} FROM seasons WHERE platform = ? AND scope = ? "
            "ORDER BY number DESC LIMIT 1",
            (platform, scope),
        )
        return _season(rows[0]) if rows else None

    async def start_season(
        self,
        *,
        platform: str,
        scope: str,
        length: str,
        starts_at: float,
        ends_at: float,
        chat: str,
        thread: str,
        language: str,
    ) -> SeasonRow | None:
        """The scope's next season, running from `starts_at`; None (nothing written) when
        one runs already."""

        async def work(conn) -> SeasonRow | None:
            async with conn.execute(
                "SELECT COALESCE(MAX(number), 0) FROM seasons WHERE platform = ? AND scope = ?",
                (platform, scope),
            ) as cur:
                (last,) = await cur.fetchone()
            cur = await conn.execute(
                "INSERT INTO seasons (platform, scope, number, status, length, repeats, "
                "starts_at, ends_at, chat, thread, language) "
                "VALUES (?, ?, ?, 'running', ?, 1, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (platform, scope, last + 1, length, starts_at, ends_at, chat, thread, language),
            )
            if cur.rowcount != 1:
                return None
            return SeasonRow(
                platform,
                scope,
                last + 1,
                "running",
                length,
                True,
                starts_at,
                ends_at,
                chat,
                thread,
                language,
                0,
            )

        return await self.write(work)

    async def end_season(
        self, s: SeasonRow, now: float, following: tuple[float, float] | None
    ) -> bool:
        """Season `s` ended now, if it still runs (True for the one caller that ended it);
        `following`: (starts_at, ends_at) of the next season, begun in the same transaction."""

        async def work(conn) -> bool:
            cur = await conn.execute(
                "UPDATE seasons SET status = 'ended', ended_at = ?, repeats = ? "
                "WHERE platform = ? AND scope = ? AND number = ? AND status = 'running'",
                (now, int(following is not None), s.platform, s.scope, s.number),
            )
            if cur.rowcount != 1:
                return False
            if following is not None:
                await conn.execute(
                    "INSERT INTO seasons (platform, scope, number, status, length, repeats, "
                    "starts_at, ends_at, chat, thread, language) "
                    "VALUES (?, ?, ?, 'running', ?, 1, ?, ?, ?, ?, ?)",
                    (
                        s.platform,
                        s.scope,
                        s.number + 1,
                        s.length,
                        following[0],
                        following[1],
                        s.chat,
                        s.thread,
                        s.language,
                    ),
                )
            return True

        return await self.write(work)

    async def due_seasons(
        self, now: float, platforms: Sequence[str], lease: float
    ) -> list[SeasonRow]:
        """Seasons to look at now: running past their end, or ended with their final
        standings not yet posted (and nobody posting them within the lease)."""
        marks = ", ".join("?" for _ in platforms) or "NULL"
        rows = await self.rows(
            f"SELECT {_S_COLUMNS} FROM seasons WHERE platform IN ({marks}) AND "
            "((status = 'running' AND ends_at <= ?) OR (status = 'ended' AND posted_at IS NULL "
            "AND (claimed_at IS NULL OR claimed_at < CAST(? AS DOUBLE PRECISION)))) "
            "ORDER BY ends_at",
            (*platforms, now, now - lease),
        )
        return [_season(r) for r in rows]

    async def claim_season_post(self, s: SeasonRow, now: float, lease: float) -> bool:
        """This process posts the ended season's final standings (nobody else has, and
        nobody is within the lease)."""

        async def work(conn) -> bool:
            cur = await conn.execute(
                "UPDATE seasons SET claimed_at = ? WHERE platform = ? AND scope = ? AND number = ? "
                "AND status = 'ended' AND posted_at IS NULL "
                "AND (claimed_at IS NULL OR claimed_at < CAST(? AS DOUBLE PRECISION))",
                (now, s.platform, s.scope, s.number, now - lease),
            )
            return cur.rowcount == 1

        return await self.write(work)

    async def season_posted(self, s: SeasonRow, now: float | None) -> None:
        """Its final standings were delivered (`now`), or could not be (None: the claim is
        given up, so the next scan tries again)."""

        async def work(conn) -> None:
            column = "posted_at" if now is not None else "claimed_at"
            await conn.execute(
                f"UPDATE seasons SET {column} = ? WHERE platform = ? AND scope = ? AND number = ?",
                (now, s.platform, s.scope, s.number),
            )

        await self.write(work)

    # ----- the season's ratings ---------------------------------------------------------
    async def season_ratings_of(
        self, platform: str, scope: str, season: int, game: str, user_ids: list[str]
    ) -> dict[str, RatingRow]:
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        rows = await self.rows(
            f"SELECT {_R_COLUMNS} FROM season_ratings WHERE platform = ? AND scope = ? "
            f"AND season = ? AND game = ? AND user_id IN ({marks})",
            (platform, scope, season, game, *user_ids),
        )
        return {r[3]: RatingRow(*r) for r in rows}

    async def season_leaderboard(
        self, platform: str, scope: str, season: int, game: str, limit: int = 10
    ) -> list[RatingRow]:
        """Best first, as the all-time leaderboard orders."""
        rows = await self.rows(
            f"SELECT {_R_COLUMNS} FROM season_ratings WHERE platform = ? AND scope = ? "
            "AND season = ? AND game = ? "
            "ORDER BY mu - 3 * sigma DESC, won DESC, played DESC, name LIMIT ?",
            (platform, scope, season, game, limit),
        )
        return [RatingRow(*r) for r in rows]

    async def season_standings_of(
        self, platform: str, scope: str, season: int, user_id: str
    ) -> list[RatingRow]:
        rows = await self.rows(
            f"SELECT {_R_COLUMNS} FROM season_ratings WHERE platform = ? AND scope = ? "
            "AND season = ? AND user_id = ? ORDER BY game",
            (platform, scope, season, user_id),
        )
        return [RatingRow(*r) for r in rows]

    async def season_games(self, platform: str, scope: str, season: int) -> list[str]:
        """The games rated in a season, the most played first."""
        rows = await self.rows(
            "SELECT game FROM season_ratings WHERE platform = ? AND scope = ? AND season = ? "
            "GROUP BY game ORDER BY SUM(played) DESC, game",
            (platform, scope, season),
        )
        return [r[0] for r in rows]

    async def _rate_in_season(self, conn, season: int, rows: list[RatingRow], now: float) -> None:
        """Inside the transaction that rates a game: its season rows, while season `season`
        still runs (its row locked by counting the game); else StaleVersion, nothing written."""
        if not rows:
            return
        first = rows[0]
        cur = await conn.execute(
            "UPDATE seasons SET games = games + 1 WHERE platform = ? AND scope = ? "
            "AND number = ? AND status = 'running'",
            (first.platform, first.scope, season),
        )
        if cur.rowcount != 1:
            raise StaleVersion(f"season {season} is over")
        await conn.executemany(
            f"INSERT INTO season_ratings ({_R_COLUMNS}, season, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (platform, scope, season, game, user_id) DO UPDATE SET "
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
                    season,
                    now,
                )
                for r in rows
            ],
        )
