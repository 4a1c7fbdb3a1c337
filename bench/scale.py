"""Start-up time and memory of a bot process with 10,000 stored games (`make bench`).

A database of `GAMES` sessions (half finished, half running with a live turn clock, every
game at a real position from a seeded playout) is built through the store, then a fresh
Python process starts the way `escape-bot run` does (open the store, the service and its
CPU pool, one scan of the timer loop) and shows one running game's board. The parent times
that process from its launch to the board (not to its exit), and reads its memory (resident set, and the
CPU pool's workers apart).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bot.service.base import deadlines
from bot.store import NewEntry, SeatRow, Store
from engines import REGISTRY
from engines.playout import play

GAMES = int(os.environ.get("ESCAPE_BENCH_STORED", "10000"))


def _positions() -> list[tuple[str, dict, bool]]:
    """(game, dumped state, finished) at a few points of one seeded playout of each game."""
    out = []
    for game_id, game in sorted(REGISTRY.items()):
        players = max(2, game.min_players) if game.max_players > 1 else 1
        run = play(game, players, {}, seed=3, max_steps=400, keep_states=True)
        for k in (len(run.states) // 3, len(run.states) * 2 // 3, len(run.states) - 1):
            state = run.states[k]
            out.append((game_id, game.dump(state), game.result(state) is not None))
    return out


async def build(path: Path, games: int = GAMES) -> None:
    store = await Store.open(path)
    positions = _positions()
    now = time.time()
    for n in range(games):
        game_id, dumped, over = positions[n % len(positions)]
        game = REGISTRY[game_id]
        row = await store.create_session(
            platform="discord",
            scope=f"g{n % 300}",
            chat=f"c{n}",
            thread="",
            game=game_id,
            options={},
            rules_version=game.rules_version,
            creator=f"u{n}",
            seed=n,
            first_seat=SeatRow(0, f"u{n}", "P1"),
        )
        seats = [SeatRow(i, f"u{n + i}", f"P{i + 1}") for i in range(game.min_players)]
        finished = over or n % 2 == 0
        clock = (
            {}
            if finished
            else deadlines.start_turn(deadlines.new_clock({}, "normal"), now, [f"u{n}"], False)
        )
        await store.record(
            row.id,
            row.version,
            [NewEntry(0, "move", f"u{n}", [])],
            dumped,
            0,
            "finished" if finished else "active",
            None,
            deadline=clock.get("deadline"),
            clock=clock,
            wake_at=deadlines.next_wake(clock) if clock else None,
            seats=seats,
        )
    await store.close()


async def serve_once(path: Path) -> None:
    """In the measured process: start as the bot does and show one running board."""
    from bot.runner import open_service
    from bot.service import ChatRef
    from bot.service.pictures.workers import default_workers
    from bot.service.timer_loop import Timers
    from bot.settings import Settings

    service = await open_service(Settings(db_path=path), workers=default_workers())

    async def deliver(chat, replies) -> None:
        return None

    service.add_notifier("discord", deliver)
    await Timers(service).tick()
    replies = await service.board(ChatRef("discord", "c1", "", "g1"))
    assert replies[0].picture is not None
    print("ready", _rss_kb(os.getpid()), flush=True)
    pids = set(await asyncio.gather(*(service.cpu.run(os.getpid) for _ in range(8))))
    print("workers", sum(_rss_kb(p) for p in pids), flush=True)  # once each has started
    await service.cpu.close()
    await service.store.close()


def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS"))


async def _cached_database() -> tuple[Path, float]:
    """The stored games, built once per machine (through the store it takes minutes:
    20,000 fsync'd transactions) and kept in the temporary directory for later runs."""
    from bot.store.migrations import MIGRATIONS

    rules = "-".join(str(g.rules_version) for _, g in sorted(REGISTRY.items()))
    path = Path(tempfile.gettempdir()) / f"escape-bench-{GAMES}-{len(MIGRATIONS)}-{rules}.sqlite3"
    if path.exists():
        return path, 0.0
    # built in memory-backed storage where there is some (an fsync there costs nothing)
    shm = "/dev/shm" if os.path.isdir("/dev/shm") else None
    t = time.perf_counter()
    with tempfile.TemporaryDirectory(dir=shm) as fast:
        await build(Path(fast) / "scale.sqlite3")
        shutil.copyfile(Path(fast) / "scale.sqlite3", path.with_suffix(".part"))
    path.with_suffix(".part").rename(path)
    return path, time.perf_counter() - t


def _time_to_ready(path: Path) -> tuple[float, str]:  # (seconds, "RSS workers-RSS" in kB)
    """From the process's launch to its "ready" line (the first board shown); its exit,
    which waits for the CPU workers to finish starting, is not counted."""
    t = time.perf_counter()
    with subprocess.Popen(
        [sys.executable, "-m", "bench.scale", str(path)], stdout=subprocess.PIPE, text=True
    ) as process:
        assert process.stdout is not None
        ready = next(x for x in process.stdout if x.startswith("ready"))
        elapsed = time.perf_counter() - t
        workers = next(x for x in process.stdout if x.startswith("workers"))
        process.stdout.read()
    if process.returncode:
        raise RuntimeError(f"the measured process failed ({process.returncode})")
    return elapsed, f"{ready.split()[-1]} {workers.split()[-1]}"


def _as_of_now(path: Path) -> None:
    """The stored games' times moved to the present. The database is built once and kept;
    once its turns' first reminders fell due (12 hours after it was built), every start-up
    sent some 5,000 of them in its first scan, and the bench measured those reminders, not
    the start: 4.5-5.2 s against 0.6 s (measured on a day-old copy)."""
    with sqlite3.connect(path) as db:
        (built,) = db.execute("SELECT MAX(json_extract(clock, '$.since')) FROM sessions").fetchone()
        if built is None:
            return
        shift = time.time() - built
        db.execute(
            "UPDATE sessions SET created_at = created_at + ?1, updated_at = updated_at + ?1, "
            "deadline = deadline + ?1, wake_at = wake_at + ?1, clock = CASE "
            "WHEN json_extract(clock, '$.since') IS NULL THEN clock ELSE json_set(clock, "
            "'$.since', json_extract(clock, '$.since') + ?1, "
            "'$.deadline', json_extract(clock, '$.deadline') + ?1) END",
            (shift,),
        )
        db.execute("UPDATE actions SET at = at + ?", (shift,))


async def report() -> str:
    stored, built = await _cached_database()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "scale.sqlite3"
        shutil.copyfile(stored, path)
        _as_of_now(path)
        elapsed, line = await asyncio.to_thread(_time_to_ready, path)
    rss, workers = line.split()
    note = f"; database built in {built:.0f} s" if built else ""
    return (
        f"start-up with {GAMES} stored games: {elapsed:.2f} s to the first board, "
        f"RSS {int(rss) / 1024:.0f} MB (+{int(workers) / 1024:.0f} MB in CPU workers){note}"
    )


if __name__ == "__main__":
    if len(sys.argv) > 1:
        asyncio.run(serve_once(Path(sys.argv[1])))
    else:
        print(asyncio.run(report()))
