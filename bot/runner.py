"""Start whatever is configured: Discord and Telegram in one event loop, sharing one service."""

from __future__ import annotations

import asyncio
import logging

from bot.service import GameService
from bot.service.timers import Timers
from bot.service.workers import CpuPool, default_workers
from bot.settings import Settings
from bot.store import Store

log = logging.getLogger(__name__)


async def open_service(settings: Settings, workers: int = 0) -> GameService:
    """The store and the service; `workers` > 0 starts that many CPU worker processes."""
    store = await Store.open(settings.db_path)
    cpu = CpuPool(workers).start()
    return GameService(store, default_pace=settings.default_pace, cpu=cpu)


async def serve(settings: Settings) -> None:
    """Run every configured platform until one stops or the process is interrupted."""
    service = await open_service(settings, workers=default_workers())  # pictures on every core
    tasks = []
    try:
        if settings.discord_token:
            from bot.discord import run_discord

            tasks.append(asyncio.create_task(run_discord(settings, service), name="discord"))
        if settings.telegram_token:
            from bot.telegram import run_telegram

            tasks.append(asyncio.create_task(run_telegram(settings, service), name="telegram"))
        # the first scan waits one interval, so the platforms have connected by then
        timers = Timers(service, interval=settings.timer_interval)
        tasks.append(asyncio.create_task(timers.run(), name="timers"))
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
        for task in done:
            task.result()
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await service.cpu.close()
        await service.store.close()
