"""`make bench`: a whole move as a player makes it, against its floor, for every game.

For each game (all registered, or those in ESCAPE_GAMES), a seeded random game is played
through `GameService.move` on a SQLite file, exactly as a chat command arrives: validate,
apply, chance, commit, picture. In the same run, for every move, the floor is measured: the
transaction alone (the same snapshot and log row written to a twin session) plus the
PNG encode alone of that move's picture (the whole picture, by `render.to_png`). The report
gives median and p99 of both and their ratio. A second table times the same moves in two
other states of the machine, with floors measured alike: back to back (a busy bot), and
each after 20 ms of nothing (a quiet one), where this machine's idle core takes its time to
wake. Then rendered moves per second from one process with many tables moving at
once, with the share of their boards' rows the CPU workers did not deflate again (each
keeps a canvas a table: render/work.py), and the same share with every table's boards
going to one worker, interleaved (`bench.canvas`); then start-up time and memory with
10,000 stored games (`bench.scale`); then what the metrics cost a move and a scrape with
those games (`bench.metrics`).

The CPU workers first finish their practice (ESCAPE_PRACTICE boards of each game, drawn
when idle: render/practice.py), as a bot's workers do in their first idle seconds; with
ESCAPE_PRACTICE=0 the timings are those of workers that have drawn nothing yet.

Measurements on whatever machine runs it, not test assertions: on a shared machine run
it a few times and compare medians.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image

import render
from bot import heap
from bot.service import ChatRef, GameService, UserError, UserRef
from bot.service.pictures.workers import CpuPool, default_workers
from bot.settings import Settings
from bot.store import NewEntry, SeatRow, Store
from bot.worker_process import practise_all
from engines import REGISTRY, Game
from render import work

MOVES = int(os.environ.get("ESCAPE_BENCH_MOVES", "120"))
TABLES = int(os.environ.get("ESCAPE_BENCH_TABLES", "24"))
PAUSE = 0.02  # seconds of nothing before each move (and floor) in the second table


def _pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def _games() -> list[str]:
    wanted = os.environ.get("ESCAPE_GAMES", "")
    names = [g.strip() for g in wanted.split(",") if g.strip()] or sorted(REGISTRY)
    return [g for g in names if g in REGISTRY]


def _players(game: Game) -> int:
    return max(2, game.min_players) if game.max_players > 1 else 1


async def seat_table(service: GameService, chat: ChatRef, game_id: str) -> list[UserRef]:
    """Open a table and fill it with the game's smallest company; it begins by itself or
    is begun."""
    game = REGISTRY[game_id]
    users = [
        UserRef(chat.platform, f"{chat.chat}-u{i}", f"P{i + 1}") for i in range(_players(game))
    ]
    await service.start(chat, users[0], game_id)
    for user in users[1:]:
        await service.join(chat, user)
    row = await service.store.live_session(chat.platform, chat.chat, chat.thread)
    if row is not None and row.status == "lobby":
        await service.begin(chat, users[0])
    return users


async def next_move(service: GameService, chat: ChatRef, game_id: str, rng: random.Random):
    """(seat, action) for whoever acts now, or None once the game is over (not timed)."""
    row = await service.store.live_session(chat.platform, chat.chat, chat.thread)
    if row is None or row.status != "active":
        return None
    game = REGISTRY[game_id]
    state = game.load(row.state)
    acting = [s for s in game.to_act(state) if s >= 0]
    if not acting:
        return None
    seat = acting[0]
    return row, seat, rng.choice(game.legal_actions(state, seat))


def _encode(game_id: str, view: dict, png: bytes) -> tuple[float, float]:
    """The drawing of `view` (without the move's caption, which names what happened), and
    apart the PNG encode of the move's own picture (`png`, decoded: the same pixels, by the
    project's own encoder, `render.to_png`), both timed in this process (the move's picture
    is drawn in a worker). Until this encoded the caption-less drawing instead, the floor
    was 0.2-0.6 ms a move lower than the encode of the picture the move posts."""
    t = time.perf_counter()
    render.renderer(game_id).draw(view)
    drawn = time.perf_counter() - t
    posted = Image.open(io.BytesIO(png))
    posted.load()
    t = time.perf_counter()
    render.to_png(posted)
    return drawn, time.perf_counter() - t


async def _twin(store: Store, game_id: str):
    """A session the floor's transactions are written to: the same rows a move writes."""
    game = REGISTRY[game_id]
    return await store.create_session(
        platform="twin",
        scope="",
        chat="twin",
        thread="",
        game=game_id,
        options={},
        rules_version=game.rules_version,
        creator="t",
        seed=1,
        first_seat=SeatRow(0, "t", "T"),
    )


