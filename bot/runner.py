"""Start whatever is configured: Discord and Telegram in one event loop, sharing one service.

SIGTERM or SIGINT stops it cleanly (docs/deployment.md, "Running at scale"): /readyz turns 503, the timer
loop stops, each platform stops taking updates (PTB's updater is stopped, so Telegram does
not deliver them again, and the Telegram updates in hand finish; Discord closes its
gateway), the HTTP server stops, open store transactions finish, the store closes, and the
process exits 0.

ESCAPE_METRICS serves the operator's part (bot/probes.py: /metrics, /healthz, /readyz) and
ESCAPE_WEB the web board (bot/web) with /healthz and /readyz, each on an HTTP server of its
own (bot/http_server.py): the web board's address is public, /metrics never is. They start
before the platforms connect, so /healthz answers from the start and /readyz says what it
still waits for.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from typing import TYPE_CHECKING

from bot import heap
from bot.http_server import HttpServer
from bot.probes import Probes, configured_platforms, describe_process
from bot.service import GameService
from bot.service.pictures.workers import CpuPool, default_workers
from bot.service.timer_loop import Timers
from bot.settings import Settings
from bot.store import Store

if TYPE_CHECKING:
    from bot.web import WebBoard

log = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
PLATFORM_GRACE = 15.0  # seconds for the platforms to finish what they hold
STORE_GRACE = 5.0  # then for the store's open transactions


async def open_service(settings: Settings, workers: int = 0) -> GameService:
    """The store and the service; `workers` > 0 starts that many CPU worker processes once
    the bot is up (bot/service/pictures/workers.py: `start_soon`), which practise when idle."""
    cpu = CpuPool(workers, practice=settings.practice, layout=settings.cpu_layout).start_soon()
    try:
        store = await Store.open(settings.db_path, pool_size=settings.db_pool, check_apart=True)
    except BaseException:
        await cpu.close()
        raise
    return GameService(
        store,
        default_pace=settings.default_pace,
        cpu=cpu,
        keep_games_days=settings.keep_games_days,
    )


async def serve(settings: Settings) -> None:
    """Run every configured platform until one stops, or a stop signal comes."""
    service = await open_service(settings, workers=default_workers())  # pictures on every core
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, stop.set)
    tasks = []
    # the first scan waits one interval, so the platforms have connected by then
    timers = Timers(service, interval=settings.timer_interval)
    probes = Probes(service, timers, configured_platforms(settings))
    servers: list[HttpServer] = []
    try:
        describe_process(settings)
        if settings.metrics_address is not None:
            servers.append(HttpServer(settings.metrics_address, [probes.part]))
            await servers[-1].start()
        board = await web_board(settings, service)
        if board is not None:
            what = "the web board, /healthz and /readyz"
            servers.append(HttpServer(settings.web_address, [probes.health_part, board.part], what))
            await servers[-1].start()
            board.listening_on(servers[-1].host, servers[-1].port)
            log.info("the web board is at %s", board.base)
        if settings.discord_token:
            from bot.discord import run_discord

            tasks.append(asyncio.create_task(run_discord(settings, service), name="discord"))
        if settings.telegram_token:
            from bot.telegram import run_telegram

            tasks.append(asyncio.create_task(run_telegram(settings, service), name="telegram"))
        timer_task = asyncio.create_task(timers.run(), name="timers")
        tasks.append(timer_task)
        # the store's integrity check, run beside the start (writes wait for it): damage
        # found stops the bot, as it did when the check came first
        check = asyncio.create_task(service.store.checked(), name="store check")
        tasks.append(check)
        heap.settle()  # all imported and built: kept out of the collector's full passes
        platforms = asyncio.ensure_future(asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION))
        stopping = asyncio.ensure_future(stop.wait())
        await asyncio.wait([platforms, stopping], return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        if not platforms.done():
            platforms.cancel()
        if stop.is_set():
            log.info("stopping: finishing the moves in hand")
        else:
            if not check.done():  # a platform failed: damage, if found, is the cause to tell
                await asyncio.wait([check], timeout=STORE_GRACE)
            if check.done() and not check.cancelled():
                check.result()
            for task in platforms.result()[0]:
                task.result()
    finally:
        probes.stopping = True  # /readyz: 503 from now on
        for sig in STOP_SIGNALS:
            loop.remove_signal_handler(sig)
        await _stop(tasks)
        for server in servers:
            await server.stop()
        await service.cpu.close()
        await service.store.close(STORE_GRACE)


async def web_board(
    settings: Settings, service: GameService, *, local: bool = False, language: str = ""
) -> WebBoard | None:
    """The web board of ESCAPE_WEB (or, `local`, of terminal play), or None. It signs with
    ESCAPE_WEB_SECRET, else with the keys kept in the store (bot/service/web/web_keys.py)."""
    if settings.web_address is None and not local:
        return None
    from bot.web import WebBoard, WebConfig

    fixed = settings.web_secret.encode() if settings.web_secret else None
    config = WebConfig(
        settings.public_url,
        await service.web_board.signer(fixed, settings.web_key()),
        local=local,
        language=language,
        telegram_token=settings.telegram_token,
        telegram_webapp=settings.telegram_webapp,
        discord_client_id=settings.discord_client_id,
        discord_client_secret=settings.discord_client_secret,
        discord_api=settings.discord_api_base,
        proxies=settings.web_proxies,
    )
    return WebBoard(service, config)


async def _stop(tasks: list[asyncio.Task]) -> None:
    """The timer loop and the platforms (each stops in its own `finally`), for a bounded
    time."""
    for task in tasks:
        task.cancel()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), PLATFORM_GRACE)
