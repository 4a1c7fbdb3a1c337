"""`escape-bot health`: is the running bot alive? For Docker's HEALTHCHECK and monitoring.

The timer loop writes a heartbeat per platform into the database at every scan (at least
every ESCAPE_TIMER_INTERVAL seconds); the bot is healthy while the heartbeat of every
configured platform is younger than the gap after which the bot counts itself as having
been down (three intervals, and at least two minutes).
"""

from __future__ import annotations

import time

from bot.service.timer_loop import HEARTBEAT
from bot.settings import Settings
from bot.store import Store


async def check(settings: Settings, now: float | None = None) -> tuple[bool, str]:
    """(healthy, one line saying why)."""
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