async def _floor_txn(
    store: Store, twin_id: int, version: int, seat: int, action: str, user: str, after
) -> tuple[float, int]:
    """The floor's transaction: the move's snapshot and a log row written to the twin."""
    entry = NewEntry(seat, action, user, [{"text": "x", "to": None, "kind": "info"}])
    t = time.perf_counter()
    version = await store.record(
        twin_id,
        version,
        [entry],
        after.state,
        after.chance_pos,
        deadline=after.deadline,
        clock=after.clock,
        wake_at=after.wake_at,
    )
    return time.perf_counter() - t, version


async def bench_moves(
    game_id: str, pool: CpuPool, moves: int = MOVES, pause: float | None = None
) -> dict:
    """`pause` None: each move's floor is measured right after it, in this process, so the
    next move follows about as much work of this process as a bot's posting of a picture
    (the report's main table). A number: every move is timed first, each after `pause`
    seconds of nothing (0: back to back, as a busy bot's), then each floor after the same
    pause, so that a move and its floor meet the machine in the same state: a core that
    was idle takes time to wake here, and the work before a move decides which was."""
    game = REGISTRY[game_id]
    rng = random.Random(1)
    whole, floor, sizes, draws, encodes = [], [], [], [], []
    done: list[tuple] = []  # (seat, action, user, stored row after, picture): floors later
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.sqlite3")
        service = GameService(store, seed_source=lambda: 7, cpu=pool)
        twin = await _twin(store, game_id)
        twin_version = twin.version
        chat = ChatRef("bench", game_id, "", "bench")
        users = await seat_table(service, chat, game_id)
        while len(whole) < moves:
            nxt = await next_move(service, chat, game_id, rng)
            if nxt is None:  # over: the next game at the same table
                users = await seat_table(service, chat, game_id)
                continue
            row, seat, action = nxt
            if pause:
                await asyncio.sleep(pause)
            t = time.perf_counter()
            replies = await service.move(chat, users[seat], action)
            whole.append(time.perf_counter() - t)
            png = replies[0].picture.png
            sizes.append(len(png))
            done.append((seat, action, users[seat].id, await store.session(row.id), png))
            if pause is None:
                twin_version = await _floors(
                    store, twin.id, twin_version, game, done, None, floor, draws, encodes
                )
                done.clear()
        await _floors(store, twin.id, twin_version, game, done, pause, floor, draws, encodes)
        await store.close()
    med, flo = statistics.median(whole) * 1000, statistics.median(floor) * 1000
    return {
        "game": game_id,
        "moves": len(whole),
        "move_ms": f"{med:.1f}",
        "p99_ms": f"{_pct(whole, 0.99):.1f}",
        "floor_ms": f"{flo:.1f}",
        "floor_p99": f"{_pct(floor, 0.99):.1f}",
        "ratio": f"{med / flo:.2f}",
        "draw_ms": f"{statistics.median(draws) * 1000:.1f}",
        "encode_ms": f"{statistics.median(encodes) * 1000:.1f}",
        "png_kb": f"{statistics.median(sizes) / 1024:.0f}/{max(sizes) / 1024:.0f}",
    }


async def _floors(
    store: Store,
    twin_id: int,
    version: int,
    game: Game,
    done: list[tuple],
    pause: float | None,
    floor: list,
    draws: list,
    encodes: list,
) -> int:
    """Each done move's floor (its transaction, then its picture's encode), after `pause`."""
    for seat, action, user, after, png in done:
        if pause:
            await asyncio.sleep(pause)
        txn, version = await _floor_txn(store, twin_id, version, seat, action, user, after)
        drawn, encoded = _encode(game.id, game.view(game.load(after.state), None), png)
        floor.append(txn + encoded)
        draws.append(drawn)
        encodes.append(encoded)
    return version


async def bench_conditions(pool: CpuPool, pause: float = PAUSE) -> str:
    """The same moves timed back to back, and each after a pause, with floors measured the
    same way (`bench_moves`)."""
    lines = [
        f"game | back to back: move / floor / ratio | after {pause * 1000:.0f} ms idle: move / floor / ratio"
    ]
    for game_id in _games():
        busy = await bench_moves(game_id, pool, pause=0)
        quiet = await bench_moves(game_id, pool, pause=pause)
        lines.append(
            " | ".join(
                [game_id]
                + [f"{r['move_ms']} / {r['floor_ms']} / {r['ratio']}" for r in (busy, quiet)]
            )
        )
    return "\n".join(lines)


