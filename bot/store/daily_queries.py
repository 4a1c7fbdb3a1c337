"""The daily castle in SQL (migration 7): who has begun each day's castle, and the results
its boards read.

A mixin of `Store`, like `MemoryQueries`. A party's claim on the day is one transaction
for all its players: each row is inserted, or found already held by this very table
(a retried begin), or taken over from a table that never began and was closed; any other
holder refuses the whole claim and nothing is written.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.errors import driver_errors_translated
from bot.store.query_base import QueryBase


@dataclass(frozen=True)
class DailyResult:
    """A daily table's result, as a board shows it."""

    session_id: int
    day: str
    party: list[str]  # the players' names, in seat order
    escaped: bool
    chapters: int
    steps: int
    finished_at: float


@dataclass(frozen=True)
class DailyTotal:
    """One player's daily castles over a month."""

    user_id: str
    name: str
    days: int
    escaped: int
    chapters: int
    steps: int


@driver_errors_translated
class DailyQueries(QueryBase):
    """Queries of the daily castle (mixed into `Store`)."""

    async def daily_played(
        self, day: str, platform: str, user_ids: Sequence[str], but: int | None = None
    ) -> list[str]:
        """Which of these people have begun `day`'s castle at a table other than `but`
        (a table closed before it began does not count)."""
        if not user_ids:
            return []
        marks = ", ".join("?" for _ in user_ids)
        rows = await self.rows(
            "SELECT d.user_id FROM daily_players d JOIN sessions s ON s.id = d.session_id "
            f"WHERE d.day = ? AND d.platform = ? AND d.user_id IN ({marks}) AND d.session_id <> ? "
            "AND NOT (s.status = 'aborted' AND s.state IS NULL)",
            (day, platform, *user_ids, -1 if but is None else but),
        )
        return [r[0] for r in rows]

    async def claim_daily(
        self, day: str, platform: str, user_ids: Sequence[str], session_id: int
    ) -> list[str]:
        """The whole party's claim on `day`'s castle for table `session_id`, in one
        transaction: [] when made, else who holds the day at another table (nothing written)."""

        async def work(conn) -> list[str]:
            taken = []
            for user_id in user_ids:
                await conn.execute(
                    "INSERT INTO daily_players (day, platform, user_id, session_id) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT (day, platform, user_id) DO NOTHING",
                    (day, platform, user_id, session_id),
                )
                async with conn.execute(
                    "SELECT d.session_id, s.status, s.state IS NULL FROM daily_players d "
                    "JOIN sessions s ON s.id = d.session_id "
                    "WHERE d.day = ? AND d.platform = ? AND d.user_id = ?",
                    (day, platform, user_id),
                ) as cur:
                    holder, status, unbegun = await cur.fetchone()
                if holder == session_id:
                    continue
                if status == "aborted" and unbegun:  # a table closed before it began
                    await conn.execute(
                        "UPDATE daily_players SET session_id = ? WHERE day = ? AND platform = ? "
                        "AND user_id = ? AND session_id = ?",
                        (session_id, day, platform, user_id, holder),
                    )
                    continue
                taken.append(user_id)
            if taken:
                raise _Refused(taken)
            return []

        try:
            return await self.write(work)
        except _Refused as refused:
            return refused.users

    async def record_daily(
        self,
        session_id: int,
        *,
        day: str,
        platform: str,
        scope: str,
        players: Sequence[tuple[str, str]],
        escaped: bool,
        chapters: int,
        steps: int,
        now: float,
    ) -> bool:
        """A finished daily table's result (`players`: (user id, name) by seat), once:
        False if it was recorded already."""

        async def work(conn) -> bool:
            party = json.dumps([name for _, name in players])
            cur = await conn.execute(
                "INSERT INTO daily_results (session_id, seat, user_id, name, day, platform, "
                "scope, party, escaped, chapters, steps, finished_at) "
                "VALUES (?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (
                    session_id,
                    players[0][0],
                    players[0][1],
                    day,
                    platform,
                    scope,
                    party,
                    int(escaped),
                    chapters,
                    steps,
                    now,
                ),
            )
            if cur.rowcount != 1:
                return False
            await conn.executemany(
                "INSERT INTO daily_results (session_id, seat, user_id, name, day, platform, "
                "scope, party, escaped, chapters, steps, finished_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        session_id,
                        seat,
                        uid,
                        name,
                        day,
                        platform,
                        scope,
                        party,
                        int(escaped),
                        chapters,
                        steps,
                        now,
                    )
                    for seat, (uid, name) in enumerate(players)
                    if seat
                ],
            )
            return True

        return await self.write(work)

    async def daily_board(self, platform: str, scope: str, day: str) -> list[DailyResult]:
        """A day's parties here, best first: escaped, then more chapters, then fewer steps,
        then the earlier finish."""
        rows = await self.rows(
            "SELECT session_id, day, party, escaped, chapters, steps, finished_at "
            "FROM daily_results WHERE platform = ? AND scope = ? AND day = ? AND seat = 0 "
            "ORDER BY escaped DESC, chapters DESC, steps, finished_at, session_id",
            (platform, scope, day),
        )
        return [
            DailyResult(s, d, json.loads(p), bool(e), c, st, f) for s, d, p, e, c, st, f in rows
        ]

    async def daily_result(self, session_id: int) -> DailyResult | None:
        rows = await self.rows(
            "SELECT session_id, day, party, escaped, chapters, steps, finished_at "
            "FROM daily_results WHERE session_id = ? AND seat = 0",
            (session_id,),
        )
        return (
            DailyResult(
                rows[0][0], rows[0][1], json.loads(rows[0][2]), bool(rows[0][3]), *rows[0][4:]
            )
            if rows
            else None
        )

    async def daily_month(self, platform: str, scope: str, month: str) -> list[DailyTotal]:
        """Each player's daily castles of a month (`2025-06`) here, best first: more
        escapes, then more chapters, then fewer steps."""
        rows = await self.rows(
            "SELECT user_id, MAX(name), COUNT(*), SUM(escaped), SUM(chapters), SUM(steps) "
            "FROM daily_results WHERE platform = ? AND scope = ? AND day >= ? AND day < ? "
            "GROUP BY user_id ORDER BY SUM(escaped) DESC, SUM(chapters) DESC, SUM(steps), "
            "MAX(name)",
            (platform, scope, f"{month}-01", f"{month}-99"),
        )
        return [DailyTotal(*r) for r in rows]


class _Refused(Exception):
    """Rolls a claim's transaction back: these players hold the day elsewhere."""

    def __init__(self, users: list[str]) -> None:
        super().__init__(users)
        self.users = users
