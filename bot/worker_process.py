"""What a CPU worker process runs, kept apart from `bot.service`: a worker imports only what
its jobs need (`render` for a picture, about a third of a second), never the whole service
stack, which importing `bot.service.workers` would pull in. It is started as a fresh
interpreter that imports this module alone (`main`), not the bot's own main script.

`serve` is a worker's whole life: it watches its parent (see bot/service/pictures/workers.py for
why), imports the renderers (`warm`) while the bot itself is still starting, says it is
ready, then answers one job at a time from its own pipe until that pipe is closed. Once no
job has come for `IDLE` seconds it practises (render/practice.py), a board at a time, looking
at its pipe between boards: a job waits at most for the one board being drawn. Practice
done, an idle worker returns to the system the memory its boards freed, once it has grown
by `GIVE_BACK` (glibc keeps freed pages otherwise).

A frame on either pipe is its length (8 bytes, big-endian) and a pickle: a job is
`(function, arguments)`, an answer `(True, value)` or `(False, exception)`."""

from __future__ import annotations

import os
import pickle
import select
import signal
import struct
import threading
import time

from bot import heap

FRAME = struct.Struct("!Q")  # a frame's length, before its pickle
READY = b"ready"  # a worker's first frame: it has warmed up and waits for jobs

PARENT_POLL = 0.25  # seconds between a worker's looks at its parent
IDLE = 0.25  # seconds without a job before a worker practises
# resident growth since the last give-back that an idle worker returns to the system: glibc
# keeps what boards freed (measured: 165 -> 117 MB after 600 boards, 4-8 ms a give-back)
GIVE_BACK = 20 * 2**20

# what a worker has left to practise: the boards of each game it was told to, until its
# first practice board; then a render.practice.Practice; None once it is done (or without)
_practice = None
_practised = 0  # boards drawn in practice
_given_back_at = 0  # resident bytes just after the last give-back


def watch_parent(parent: int) -> None:
    """Worker initializer: exit as soon as `parent` (the bot's pid) is no longer this
    process's parent; at once if it died before the worker got here."""
    if os.getppid() != parent:
        os._exit(0)
    threading.Thread(target=_exit_with, args=(parent,), name="parent-watch", daemon=True).start()


def _exit_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL)
    os._exit(0)  # nothing to save: every job is a pure function, its caller is gone


def warm() -> int:
    """Import the renderers (the first board then costs only its drawing)."""
    import render  # noqa: F401

    return os.getpid()


def practised() -> int:
    """A job: the boards this worker has drawn in practice so far."""
    return _practised


def practise_all() -> int:
    """A job: practise the boards left now, not when idle; how many this worker has drawn
    in practice (`bench` asks each worker for it before it times anything)."""
    while _practise_one():
        pass
    return _practised


def _practise_one() -> bool:
    """Draw the next practice board; whether there was one. The practice is made at its
    first board: its import takes the games' engines too, which only practice and the
    computer players need."""
    global _practice, _practised
    if isinstance(_practice, int):
        from render.practice import Practice

        _practice = Practice(_practice)
    if _practice is None:
        return False
    try:
        drew = _practice.step()
    except Exception:  # practice is a nicety: a board it cannot draw ends it, not the worker
        drew = False
    _practised = _practice.drawn
    if not drew:
        _practice = None
        heap.settle()  # what practice drew is kept: out of the collector's way too
        _give_back()  # and what it freed goes back to the system
    return drew


def _give_back() -> None:
    global _given_back_at
    heap.give_back()
    _given_back_at = heap.resident()


def _when_idle(inbox: int) -> None:
    """Once no job has come for `IDLE` seconds: practise until one comes; with practice
    done, return freed memory to the system if this worker grew by `GIVE_BACK` since it
    last did (a job that comes meanwhile waits for that, a few ms)."""
    wait = IDLE
    while not select.select([inbox], [], [], wait)[0]:
        if _practice is None:
            if heap.resident() - _given_back_at >= GIVE_BACK:
                _give_back()
            return
        wait = 0.0
        _practise_one()


def main(argv: list[str]) -> None:
    """The worker's command line: its ends of the two pipes, the bot's pid, and how many
    boards of each game it practises when idle."""
    inbox, outbox, parent, boards = map(int, argv)
    serve(inbox, outbox, parent, boards)


def serve(inbox: int, outbox: int, parent: int, practice: int = 0) -> None:
    """A worker process: `inbox` and `outbox` are its ends of its two pipes (descriptors
    it inherited), `parent` the bot's pid, `practice` the boards of each game it draws when
    idle. A job's failure is sent back as its answer, so a bad job never ends the worker.
    Ctrl-C reaches every process of a terminal's group: the worker leaves it to the bot,
    which closes the pipe once it has stopped."""
    global _practice, _given_back_at
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    watch_parent(parent)
    warm()
    _practice = practice or None
    heap.settle()  # the renderers' modules and tables, never walked by a full collection
    _given_back_at = heap.resident()
    _write(outbox, READY)
    while True:
        _when_idle(inbox)
        job = _read(inbox)
        if job is None:
            return  # the bot closed the pipe: it is shutting down
        try:
            fn, args = pickle.loads(job)
            answer = pickle.dumps((True, fn(*args)), pickle.HIGHEST_PROTOCOL)
        except BaseException as exc:  # the caller's failure, not the worker's
            answer = _failure(exc)
        _write(outbox, answer)


def _failure(exc: BaseException) -> bytes:
    try:
        return pickle.dumps((False, exc), pickle.HIGHEST_PROTOCOL)
    except Exception:  # an exception that does not pickle: its words do
        return pickle.dumps((False, RuntimeError(f"{type(exc).__name__}: {exc}")))


def _write(fd: int, data: bytes) -> None:
    view = memoryview(FRAME.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view) :]


def _read(fd: int) -> bytes | None:
    """One frame, or None at the end of the pipe."""
    head = _exactly(fd, FRAME.size)
    if head is None:
        return None
    return _exactly(fd, FRAME.unpack(head)[0])


def _exactly(fd: int, n: int) -> bytes | None:
    parts, left = [], n
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            return None
        parts.append(chunk)
        left -= len(chunk)
    return b"".join(parts)
