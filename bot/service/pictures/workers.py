"""CPU-bound work (pictures, AI decisions) off the event loop and on every core.

Threads share one GIL, so a picture drawn on a thread still stalls every other table on
a busy process; a pool of worker processes sized to the machine does not. The pool is
started once the bot is up and shut down with it; without one (tests, the terminal) work runs
on a thread, with the same results, since every job is a pure function of its arguments.

Each worker has two pipes of its own, read and written by the event loop itself: a job
goes to a worker that is free, and its answer wakes the loop directly. The standard
library's process pool passes every job and answer through two helper threads and shared
queues; measured here, a job's round trip cost 0.50 ms there against 0.10 ms on the
worker's own pipes, and a board is such a job on every move (issue 34). Jobs wait in this
process until a worker is free (a board somebody waits for ahead of the rest); a worker's
pipe holds at most the job it is doing and, behind a board, the next board (`DEPTH`).

The bot starts its workers once it is up (`start_soon`): on a small machine their imports
took the cores the bot's own start needed (measured on 2 cores, `bench.scale`: 0.60 s to
the first board with the workers starting beside the bot, 0.51 s with them started after).

A table's boards go to the worker that drew its last one while that worker lives (`home`:
its canvas is kept there, render/work.py, so a move paints and deflates only what changed): to
it when it is free or drawing a board it can queue behind, else to any idle worker, which
becomes the table's worker. A worker that dies (the OOM killer, a crash in a library)
fails only the job it was doing (drawn again by a worker started since: a redraw is all a
table's worker costs), and a new worker takes its place. A worker ends when the bot that
started it is gone, however it went (SIGKILL, the OOM killer): each watches its parent from
a small thread (`os.getppid()` changes once the parent has died and the worker was handed
to init or a subreaper). Linux's PR_SET_PDEATHSIG is not used: it fires when the *thread*
that started the worker ends, which need not be the bot's main thread.

With `layout` split (ESCAPE_CPU_LAYOUT, the bot's default), the pool's start puts this
process's threads on one core and each worker on the others (cores.py says why).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import os
import pickle
import subprocess
import sys
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, TypeVar

from bot.service.pictures import cores
from bot.worker_process import FRAME, READY

T = TypeVar("T")
log = logging.getLogger(__name__)

CLOSE_GRACE = 10.0  # seconds a worker has to finish its job once the bot stops
# Boards a worker holds at once: the one it draws and the next, already in its pipe, so
# it starts that one without waiting for a busy event loop to read its answer first (with
# one, 24 tables moving at once rendered fewer moves a second than the standard pool).
# Only a board queues behind a board: one behind an AI's search would wait seconds.
DEPTH = 2
# seconds after the bot's start at which its workers start, if no job has started them
START_GRACE = 1.0
# A worker is a fresh interpreter with this process's import path that runs
# bot/worker_process.py alone. multiprocessing's spawn first ran the bot's own main script
# again in every worker (for `escape-bot`, bot.cli with the store, aiosqlite, Prometheus and
# Babel; for a bench, the whole service): CPU spent on both cores while the bot starts, and
# memory held by every worker for nothing its jobs use.
_BOOT = (
    "import json, sys; sys.path[:] = json.loads(sys.argv[1]); "
    "from bot.worker_process import main; main(sys.argv[2:])"
)


class WorkerLost(RuntimeError):
    """The worker process doing this job ended before answering. `births`: how many workers
    the pool had started by then (those started since are known to be alive)."""

    def __init__(self, why: str, births: int = 0) -> None:
        super().__init__(why)
        self.births = births


def default_workers() -> int:
    """One worker per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


HOMES = 4096  # tables whose worker is remembered (the most recently drawn)


class _Job:
    __slots__ = ("data", "future", "home", "newer", "urgent")

    def __init__(
        self,
        data: bytes,
        future: asyncio.Future,
        urgent: bool,
        home: Hashable = None,
        newer: int = 0,
    ) -> None:
        self.data, self.future, self.urgent = data, future, urgent  # data: the pickled call
        self.home = home  # the table whose worker should draw it
        self.newer = newer  # only a worker born this late or later takes it (a lost job's)


