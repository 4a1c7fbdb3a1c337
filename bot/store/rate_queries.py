"""Rate windows every process of a bot shares (issue 58): the platforms count their limits
per bot token and per chat, not per process, so the sends of all processes are counted in
one place.

A window is a key (`telegram:group:-100123`) and a rate: at most `count` calls in any
`per` seconds. Each call reserves its time in every window it counts in, in one
transaction (on PostgreSQL the windows' rows are locked for it, in key order): the
earliest time, from now on the database's clock, at which no window would hold more than
its count within its length (`earliest`), and not before a window's `held` time (a 429's
retry_after, which every process then honours). A call is placed in a window's gaps where
it fits, so one chat waiting for its group's minute does not hold up the others in the
global window. Times a window can no longer affect are dropped as it is written.

A mixin of `Store`: plain SQL both databases read (the bot keeps these windows in its own
process on SQLite, where it is the only process; `bot/service/shared/rates.py`).
"""

from __future__ import annotations

import json
from bisect import insort
from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.errors import driver_errors_translated
from bot.store.query_base import QueryBase

UNUSED_FOR = 3600.0  # seconds after which an unused window's row is removed


@dataclass(frozen=True)
class Window:
    key: str
    count: int  # at most this many calls ...
    per: float  # ... in any this many seconds (its length, margin included)


def _fits(times: list[float], at: float, count: int, per: float) -> bool:
    """Whether one more call at `at` keeps every stretch of `per` seconds of `times` (sorted)
    at `count` calls or fewer."""
    i = sum(1 for t in times if t <= at)  # where `at` goes
    with_it = [*times[:i], at, *times[i:]]
    for j in range(max(0, i - count), i + 1):
        if j + count < len(with_it) and with_it[j + count] - with_it[j] < per:
            return False
    return True


def earliest_in(times: list[float], at: float, count: int, per: float) -> float:
    """The earliest time from `at` at which one more call fits in a window holding
    `times` (sorted)."""
    if len(times) < count or _fits(times, at, count, per):
        return at
    later = {t + per for t in times if t + per > at} | {t for t in times if t > at}
    for candidate in sorted(later):
        if _fits(times, candidate, count, per):
            return candidate
    return max(at, times[-count] + per)  # after every call held (always fits)


def earliest(now: float, windows: Sequence[tuple[Window, list[float], float]]) -> float:
    """The earliest time from `now` at which a call fits in every window, each given with
    its times (sorted) and its held-until time."""
    at = max([now, *(held for _, _, held in windows)])
    for _ in range(1000):
        moved = False
        for window, times, _ in windows:
            if window.count <= 0:
                continue
            fits = earliest_in(times, at, window.count, window.per)
            if fits > at:
                at, moved = fits, True
        if not moved:
            return at
    return at


