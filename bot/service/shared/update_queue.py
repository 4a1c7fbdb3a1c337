"""A platform's updates, kept in the store before they are acknowledged and handed out to
any process in chat order (issue 58; the SQL is bot/store/update_queries.py).

A front end `put`s each update as it arrives and acknowledges it only then; its workers
`claim` what they may run (the oldest unfinished update of each chat, so the updates of
one chat run one after another, whichever process received them), say when the service
has answered one (`served`) and `finish` it. While a process works its leases are renewed
every third of a lease; a process that dies (kill -9, the OOM killer) stops renewing, and
once its leases have run out another process takes its updates over, knowing how far the
first one got. The platform's retries of an update id are dropped at `put`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket

from bot.store import QueuedUpdate, Store
from bot.store.update_queries import CHANNEL
from bot.telemetry import metrics

log = logging.getLogger(__name__)

LEASE = 30.0  # seconds an update is held without a renewal (TELEGRAM_UPDATE_LEASE)
PRUNE_EVERY = 3600.0  # seconds between two prunings of finished updates' ids


class UpdateQueue:
    def __init__(self, store: Store, platform: str, lease: float = LEASE) -> None:
        self.store = store
        self.platform = platform
        self.lease = lease
        # who holds an update: this process (its host, pid and a token of this run)
        self.holder = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.arrived = asyncio.Event()  # something may be claimable now
        self._held = 0  # updates this process works on
        self._renewing: asyncio.Task | None = None
        self._listening = None

    async def put(self, update_id: int, chat: str, payload: str) -> bool:
        """Keep an update before it is acknowledged; False for a retry of one kept already.
        Raises StoreError when it could not be kept (then it must not be acknowledged)."""
        kept = await self.store.put_update(self.platform, update_id, chat, payload)
        metrics.UPDATES_RECEIVED.labels(self.platform, "new" if kept else "repeated").inc()
        self.arrived.set()
        return kept

    async def claim(self, most: int) -> list[QueuedUpdate]:
        """What this process may run now: up to `most` updates, none of a chat with an
        earlier update unfinished; taken over from a dead process once its lease ran out."""
        self._start()
        found = await self.store.claim_updates(self.platform, self.holder, self.lease, most)
        self._held += len(found)
        for update in found:
            if update.tries > 1:
                metrics.UPDATES_TAKEN_OVER.labels(self.platform).inc()
                log.info(
                    "update %s of chat %s taken over (try %d, %s)",
                    update.update_id,
                    update.chat,
                    update.tries,
                    update.stage or "not served",
                )
        return found

    async def served(self, update_id: int) -> None:
        """The service has answered this update: a process taking it over does not ask
        again."""
        await self.store.update_served(self.platform, update_id, self.holder)

    async def finish(self, update_id: int) -> None:
        self._held -= 1
        if not await self.store.finish_update(self.platform, update_id, self.holder):
            log.warning("update %s was taken over before it finished here", update_id)

    async def wait(self, timeout: float) -> None:
        """Until an update may be claimable (one stored here or by another process), or
        `timeout` seconds (a dead process's lease runs out unannounced)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.arrived.wait(), timeout)
        self.arrived.clear()

    def _start(self) -> None:
        if self._renewing is None:
            self._renewing = asyncio.create_task(self._renew(), name="update-leases")
            self._listening = self.store.listen(CHANNEL, self._heard)

    def _heard(self, payload: str) -> None:
        if payload == self.platform:
            self.arrived.set()

    async def _renew(self) -> None:
        """Every third of a lease: this process's leases run on; once an hour, old ids go."""
        pruned = 0.0
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.lease / 3)
            try:
                if self._held > 0:
                    await self.store.renew_updates(self.platform, self.holder, self.lease)
                if loop.time() - pruned > PRUNE_EVERY:
                    pruned = loop.time()
                    await self.store.prune_updates(self.platform)
                metrics.UPDATES_WAITING.labels(self.platform).set(
                    await self.store.updates_waiting(self.platform)
                )
            except Exception:  # the store away for a moment: the next round tries again
                log.exception("could not renew the leases of %s's updates", self.platform)

    async def close(self) -> None:
        """This process stops: what it still holds goes back to the queue at once (the
        others take it over, knowing how far it got)."""
        try:
            await self.store.release_updates(self.platform, self.holder)
        except Exception:  # its lease runs out instead
            log.warning("could not hand back the updates this process held")
        task, self._renewing = self._renewing, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._listening is not None:
            await self._listening.close()
            self._listening = None
