"""The CPU pool: the same answer on a thread and in worker processes; workers that end
with their parent, however it ends (issue 29, item 21)."""

import asyncio
import contextlib
import gc
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.service.pictures.workers import CpuPool, WorkerLost, default_workers
from tests.polling import until, until_now

ROOT = Path(__file__).resolve().parents[4]


def _pid_and_square(n: int) -> tuple[int, int]:
    return os.getpid(), n * n


async def test_thread_and_processes_agree() -> None:
    inline = CpuPool()
    pid, value = await inline.run(_pid_and_square, 7)
    assert (pid, value) == (os.getpid(), 49) and not inline.in_processes
    pool = CpuPool(workers=1).start()
    try:
        pid, value = await pool.run(_pid_and_square, 7)
        assert value == 49 and pid != os.getpid() and pool.in_processes
    finally:
        await pool.close()
    assert not pool.in_processes and default_workers() >= 1


async def test_a_board_waited_for_does_not_wait_for_the_workers_to_start() -> None:
    """Right after a start no worker has imported anything yet: a board somebody waits for
    is drawn on this process's thread, the same answer; once a worker is up, in it."""
    pool = CpuPool(workers=1).start()
    try:
        pid, value = await pool.run_waited_for(_pid_and_square, 7)
        assert (pid, value) == (os.getpid(), 49)
        await pool.run(_pid_and_square, 1)  # the worker has started and answered
        pid, value = await pool.run_waited_for(_pid_and_square, 7)
        assert value == 49 and pid != os.getpid()
    finally:
        await pool.close()


async def test_workers_started_soon_start_after_the_first_board() -> None:
    """`start_soon` (the bot's start): no worker's imports beside the bot's own start. The
    first board is drawn here; once it is drawn, the workers start and take the rest."""
    pool = CpuPool(workers=1).start_soon(grace=60)
    try:
        assert not pool.in_processes
        pid, value = await pool.run_waited_for(_pid_and_square, 7)
        assert (pid, value) == (os.getpid(), 49)
        assert pool.in_processes  # started by the board's end, not by the grace
        pid, value = await pool.run(_pid_and_square, 3)
        assert value == 9 and pid != os.getpid()
    finally:
        await pool.close()


async def test_workers_started_soon_start_for_a_job_nobody_waits_for() -> None:
    """An AI's search waits for a worker rather than hold the bot's process."""
    pool = CpuPool(workers=1).start_soon(grace=60)
    try:
        pid, value = await pool.run(_pid_and_square, 5)
        assert value == 25 and pid != os.getpid()
    finally:
        await pool.close()


async def test_workers_started_soon_start_after_the_grace_without_a_job() -> None:
    pool = CpuPool(workers=1).start_soon(grace=0.05)
    try:
        await until(lambda: pool.in_processes, what="the workers started")
        pid, _ = await pool.run(_pid_and_square, 2)
        assert pid != os.getpid()
    finally:
        await pool.close()


async def test_a_pool_closed_before_it_started_never_starts() -> None:
    pool = CpuPool(workers=1).start_soon(grace=0.05)
    await pool.close()
    await asyncio.sleep(0.2)
    assert not pool.in_processes


def _fail(message: str) -> None:
    raise ValueError(message)


def _die(code: int) -> None:
    os._exit(code)  # a worker killed mid-job (the OOM killer, a crash in a library)


def _unpicklable() -> object:
    return lambda: None


