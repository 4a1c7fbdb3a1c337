"""Tournaments in SQL: the event, its players and each round's tables (migration 5).

A mixin of `Store`, like `MemoryQueries`: portable SQL both databases read. Every change
that must happen once across processes is a compare-and-set: a round is paired in one
transaction that moves `round` on only from the version read (its tables inserted with it,
or nothing); a table's session is created and linked in one transaction only while the
table has none; the posts of a round are claimed by moving `shown` or `reported` on.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.store.errors import StaleVersion, driver_errors_translated
from bot.store.query_base import QueryBase
from bot.store.session_rows import OpenedWith

_T_COLUMNS = (
    "id, platform, scope, chat, thread, game, options, rounds, size, status, creator, round, "
    "shown, reported, version, starts_at, wake_at, language, created_at, updated_at"
)
RUNNING = ("signup", "running")


@dataclass(frozen=True)
class TournamentRow:
    id: int
    platform: str
    scope: str
    chat: str
    thread: str
    game: str
    options: dict[str, str]
    rounds: int
    size: int
    status: str
    creator: str
    round: int
    shown: int
    reported: int
    version: int
    starts_at: float | None
    wake_at: float | None
    language: str
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class EntrantRow:
    user_id: str
    name: str
    n: int  # sign-up order
    joined: int  # the first round they may be paired in
    withdrawn: int | None  # the round after which they left
    why: str = ""  # asked, time


@dataclass(frozen=True)
class PairingRow:
    round: int
    board: int  # 1, 2, ...; 0 or below: a bye
    players: list[str]
    session_id: int | None
    claimed_at: float | None = None

    @property
    def bye(self) -> bool:
        return self.board <= 0


def _tournament(row: Sequence[Any]) -> TournamentRow:
    values = list(row)
    values[6] = json.loads(values[6])
    return TournamentRow(*values)


@driver_errors_translated
class TournamentQueries(QueryBase):
    """Queries of tournaments (mixed into `Store`)."""

    async def create_tournament(
        self,
        *,
        platform: str,
        scope: str,
        chat: str,
        thread: str,
        game: str,
        options: dict[str, str],
        rounds: int,
        size: int,
        creator: str,
        language: str,
        starts_at: float | None,
        now: float,
    ) -> TournamentRow:
        async def work(conn) -> int:
            cur = await conn.execute(
                "INSERT INTO tournaments (platform, scope, chat, thread, game, options, rounds, "
                "size, status, creator, starts_at, wake_at, language, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'signup', ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    platform,
                    scope,
                    chat,
                    thread,
                    game,
                    json.dumps(options),
                    rounds,
                    size,
                    creator,
                    starts_at,
                    starts_at,
                    language,
                    now,
                    now,
                ),
            )
            (tid,) = await cur.fetchone()
            return tid

        tid = await self.write(work)
        return await self.tournament(tid)

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        rows = await self.rows(
            f"SELECT {_T_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)
        )
        return _tournament(rows[0]) if rows else None

    async def tournaments_in_chat(
        self, platform: str, chat: str, statuses: Sequence[str] = RUNNING
    ) -> list[TournamentRow]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self.rows(
            f"SELECT {_T_COLUMNS} FROM tournaments WHERE platform = ? AND chat = ? "
            f"AND status IN ({marks}) ORDER BY id DESC",
            (platform, chat, *statuses),
        )
        return [_tournament(r) for r in rows]

    async def due_tournaments(self, now: float, platforms: Sequence[str]) -> list[TournamentRow]:
        """Tournaments to look at now: signing up past their start time, or running."""
        marks = ", ".join("?" for _ in platforms) or "NULL"
        rows = await self.rows(
            f"SELECT {_T_COLUMNS} FROM tournaments WHERE status IN ('signup', 'running') "
            f"AND wake_at IS NOT NULL AND wake_at <= ? AND platform IN ({marks}) ORDER BY wake_at",
            (now, *platforms),
        )
        return [_tournament(r) for r in rows]

    async def tournament_of_session(self, session_id: int) -> tuple[int, int, int] | None:
        """(tournament, round, board) of a table's session, if it is one."""
        rows = await self.rows(
            "SELECT tournament_id, round, board FROM tournament_tables WHERE session_id = ?",
            (session_id,),
        )
        return tuple(rows[0]) if rows else None  # type: ignore[return-value]

    # ----- players ----------------------------------------------------------------------
    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        rows = await self.rows(
            "SELECT user_id, name, n, joined, withdrawn, why FROM tournament_players "
            "WHERE tournament_id = ? ORDER BY n",
            (tournament_id,),
        )
        return [EntrantRow(*r) for r in rows]

    async def enter(self, t: TournamentRow, user_id: str, name: str, joined: int, most: int) -> str:
        """Sign a player up (or back in, after they withdrew), if the tournament is still
        as read: "added", or "in" (they are in already) or "full"."""

        async def work(conn) -> str:
            await self._bump_tournament(conn, t)
            async with conn.execute(
                "SELECT withdrawn FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
                (t.id, user_id),
            ) as cur:
                found = await cur.fetchone()
            if found is not None:
                if found[0] is None:
                    return "in"
                await conn.execute(
                    "UPDATE tournament_players SET withdrawn = NULL, why = '', name = ? "
                    "WHERE tournament_id = ? AND user_id = ?",
                    (name, t.id, user_id),
                )
                return "added"
            async with conn.execute(
                "SELECT COUNT(*), COALESCE(MAX(n), 0) FROM tournament_players WHERE tournament_id = ?",
                (t.id,),
            ) as cur:
                count, last = await cur.fetchone()
            if count >= most:
                return "full"
            await conn.execute(
                "INSERT INTO tournament_players (tournament_id, user_id, name, n, joined) "
                "VALUES (?, ?, ?, ?, ?)",
                (t.id, user_id, name, last + 1, joined),
            )
            return "added"

        return await self.write(work)

    async def withdraw(self, t: TournamentRow, user_id: str, why: str) -> bool:
        """A player leaves after the round now running (during sign-up: they are gone)."""

        async def work(conn) -> bool:
            await self._bump_tournament(conn, t)
            if t.status == "signup":
                cur = await conn.execute(
                    "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
                    (t.id, user_id),
                )
            else:
                cur = await conn.execute(
                    "UPDATE tournament_players SET withdrawn = ?, why = ? "
                    "WHERE tournament_id = ? AND user_id = ? AND withdrawn IS NULL",
                    (t.round, why, t.id, user_id),
                )
            return cur.rowcount == 1

        return await self.write(work)

    # ----- rounds -----------------------------------------------------------------------
    async def pairings(self, tournament_id: int, round_: int | None = None) -> list[PairingRow]:
        where, params = (
            ("AND round = ?", (tournament_id, round_))
            if round_ is not None
            else ("", (tournament_id,))
        )
        rows = await self.rows(
            "SELECT round, board, players, session_id, claimed_at FROM tournament_tables "
            f"WHERE tournament_id = ? {where} ORDER BY round, board",
            params,
        )
        return [PairingRow(r, b, json.loads(p), s, c) for r, b, p, s, c in rows]

    async def pair_round(
        self,
        t: TournamentRow,
        tables: list[list[str]],
        byes: list[str],
        withdrawn: dict[str, str],
        wake_at: float | None,
        finished: bool = False,
    ) -> bool:
        """Round `t.round + 1` stored whole (its tables and byes, and the players withdrawn
        on the way), or the tournament ended (`finished`), in one transaction, if nobody
        did it first: False (and nothing written) if they did."""

        async def work(conn) -> bool:
            status = "finished" if finished else "running"
            cur = await conn.execute(
                "UPDATE tournaments SET round = round + ?, status = ?, wake_at = ?, "
                "version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
                (
                    0 if finished else 1,
                    status,
                    None if finished else wake_at,
                    self._clock(),
                    t.id,
                    t.version,
                ),
            )
            if cur.rowcount != 1:
                return False
            for user_id, why in withdrawn.items():
                await conn.execute(
                    "UPDATE tournament_players SET withdrawn = ?, why = ? "
                    "WHERE tournament_id = ? AND user_id = ? AND withdrawn IS NULL",
                    (t.round, why, t.id, user_id),
                )
            if not finished:
                rows = [
                    (t.id, t.round + 1, n, json.dumps(p)) for n, p in enumerate(tables, start=1)
                ]
                rows += [(t.id, t.round + 1, -n, json.dumps([p])) for n, p in enumerate(byes)]
                await conn.executemany(
                    "INSERT INTO tournament_tables (tournament_id, round, board, players) "
                    "VALUES (?, ?, ?, ?)",
                    rows,
                )
            return True

        return await self.write(work)

    async def claim_table(
        self, tournament_id: int, round_: int, board: int, now: float, lease: float
    ) -> bool:
        """This process opens the table (no other has for `lease` seconds)."""

        async def work(conn) -> bool:
            cur = await conn.execute(
                "UPDATE tournament_tables SET claimed_at = ? WHERE tournament_id = ? "
                "AND round = ? AND board = ? AND session_id IS NULL "
                "AND (claimed_at IS NULL OR claimed_at < CAST(? AS DOUBLE PRECISION))",
                (now, tournament_id, round_, board, now - lease),
            )
            return cur.rowcount == 1

        return await self.write(work)

    async def open_table_session(
        self,
        tournament_id: int,
        round_: int,
        board: int,
        *,
        platform: str,
        scope: str,
        chat: str,
        thread: str,
        game: str,
        options: dict[str, str],
        rules_version: int,
        creator: str,
        seed: int,
        seats: list,
        clock: dict,
        opened: OpenedWith,
    ) -> int | None:
        """The table's session created (in its lobby, every seat taken) and linked to it in
        one transaction; None (nothing written) if the table has one already."""
        where = (platform, scope, chat, thread)
        opening = (game, options, rules_version, creator, seed, clock, opened)

        async def work(conn) -> int | None:
            session_id = await self._insert_session(conn, where, *opening)
            linked = await conn.execute(
                "UPDATE tournament_tables SET session_id = ? WHERE tournament_id = ? "
                "AND round = ? AND board = ? AND session_id IS NULL",
                (session_id, tournament_id, round_, board),
            )
            if linked.rowcount != 1:
                raise StaleVersion("the table has a session already")
            await self._insert_seats(conn, session_id, seats)
            await self.note_change(conn, session_id, 0)
            return session_id

        try:
            return await self.write(work)
        except StaleVersion:
            return None

    async def claim_post(self, t: TournamentRow, column: str, round_: int) -> bool:
        """`shown` or `reported` moved on to `round_`: True for the one process that did."""
        if column not in ("shown", "reported"):
            raise ValueError(column)

        async def work(conn) -> bool:
            cur = await conn.execute(
                f"UPDATE tournaments SET {column} = ? WHERE id = ? AND {column} < ?",
                (round_, t.id, round_),
            )
            return cur.rowcount == 1

        return await self.write(work)

    async def set_tournament(self, t: TournamentRow, **cols) -> bool:
        """Status, start or wake time changed if the tournament is still as read."""
        allowed = {"status", "wake_at", "starts_at"}
        if not set(cols) <= allowed:
            raise ValueError(cols)

        async def work(conn) -> bool:
            sets = "".join(f"{name} = ?, " for name in cols)
            cur = await conn.execute(
                f"UPDATE tournaments SET {sets}version = version + 1, updated_at = ? "
                "WHERE id = ? AND version = ?",
                (*cols.values(), self._clock(), t.id, t.version),
            )
            return cur.rowcount == 1

        return await self.write(work)

    async def postpone_tournament(self, tournament_id: int, until: float) -> None:
        async def work(conn) -> None:
            await conn.execute(
                "UPDATE tournaments SET wake_at = ? WHERE id = ? AND wake_at < ?",
                (until, tournament_id, until),
            )

        await self.write(work)

    async def _bump_tournament(self, conn, t: TournamentRow) -> None:
        cur = await conn.execute(
            "UPDATE tournaments SET version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
            (self._clock(), t.id, t.version),
        )
        if cur.rowcount != 1:
            raise StaleVersion(f"tournament {t.id} changed since version {t.version}")
