"""A CPU worker's practice (render/practice.py, bot/worker_process.py): boards drawn when it
is idle, so the first games after a start find fonts, frames and cards drawn. Practice may
change when a board is ready, never what it shows, and never holds a job back for more
than the board it is drawing."""

import asyncio
import itertools

import pytest

from bot import heap, worker_process
from bot.service.pictures.workers import CpuPool
from bot.settings import PRACTICE, Settings
from engines import REGISTRY
from render import practice, work


def _views(start: int, stop: int, step: int = 1) -> list[tuple[str, dict]]:
    """Practice's own views of every game, from `start` to `stop`: a worker that practised
    `stop` boards a game has drawn them, one that practised `start` has not."""
    return [
        (game_id, view)
        for game_id, game in sorted(REGISTRY.items())
        for view in itertools.islice(practice._views(game), start, stop, step)
    ]


async def _until(pool: CpuPool, check, seconds: float = 60.0) -> int:
    """Ask the worker how many boards it has practised until `check` holds of it (each
    question is a job: it practises once it has had none for its idle wait)."""
    pause = 2 * worker_process.IDLE
    for _ in range(int(seconds / pause)):
        done = await pool.run(worker_process.practised)
        if check(done):
            return done
        await asyncio.sleep(pause)
    raise AssertionError(f"the worker's practice never came to hold ({done} boards)")


async def test_an_idle_worker_practises_every_game_once() -> None:
    pool = CpuPool(workers=1, practice=2).start()
    try:
        assert await pool.run(worker_process.practised) == 0  # a job first: none yet
        total = 2 * len(REGISTRY)
        assert await _until(pool, lambda done: done == total) == total
        await asyncio.sleep(1.0)  # idle again: nothing more to practise
        assert await pool.run(worker_process.practised) == total
    finally:
        await pool.close()


async def test_a_worker_told_not_to_practise_does_not() -> None:
    pool = CpuPool(workers=1, practice=0).start()
    try:
        await pool.run(worker_process.practised)
        await asyncio.sleep(1.0)  # four times the idle wait
        assert await pool.run(worker_process.practised) == 0
        assert await pool.run(worker_process.practise_all) == 0
    finally:
        await pool.close()


async def test_a_practised_worker_draws_the_same_pictures() -> None:
    """The same PNG bytes from a worker that has practised and from one that has drawn
    nothing, for boards practice drew and boards it did not."""
    views = _views(0, 40, 4) + _views(40, 120, 8)  # drawn in practice, and not
    practised, fresh = CpuPool(workers=1, practice=40), CpuPool(workers=1)
    practised.start(), fresh.start()
    try:
        assert await practised.run(worker_process.practise_all) == 40 * len(REGISTRY)
        for game_id, view in views:
            a = await practised.run(work.board, game_id, view)
            b = await fresh.run(work.board, game_id, view)
            assert a is not None and b is not None
            assert a[:2] == b[:2], game_id  # the picture and its alt text
        assert await fresh.run(worker_process.practised) == 0
    finally:
        await practised.close()
        await fresh.close()


async def test_a_job_does_not_wait_for_the_practice_and_a_close_ends_it() -> None:
    pool = CpuPool(workers=1, practice=5000).start()  # minutes of practice
    try:
        await _until(pool, lambda done: done > 0)
        game_id, view = _views(0, 1)[0]
        drawn = await pool.run(work.board, game_id, view)
        assert drawn is not None and drawn[0] == work.board(game_id, view)[0]
        assert await pool.run(worker_process.practised) < 5000 * len(REGISTRY)
        worker = pool._pool[0].process
    finally:
        await pool.close()
    assert worker.returncode == 0  # it left between two practice boards, not killed


@pytest.mark.parametrize(
    ("value", "boards"), [("", PRACTICE), ("0", 0), (" 40 ", 40), ("5000", 5000)]
)
def test_escape_practice_is_read(value: str, boards: int) -> None:
    assert Settings.from_env({"ESCAPE_PRACTICE": value}).practice == boards


@pytest.mark.parametrize("value", ["-1", "lots", "5001", "1e3", "٣"])
def test_a_wrong_escape_practice_is_refused_with_the_reason(value: str) -> None:
    with pytest.raises(ValueError, match="ESCAPE_PRACTICE is a number of boards from 0 to 5000"):
        Settings.from_env({"ESCAPE_PRACTICE": value})


def _memory(pid: int) -> tuple[int, int]:
    """(resident now, resident at its peak) in kB, as `ps` and /proc show an operator."""
    with open(f"/proc/{pid}/status") as f:
        fields = dict(line.split(":", 1) for line in f)
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


async def test_a_worker_gives_back_what_practice_freed_once_it_is_done() -> None:
    """glibc keeps freed pages for the next allocation: once practice is done the worker
    hands back what its boards freed, and stays small. Boards painted from scenes allocate
    little they do not keep (measured: practice of 50 boards a game peaked at 59 MB and
    left 58, where boards drawn whole peaked at 93 MB and gave back down to 55), so the
    give-back is seen by when it was last made, not by how much it returned."""
    from tests.bot import worker_probe

    pool = CpuPool(workers=1, practice=50).start()
    try:
        started = await pool.run(worker_probe.given_back_at)
        await pool.run(worker_process.practise_all)
        now, peak = _memory(pool._pool[0].process.pid)
        assert await pool.run(worker_probe.given_back_at) > started  # given back at the end
        assert now <= peak < 80_000, (now, peak)
        # and it draws on as before
        game = REGISTRY["ghosts18"]
        view = game.view(game.setup(["Ann", "Bob"], {}), None)
        assert (await pool.run(work.board, "ghosts18", view))[0].startswith(b"\x89PNG")
    finally:
        await pool.close()


@pytest.mark.parametrize(("megabytes", "given_back"), [(60, True), (8, False)])
async def test_an_idle_worker_gives_back_what_its_jobs_freed(megabytes, given_back) -> None:
    """Practice or not, a worker that has grown by GIVE_BACK since it last gave back does
    so at its next idle moment; one that grew less keeps its pages for its next boards."""
    from tests.bot import worker_probe

    pool = CpuPool(workers=1, practice=0).start()
    try:
        after_job = await pool.run(worker_probe.scatter, megabytes)
        await asyncio.sleep(4 * worker_process.IDLE)
        idle = await pool.run(heap.resident)
        if given_back:
            assert idle < after_job - 30 * 2**20, (after_job, idle)
        else:
            assert idle > after_job - 4 * 2**20, (after_job, idle)
    finally:
        await pool.close()