def _nap_then_pid(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def _frozen() -> int:
    return gc.get_freeze_count()


async def test_a_worker_keeps_what_it_imported_out_of_full_collections() -> None:
    """A worker freezes what its start-up built (bot/heap.py): the renderers' modules and
    tables, which a full collection would otherwise walk in the middle of a board."""
    pool = CpuPool(workers=1).start()
    try:
        await pool.run(_pid_and_square, 1)  # started, warmed up and settled
        assert await pool.run(_frozen) > 10_000
    finally:
        await pool.close()


async def test_a_failing_job_fails_its_caller_and_the_worker_goes_on() -> None:
    pool = CpuPool(workers=1).start()
    try:
        first, _ = await pool.run(_pid_and_square, 2)
        with pytest.raises(ValueError, match="no such move"):
            await pool.run(_fail, "no such move")
        with pytest.raises(Exception, match="pickle"):
            await pool.run(_unpicklable)  # an answer that does not pickle
        with pytest.raises(Exception, match="pickle"):
            await pool.run(_pid_and_square, lambda: 2)  # nor a call
        again, value = await pool.run(_pid_and_square, 3)
        assert (again, value) == (first, 9), "the same worker answers after the failures"
    finally:
        await pool.close()


async def test_a_worker_that_dies_fails_only_its_job_and_another_takes_its_place(caplog) -> None:
    pool = CpuPool(workers=1).start()
    try:
        first, _ = await pool.run(_pid_and_square, 2)
        with pytest.raises(WorkerLost):
            await pool.run(_die, 9)
        second, value = await asyncio.wait_for(pool.run(_pid_and_square, 4), 30)
        assert value == 16 and second != first
        assert "ended unasked" in caplog.text
    finally:
        await pool.close()


def _die_the_first_time(marker: str) -> int:
    if not os.path.exists(marker):
        Path(marker).touch()
        os._exit(9)
    return os.getpid()


async def test_a_board_whose_worker_died_is_drawn_again_by_the_next(tmp_path) -> None:
    pool = CpuPool(workers=1).start()
    try:
        first, _ = await pool.run(_pid_and_square, 2)
        marker = str(tmp_path / "died")
        second = await asyncio.wait_for(pool.run_waited_for(_die_the_first_time, marker), 30)
        assert second != first and os.path.exists(marker)
        with pytest.raises(WorkerLost):  # a job nobody waits for is not tried again
            await pool.run(_die, 9)
    finally:
        await pool.close()


async def test_a_board_waited_for_goes_ahead_of_the_jobs_nobody_waits_for() -> None:
    pool = CpuPool(workers=1).start()
    try:
        await pool.run(_pid_and_square, 1)  # up and warm
        order: list[str] = []

        async def job(name: str, waited_for: bool) -> None:
            run = pool.run_waited_for if waited_for else pool.run
            await run(_nap_then_pid, 0.05)
            order.append(name)

        busy = asyncio.create_task(job("busy", False))
        await until(lambda: pool._pool[0].taken, every=0.001, what="the worker has taken it")
        later = [asyncio.create_task(job(n, False)) for n in ("ai 1", "ai 2")]
        await asyncio.sleep(0)
        board = asyncio.create_task(job("board", True))
        await asyncio.gather(busy, *later, board)
        assert order == ["busy", "board", "ai 1", "ai 2"]
        assert pool.queue_length == 0
    finally:
        await pool.close()


async def test_closing_lets_the_running_job_finish_and_cancels_the_waiting_ones() -> None:
    pool = CpuPool(workers=1).start()
    await pool.run(_pid_and_square, 1)
    running = asyncio.create_task(pool.run(_nap_then_pid, 0.3))
    await until(lambda: pool._pool[0].taken, every=0.001, what="the worker has taken it")
    waiting = asyncio.create_task(pool.run(_pid_and_square, 5))
    await asyncio.sleep(0)
    await pool.close()
    assert isinstance(await running, int)
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert not pool.in_processes


async def test_ctrl_c_in_the_terminal_leaves_the_workers_to_the_bot() -> None:
    """SIGINT reaches every process of a terminal's group: the bot stops them itself."""
    pool = CpuPool(workers=1).start()
    try:
        pid, _ = await pool.run(_pid_and_square, 2)
        os.kill(pid, signal.SIGINT)
        await asyncio.sleep(0.2)
        again, value = await pool.run(_pid_and_square, 5)
        assert (again, value) == (pid, 25)
    finally:
        await pool.close()


# ----- what a worker imports ----------------------------------------------------------------
BOT_LIKE = """
import asyncio
import contextlib
from bot.cli import main  # what escape-bot's own script imports first
from bot.service.pictures.workers import CpuPool
from tests.bot import worker_probe

async def run():
    pool = CpuPool(workers=1).start()
    try:
        print(" ".join(await pool.run(worker_probe.modules)), flush=True)
    finally:
        await pool.close()

if __name__ == "__main__":
    asyncio.run(run())
"""


def test_a_worker_imports_what_its_jobs_need_not_the_bots_main_script(tmp_path):
    """Started from a script like escape-bot's, a worker holds the renderers, and none of
    what the script imported for the bot (its store, aiosqlite, Prometheus), which would
    cost CPU on every core while the bot starts and memory in every worker."""
    script = tmp_path / "escape-bot-like.py"
    script.write_text(BOT_LIKE)
    done = subprocess.run(
        [sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    held = set(done.stdout.split())
    assert {"render", "bot.worker_process", "tests.bot.worker_probe"} <= held
    assert not held & {"bot.cli", "bot.store", "aiosqlite", "prometheus_client", "__mp_main__"}


def _from_main() -> int:
    return 1


_from_main.__module__ = "__main__"


async def test_a_job_from_the_main_script_is_refused_with_the_reason() -> None:
    """A worker does not run the main script, so a function defined there cannot reach it:
    its caller is told so, and the worker goes on."""
    pool = CpuPool(workers=1).start()
    try:
        with pytest.raises(TypeError, match="__main__"):
            await pool.run(_from_main)
        assert (await pool.run(_pid_and_square, 3))[1] == 9
    finally:
        await pool.close()


# ----- a killed parent -----------------------------------------------------------------------
POOL_USER = """
import asyncio, os, sys
from bot.service.pictures.workers import CpuPool

async def main():
    pool = CpuPool(workers=2).start()
    pids = await asyncio.gather(*(pool.run(os.getpid) for _ in range(8)))
    print(" ".join(map(str, sorted(set(pids)))), flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
"""


def children(pid: int) -> set[int]:
    """The live processes whose parent is `pid` (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            state, ppid = stat.rsplit(")", 1)[1].split()[:2]
            if int(ppid) == pid and state != "Z":
                found.add(int(entry.name))
    return found


def alive(pid: int, started: str) -> bool:
    """Still running: the same process (same start time), and not a zombie."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z" and fields[19] == started


def start_time(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_workers_end_when_their_parent_is_killed():
    """SIGKILL leaves no chance to shut the pool down: the workers notice by themselves."""
    process = subprocess.Popen(
        [sys.executable, "-c", POOL_USER], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        worked = {int(p) for p in process.stdout.readline().split()}
        spawned = children(process.pid)
        assert worked and worked <= spawned, (worked, spawned)
        started = {pid: start_time(pid) for pid in spawned}
    finally:
        process.kill()
        process.wait()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(alive(p, s) for p, s in started.items()):
        time.sleep(0.05)
    left = [p for p, s in started.items() if alive(p, s)]
    for pid in left:  # do not leave them to the next test
        os.kill(pid, signal.SIGKILL)
    assert not left, f"workers {left} outlived their parent"


async def test_a_tables_boards_go_to_its_worker_while_it_lives() -> None:
    """Issue 58: each table's boards go to one worker (which keeps its last board's bands),
    new tables spread over the workers; when a table's worker dies, its next board is
    drawn by another, which is its worker from then on."""
    pool = CpuPool(workers=2).start()
    try:
        for n in range(20):  # both workers up and answering
            await pool.run_waited_for(_pid_and_square, n)
            if len({w.process.pid for w in pool._pool if w.ready}) == 2:
                break
            await asyncio.sleep(0.1)
        drawn_by: dict[int, set[int]] = {}
        for _ in range(4):
            for table in range(6):
                pid, _ = await pool.run_waited_for(_pid_and_square, table, home=table)
                drawn_by.setdefault(table, set()).add(pid)
        assert all(len(pids) == 1 for pids in drawn_by.values()), drawn_by
        homes = [next(iter(pids)) for pids in drawn_by.values()]
        assert sorted(homes.count(pid) for pid in set(homes)) == [3, 3]
        os.kill(homes[0], signal.SIGKILL)  # table 0's worker dies
        pid, value = await asyncio.wait_for(pool.run_waited_for(_pid_and_square, 9, home=0), 30)
        assert value == 81 and pid != homes[0]
        for _ in range(3):
            again, _ = await pool.run_waited_for(_pid_and_square, 9, home=0)
            assert again == pid
    finally:
        await pool.close()


async def test_a_board_lost_with_its_worker_is_not_handed_to_another_already_dead() -> None:
    """Both workers killed at once, and the second one's end not yet read (its pipe's end
    comes later on a busy machine, as it did in a CI run): the board lost with the first
    worker is drawn by a new worker, not handed to the dead second one and lost again (the
    press said "Something went wrong")."""
    pool = CpuPool(workers=2).start()
    try:
        await until(lambda: all(w.ready for w in pool._pool), timeout=30, what="both up")
        first, second = pool._pool
        pool._loop.remove_reader(second.answer_fd)  # its end is read late
        running = pool.run_waited_for(_nap_then_pid, 0.5, home="table")
        await until(lambda: first.taken or second.taken, what="the board handed over")
        drawing, idle = (first, second) if first.taken else (second, first)
        for worker in (idle, drawing):  # both gone before the loop reads either's end
            started = start_time(worker.process.pid)
            os.kill(worker.process.pid, signal.SIGKILL)
            until_now(lambda w=worker, s=started: not alive(w.process.pid, s))
        pid = await asyncio.wait_for(running, 30)
        assert pid not in (first.process.pid, second.process.pid)
    finally:
        await pool.close()


async def test_a_board_lost_with_its_worker_goes_to_a_worker_started_since() -> None:
    """Both workers killed at once, the second not dead yet when the first one's end is read
    (SIGKILL is delivered when the process next runs: with both workers on one core, after
    the other's death; stood for here by a stopped worker, alive but never answering): the
    board lost with the first is drawn by a worker started since the loss, not handed to
    the second and lost with it (a CI run's press said "Something went wrong")."""
    pool = CpuPool(workers=2).start()
    doomed = None
    try:
        await until(lambda: all(w.ready for w in pool._pool), timeout=30, what="both up")
        first, second = pool._pool
        running = pool.run_waited_for(_nap_then_pid, 0.5, home="table")
        await until(lambda: first.taken or second.taken, what="the board handed over")
        drawing, doomed = (first, second) if first.taken else (second, first)
        os.kill(doomed.process.pid, signal.SIGSTOP)
        os.kill(drawing.process.pid, signal.SIGKILL)
        pid = await asyncio.wait_for(running, 20)
        assert pid not in (first.process.pid, second.process.pid)
        assert not doomed.taken  # never handed the lost board
    finally:
        if doomed is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(doomed.process.pid, signal.SIGKILL)
        await pool.close()
