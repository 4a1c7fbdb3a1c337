"""The CPU pool: the same answer on a thread and in worker processes; workers that end
with their parent, however it ends (issue 29, item 21)."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.service.workers import CpuPool, default_workers

ROOT = Path(__file__).resolve().parents[2]


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


# ----- a killed parent -----------------------------------------------------------------------
POOL_USER = """
import asyncio, os, sys
from bot.service.workers import CpuPool

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
