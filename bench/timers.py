"""`python -m bench.timers [games]`: the cost of one scan of the timer loop.

Many running games (two players each, the default pace) on one SQLite file, with an
injected clock: a scan when nothing is due, a scan when every game's first reminder is
due (one digest per player), and a scan when every deadline has passed. Measurements on
whatever machine runs it, not test assertions.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

from bot.service import ChatRef, GameService, UserRef
from bot.service.base import deadlines
from bot.service.timer_loop import HEARTBEAT, Timers
from bot.store import Store

T0 = 1_800_000_000.0


async def measure(games: int) -> dict[str, str]:
    now = [T0]
    sent: list[object] = []
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.sqlite3", clock=lambda: now[0])
        service = GameService(store, seed_source=lambda: 1, pictures=False, clock=lambda: now[0])

        async def deliver(chat, replies):
            sent.extend(replies)

        service.add_notifier("bench", deliver)
        timers = Timers(service, interval=30)
        players = [UserRef("bench", f"u{i}", f"P{i}") for i in range(games // 5 + 2)]
        for n in range(games):  # each player sits in a handful of games, as on a real server
            chat = ChatRef("bench", f"chan-{n}", "", "guild")
            a, b = players[n % len(players)], players[(n + 1) % len(players)]
            await service.start(chat, a, "ghosts18")
            await service.join(chat, b)
        await timers.tick()  # first heartbeat

        rows = {}
        for label, at in (
            ("nothing due", T0 + 60),
            ("first reminders due", T0 + 0.6 * deadlines.DAY),
            ("deadlines passed", T0 + 1.01 * deadlines.DAY),
        ):
            # A live loop beats every interval: without this the jump would count as downtime.
            await store.swap_meta(f"{HEARTBEAT}.bench", repr(at - 30))
            now[0] = at
            before = len(sent)
            t = time.perf_counter()
            report = await timers.tick()
            rows[label] = (
                f"{(time.perf_counter() - t) * 1000:.1f} ms, {len(sent) - before} messages, "
                f"{len(report.reminders)} reminders, {len(report.deadlines)} deadlines"
            )
        await store.close()
    return rows


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    print(f"timer scan over {games} running games")
    for label, row in asyncio.run(measure(games)).items():
        print(f"  {label}: {row}")


if __name__ == "__main__":
    main()
