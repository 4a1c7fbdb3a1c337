"""Who reads what, and where: a person's name, private chat and preferences (time zone,
quiet hours, language), and a chat's language.

A mixin of `Store` (its connection and its writes), in the same plain SQL as the other
queries (bot/store/memory_queries.py says which).
"""

from __future__ import annotations

import json

from bot.store.errors import driver_errors_translated
from bot.store.query_base import QueryBase


@driver_errors_translated
class PreferenceQueries(QueryBase):
    # ----- people ------------------------------------------------------------------
    async def upsert_user(
        self,
        platform: str,
        user_id: str,
        name: str,
        private_chat: str | None = None,
        seen_language: str = "",
    ) -> None:
        """A person as last seen: their name, the private chat they opened, and what their
        app said their language was (kept in their prefs as `seen_language`)."""

        async def work(conn):
            await conn.execute(
                "INSERT INTO users (platform, user_id, name, private_chat) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (platform, user_id) DO UPDATE SET name = excluded.name, "
                "private_chat = COALESCE(excluded.private_chat, users.private_chat)",
                (platform, user_id, name, private_chat),
            )
            if not seen_language:
                return
            async with conn.execute(
                "SELECT prefs FROM users WHERE platform = ? AND user_id = ?", (platform, user_id)
            ) as cur:
                row = await cur.fetchone()
            prefs = json.loads(row[0]) if row and row[0] else {}
            if prefs.get("seen_language") != seen_language:
                prefs["seen_language"] = seen_language
                await conn.execute(
                    "UPDATE users SET prefs = ? WHERE platform = ? AND user_id = ?",
                    (json.dumps(prefs), platform, user_id),
                )

        await self.write(work)

    async def user(self, platform: str, user_id: str) -> dict | None:
        async with self._conn.execute(
            "SELECT name, private_chat, prefs FROM users WHERE platform = ? AND user_id = ?",
            (platform, user_id),
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        return {"name": row[0], "private_chat": row[1], "prefs": json.loads(row[2])}

    async def set_prefs(self, platform: str, user_id: str, prefs: dict) -> None:
        async def work(conn):
            await conn.execute(
                "UPDATE users SET prefs = ? WHERE platform = ? AND user_id = ?",
                (json.dumps(prefs), platform, user_id),
            )

        await self.write(work)

    # ----- a chat's language -------------------------------------------------------
    async def chat_language(self, platform: str, chat: str, thread: str) -> str | None:
        async with self._conn.execute(
            "SELECT language FROM chat_settings WHERE platform = ? AND chat = ? AND thread = ?",
            (platform, chat, thread),
        ) as cur:
            row = await cur.fetchone()
        return row[0] if row else None

    async def set_chat_language(self, platform: str, chat: str, thread: str, language: str) -> None:
        async def work(conn) -> None:
            await conn.execute(
                "INSERT INTO chat_settings (platform, chat, thread, language) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (platform, chat, thread) DO UPDATE SET language = excluded.language",
                (platform, chat, thread, language),
            )

        await self.write(work)
