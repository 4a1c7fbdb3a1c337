"""Telegram's updates stored before they are acknowledged, then run once, in chat order, by
any worker (issue 58; the queue is the service's `UpdateQueue`, kept in the store).

PTB's updater hands every update it receives to the application's update queue: the
webhook answers Telegram 200 only once that hand-over is done, and long polling confirms
a batch only at its next poll. `StoredUpdates` is that queue: its `put` keeps the update in
the store (a retry of an update id is dropped there), so an acknowledged update is never
only in a process's memory. `Dispatcher` runs what the store hands this worker: the
oldest unfinished update of each chat, at most `CONCURRENT` chats at once, each through
PTB's handlers (`process_update`), then finished. A worker killed mid-update leaves it to
another once its lease runs out; the handlers say when the service has answered an update
(`served`), and one taken over after that is not asked again: its chat's board is shown
anew if the dead worker stored a move without showing it (`TelegramAdapter.resume`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

from telegram import Update
from telegram.ext import Application

from bot.service import UpdateQueue

log = logging.getLogger(__name__)

CONCURRENT = 64  # updates (of as many chats) one worker runs at once
IDLE_LOOK = 1.0  # seconds between two looks at the queue when nothing wakes the worker


def order_key(update: Update) -> str:
    """The chat whose updates run one after another: a message's chat, a pressed button's
    chat (an inline message's presser), else nothing shared."""
    chat = update.effective_chat
    if chat is not None:
        return str(chat.id)
    user = update.effective_user
    return f"u{user.id}" if user is not None else ""


class StoredUpdates(asyncio.Queue):
    """PTB's update queue, whose `put` keeps an update in the store before the updater
    acknowledges it. What PTB itself queues (the application's stop signal) stays here."""

    def __init__(self, queue: UpdateQueue) -> None:
        super().__init__()
        self.queue = queue

    async def put(self, item: object) -> None:
        if isinstance(item, Update):
            payload = json.dumps(item.to_dict(), separators=(",", ":"))
            await self.queue.put(item.update_id, order_key(item), payload)
            return
        await super().put(item)


class Dispatcher:
    """Runs the updates the store hands this worker, each once, each chat's in order."""

    def __init__(self, application: Application, adapter, queue: UpdateQueue) -> None:
        self.application = application
        self.adapter = adapter  # TelegramAdapter: resumes an update taken over once served
        self.queue = queue
        self.running: set[asyncio.Task] = set()
        self.claiming = True

    async def run(self) -> None:
        """Until cancelled (`stop` first lets what runs finish)."""
        while self.claiming:
            free = CONCURRENT - len(self.running)
            if free > 0:
                try:
                    claimed = await self.queue.claim(free)
                except Exception:  # the store away for a moment: look again soon
                    log.exception("could not claim Telegram updates")
                    claimed = []
                for queued in claimed:
                    task = asyncio.create_task(self._run_one(queued), name="telegram-update")
                    self.running.add(task)
                    task.add_done_callback(self.running.discard)
                if claimed:
                    continue  # more may wait
            await self.queue.wait(IDLE_LOOK)

    async def _run_one(self, queued) -> None:
        """One update, then finished (a cancelled one is not: another worker takes it)."""
        try:
            update = Update.de_json(json.loads(queued.payload), self.application.bot)
            if queued.stage == "served":
                await self.adapter.resume(update)
            else:
                await self.application.process_update(update)
        except Exception:
            log.exception("telegram update %s failed", queued.update_id)
        try:
            await self.queue.finish(queued.update_id)
        except Exception:
            log.exception("could not finish telegram update %s", queued.update_id)
        self.queue.arrived.set()  # the next update of its chat may run now

    async def stop(self, grace: float) -> None:
        """No more claims; the updates in hand finish (for up to `grace` seconds); what is
        left goes back to the queue for the other workers."""
        self.claiming = False
        self.queue.arrived.set()
        if self.running:
            await asyncio.wait(set(self.running), timeout=grace)
        for task in list(self.running):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.queue.close()
