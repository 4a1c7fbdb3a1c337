"""A platform's updates, stored before they are acknowledged and handed out in chat order
(issue 58).

An update is kept (`put_update`, once per update id: the platform's retries of it are
dropped) before the platform is told it arrived. Any process then claims the oldest
unfinished update of each chat (`claim_updates`): an update is handed out only when every
earlier update of its chat is done, under a lease its holder renews while it works. A
holder that dies leaves its lease to run out, and another process takes the update over,
with the stage the first one reached (`served`: the service answered it). Finished
updates are kept a day (their ids refuse a late retry), then pruned.

A mixin of `Store`, like `MemoryQueries`: plain SQL both databases read. On PostgreSQL two
processes claiming at once both read a head, and the compare-and-set on its state and
lease lets only one take it.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.errors import driver_errors_translated
from bot.store.query_base import QueryBase

CHANNEL = "escape_updates"  # NOTIFY channel: an update was stored (payload: the platform)
KEPT_FOR = 86400.0  # seconds a finished update's id is kept


@dataclass(frozen=True)
class QueuedUpdate:
    platform: str
    update_id: int
    chat: str  # the order key: updates of one chat are handed out one after another
    payload: str  # the update as the platform sent it (JSON)
    received: float
    stage: str  # '' until the service answered it, then 'served'
    tries: int  # times it was handed out (more than one: taken over)


@driver_errors_translated
class UpdateQueries(QueryBase):
    """The update queue (mixed into `Store`)."""

    async def put_update(self, platform: str, update_id: int, chat: str, payload: str) -> bool:
        """Keep an update; False if its id was kept already (a retry of it)."""
        now = self._conn.now_sql

        async def work(conn) -> bool:
            cur = await conn.execute(
                "INSERT INTO platform_updates "
                "(platform, update_id, chat, payload, received, state, stage, holder, lease, "
                f"tries) VALUES (?, ?, ?, ?, {now}, 'waiting', '', '', 0, 0) "
                "ON CONFLICT (platform, update_id) DO NOTHING",
                (platform, update_id, chat, payload),
            )
            if cur.rowcount == 1 and self._conn.kind == "postgresql":
                await conn.execute("SELECT pg_notify(?, ?)", (CHANNEL, platform))
            return cur.rowcount == 1

        return await self.write(work)

    async def claim_updates(
        self, platform: str, holder: str, lease: float, most: int
    ) -> list[QueuedUpdate]:
        """Up to `most` updates for `holder`, each the oldest unfinished one of its chat,
        waiting or left by a holder whose lease ran out; each now held for `lease` seconds
        (of the database's clock, the same for every process)."""
        now = self._conn.now_sql

        async def work(conn) -> list[QueuedUpdate]:
            async with conn.execute(
                "SELECT u.update_id, u.chat, u.payload, u.received, u.stage, u.tries, u.lease, "
                "u.state FROM platform_updates u "
                "WHERE u.platform = ? AND u.state <> 'done' "
                f"AND (u.state = 'waiting' OR u.lease < {now}) "
                "AND NOT EXISTS (SELECT 1 FROM platform_updates e WHERE e.platform = u.platform "
                "AND e.chat = u.chat AND e.state <> 'done' AND e.update_id < u.update_id) "
                "ORDER BY u.update_id LIMIT ?",
                (platform, most),
            ) as cur:
                heads = await cur.fetchall()
            claimed = []
            for update_id, chat, payload, received, stage, tries, old_lease, state in heads:
                cur = await conn.execute(
                    f"UPDATE platform_updates SET state = 'working', holder = ?, lease = {now} + ?, "
                    "tries = tries + 1 WHERE platform = ? AND update_id = ? AND state = ? "
                    "AND lease = ?",
                    (holder, lease, platform, update_id, state, old_lease),
                )
                if cur.rowcount == 1:
                    claimed.append(
                        QueuedUpdate(platform, update_id, chat, payload, received, stage, tries + 1)
                    )
            return claimed

        return await self.write(work)

    async def renew_updates(self, platform: str, holder: str, lease: float) -> int:
        """`holder` is still at work on what it holds: its leases run `lease` seconds more."""
        now = self._conn.now_sql

        async def work(conn) -> int:
            cur = await conn.execute(
                f"UPDATE platform_updates SET lease = {now} + ? "
                "WHERE platform = ? AND holder = ? AND state = 'working'",
                (lease, platform, holder),
            )
            return cur.rowcount

        return await self.write(work)

    async def update_served(self, platform: str, update_id: int, holder: str) -> None:
        """The service answered the update: one that takes it over must not ask again."""

        async def work(conn) -> None:
            await conn.execute(
                "UPDATE platform_updates SET stage = 'served' "
                "WHERE platform = ? AND update_id = ? AND holder = ? AND state = 'working'",
                (platform, update_id, holder),
            )

        await self.write(work)

    async def finish_update(self, platform: str, update_id: int, holder: str) -> bool:
        """Done; False if `holder` lost it meanwhile (its lease ran out, another took it).
        (Its lease then says when it was finished.)"""
        now = self._conn.now_sql

        async def work(conn) -> bool:
            cur = await conn.execute(
                f"UPDATE platform_updates SET state = 'done', lease = {now}, payload = '' "
                "WHERE platform = ? AND update_id = ? AND holder = ? AND state = 'working'",
                (platform, update_id, holder),
            )
            return cur.rowcount == 1

        return await self.write(work)

    async def release_updates(self, platform: str, holder: str) -> int:
        """`holder` stops: what it still holds waits again, for any process."""

        async def work(conn) -> int:
            cur = await conn.execute(
                "UPDATE platform_updates SET state = 'waiting', lease = 0, holder = '' "
                "WHERE platform = ? AND holder = ? AND state = 'working'",
                (platform, holder),
            )
            return cur.rowcount

        return await self.write(work)

    async def prune_updates(self, platform: str, kept_for: float = KEPT_FOR) -> int:
        """Forget the ids of updates finished more than `kept_for` seconds ago."""
        now = self._conn.now_sql

        async def work(conn) -> int:
            cur = await conn.execute(
                "DELETE FROM platform_updates WHERE platform = ? AND state = 'done' "
                f"AND lease < {now} - ?",
                (platform, kept_for),
            )
            return cur.rowcount

        return await self.write(work)

    async def updates_waiting(self, platform: str) -> int:
        """Updates stored and not finished (a metric: the workers keep up while it is low)."""
        rows = await self.rows(
            "SELECT COUNT(*) FROM platform_updates WHERE platform = ? AND state <> 'done'",
            (platform,),
        )
        return int(rows[0][0])
