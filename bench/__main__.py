"""`make bench`: per-move cost of engine, store and picture for every game, and PNG sizes.

Numbers are medians over a seeded random playout of each game (all registered, or those in
ESCAPE_GAMES), on whatever machine runs it: they are measurements, not test assertions.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bot.store import NewEntry, SeatRow, Store
from engines import CHANCE, REGISTRY
from engines.playout import play
from render import board_png


def _ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:.2f}" if samples else "-"


async def bench_game(game_id: str, moves: int = 200) -> dict:
    game = REGISTRY[game_id]
    run = play(game, game.min_players if game.min_players > 1 else 1, {}, seed=1, max_steps=moves)
    state = game.setup(run.names, run.options)
    engine, store_t, draw, sizes = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.sqlite3")
        row = await store.create_session(
            platform="bench", scope="", chat=game_id, thread="", game=game_id, options={},
            rules_version=1, creator="u0", seed=1, first_seat=SeatRow(0, "u0", "P1"),
        )  # fmt: skip
        version = row.version
        for k, (seat, action) in enumerate(run.log):
            t = time.perf_counter()
            state, _events = game.apply(state, seat, action)
            engine.append(time.perf_counter() - t)
            dumped = game.dump(state)
            t = time.perf_counter()
            version = await store.record(
                row.id, version, [NewEntry(seat, action, None, [])], dumped, k
            )
            store_t.append(time.perf_counter() - t)
            if seat != CHANCE and k % 5 == 0:
                t = time.perf_counter()
                png = board_png(game_id, game.view(state, None))
                draw.append(time.perf_counter() - t)
                sizes.append(len(png))
        await store.close()
    return {
        "game": game_id,
        "moves": len(run.log),
        "engine_ms": _ms(engine),
        "store_ms": _ms(store_t),
        "picture_ms": _ms(draw),
        "png_kb": f"{statistics.median(sizes) / 1024:.1f}" if sizes else "-",
        "state_kb": f"{len(json.dumps(game.dump(state))) / 1024:.1f}",
    }


async def main() -> None:
    rows = [await bench_game(game_id) for game_id in sorted(REGISTRY)]
    header = ["game", "moves", "engine_ms", "store_ms", "picture_ms", "png_kb", "state_kb"]
    print(" | ".join(header))
    for row in rows:
        print(" | ".join(str(row[h]) for h in header))
    sys.stdout.flush()


if __name__ == "__main__":
    asyncio.run(main())
