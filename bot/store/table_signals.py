"""The table-changed signal: who wants to know that a session moved on hears of it.

Every write that bumps a session's version (a move, a join, a start, an abort) and every
turn-clock write is noted while its transaction runs and announced once it has committed,
as `(session_id, version)`. Within one process the announcement goes straight to the
subscribers (asyncio callbacks). On PostgreSQL the transaction also says
`NOTIFY escape_tables, '<origin>:<session_id>:<version>'`, which PostgreSQL delivers only
if it commits; every process that has subscribers keeps one `LISTEN` connection and
passes on what other processes wrote (its own origin it has announced already). On SQLite
the signal stays in its process (docs/web-board.md).

Subscribers are told a table changed, never what changed: they read the table again
through the service, so nothing secret travels with the signal.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import os
import secrets
from collections.abc import Callable

from bot.store.listening import Listening

log = logging.getLogger(__name__)

CHANNEL = "escape_tables"

Subscriber = Callable[[int, int], None]

# the sessions the current transaction changed: announced after it commits
_pending: contextvars.ContextVar[list[tuple[int, int]] | None] = contextvars.ContextVar(
    "escape_table_changes", default=None
)


class TableSignals:
    def __init__(self, postgres_url: str | None = None) -> None:
        self.url = postgres_url  # None: SQLite, the signal stays in this process
        self.origin = f"{os.getpid()}-{secrets.token_hex(4)}"  # this process's notes
        self._subscribers: list[Subscriber] = []
        self._listener: Listening | None = None
        self._closed = False

    # ----- inside a write ---------------------------------------------------------------
    @staticmethod
    def collecting() -> contextvars.Token | None:
        """Start noting changes for the outermost transaction (None when one is open)."""
        if _pending.get() is not None:
            return None
        return _pending.set([])

    def note(self, session_id: int, version: int) -> str | None:
        """A session changed in the transaction under way; on PostgreSQL the payload of
        the NOTIFY the transaction should send."""
        noted = _pending.get()
        if noted is not None:
            noted.append((session_id, version))
        return f"{self.origin}:{session_id}:{version}" if self.url else None

    def settle(self, token: contextvars.Token | None, committed: bool) -> None:
        """The outermost transaction ended: announce what it changed if it committed."""
        if token is None:
            return
        noted = _pending.get() or []
        _pending.reset(token)
        if committed:
            newest: dict[int, int] = {}
            for session_id, version in noted:  # a retried transaction noted twice
                newest[session_id] = max(version, newest.get(session_id, version))
            for session_id, version in newest.items():
                self.announce(session_id, version)

    # ----- subscribers ------------------------------------------------------------------
    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """`subscriber(session_id, version)` after every change; returns the unsubscribe.
        On PostgreSQL the first subscriber opens this process's LISTEN connection."""
        self._subscribers.append(subscriber)
        if self.url and self._listener is None and not self._closed:
            self._listener = Listening(self.url, CHANNEL, self._heard)

        def unsubscribe() -> None:
            with contextlib.suppress(ValueError):
                self._subscribers.remove(subscriber)

        return unsubscribe

    def announce(self, session_id: int, version: int) -> None:
        for subscriber in list(self._subscribers):
            try:
                subscriber(session_id, version)
            except Exception:  # one broken page must not stop the others' updates
                log.exception("a table-change subscriber failed")

    async def listening(self, timeout: float = 10.0) -> None:
        """Wait until the LISTEN connection is up (tests; a no-op on SQLite or before the
        first subscriber)."""
        if self._listener is not None:
            await asyncio.wait_for(self._listener.up.wait(), timeout)

    # ----- PostgreSQL -------------------------------------------------------------------
    def _heard(self, payload: str) -> None:
        origin, _, rest = payload.partition(":")
        if origin == self.origin:
            return  # announced when it committed here
        session, _, version = rest.partition(":")
        if session.isdigit() and version.isdigit():
            self.announce(int(session), int(version))

    async def close(self) -> None:
        self._closed = True
        self._subscribers.clear()
        listener, self._listener = self._listener, None
        if listener is not None:
            await listener.close()
