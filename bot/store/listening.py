"""Hearing another process's NOTIFY on PostgreSQL: one LISTEN connection for a channel,
opened again whenever it is lost (the table signal's, table_signals.py, and the update
queue's "an update was stored", update_queries.py). SQLite has no other process to hear,
so there is nothing to listen to."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

RELISTEN_AFTER = 1.0  # seconds before a lost LISTEN connection is opened again


class Listening:
    def __init__(self, url: str, channel: str, heard: Callable[[str], None]) -> None:
        self.url, self.channel, self.heard = url, channel, heard
        self.up = asyncio.Event()
        self._task = asyncio.create_task(self._listen(), name=f"listen-{channel}")

    def _notified(self, _conn, _pid, _channel, payload: str) -> None:
        self.heard(payload)

    async def _listen(self) -> None:
        import asyncpg

        while True:
            conn = None
            try:
                conn = await asyncpg.connect(self.url, timeout=10)
                lost = asyncio.Event()
                conn.add_termination_listener(lambda _c, lost=lost: lost.set())
                await conn.add_listener(self.channel, self._notified)
                self.up.set()
                await lost.wait()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database away for a moment: listen again soon
                log.warning("LISTEN %s: connection lost (%s)", self.channel, type(exc).__name__)
            finally:
                self.up.clear()
                if conn is not None and not conn.is_closed():
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(conn.close(), 2)
            await asyncio.sleep(RELISTEN_AFTER)

    async def close(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task
