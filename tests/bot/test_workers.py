"""The CPU pool: the same answer on a thread and in worker processes."""

import os

from bot.service.workers import CpuPool, default_workers


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