class _Worker:
    """One worker process and this side of its pipes (non-blocking descriptors)."""

    def __init__(
        self, process: subprocess.Popen, job_fd: int, answer_fd: int, born: int = 0
    ) -> None:
        self.process = process
        self.born = born  # the pool's count of workers started before this one
        self.wide = False  # on every core (a search), not only the workers' (cores.py)
        self.job_fd, self.answer_fd = job_fd, answer_fd  # -1 once closed
        os.set_blocking(self.job_fd, False)
        os.set_blocking(self.answer_fd, False)
        self.ready = False  # warmed up: it has said READY
        self.taken: collections.deque[_Job] = collections.deque()  # sent, in order
        self.inbox = bytearray()
        self.outbox = b""  # the rest of a job too big for the pipe at once
        self.watched = False  # the loop reads its answers

    def close_jobs(self) -> None:
        """The end of its jobs: the worker finishes the one it does and exits."""
        if self.job_fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self.job_fd)
            self.job_fd = -1

    def close(self) -> None:
        self.close_jobs()
        if self.answer_fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self.answer_fd)
            self.answer_fd = -1

    def wait(self, timeout: float | None = None) -> bool:
        """Whether it has exited (reaped) within `timeout` seconds."""
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return False
        return True


class CpuPool:
    """Runs picklable functions of importable modules (not `__main__`, which a worker does
    not run) in worker processes, or on a thread."""

    def __init__(self, workers: int = 0, practice: int = 0, layout: str = cores.SHARED) -> None:
        self.workers = workers
        self.practice = practice  # boards of each game a worker draws when idle (ESCAPE_PRACTICE)
        self.layout = layout  # where this process's threads and the workers run (cores.py)
        self._cores: cores.Cores | None = None  # as pinned while the workers run
        self._unpinned = frozenset()  # this process's cores before
        self._births = 0  # workers started so far
        self._pool: list[_Worker] = []
        self._urgent: collections.deque[_Job] = collections.deque()
        self._waiting: collections.deque[_Job] = collections.deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closing = False
        self._later: asyncio.TimerHandle | None = None  # the start `start_soon` set
        # each table's worker: the one that drew its last board (most recent last)
        self._homes: collections.OrderedDict[Hashable, _Worker] = collections.OrderedDict()

    def start(self) -> CpuPool:
        """Start the workers: new processes, free of this one's threads and loop, whose
        parent is this process (each watches it). Each imports the renderers as it starts."""
        if self._later is not None:
            self._later.cancel()
            self._later = None
        if self.workers > 0 and not self._pool:
            self._closing = False
            self._pin()
            self._pool = [self._spawn() for _ in range(self.workers)]
            with contextlib.suppress(RuntimeError):  # no loop yet: the first job attaches it
                self._attach(asyncio.get_running_loop())
        return self

    def start_soon(self, grace: float = START_GRACE) -> CpuPool:
        """Start the workers once the bot is up, not beside its own start: after the first
        board (drawn on a thread meanwhile, as any board before a worker is ready), at the
        first other job (an AI's search waits for a worker rather than hold this process),
        or `grace` seconds from now, whichever comes first. Called on the running loop."""
        if self.workers > 0 and not self._pool and self._later is None:
            self._later = asyncio.get_running_loop().call_later(grace, self.start)
        return self

    def _pin(self) -> None:
        """This process's threads on the bot's core, for `layout` (the workers go to the
        others as they start: `_spawn`)."""
        self._unpinned = cores.allowed()
        self._cores = cores.plan(self.layout, self._unpinned)
        if self._cores is not None:
            cores.pin_threads(self._cores.bot)

    def _spawn(self) -> _Worker:
        job_reader, job_writer = os.pipe()
        answer_reader, answer_writer = os.pipe()
        ends = (job_reader, answer_writer)  # the worker's: inherited by it alone
        path = json.dumps([entry for entry in sys.path if isinstance(entry, str)])
        try:
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    _BOOT,
                    path,
                    *map(str, ends),
                    str(os.getpid()),
                    str(self.practice),
                ],
                stdin=subprocess.DEVNULL,
                pass_fds=ends,
            )
        except BaseException:
            for fd in (job_writer, answer_reader):
                os.close(fd)
            raise
        finally:
            for fd in ends:  # closed here, so the worker's death reads as an end
                os.close(fd)
        if self._cores is not None:
            cores.pin_process(process.pid, self._cores.workers)
        worker = _Worker(process, job_writer, answer_reader, self._births)
        self._births += 1
        if self._loop is not None:
            self._watch(worker)
        return worker

    def _attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        for worker in self._pool:
            self._watch(worker)

    def _watch(self, worker: _Worker) -> None:
        if not worker.watched:
            self._loop.add_reader(worker.answer_fd, self._readable, worker)
            worker.watched = True

    @property
    def in_processes(self) -> bool:
        return bool(self._pool)

    @property
    def queue_length(self) -> int:
        """Jobs waiting for a free worker process (a metric: the pool is too small when it
        stays above 0)."""
        return len(self._urgent) + len(self._waiting)

    async def run(self, fn: Callable[..., T], /, *args: Any) -> T:
        if self._later is not None:
            self.start()
        if not self._pool:
            return await asyncio.to_thread(fn, *args)
        return await self._submit(fn, args, self._waiting)

    def run_waited_for(
        self, fn: Callable[..., T], /, *args: Any, home: Hashable = None
    ) -> Awaitable[T]:
        """A board somebody waits for: in a worker, ahead of the jobs nobody waits for (an
        AI's search, a replay), again once if its worker dies, or on a thread while no
        worker has started yet. A worker's start imports the renderers (half a second on a
        busy machine), so the first board after a restart would wait for it; this process
        has them already, and a picture is a pure function of its arguments, so it is the
        same. `home`: the table it draws, whose worker keeps its last board's bands.

        Handed to its worker at the call, not at the first await: a board is handed over
        just before its move is stored, and a hand-over once the store's thread had begun
        that transaction waited for the GIL (measured: 1.4-2.8 ms median a board, against
        0.01 ms handed over first)."""
        if self._later is not None:
            return self._then_start(asyncio.to_thread(fn, *args))
        if not self._pool:
            return asyncio.to_thread(fn, *args)
        self._attach_here()
        if not any(w.ready for w in self._pool):
            return asyncio.to_thread(fn, *args)
        return self._answer_of(self._enqueue(fn, args, self._urgent, home))

    async def on_each(self, fn: Callable[..., T], /, *args: Any) -> list[T]:
        """`fn(*args)` once in every worker that is up, after what it holds (what each
        worker keeps: a bench's counts); on this process's thread when none is."""
        self._attach_here()
        workers = [w for w in self._pool if w.ready]
        if not workers:
            return [await asyncio.to_thread(fn, *args)]
        jobs = []
        for worker in workers:
            job = _Job(
                pickle.dumps((fn, args), pickle.HIGHEST_PROTOCOL), self._loop.create_future(), False
            )
            self._send(worker, job)
            jobs.append(job.future)
        return list(await asyncio.gather(*jobs))

    async def _then_start(self, drawn: Awaitable[T]) -> T:
        try:
            return await drawn
        finally:
            if self._later is not None and not self._closing:
                self.start()

    async def _answer_of(self, job: _Job) -> Any:
        try:
            return await job.future
        except WorkerLost as lost:
            if self._closing:
                raise
            # its worker died under it (the OOM killer): drawn once more, so the move's board
            # still comes, by a worker started since the loss, which is alive: the others
            # may have been killed with it and not have said so yet (a job handed to one
            # would be lost again). A job that kills its worker fails the second time.
            self._notice_deaths()
            again = _Job(job.data, self._loop.create_future(), True, job.home, lost.births)
            return await self._queued(again).future

    def _attach_here(self) -> None:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            for worker in self._pool:
                if worker.watched and self._loop is not None and not self._loop.is_closed():
                    self._loop.remove_reader(worker.answer_fd)
                worker.watched = False
            self._attach(loop)

    async def _submit(self, fn: Callable, args: tuple, queue: collections.deque) -> Any:
        self._attach_here()
        return await self._enqueue(fn, args, queue).future

    def _enqueue(
        self, fn: Callable, args: tuple, queue: collections.deque, home: Hashable = None
    ) -> _Job:
        """Queued, and handed to a free worker at once if there is one; a call that does
        not pickle fails its caller's future (the caller's mistake, told to the caller)."""
        job = _Job(b"", self._loop.create_future(), queue is self._urgent, home)
        if getattr(fn, "__module__", None) == "__main__":
            job.future.set_exception(
                TypeError(
                    f"{fn.__qualname__} is defined in __main__, "
                    "which a CPU worker does not run: define it in an importable module"
                )
            )
            return job
        try:
            job.data = pickle.dumps((fn, args), pickle.HIGHEST_PROTOCOL)
        except Exception as exc:
            job.future.set_exception(exc)
            return job
        return self._queued(job)

    def _queued(self, job: _Job) -> _Job:
        (self._urgent if job.urgent else self._waiting).append(job)
        self._dispatch()
        return job

    # ----- the loop's side of the pipes -----------------------------------------------
    def _dispatch(self) -> None:
        """Hand waiting jobs to the free workers: each board, in turn, to its table's
        worker if it can take it now, else to an idle one (a board that can go nowhere
        yet waits, and the boards behind it may go meanwhile); then the other jobs to the
        workers still idle."""
        if self._urgent:
            # first every board its table's worker can take, then the rest to idle workers
            for at_home in (True, False):
                waiting: collections.deque[_Job] = collections.deque()
                while self._urgent:
                    job = self._urgent.popleft()
                    if job.future.done():  # its caller may have gone (cancelled)
                        continue
                    worker = self._home_of(job) if at_home else self._worker_for(job)
                    if worker is None:
                        waiting.append(job)
                    else:
                        self._send(worker, job)
                self._urgent = waiting
        for worker in self._pool:
            if self._idle(worker):
                job = self._next()
                if job is None:
                    break
                self._send(worker, job, wide=True)

    @staticmethod
    def _idle(worker: _Worker) -> bool:
        return worker.ready and not worker.taken and not worker.outbox

    @staticmethod
    def _takes_a_board(worker: _Worker) -> bool:
        """Free, or drawing boards with room behind them (`DEPTH`)."""
        return (
            worker.ready
            and not worker.outbox
            and len(worker.taken) < DEPTH
            and all(job.urgent for job in worker.taken)
        )

    def _home_of(self, job: _Job) -> _Worker | None:
        """Its table's worker, if it lives and can take a board now."""
        home = self._homes.get(job.home) if job.home is not None else None
        if (
            home is not None
            and home in self._pool
            and home.born >= job.newer
            and self._takes_a_board(home)
        ):
            self._homes.move_to_end(job.home)
            return home
        return None

    def _worker_for(self, job: _Job) -> _Worker | None:
        """Its table's worker if it can take a board now, else an idle worker (the table's
        worker from now on), else None: it waits."""
        found = self._home_of(job)
        if found is not None:
            return found
        home = self._homes.get(job.home) if job.home is not None else None
        young = [w for w in self._pool if w.born >= job.newer]
        idle = self._least_homed([w for w in young if self._idle(w)])
        if idle is None and (home is None or home not in self._pool):
            # no worker yet (or its worker died): one with room behind a board
            idle = self._least_homed([w for w in young if self._takes_a_board(w)])
        if idle is not None and job.home is not None:
            self._homes[job.home] = idle
            self._homes.move_to_end(job.home)
            while len(self._homes) > HOMES:
                self._homes.popitem(last=False)
        return idle

    def _least_homed(self, workers: list[_Worker]) -> _Worker | None:
        """Of `workers`, the one fewest tables call theirs (new tables spread evenly)."""
        if len(workers) < 2:
            return workers[0] if workers else None
        homed = collections.Counter(self._homes.values())
        return min(workers, key=lambda w: homed[w])

    def _next(self) -> _Job | None:
        """The next job nobody waits for (an AI's search, a replay)."""
        while self._waiting:
            job = self._waiting.popleft()
            if not job.future.done():  # its caller may have gone (cancelled)
                return job
        return None

    def _send(self, worker: _Worker, job: _Job, wide: bool = False) -> None:
        """`wide`: a job nobody waits for (an AI's search, for seconds), run on any core, so
        that the boards of other tables are not held to half a core beside it meanwhile;
        every other job on the workers' cores (cores.py)."""
        if self._cores is not None and worker.wide != wide:
            worker.wide = wide
            cores.pin_process(worker.process.pid, self._unpinned if wide else self._cores.workers)
        worker.taken.append(job)
        frame = FRAME.pack(len(job.data)) + job.data
        try:
            sent = os.write(worker.job_fd, frame)
        except BlockingIOError:
            sent = 0
        except OSError:
            return  # the worker is gone: its end of the answers pipe says so
        if sent < len(frame):
            worker.outbox = frame[sent:]
            self._loop.add_writer(worker.job_fd, self._writable, worker)

    def _writable(self, worker: _Worker) -> None:
        try:
            sent = os.write(worker.job_fd, worker.outbox)
        except BlockingIOError:
            return
        except OSError:
            sent = len(worker.outbox)  # gone: its answers pipe ends too
        worker.outbox = worker.outbox[sent:]
        if not worker.outbox:
            self._loop.remove_writer(worker.job_fd)

    def _readable(self, worker: _Worker) -> None:
        try:
            chunk = os.read(worker.answer_fd, 1 << 20)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._lost(worker)
            return
        worker.inbox += chunk
        self._frames(worker)
        self._dispatch()

    def _frames(self, worker: _Worker) -> None:
        """Each whole frame read so far, answered."""
        while len(worker.inbox) >= FRAME.size:
            (size,) = FRAME.unpack_from(worker.inbox)
            if len(worker.inbox) < FRAME.size + size:
                return
            frame = bytes(worker.inbox[FRAME.size : FRAME.size + size])
            del worker.inbox[: FRAME.size + size]
            self._answered(worker, frame)

    def _answered(self, worker: _Worker, frame: bytes) -> None:
        if not worker.ready:
            worker.ready = frame == READY
            return
        job = worker.taken.popleft() if worker.taken else None
        if job is None or job.future.done():
            return  # its caller has gone
        try:
            ok, value = pickle.loads(frame)
        except Exception as exc:
            job.future.set_exception(exc)
            return
        if ok:
            job.future.set_result(value)
        else:
            job.future.set_exception(value)

    def _lost(self, worker: _Worker) -> None:
        """A worker's answers pipe ended: it has exited (asked to, or died)."""
        worker.ready = False  # never handed another job, even if no other can be started
        self._forget(worker)
        self._fail(worker, "a CPU worker process ended before it answered", self._births)
        if worker in self._pool and not self._closing:
            log.error("CPU worker %s ended unasked; starting another", worker.process.pid)
            self._loop.run_in_executor(None, worker.wait)  # reaped, not left a zombie
            self._pool[self._pool.index(worker)] = self._spawn()

    def _notice_deaths(self) -> None:
        """Workers that have exited though their pipes have not said so yet (killed
        together: the OOM killer, a `kill -9` of several), lost now, so that their
        places are taken at once; one still dying is left to its pipe's end."""
        for worker in list(self._pool):
            if worker.watched and worker.process.poll() is not None:
                self._lost(worker)

    @staticmethod
    def _fail(worker: _Worker, why: str, births: int = 0) -> None:
        """The jobs a worker took and never answered."""
        while worker.taken:
            job = worker.taken.popleft()
            if not job.future.done():
                job.future.set_exception(WorkerLost(why, births))

    def _forget(self, worker: _Worker) -> None:
        if worker.watched and self._loop is not None and not self._loop.is_closed():
            self._loop.remove_reader(worker.answer_fd)
            if worker.outbox:
                self._loop.remove_writer(worker.job_fd)
        worker.watched = False
        worker.close()

    async def close(self) -> None:
        """Stop taking jobs (those still waiting are cancelled); each worker finishes the
        job it is doing, reads the end of its jobs pipe and exits."""
        if self._later is not None:  # never started
            self._later.cancel()
            self._later = None
        if not self._pool:
            return
        self._closing = True
        for queue in (self._urgent, self._waiting):
            while queue:
                queue.popleft().future.cancel()
        workers = list(self._pool)
        for worker in workers:
            if worker.outbox and worker.watched:
                self._loop.remove_writer(worker.job_fd)
                worker.outbox = b""
            worker.close_jobs()  # the worker reads the end of its jobs and exits
        for worker in workers:
            if not await asyncio.to_thread(worker.wait, CLOSE_GRACE):
                worker.process.kill()
                await asyncio.to_thread(worker.wait, CLOSE_GRACE)
        for worker in workers:
            self._drain(worker)
            self._forget(worker)
            self._fail(worker, "the CPU pool was shut down")
        self._pool = []
        if self._cores is not None:  # the process's threads free again (a bench goes on)
            cores.pin_threads(self._unpinned)
            self._cores = None

    def _drain(self, worker: _Worker) -> None:
        """What an exited worker wrote that the loop has not read yet."""
        while True:
            try:
                chunk = os.read(worker.answer_fd, 1 << 20)
            except OSError:  # closed already, or nothing (it was read)
                return
            if not chunk:
                return
            worker.inbox += chunk
            self._frames(worker)
