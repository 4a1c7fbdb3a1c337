"""Queries of sessions, seats, the action log and the meta keys, in one SQLite file or one
PostgreSQL database (bot/store/dialects.py: every query here is written once, in portable
SQL with `?` placeholders, and runs on either).

Every write that changes a session checks the version it was read at (`WHERE version = ?`)
and bumps it, inside one write transaction: an accepted action, the chance outcomes it
triggered, the new snapshot and the version bump commit together or not at all, and two
racing writers (even in two processes) cannot both win.

New queries and migrations run on both databases if they keep to portable SQL: `?`
placeholders; `INSERT ... ON CONFLICT (...) DO UPDATE/NOTHING`, never `INSERT OR ...`;
`RETURNING id` for a new row's id (`lastrowid` is SQLite's only); `CAST(? AS DOUBLE
PRECISION)` where a bare parameter's type is ambiguous; JSON through
`self._conn.json_number`; column types INTEGER, REAL, TEXT (the dialect layer widens them
for PostgreSQL). Decorate store tests with `on_both` (tests/bot/conftest.py) to run them on
both.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.store.dialects import Database
from bot.store.errors import StaleVersion, StoreError, driver_errors_translated
from bot.store.query_base import QueryBase
from bot.store.session_rows import (
    LIVE,
    NOTE_SEAT,
    SEAT_COLUMNS,
    SESSION_COLUMNS,
    LogEntry,
    NewEntry,
    OpenedWith,
    SeatRow,
    SessionRow,
    seat_row,
)


def offered_text(seats: Sequence[int]) -> str:
    return ",".join(str(n) for n in sorted(set(seats)))


@driver_errors_translated
class SessionQueries(QueryBase):
    """Sessions, their seats and log, and the meta keys (mixed into `Store`)."""

    async def create_session(
        self,
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
        first_seat: SeatRow,
        clock: dict | None = None,
        opened: OpenedWith | None = None,
    ) -> SessionRow:
        """A new table in its lobby, with its first seat; `opened`: what it was opened with
        beside its game's options (its language, hints, bots' level, the daily castle)."""
        where = (platform, scope, chat, thread)
        opening = (game, options, rules_version, creator, seed, clock or {}, opened or OpenedWith())

        async def work(conn: Database) -> int:
            session_id = await self._insert_session(conn, where, *opening)
            await self._insert_seats(conn, session_id, [first_seat])
            await self.note_change(conn, session_id, 0)
            return session_id

        session_id = await self.write(work)
        return await self.session(session_id)

    async def _insert_session(
        self,
        conn: Database,
        where: tuple[str, str, str, str],
        game: str,
        options: dict[str, str],
        rules_version: int,
        creator: str,
        seed: int,
        clock: dict,
        opened: OpenedWith,
    ) -> int:
        """A new session's row, in its lobby: its id. `where`: platform, scope, chat, thread."""
        cur = await conn.execute(
            "INSERT INTO sessions (platform, scope, chat, thread, game, options, "
            "rules_version, status, creator, seed, created_at, updated_at, clock, "
            "language, bot_level, hints, daily, seeded_decks) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                *where,
                game,
                json.dumps(options),
                rules_version,
                creator,
                seed,
                now := self._clock(),
                now,
                json.dumps(clock),
                opened.language,
                opened.bot_level,
                opened.hints,
                opened.daily,
                int(opened.seeded_decks),
            ),
        )
        (session_id,) = await cur.fetchone()
        return session_id

    async def session(self, session_id: int) -> SessionRow | None:
        rows = await self.select_sessions(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE id = ?", (session_id,)
        )
        return rows[0] if rows else None

    async def live_session(self, platform: str, chat: str, thread: str) -> SessionRow | None:
        rows = await self.select_sessions(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE platform = ? AND chat = ? "
            "AND thread = ? AND status IN ('lobby', 'active')",
            (platform, chat, thread),
        )
        return rows[0] if rows else None

    async def sessions_in_scope(
        self, platform: str, scope: str, statuses: Sequence[str] = LIVE
    ) -> list[SessionRow]:
        marks = ", ".join("?" for _ in statuses)
        return await self.select_sessions(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE platform = ? AND scope = ? "
            f"AND status IN ({marks}) ORDER BY id",
            (platform, scope, *statuses),
        )

    async def active_sessions(self) -> list[SessionRow]:
        return await self.select_sessions(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE status = 'active' ORDER BY id", ()
        )

    async def sessions_of_user(self, platform: str, user_id: str) -> list[SessionRow]:
        return await self.select_sessions(
            f"SELECT {', '.join('s.' + c.strip() for c in SESSION_COLUMNS.split(','))} "
            "FROM sessions s JOIN seats t ON t.session_id = s.id "
            "WHERE s.platform = ? AND t.user_id = ? AND s.status IN ('lobby', 'active') "
            "ORDER BY s.id",
            (platform, user_id),
        )

    async def seats(self, session_id: int) -> list[SeatRow]:
        async with self._conn.execute(
            f"SELECT {SEAT_COLUMNS} FROM seats WHERE session_id = ? ORDER BY seat",
            (session_id,),
        ) as cur:
            return [seat_row(row) for row in await cur.fetchall()]

    async def _insert_seats(self, conn, session_id: int, seats: Sequence[SeatRow]) -> None:
        await conn.execute("DELETE FROM seats WHERE session_id = ?", (session_id,))
        await conn.executemany(
            "INSERT INTO seats (session_id, seat, user_id, name, kind, since, lost) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (session_id, i, s.user_id, s.name, s.kind, s.since, int(s.lost))
                for i, s in enumerate(seats)
            ],
        )

    async def set_offered(self, session_id: int, version: int, seats: Sequence[int]) -> None:
        """The seats offered to a new player (`/escape offer`), if the table is still at
        `version` (else StaleVersion). The version stays: an offer changes no board, so the
        board's buttons stay good; taking a seat clears its offer with the new seating
        (`record`'s `offered`)."""

        async def work(conn) -> None:
            cur = await conn.execute(
                "UPDATE sessions SET offered = ? WHERE id = ? AND version = ?",
                (offered_text(seats), session_id, version),
            )
            if cur.rowcount != 1:
                raise StaleVersion(f"session {session_id} is no longer at version {version}")

        await self.write(work)

    async def set_seats(self, session_id: int, version: int, seats: Sequence[SeatRow]) -> None:
        """Replace the seating (lobby joins and leaves, a seat handed to a placeholder)."""

        async def work(conn):
            await self.bump(conn, session_id, version)
            await self._insert_seats(conn, session_id, seats)

        await self.write(work)

    async def set_status(self, session_id: int, version: int, status: str) -> None:
        await self.write(lambda conn: self.bump(conn, session_id, version, status=status))

    async def record(
        self,
        session_id: int,
        version: int,
        entries: Sequence[NewEntry],
        state: dict,
        chance_pos: int,
        status: str = "active",
        result: dict | None = None,
        deadline: float | None = None,
        clock: dict | None = None,
        wake_at: float | None = None,
        touch: bool = True,
        seats: Sequence[SeatRow] | None = None,
        expect_clock: dict | None = None,
        offered: Sequence[int] | None = None,
    ) -> int:
        """Append log rows and store the new snapshot in one transaction; returns the new
        version. touch=False: moves the clock made (deadline defaults) leave updated_at, so
        a game nobody plays any more still reaches its idle limit. `seats`: a new seating
        (a late player's seat handed to a stand-in) committed with the stand-in's moves.
        `expect_clock`: the clock the move was computed from; refused (StaleVersion) if a
        reminder, a pause or a vote changed it meanwhile (those leave the version as it is)."""
        now = self._clock()

        async def work(conn):
            await self.bump(
                conn,
                session_id,
                version,
                touch,
                state=json.dumps(state),
                chance_pos=chance_pos,
                status=status,
                result=json.dumps(result) if result is not None else None,
                deadline=deadline,
                clock=json.dumps(clock or {}),
                wake_at=wake_at,
                expect_clock=expect_clock,
                **({"offered": offered_text(offered)} if offered is not None else {}),
            )
            if seats is not None:
                await self._insert_seats(conn, session_id, seats)
            async with conn.execute(
                "SELECT COALESCE(MAX(n), 0) FROM actions WHERE session_id = ?", (session_id,)
            ) as cur:
                (last,) = await cur.fetchone()
            await conn.executemany(
                "INSERT INTO actions (session_id, n, seat, action, user_id, events, at, version) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        session_id,
                        last + i,
                        e.seat,
                        e.action,
                        e.user_id,
                        json.dumps(e.events),
                        now,
                        version + 1,
                    )
                    for i, e in enumerate(entries, start=1)
                ],
            )

        await self.write(work)
        return version + 1

    async def set_clock(
        self,
        session_id: int,
        version: int,
        clock: dict,
        deadline: float | None,
        wake_at: float | None,
        expect: dict | None = None,
    ) -> None:
        """Store the turn clock without bumping the version: a reminder does not make the
        buttons under the board stale. Refused (StaleVersion) if the game moved meanwhile,
        or, given `expect`, if the clock is no longer the one read (another process sent
        that reminder first): a compare-and-set, so a reminder is claimed exactly once."""
        sql = (
            "UPDATE sessions SET clock = ?, deadline = ?, wake_at = ? WHERE id = ? AND version = ?"
        )
        params: tuple = (json.dumps(clock), deadline, wake_at, session_id, version)
        if expect is not None:
            sql += " AND clock = ?"
            params += (json.dumps(expect),)

        async def work(conn):
            cur = await conn.execute(sql, params)
            if cur.rowcount != 1:
                raise StaleVersion(f"session {session_id} changed since version {version}")
            await self.note_change(conn, session_id, version)  # the clock shown changed

        await self.write(work)

    async def set_table_language(self, session_id: int, language: str) -> None:
        """The language a live table's boards speak from now on; no version bump (its
        buttons stay good), but its pages are told (the change is noted)."""

        async def work(conn):
            cur = await conn.execute(
                "UPDATE sessions SET language = ? WHERE id = ? "
                "AND status IN ('lobby', 'active') RETURNING version",
                (language, session_id),
            )
            found = await cur.fetchone()
            if found is not None:
                await self.note_change(conn, session_id, found[0])

        await self.write(work)

    async def note_hint(self, session_id: int, version: int, user_id: str) -> None:
        """`user_id` asked for a hint on the board of `version`: the game is not rated.
        Refused (StaleVersion) if the board moved on meanwhile."""

        async def work(conn):
            async with conn.execute(
                "SELECT hinted FROM sessions WHERE id = ? AND version = ?", (session_id, version)
            ) as cur:
                found = await cur.fetchone()
            if found is None:
                raise StaleVersion(f"session {session_id} changed since version {version}")
            hinted = sorted({*json.loads(found[0] or "[]"), user_id})
            await conn.execute(
                "UPDATE sessions SET hinted = ? WHERE id = ? AND version = ?",
                (json.dumps(hinted), session_id, version),
            )

        await self.write(work)

    async def due_sessions(
        self, now: float, platforms: Sequence[str] | None = None
    ) -> list[SessionRow]:
        """Running games whose wake time has come (on `platforms`, if given)."""
        where, params = _on(platforms)
        return await self.select_sessions(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE status = 'active' "
            f"AND wake_at IS NOT NULL AND wake_at <= ?{where} ORDER BY wake_at",
            (now, *params),
        )

    async def discount_idle(self, seconds: float, platforms: Sequence[str] | None = None) -> None:
        """Bot downtime: live games count as touched that much later (no version bump)."""
        where, params = _on(platforms)

        async def work(conn):
            await conn.execute(
                "UPDATE sessions SET updated_at = updated_at + ? "
                f"WHERE status IN ('lobby', 'active'){where}",
                (seconds, *params),
            )

        await self.write(work)

    async def postpone_wake(self, session_id: int, until: float) -> None:
        """A session the timer loop failed to serve: look again at `until`, not at once."""

        async def work(conn):
            await conn.execute(
                "UPDATE sessions SET wake_at = ? WHERE id = ? AND wake_at < ?",
                (until, session_id, until),
            )

        await self.write(work)

    async def next_wake(self, platforms: Sequence[str] | None = None) -> float | None:
        """The earliest time the timer loop has something to do."""
        where, params = _on(platforms)
        async with self._conn.execute(
            "SELECT MIN(wake_at) FROM sessions WHERE status = 'active' AND wake_at IS NOT NULL"
            + where,
            params,
        ) as cur:
            (at,) = await cur.fetchone()
        return at

    async def idle_sessions(
        self,
        now: float,
        default_days: float,
        platforms: Sequence[str] | None = None,
        shortest_days: float = 0.0,
    ) -> list[SessionRow]:
        """Live sessions with no move (nor lobby change) for their clock's idle_days.
        `shortest_days`, the least idle_days any clock holds, bounds the search by index to
        the games untouched that long, before any clock is read."""
        where, params = _on(platforms)
        return await self.select_sessions(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE status IN ('lobby', 'active') "
            "AND updated_at < CAST(? AS DOUBLE PRECISION) "
            "AND updated_at < CAST(? AS DOUBLE PRECISION) - COALESCE("
            f"{self._conn.json_number('clock', 'idle_days')}, CAST(? AS DOUBLE PRECISION)) * 86400"
            f"{where} ORDER BY id",
            (now - shortest_days * 86400, now, default_days, *params),
        )

    async def finish(self, session_id: int, version: int, status: str, note: str) -> None:
        """End a session (abort, idle) with a note in its log."""
        now = self._clock()

        async def work(conn):
            await self.bump(conn, session_id, version, status=status, wake_at=None)
            async with conn.execute(
                "SELECT COALESCE(MAX(n), 0) FROM actions WHERE session_id = ?", (session_id,)
            ) as cur:
                (last,) = await cur.fetchone()
            event = [{"text": note, "to": None, "kind": "end"}]
            await conn.execute(
                "INSERT INTO actions (session_id, n, seat, action, user_id, events, at, version) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    session_id,
                    last + 1,
                    NOTE_SEAT,
                    status,
                    None,
                    json.dumps(event),
                    now,
                    version + 1,
                ),
            )

        await self.write(work)

    async def get_meta(self, key: str) -> str | None:
        async with self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)) as cur:
            row = await cur.fetchone()
        return row[0] if row else None

    async def set_meta(self, key: str, value: str) -> None:
        async def work(conn):
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

        await self.write(work)

    async def swap_meta(self, key: str, value: str) -> str | None:
        """Set `key` and return what it held: of two processes starting at once, only one
        sees the old heartbeat (and discounts the downtime). A compare-and-set on the old
        value, so it holds where two transactions can read the same row (PostgreSQL)."""

        async def work(conn):
            async with conn.execute("SELECT value FROM meta WHERE key = ?", (key,)) as cur:
                row = await cur.fetchone()
            if row is None:
                cur = await conn.execute(
                    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
                    (key, value),
                )
            else:
                cur = await conn.execute(
                    "UPDATE meta SET value = ? WHERE key = ? AND value = ?", (value, key, row[0])
                )
            return cur.rowcount == 1, row[0] if row else None

        for _ in range(100):  # another process won the race: read its value and go again
            swapped, old = await self.write(work)
            if swapped:
                return old
        raise StoreError(f"could not swap {key}: it keeps changing")

    async def replace_meta(self, key: str, expected: str | None, value: str) -> str:
        """Set `key` to `value` only if it still holds `expected` (None: absent); what it
        holds afterwards (ours, or what another process wrote first). A compare-and-set, so
        of two processes only one writes (the web board's signing keys)."""

        async def work(conn):
            if expected is None:
                await conn.execute(
                    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
                    (key, value),
                )
            else:
                await conn.execute(
                    "UPDATE meta SET value = ? WHERE key = ? AND value = ?", (value, key, expected)
                )
            async with conn.execute("SELECT value FROM meta WHERE key = ?", (key,)) as cur:
                row = await cur.fetchone()
            return row[0] if row else None

        return await self.write(work)

    async def log_between_versions(self, session_id: int, after: int, upto: int) -> list[LogEntry]:
        """The log rows written by the changes that took the table from version `after` to
        `upto`, in order (a front end that showed the table at `after` says what happened
        since, up to the version it reads now)."""
        async with self._conn.execute(
            "SELECT n, seat, action, user_id, events, at, undone FROM actions "
            "WHERE session_id = ? AND version > ? AND version <= ? ORDER BY n",
            (session_id, after, upto),
        ) as cur:
            rows = await cur.fetchall()
        return [
            LogEntry(n, seat, a, u, json.loads(ev), at, bool(undone))
            for n, seat, a, u, ev, at, undone in rows
        ]

    async def log(self, session_id: int, since: int = 0) -> list[LogEntry]:
        async with self._conn.execute(
            "SELECT n, seat, action, user_id, events, at, undone FROM actions "
            "WHERE session_id = ? AND n > ? ORDER BY n",
            (session_id, since),
        ) as cur:
            rows = await cur.fetchall()
        return [
            LogEntry(n, seat, a, u, json.loads(ev), at, bool(undone))
            for n, seat, a, u, ev, at, undone in rows
        ]


def _on(platforms: Sequence[str] | None) -> tuple[str, tuple[str, ...]]:
    """An `AND platform IN (...)` clause, or nothing for every platform."""
    if platforms is None:
        return "", ()
    return f" AND platform IN ({', '.join('?' for _ in platforms) or 'NULL'})", tuple(platforms)
