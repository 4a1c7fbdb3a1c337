"""The real `escape-bot run` process starting and stopping (issue 13): a database that
cannot be opened stops it at once with a clear message; SIGTERM in the middle of moves
lets the moves in hand finish, loses none that was answered, and exits 0."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
from pathlib import Path

from bot.settings import PRACTICE
from bot.store import Store
from bot.store.migrations import MIGRATIONS
from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import (
    GROUP,
    choice_buttons,
    escape_bot_run,
    mentioned_ids,
)

TABLES = 6


def _telegram(standin, db) -> dict[str, str]:
    return {
        "TELEGRAM_TOKEN": standin.token,
        "TELEGRAM_BASE_URL": standin.base_url,
        "TELEGRAM_BASE_FILE_URL": standin.base_file_url,
        "ESCAPE_DB": str(db),
    }


async def _exits(process, timeout: float = 30) -> str:
    output, _ = await asyncio.wait_for(process.communicate(), timeout)
    return output.decode(errors="replace")


async def test_a_database_that_cannot_be_opened_stops_the_run_at_once(tg_standin, tmp_path):
    (tmp_path / "blocker").write_text("a file where a folder should be")
    process = await escape_bot_run(tmp_path, _telegram(tg_standin, tmp_path / "blocker" / "x.db"))
    output = await _exits(process)
    assert process.returncode == 2, output
    assert "cannot open the database" in output and "Traceback" not in output, output
    assert not tg_standin.calls_of("getUpdates"), "it must not start serving"


async def test_a_database_newer_than_the_code_is_refused(tg_standin, tmp_path):
    db = tmp_path / "newer.sqlite3"
    store = await Store.open(db)
    await store.close()
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    conn.close()
    process = await escape_bot_run(tmp_path, _telegram(tg_standin, db))
    output = await _exits(process)
    assert process.returncode == 2, output
    assert "newer than this Escape" in output and "Traceback" not in output, output


@contextlib.asynccontextmanager
async def _bot(standin, tmp_path, db: str, settings: dict[str, str] | None = None, **how):
    """The real bot with the stand-in, up once its commands are registered; killed at the
    end if the test did not stop it."""
    settings = _telegram(standin, tmp_path / db) | (settings or {})
    process = await escape_bot_run(tmp_path, settings, **how)
    try:
        await standin.wait_for(lambda c: c.method == "setMyCommands", timeout=30)
        yield process
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def _outlived(workers: dict[int, str], seconds: float = 5) -> list[int]:
    """The processes of `workers` (pid -> start time) still alive after up to `seconds`."""
    from tests.bot.service.pictures.test_workers import alive

    deadline = asyncio.get_running_loop().time() + seconds
    while asyncio.get_running_loop().time() < deadline and any(
        alive(p, s) for p, s in workers.items()
    ):
        await asyncio.sleep(0.05)
    return [p for p, s in workers.items() if alive(p, s)]


async def _open_tables(standin) -> list[tuple[int, dict]]:
    """TABLES groups, each with a running game of 18 Ghosts: (chat, first board)."""
    tables = []
    for i in range(TABLES):
        chat = GROUP - i
        if chat not in standin.chats:
            standin.add_group(chat, f"Escape club {i}")
        mark = len(standin.calls)
        await standin.say(standin.ann, chat, "/escape start ghosts18 variant=short")
        await standin.wait_for(
            lambda c, chat=chat: (
                c.method == "sendMessage" and c.params.get("chat_id") in (chat, str(chat))
            ),
            after=mark,
            timeout=30,
        )
        mark = len(standin.calls)
        await standin.say(standin.bob, chat, "/escape join")
        board = await standin.wait_for(
            lambda c, chat=chat: (
                c.method == "sendPhoto" and c.params.get("chat_id") in (chat, str(chat))
            ),
            after=mark,
            timeout=30,
        )
        tables.append((chat, board.result))
    return tables


async def test_sigterm_mid_load_keeps_every_answered_move_and_exits_0(tg_standin, tmp_path):
    standin = tg_standin
    db = tmp_path / "load.sqlite3"
    async with _bot(standin, tmp_path, db.name) as process:
        tables = await _open_tables(standin)
        users = {u["id"]: u for u in (standin.ann, standin.bob)}
        mark = len(standin.calls)
        queries = []
        for _chat, board in tables:  # every table moves at once
            actor = users[mentioned_ids(board)[0]]
            queries.append(
                await standin.press(actor, board, choice_buttons(board)[0]["callback_data"])
            )
        await standin.wait_for(lambda c: c.method == "answerCallbackQuery", after=mark, timeout=30)
        process.send_signal(signal.SIGTERM)  # mid-load: some moves answered, some in hand
        output = await _exits(process, timeout=20)
    assert process.returncode == 0, output
    assert "Traceback" not in output, output

    answered = {
        str(c.params.get("callback_query_id"))
        for c in standin.calls_of("answerCallbackQuery", after=mark)
        if not c.params.get("show_alert")
    }
    assert answered, "no move was answered before the stop"
    store = await Store.open(db)
    try:
        for (chat, _), query in zip(tables, queries, strict=True):
            row = await store.live_session("telegram", str(chat), "")
            moves = len(await store.log(row.id))
            assert moves <= 1
            if query in answered:
                assert moves == 1, f"the answered move in chat {chat} was lost"
    finally:
        await store.close()


async def test_a_killed_bot_leaves_no_worker_behind(tg_standin, tmp_path):
    """SIGKILL (the OOM killer, `kill -9`): the picture and AI workers end by themselves."""
    from tests.bot.service.pictures.test_workers import children, start_time

    process = await escape_bot_run(tmp_path, _telegram(tg_standin, tmp_path / "k.sqlite3"))
    try:
        await tg_standin.wait_for(lambda c: c.method == "setMyCommands", timeout=30)
        await _open_tables(tg_standin)  # boards drawn: the workers are up and have worked
        workers = {pid: start_time(pid) for pid in children(process.pid)}
        assert workers, "the bot started no worker"
    finally:
        process.kill()  # its wait() ends only once every holder of its output pipe has gone
    left = await _outlived(workers)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    await asyncio.wait_for(process.wait(), 10)
    assert not left, f"workers {left} outlived the bot"


async def test_ctrl_c_in_a_terminal_stops_the_bot_and_its_workers_quietly(tg_standin, tmp_path):
    """Ctrl-C signals the terminal's whole process group, the CPU workers too: the bot
    stops them itself, so the run ends with 0 and no worker prints a traceback."""
    from tests.bot.service.pictures.test_workers import children, start_time

    async with _bot(tg_standin, tmp_path, "c.sqlite3", own_group=True) as process:
        await _open_tables(tg_standin)
        workers = {pid: start_time(pid) for pid in children(process.pid)}
        assert workers, "the bot started no worker"
        os.killpg(process.pid, signal.SIGINT)
        output = await _exits(process, timeout=30)
    assert process.returncode == 0, output
    assert "Traceback" not in output and "KeyboardInterrupt" not in output, output
    # the workers were reaped before the exit
    assert not await _outlived(workers), "a worker outlived the bot"


def _cores_of(pid: int) -> set[tuple[int, ...]]:
    """The cores each thread of process `pid` may run on, as the system says."""
    return {
        tuple(sorted(os.sched_getaffinity(int(tid)))) for tid in os.listdir(f"/proc/{pid}/task")
    }


def _cpu_workers(pid: int) -> set[int]:
    """The CPU workers among `pid`'s children (bot/worker_process.py on their command line)."""
    from tests.bot.service.pictures.test_workers import children

    return {
        child
        for child in children(pid)
        if b"bot.worker_process" in Path(f"/proc/{child}/cmdline").read_bytes()
    }


