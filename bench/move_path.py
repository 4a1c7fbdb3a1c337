"""`python -m bench.move_path [games]`: where a whole move's time goes, step by step.

`make bench` gives a move against its floor (`bench/__main__.py`); this says which step
made the difference. Seeded random moves through `GameService.move` on a SQLite file, as
there, each in three states of the machine: back to back (a busy bot); after this process
drew and encoded the board before (as `make bench`'s main table, where each floor is
measured between two moves); and after 20 ms of nothing (a quiet bot). For each, the
median time from the move's arrival at which:
- its board is handed to a CPU worker (the picture is drawn while the move is stored);
- its transaction is handed to the store's writer thread, which begins it, and ends it
  (COMMIT, fsync);
- the event loop hears it is stored, then its picture is back;
- the move's plan is ready;
with the worker's own drawing and encoding, and beside them the same transaction alone
(the one `make bench`'s floor counts: the move's snapshot and a log row written to a twin
session) in the same state of the machine, handed over, begun, committed and heard of.
The store's thread and the picture's worker
run side by side on a machine of two cores, so a step that waits shows where one waited
for the other. The thread's steps are read in the store's private writer (a measurement
only, not a seam for the bot).

Measurements on whatever machine runs it, not test assertions: run it a few times.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import render
from bench.__main__ import _floor_txn, _games, _twin, next_move, seat_table, warm
from bot import heap
from bot.service import ChatRef, GameService
from bot.service.pictures.workers import CpuPool, default_workers
from bot.settings import Settings
from bot.store import Store
from engines import REGISTRY

MOVES = 150
STEPS = (
    ("handed", "board handed to a worker"),
    ("queued", "transaction handed to the store's thread"),
    ("begun", "its thread begins it"),
    ("ended", "its thread has committed it"),
    ("stored", "the loop hears it is stored"),
    ("picture", "the picture is back"),
    ("done", "the move's plan is ready"),
)
STATES = ("back to back", "after this process's work", "after 20 ms idle")


class _Marks:
    """The moment each step was first reached in the move under way."""

    def __init__(self) -> None:
        self.start = 0.0
        self.at: dict[str, float] = {}
        self.worker = (0.0, 0.0)  # the worker's drawing and encoding, seconds

    def mark(self, step: str) -> None:
        self.at.setdefault(step, time.perf_counter())

    def begin(self) -> None:
        self.at.clear()
        self.start = time.perf_counter()

    def elapsed(self) -> dict[str, float]:
        """Each step reached, in ms from the start."""
        return {step: (t - self.start) * 1000 for step, t in self.at.items()}


def _watch(pool: CpuPool, store: Store, marks: _Marks) -> None:
    """Wrap the steps' doors on these instances (nothing else is touched)."""
    hand_over = pool.run_waited_for

    def run_waited_for(fn, /, *args, home=None):
        marks.mark("handed")
        made = hand_over(fn, *args, home=home)

        async def answered():
            value = await made
            marks.mark("picture")
            if value is not None:
                marks.worker = (value[2], value[3])
            return value

        return answered()

    pool.run_waited_for = run_waited_for
    record = store.record

    async def recorded(*args, **kwargs):
        marks.mark("queued")
        version = await record(*args, **kwargs)
        marks.mark("stored")
        return version

    store.record = recorded
    database = store._conn  # the writer's thread: private, read here only
    in_thread = database._batch_in_thread

    def batch(batch_):
        marks.mark("begun")
        try:
            return in_thread(batch_)
        finally:
            marks.mark("ended")

    database._batch_in_thread = batch


def _own_work(game_id: str, state_json: str) -> None:
    """What `make bench`'s main table does between two moves: a board drawn and encoded
    in this process."""
    game = REGISTRY[game_id]
    render.to_png(render.board_image(game_id, game.view(game.load(state_json), None)))


async def _prepare(state: str, game_id: str, state_json: str) -> None:
    """The machine put in `state` before a timed step."""
    if state == STATES[1]:
        _own_work(game_id, state_json)
    elif state == STATES[2]:
        await asyncio.sleep(0.02)


async def _moves(
    game_id: str, pool: CpuPool, state: str, moves: int
) -> tuple[list[dict], list[dict]]:
    """The moves' steps, and the lone transactions' steps. Each state plays a game of its
    own seed: replaying the same moves, a later state met only words its worker had
    already rendered (Dark Castle's drawing 0.88 ms against 1.34 in the first state), and
    a bot's moves, like `make bench`'s, bring new words (its story, its caption)."""
    rows: list[dict] = []
    alone: list[dict] = []
    marks = _Marks()
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.sqlite3")
        _watch(pool, store, marks)
        service = GameService(store, seed_source=lambda: 7, cpu=pool)
        chat = ChatRef("bench", game_id, "", "bench")
        users = await seat_table(service, chat, game_id)
        twin = await _twin(store, game_id)
        version = twin.version
        rng = random.Random(1 + STATES.index(state))
        while len(rows) < moves:
            nxt = await next_move(service, chat, game_id, rng)
            if nxt is None:
                users = await seat_table(service, chat, game_id)
                continue
            row, seat, action = nxt
            await _prepare(state, game_id, row.state)
            marks.begin()
            await service.move(chat, users[seat], action)
            marks.mark("done")
            if all(step in marks.at for step, _ in STEPS):  # bots' turns: no picture
                rows.append(
                    marks.elapsed()
                    | {"draw": marks.worker[0] * 1000, "encode": marks.worker[1] * 1000}
                )
                after = await store.session(row.id)
                await _prepare(state, game_id, after.state)
                marks.begin()
                _, version = await _floor_txn(store, twin.id, version, seat, action, "t", after)
                alone.append(marks.elapsed())
        await store.close()
    del pool.run_waited_for  # the pool's own again, for the next game
    return rows, alone


def _median(rows: list[dict], key: str) -> str:
    return f"{statistics.median(r[key] for r in rows):.2f}"


async def main(games: list[str]) -> None:
    settings = Settings.from_env()
    pool = CpuPool(default_workers(), practice=settings.practice, layout=settings.cpu_layout)
    pool.start()
    try:
        await warm(pool)
        heap.settle()
        print("ms from the move's arrival (medians): " + "; ".join(f"{k}: {w}" for k, w in STEPS))
        print(
            "game | state | "
            + " | ".join(k for k, _ in STEPS)
            + " | worker draw + encode | alone: queued, begun, ended, stored"
        )
        for game_id in games:
            for state in STATES:
                rows, alone = await _moves(game_id, pool, state, MOVES)
                cells = [_median(rows, k) for k, _ in STEPS]
                worker = f"{_median(rows, 'draw')} + {_median(rows, 'encode')}"
                lone = ", ".join(_median(alone, k) for k in ("queued", "begun", "ended", "stored"))
                print(" | ".join([game_id, state, *cells, worker, lone]))
                sys.stdout.flush()
    finally:
        await pool.close()


if __name__ == "__main__":
    wanted = [g for g in sys.argv[1:] if g in REGISTRY] or _games()
    asyncio.run(main(wanted))
