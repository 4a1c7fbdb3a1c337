"""`escape-bot health`: is the running bot alive? For Docker's HEALTHCHECK and monitoring.

With ESCAPE_METRICS set, the running bot answers that itself: this asks its `/healthz`
(bot/probes.py: its event loop answers, and its timer loop has scanned within the gap
below). Without HTTP it reads the answer from the database: the timer loop writes a
heartbeat per platform at every scan (at least every ESCAPE_TIMER_INTERVAL seconds); the
bot is healthy while the heartbeat of every configured platform is younger than the gap
after which the bot counts itself as having been down (three intervals, and at least two
minutes).
"""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request

from bot.service.timer_loop import HEARTBEAT
from bot.settings import Settings
from bot.store import Store

HTTP_TIMEOUT = 10.0  # seconds for /healthz to answer


def local_url(address: tuple[str, int], path: str) -> str:
    """The URL of `path` on this machine's bot (an address on every interface is asked on
    the loopback)."""
    host, port = address
    host = "127.0.0.1" if host in ("", "0.0.0.0") else "::1" if host == "::" else host
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{port}{path}"


def ask_http(url: str, timeout: float = HTTP_TIMEOUT) -> tuple[bool, str]:
    """(healthy, why) from a probe's JSON answer."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            body = answer.read()
    except urllib.error.HTTPError as exc:
        body = exc.read()
    except OSError as exc:
        return False, f"unhealthy: {url} did not answer ({exc})"
    try:
        said = json.loads(body)
        checks = ", ".join(f"{k} {v}" for k, v in said["checks"].items())
        return bool(said["ok"]), ("healthy: " if said["ok"] else "unhealthy: ") + checks
    except (ValueError, KeyError, TypeError):
        return False, f"unhealthy: {url} answered something else"


async def check(settings: Settings, now: float | None = None) -> tuple[bool, str]:
    """(healthy, one line saying why)."""
    if settings.metrics_address is not None:
        return await asyncio.to_thread(ask_http, local_url(settings.metrics_address, "/healthz"))
    platforms = [
        name
        for name, token in (
            ("discord", settings.discord_token),
            ("telegram", settings.telegram_token),
        )
        if token
    ]
    if not platforms:
        return False, "no chat platform is configured (DISCORD_TOKEN, TELEGRAM_TOKEN)"
    now = time.time() if now is None else now
    limit = max(3 * settings.timer_interval, 120.0)
    store = await Store.open(settings.db_path)
    try:
        beats = {p: await store.get_meta(f"{HEARTBEAT}.{p}") for p in platforms}
    finally:
        await store.close()
    late = []
    for platform, beat in beats.items():
        if beat is None:
            late.append(f"{platform}: no heartbeat yet")
        elif now - float(beat) > limit:
            late.append(f"{platform}: last heartbeat {now - float(beat):.0f} s ago")
    if late:
        return False, "unhealthy: " + "; ".join(late) + f" (limit {limit:.0f} s)"
    return True, "healthy: " + ", ".join(
        f"{p} {now - float(b):.0f} s ago" for p, b in beats.items()
    )
