"""What the operator's metrics cost (issue 27): `python -m bench.metrics` (in `make bench`).

1. A move with and without metrics, in one run: seeded 18 Ghosts games played through
   `GameService.move` on one SQLite file (no pictures, so the move's own work is what is
   timed), rounds alternating between recording and `metrics.switched_off()`, so both see
   the same machine at the same time. Medians and their difference.
2. A scrape with 10,000 stored games (bench/scale.py's database): what `/metrics` does,
   the grouped count of the games (the cache bypassed) and the exposition, timed apart.

Measurements, not assertions: on a shared machine run it a few times.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bench.scale import GAMES, _cached_database
from bot import probes as probes_module
from bot.probes import Probes
from bot.service import ChatRef, GameService, UserRef
from bot.store import Store
from bot.telemetry import metrics

ROUNDS = 12  # rounds of each kind, alternating
GAMES_A_ROUND = 3
SCRAPES = 30


async def _play_round(service: GameService, rng: random.Random, round_no: int) -> list[float]:
    """GAMES_A_ROUND games in their own chats, each to its end: every move's time."""
    times = []
    for g in range(GAMES_A_ROUND):
        chat = ChatRef("bench", f"c{round_no}-{g}", "", "s")
        ann, bob = UserRef("bench", "a", "Ann"), UserRef("bench", "b", "Bob")
        await service.start(chat, ann, "ghosts18", "variant=short")
        await service.join(chat, bob)
        users = {"a": ann, "b": bob}
        for _ in range(400):
            row = await service.live(chat)
            if row is None:
                break
            loaded = service.table.load(row)
            seat = loaded.game.to_act(loaded.state)[0]
            user = users[row.seats[seat].user_id]
            action = rng.choice(loaded.game.legal_actions(loaded.state, seat))
            t = time.perf_counter()
            await service.move(chat, user, action)
            times.append(time.perf_counter() - t)
    return times


async def move_cost() -> str:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "moves.sqlite3")
        try:
            service = GameService(store, seed_source=lambda: 1234, pictures=False)
            rng = random.Random(27)
            on: list[float] = []
            off: list[float] = []
            for n in range(2 * ROUNDS):
                if n % 2:
                    with metrics.switched_off():
                        off += await _play_round(service, rng, n)
                else:
                    on += await _play_round(service, rng, n)
        finally:
            await store.close()
    m_on, m_off = statistics.median(on), statistics.median(off)
    return (
        f"move with metrics    median {m_on * 1e3:.3f} ms  ({len(on)} moves)\n"
        f"move without metrics median {m_off * 1e3:.3f} ms  ({len(off)} moves)\n"
        f"metrics cost a move  {(m_on - m_off) * 1e6:+.0f} us ({(m_on / m_off - 1) * 100:+.1f} %)"
    )


async def scrape_cost() -> str:
    path, _ = await _cached_database()
    store = await Store.open(path)
    try:
        service = GameService(store, pictures=False)
        probes = Probes(service, None, [])
        probes_module.COUNTS_TTL = 0.0  # every scrape counts again (the worst case)
        counts, whole, size = [], [], 0
        for _ in range(SCRAPES):
            t = time.perf_counter()
            stored = await store.game_counts()
            counts.append(time.perf_counter() - t)
            t = time.perf_counter()
            await probes.read_at_scrape()
            size = len(metrics.exposition())
            whole.append(time.perf_counter() - t)
    finally:
        await store.close()
    return (
        f"scrape with {sum(stored.values()):,} stored games ({GAMES:,} asked): "
        f"median {statistics.median(whole) * 1e3:.2f} ms, of it the grouped count "
        f"{statistics.median(counts) * 1e3:.2f} ms; {size:,} bytes"
    )


async def report() -> str:
    return await move_cost() + "\n" + await scrape_cost()


if __name__ == "__main__":
    print(asyncio.run(report()), flush=True)