async def bench_throughput(pool: CpuPool, tables: int = TABLES, moves_each: int = 12) -> str:
    """Rendered moves per second: many tables of every game moving at once in one process."""
    games = _games()
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.sqlite3")
        service = GameService(store, seed_source=lambda: 7, cpu=pool)
        chats = [ChatRef("bench", f"t{i}", "", "bench") for i in range(tables)]
        seated = [await seat_table(service, c, games[i % len(games)]) for i, c in enumerate(chats)]
        done, refused = [0], [0]

        async def table(i: int) -> None:
            rng, users, game_id = random.Random(i), seated[i], games[i % len(games)]
            attempts = 0
            while done[0] < tables * moves_each and attempts < 50 * moves_each:
                attempts += 1
                nxt = await next_move(service, chats[i], game_id, rng)
                if nxt is None:
                    users = await seat_table(service, chats[i], game_id)
                    continue
                _row, seat, action = nxt
                try:
                    replies = await service.move(chats[i], users[seat], action)
                except UserError:  # refused by the store: a player tries again
                    refused[0] += 1
                    continue
                assert replies[0].picture is not None
                done[0] += 1

        before = await _reuse(pool)
        t = time.perf_counter()
        await asyncio.gather(*(table(i) for i in range(tables)))
        elapsed = time.perf_counter() - t
        after = await _reuse(pool)
        await store.close()
    rows, deflated = after[0] - before[0], after[1] - before[1]
    kept = f"{1 - deflated / rows:.0%} of their rows not deflated again" if rows else ""
    return (
        f"{done[0] / elapsed:.0f} rendered moves/s ({done[0]} moves, {tables} tables at once, "
        f"{pool.workers} CPU workers"
        + (f"; {refused[0]} refused by the store and tried again" if refused[0] else "")
        + (f"; {kept}" if kept else "")
        + ")"
    )


async def _reuse(pool: CpuPool) -> tuple[int, int]:
    """Rows of boards the workers drew on kept canvases so far, and of those deflated (one
    job a worker, each to a different idle worker, as `warm` does)."""
    if not pool.in_processes:
        return work.reuse()[1:3]
    answers = await asyncio.gather(*(pool.run(work.reuse) for _ in range(pool.workers)))
    return sum(a[1] for a in answers), sum(a[2] for a in answers)


async def warm(pool: CpuPool) -> list[int]:
    """Start every worker and import the renderers there (a bot does so on its first
    boards), so the first timed moves do not pay for a process start; then let each finish
    its practice (render/practice.py), which a bot's workers do in their first idle seconds.
    The boards each worker drew in practice."""
    game = REGISTRY[_games()[0]]
    view = game.view(game.setup(["A", "B", "C", "D"][: _players(game)], {}), None)
    jobs = [pool.run(work.board, game.id, view) for _ in range(2 * pool.workers)]
    await asyncio.gather(*jobs)
    # one job a worker: each goes to a different idle worker
    return list(await asyncio.gather(*(pool.run(practise_all) for _ in range(pool.workers))))


async def main() -> None:
    logging.getLogger("bot").setLevel(logging.ERROR)  # refused moves are counted instead
    settings = Settings.from_env()
    practice = settings.practice
    pool = CpuPool(default_workers(), practice=practice, layout=settings.cpu_layout).start()
    try:
        practised = await warm(pool)
        heap.settle()  # as the bot does once it has started (bot/runner.py)
        print(
            f"CPU workers practised {' and '.join(map(str, practised))} boards before the "
            f"timings (ESCAPE_PRACTICE={practice} boards a game, as a bot's do when idle)"
        )
        rows = [await bench_moves(game_id, pool) for game_id in _games()]
        header = list(rows[0])
        print(" | ".join(header))
        for row in rows:
            print(" | ".join(str(row[h]) for h in header))
        print("(times in ms; floor = the transaction alone + the PNG encode of that picture alone;")
        print(" draw: the view drawn here without the move's caption; encode: the move's own")
        print(" picture encoded again here; medians)")
        sys.stdout.flush()
        print(await bench_conditions(pool))
        print(await bench_throughput(pool))
    finally:
        await pool.close()
    from bench import canvas

    print(canvas.interleaved())  # as a worker that is handed every table's boards sees them
    sys.stdout.flush()
    from bench import scale

    print(await scale.report())
    from bench import metrics as metrics_cost

    print(await metrics_cost.report())  # a move with and without metrics; a scrape of 10,000


if __name__ == "__main__":
    asyncio.run(main())