@driver_errors_translated
class RateQueries(QueryBase):
    """The shared rate windows (mixed into `Store`)."""

    async def rate_turn(self, windows: Sequence[Window], most: float | None) -> float | None:
        """Reserve one call's time in every window: the seconds to wait (of the database's
        clock) before making it, or None (nothing reserved) when that would be more than
        `most` seconds."""
        keys = sorted({w.key for w in windows})
        now_sql = self._conn.now_sql
        lock = " FOR UPDATE" if self._conn.kind == "postgresql" else ""
        marks = ", ".join("?" for _ in keys)

        async def read(conn) -> tuple[float, dict]:
            async with conn.execute(
                f"SELECT key, times, held, {now_sql} FROM rate_windows "
                f"WHERE key IN ({marks}) ORDER BY key{lock}",
                keys,
            ) as cur:
                rows = await cur.fetchall()
            now = rows[0][3] if rows else None
            return now, {key: (json.loads(times), held) for key, times, held, _ in rows}

        async def work(conn) -> float | None:
            now, found = await read(conn)
            if len(found) < len(keys):
                await conn.executemany(
                    "INSERT INTO rate_windows (key, times, held, used) VALUES (?, '[]', 0, 0) "
                    "ON CONFLICT (key) DO NOTHING",
                    [(k,) for k in keys if k not in found],
                )
                now, found = await read(conn)
            at = earliest(now, [(w, *found[w.key]) for w in windows])
            if most is not None and at - now > most:
                return None
            longest: dict[str, float] = {}
            for w in windows:
                if w.count > 0:
                    longest[w.key] = max(longest.get(w.key, 0.0), w.per)
            for key in keys:
                times = [t for t in found[key][0] if t > now - longest.get(key, 0.0)]
                if key in longest:
                    insort(times, at)
                await conn.execute(
                    "UPDATE rate_windows SET times = ?, used = ? WHERE key = ?",
                    (json.dumps(times), now, key),
                )
            return at - now

        return await self.write(work)

    async def note_rate(self, window: Window, ago: float) -> None:
        """A call made `ago` seconds ago without its turn in `window` (its bucket was not
        known yet): counted now, so the window holds what the platform counted."""
        now_sql = self._conn.now_sql
        lock = " FOR UPDATE" if self._conn.kind == "postgresql" else ""

        async def work(conn) -> None:
            await conn.execute(
                f"INSERT INTO rate_windows (key, times, held, used) VALUES (?, '[]', 0, {now_sql}) "
                "ON CONFLICT (key) DO NOTHING",
                (window.key,),
            )
            async with conn.execute(
                f"SELECT times, {now_sql} FROM rate_windows WHERE key = ?{lock}", (window.key,)
            ) as cur:
                text, now = await cur.fetchone()
            times = [t for t in json.loads(text) if t > now - window.per]
            insort(times, now - ago)
            await conn.execute(
                "UPDATE rate_windows SET times = ?, used = ? WHERE key = ?",
                (json.dumps(times), now, window.key),
            )

        await self.write(work)

    async def hold_rates(self, keys: Sequence[str], seconds: float) -> None:
        """No call counted in these windows for `seconds` (the platform answered 429 and
        asked to wait): every process waits."""
        now_sql = self._conn.now_sql

        async def work(conn) -> None:
            for key in sorted(set(keys)):
                await conn.execute(
                    "INSERT INTO rate_windows (key, times, held, used) "
                    f"VALUES (?, '[]', {now_sql} + ?, {now_sql}) ON CONFLICT (key) DO UPDATE "
                    "SET held = CASE WHEN rate_windows.held > excluded.held "
                    "THEN rate_windows.held ELSE excluded.held END",
                    (key, seconds),
                )

        await self.write(work)

    async def prune_rates(self) -> int:
        """Remove the windows nobody used for an hour (a chat that went quiet)."""
        now_sql = self._conn.now_sql

        async def work(conn) -> int:
            cur = await conn.execute(
                f"DELETE FROM rate_windows WHERE used < {now_sql} - ? AND held < {now_sql}",
                (UNUSED_FOR,),
            )
            return cur.rowcount

        return await self.write(work)

    async def rate_route(self, route: str) -> tuple[str, int, float] | None:
        """A Discord route's bucket (its hash, limit and length), as learned."""
        rows = await self.rows(
            "SELECT bucket, count, per FROM rate_routes WHERE route = ?", (route,)
        )
        return (rows[0][0], int(rows[0][1]), float(rows[0][2])) if rows else None

    async def learn_rate_route(self, route: str, bucket: str, count: int, per: float) -> None:
        async def work(conn) -> None:
            await conn.execute(
                "INSERT INTO rate_routes (route, bucket, count, per) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (route) DO UPDATE SET bucket = excluded.bucket, "
                "count = excluded.count, per = CASE WHEN rate_routes.bucket = excluded.bucket "
                "AND rate_routes.per > excluded.per THEN rate_routes.per ELSE excluded.per END",
                (route, bucket, count, per),
            )

        await self.write(work)
