"""A bot process for the tournament's multi-process tests: opens the store and moves the
tournament on with one scan of its timer loop, at the same instant as the other processes
(a barrier); or opens a round and is killed (SIGKILL) while opening its `die_at`-th table.
Kept free of pytest so a spawned process starts quickly."""

from __future__ import annotations

import asyncio
import os
import signal

from bot.service import ChatRef, FrontEnd, GameService
from bot.service.timer_loop import Timers
from bot.store import Store


def tick_once(target: str, barrier, results, die_at: int = 0) -> None:
    async def main() -> dict:
        store = await Store.open(target, busy_timeout=10)
        service = GameService(store, pictures=False)
        said: list[str] = []
        opened = 0

        async def deliver(chat: ChatRef, plan) -> None:
            said.extend(f"{chat.thread}|{reply.text}" for reply in plan)

        async def open_place(home: ChatRef, name: str) -> ChatRef | None:
            nonlocal opened
            opened += 1
            if opened == die_at:
                os.kill(os.getpid(), signal.SIGKILL)  # mid-round: tables before this are open
            return None

        service.add_front_end("test", FrontEnd(deliver, open_place=open_place))
        try:
            if barrier is not None:
                await asyncio.to_thread(barrier.wait, 120)
            report = await Timers(service, interval=30).tick()
        finally:
            await store.close()
        progress = {tid: vars(p) for tid, p in report.tournaments.items()}
        return {"progress": progress, "said": said}

    results.put(asyncio.run(main()))
