"""Bars and blocks (migration 13): an admin's bar of a user from the bot's tables in one
server or group, and a person's block of another.

The barred or blocked person is kept as `who`, a one-way hash of their platform and id:
a bar or block is asked about a person the platform names (their id is hashed again and
compared), and erasing that person (`/escape forget-me`) leaves their id nowhere while
what others set against them still holds. The name beside it is only for the lists an
admin or the blocker reads (blanked when that person is erased).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from bot.store.query_base import QueryBase


def who(platform: str, user_id: str) -> str:
    """The one-way form a bar or block keeps of a person."""
    return hashlib.sha256(f"escape-person\0{platform}\0{user_id}".encode()).hexdigest()[:40]


@dataclass(frozen=True)
class Barred:
    name: str
    barred_by: str
    at: float


class ModerationQueries(QueryBase):
    # ----- bars: an admin's, per server or group -------------------------------------
    async def bar(
        self, platform: str, scope: str, user_id: str, name: str, by: str, at: float
    ) -> bool:
        """Bar a user from the tables of a scope; False if they were barred already."""
        person = who(platform, user_id)

        async def work(conn) -> bool:
            async with conn.execute(
                "SELECT 1 FROM bars WHERE platform = ? AND scope = ? AND who = ?",
                (platform, scope, person),
            ) as cur:
                if await cur.fetchone() is not None:
                    return False
            await conn.execute(
                "INSERT INTO bars (platform, scope, who, name, barred_by, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (platform, scope, person, name, by, at),
            )
            return True

        return await self.write(work)

    async def unbar(self, platform: str, scope: str, user_id: str) -> bool:
        """Lift a bar; False if there was none."""

        async def work(conn) -> bool:
            cur = await conn.execute(
                "DELETE FROM bars WHERE platform = ? AND scope = ? AND who = ?",
                (platform, scope, who(platform, user_id)),
            )
            return cur.rowcount > 0

        return await self.write(work)

    async def barred(self, platform: str, scope: str, user_id: str) -> bool:
        rows = await self.rows(
            "SELECT 1 FROM bars WHERE platform = ? AND scope = ? AND who = ?",
            (platform, scope, who(platform, user_id)),
        )
        return bool(rows)

    async def bars_in(self, platform: str, scope: str) -> list[Barred]:
        rows = await self.rows(
            "SELECT name, barred_by, at FROM bars WHERE platform = ? AND scope = ? ORDER BY at",
            (platform, scope),
        )
        return [Barred(*row) for row in rows]

    async def people_named(self, platform: str, scope: str, name: str) -> list[tuple[str, str]]:
        """(id, name) of each person who sat at a table of this scope under this name (any
        case), as they are called now."""
        rows = await self.rows(
            "SELECT DISTINCT t.user_id FROM seats t JOIN sessions s ON s.id = t.session_id "
            "WHERE s.platform = ? AND s.scope = ? AND t.kind = 'human' "
            "AND (LOWER(t.name) = ? OR t.name = ?)",  # (SQLite lowers ASCII letters only)
            (platform, scope, name.lower(), name),
        )
        found = []
        for (user_id,) in rows:
            known = await self.rows(
                "SELECT name FROM users WHERE platform = ? AND user_id = ?", (platform, user_id)
            )
            found.append((user_id, known[0][0] if known else name))
        return found

    # ----- blocks: a person's own ----------------------------------------------------
    async def block(self, platform: str, user_id: str, other: str, name: str, at: float) -> bool:
        """`user_id` blocks `other`; False if they did already."""
        person = who(platform, other)

        async def work(conn) -> bool:
            async with conn.execute(
                "SELECT 1 FROM blocks WHERE platform = ? AND user_id = ? AND who = ?",
                (platform, user_id, person),
            ) as cur:
                if await cur.fetchone() is not None:
                    return False
            await conn.execute(
                "INSERT INTO blocks (platform, user_id, who, name, at) VALUES (?, ?, ?, ?, ?)",
                (platform, user_id, person, name, at),
            )
            return True

        return await self.write(work)

    async def unblock(self, platform: str, user_id: str, other: str) -> bool:
        async def work(conn) -> bool:
            cur = await conn.execute(
                "DELETE FROM blocks WHERE platform = ? AND user_id = ? AND who = ?",
                (platform, user_id, who(platform, other)),
            )
            return cur.rowcount > 0

        return await self.write(work)

    async def blocked_names(self, platform: str, user_id: str) -> list[str]:
        """Whom a person blocks, by the names they had when blocked (their own list)."""
        rows = await self.rows(
            "SELECT name FROM blocks WHERE platform = ? AND user_id = ? ORDER BY at",
            (platform, user_id),
        )
        return [name for (name,) in rows]

    async def blocks_among(self, platform: str, user_ids: list[str]) -> set[tuple[str, str]]:
        """The pairs of these people where one blocks the other (each pair once, as
        (blocker, blocked), both ids among `user_ids`)."""
        if len(user_ids) < 2:
            return set()
        by_who = {who(platform, u): u for u in user_ids}
        marks = ", ".join("?" for _ in user_ids)
        rows = await self.rows(
            f"SELECT user_id, who FROM blocks WHERE platform = ? AND user_id IN ({marks}) "
            f"AND who IN ({', '.join('?' for _ in by_who)})",
            (platform, *user_ids, *by_who),
        )
        return {(blocker, by_who[person]) for blocker, person in rows if person in by_who}