async def test_workers_killed_mid_game_are_replaced_and_every_move_has_its_board(
    tg_standin, tmp_path
):
    """The OOM killer takes the CPU workers between moves: the bot says so in its log,
    starts new ones, and every next move's board still comes (drawn in the bot's own
    process until a new worker is ready). The workers practise as a bot's do by default
    (ESCAPE_PRACTICE), the new ones too. As shipped, the bot's threads run on one core and
    its workers, the new ones too, on the others (ESCAPE_CPU_LAYOUT)."""
    from tests.bot.service.pictures.test_workers import start_time
    from tests.e2e.telegram_fixtures import press_and_wait

    standin = tg_standin
    async with _bot(standin, tmp_path, "w.sqlite3", {"ESCAPE_PRACTICE": str(PRACTICE)}) as process:
        tables = await _open_tables(standin)
        workers = {pid: start_time(pid) for pid in _cpu_workers(process.pid)}
        assert len(workers) >= 1, "the bot started no worker"
        cores = sorted(os.sched_getaffinity(0))
        if len(cores) >= 2:  # as shipped (ESCAPE_CPU_LAYOUT=split): threads and workers apart
            assert _cores_of(process.pid) == {(cores[-1],)}
            assert all(_cores_of(pid) == {tuple(cores[:-1])} for pid in workers)
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        users = {u["id"]: u for u in (standin.ann, standin.bob)}
        for _chat, board in tables:
            actor = users[mentioned_ids(board)[0]]
            await press_and_wait(standin, actor, board, choice_buttons(board)[0]["callback_data"])
        replaced = _cpu_workers(process.pid) - set(workers)
        if len(cores) >= 2:
            assert all(_cores_of(pid) == {tuple(cores[:-1])} for pid in replaced)
        process.send_signal(signal.SIGTERM)
        output = await _exits(process, timeout=30)
    assert not await _outlived(workers, 0)
    assert output.count("ended unasked; starting another") == len(workers), output
    assert len(replaced) == len(workers), "the killed workers were not replaced"
    assert process.returncode == 0 and "Traceback" not in output, output
