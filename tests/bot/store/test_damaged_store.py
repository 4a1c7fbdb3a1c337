"""A damaged database file (issue 20): refused at start with the restore steps and a non-zero
exit, and a page corrupted while the bot runs told to the user as damage on every entry
point, never as "busy" and never as a raw exception. The damage is real: bytes scribbled
into a page of a real SQLite file."""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest

from bot.service import ChatRef, GameService, UserError
from bot.service.base.entry_guard import STORE_DAMAGED
from bot.store import DamagedStore, Store
from tests.bot.conftest import ANN, BOB, CHAT, CY

ROOT = Path(__file__).resolve().parents[3]
OTHER = ChatRef("test", "chan-2", "", "guild-1")


def scribble(path: Path, table: str) -> int:
    """Overwrite the start of `table`'s first page (its b-tree header and cell pointers), as
    a failing disk or a stray write would; returns the page number."""
    conn = sqlite3.connect(path)
    try:
        (page,) = conn.execute(
            "SELECT pageno FROM dbstat WHERE name = ? ORDER BY pageno", (table,)
        ).fetchone()
        (size,) = conn.execute("PRAGMA page_size").fetchone()
    finally:
        conn.close()
    with open(path, "r+b") as f:
        f.seek((page - 1) * size)
        f.write(b"\xff" * 8 + bytes(range(256)) * 2)
    return page


def poke(path: Path) -> None:
    """Another process writes (a backup tool, a second bot): SQLite drops the page cache of
    every other connection, so the running bot reads the damaged page from the file."""
    conn = sqlite3.connect(path)
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('poke', '1')")
    conn.commit()
    conn.close()


async def _game_file(path: Path) -> None:
    """A database with a game under way (moves, seats, users, the log) and a lobby."""
    store = await Store.open(path)
    service = GameService(store, seed_source=lambda: 1234, pictures=False)
    await service.start(CHAT, ANN, "ghosts18")
    await service.join(CHAT, BOB)
    users = {u.id: u for u in (ANN, BOB)}
    for _ in range(4):
        board = (await service.board(CHAT))[0]
        choice = next(c for c in board.choices if c.for_user)
        await service.press(CHAT, users[choice.for_user], choice.data)
    await service.start(OTHER, CY, "hidden_castle")
    await store.close()  # the last connection checkpoints: everything is in the main file


@pytest.fixture(scope="module")
def game_file(tmp_path_factory) -> Path:
    import asyncio

    path = tmp_path_factory.mktemp("game") / "escape.sqlite3"
    asyncio.run(_game_file(path))
    return path


@pytest.fixture
def db(game_file, tmp_path) -> Path:
    path = tmp_path / "escape.sqlite3"
    shutil.copy(game_file, path)
    return path


# ----- at start ----------------------------------------------------------------------
@pytest.mark.parametrize("table", ["sessions", "actions", "seats", "users", "sessions_by_scope"])
async def test_a_corrupt_page_is_refused_at_open_with_the_file_and_the_restore_steps(db, table):
    scribble(db, table)
    with pytest.raises(DamagedStore) as caught:
        await Store.open(db)
    message = str(caught.value)
    assert str(db) in message and "damaged" in message
    assert "latest backup" in message and "-wal" in message and "Data and backups" in message


async def test_a_file_that_is_not_a_database_is_refused_the_same_way(db):
    with open(db, "r+b") as f:
        f.write(b"this is no SQLite file" * 8)
    with pytest.raises(DamagedStore, match="damaged"):
        await Store.open(db)


async def test_a_sound_file_opens_and_keeps_its_games(db):
    store = await Store.open(db)
    try:
        assert len(await store.sessions_in_scope("test", "guild-1")) == 2
    finally:
        await store.close()


# ----- the running bot's check, apart from its start ----------------------------------
def _file_bytes(db: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in db.parent.iterdir() if p.name.startswith(db.name)}


@pytest.mark.parametrize("table", ["sessions", "actions", "users"])
async def test_a_damaged_file_checked_apart_is_never_written_and_says_why(db, table):
    """`escape-bot run` opens the store and checks it beside its start: reads may run, but
    no write reaches a damaged file, and the check's answer is the restore steps."""
    scribble(db, table)
    store = await Store.open(db, check_apart=True)
    try:
        with pytest.raises(DamagedStore) as caught:
            await store.checked()
        assert str(db) in str(caught.value) and "latest backup" in str(caught.value)
        before = _file_bytes(db)
        service = GameService(store, seed_source=lambda: 1234, pictures=False)
        with pytest.raises(UserError) as told:
            await service.start(ChatRef("test", "chan-7", "", "guild-1"), CY, "ghosts18")
        assert str(told.value) == STORE_DAMAGED
        assert _file_bytes(db) == before  # nothing appended, not even to the WAL
    finally:
        await store.close()


async def test_writes_wait_for_the_check_apart_and_reads_do_not(db):
    store = await Store.open(db)
    gate = asyncio.Event()

    async def slow_check() -> None:
        await gate.wait()

    store._conn.check_apart(slow_check(), gate.set)
    service = GameService(store, seed_source=lambda: 1234, pictures=False)
    try:
        assert len(await store.sessions_in_scope("test", "guild-1")) == 2  # a read: at once
        start = asyncio.ensure_future(
            service.start(ChatRef("test", "chan-8", "", "guild-1"), CY, "ghosts18")
        )
        await asyncio.sleep(0.2)
        assert not start.done()  # the write waits for the check
        gate.set()
        await asyncio.wait_for(start, 5)
        assert len(await store.sessions_in_scope("test", "guild-1")) == 3
    finally:
        await store.close()


async def test_a_store_closed_while_it_checks_apart_stops_the_check(db):
    """A stop signal during a long check: the check's thread is interrupted, nothing
    waits for it, and it is no damage."""
    store = await Store.open(db, check_apart=True)
    await store.close()
    await store.checked()  # passed or cut short: either way, no DamagedStore


def _escape_bot(args: list[str], db: Path, **env: str) -> tuple[int, str]:
    """The real command in a fresh process, as systemd or a terminal starts it."""
    import subprocess

    environ = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    environ.update(ESCAPE_DB=str(db), PYTHONPATH=str(ROOT), **env)
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        cwd=db.parent,
        env=environ,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.returncode, done.stdout + done.stderr


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (["play", "ghosts18", "--players", "Ann,Bob"], {}),
        # a configured platform: the store is checked beside the start and refused before
        # anything is written; the address is a closed local port, so nothing reaches out
        (["run"], {"DISCORD_TOKEN": "x", "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"}),
    ],
    ids=["play", "run"],
)
def test_escape_bot_refuses_a_damaged_file_and_exits_non_zero(db, args, env):
    scribble(db, "actions")
    status, output = _escape_bot(args, db, **env)
    assert status == 3, output
    assert str(db) in output and "latest backup" in output and "Data and backups" in output
    assert "Traceback" not in output


# ----- while running -----------------------------------------------------------------
def _entry_points(service: GameService, legal: str) -> dict[str, object]:
    """Every entry point an adapter or the timer loop calls, with a plausible request
    (`legal`: a move Bob may make now)."""
    return {
        "start": lambda: service.start(ChatRef("test", "chan-9", "", "guild-1"), CY, "ghosts18"),
        "join": lambda: service.join(OTHER, ANN),
        "leave": lambda: service.leave(OTHER, CY),
        "begin": lambda: service.begin(OTHER, CY),
        "move": lambda: service.move(CHAT, BOB, legal),
        "press": lambda: service.press(CHAT, BOB, "g:1"),
        "board": lambda: service.board(CHAT),
        "hand": lambda: service.private_view(CHAT, ANN),
        "log": lambda: service.history(CHAT, ANN),
        "games": lambda: service.games_here("test", "guild-1"),
        "rules": lambda: service.rules(None, CHAT),
        "clock": lambda: service.clock_command(CHAT, ANN, ""),
        "clock dm": lambda: service.clock_command(CHAT, ANN, "dm on"),
        "clock pause": lambda: service.clock_command(CHAT, ANN, "pause"),
        "vote": lambda: service.vote(CHAT, BOB),
        "choices": lambda: service.choices(CHAT, ANN),
        "live": lambda: service.live(CHAT),
        "time up": lambda: service.time_up(1),
        "end idle": lambda: service.end_idle(1),
        "ended games": lambda: service.ended_games(CHAT),
        "game log": lambda: service.game_log(CHAT, ANN),
        "replay": lambda: service.replay(CHAT),
        "stats": lambda: service.stats(CHAT, ANN),
        "top": lambda: service.top(CHAT),
        "undo": lambda: service.ask_undo(CHAT, ANN),
        "add bot": lambda: service.add_bot(OTHER, CY),
        "watch": lambda: service.watch_note(CHAT, CY),
        "abort": lambda: service.abort(CHAT, ANN),  # last: it ends the game the others use
    }


async def _serve_damaged(db: Path, table: str) -> tuple[dict[str, str], GameService]:
    store = await Store.open(db)  # sound at start
    service = GameService(store, seed_source=lambda: 1234, pictures=False)
    [(legal, _), *_] = await service.choices(CHAT, BOB)
    scribble(db, table)
    poke(db)
    outcome: dict[str, str] = {}
    for name, call in _entry_points(service, legal).items():
        try:
            await call()
            outcome[name] = "answered"
        except UserError as exc:
            outcome[name] = str(exc)
    await store.close()
    return outcome, service


async def test_sessions_page_corrupt_while_running_every_entry_point_says_damaged(db, caplog):
    with caplog.at_level(logging.WARNING, logger="bot"):
        outcome, _ = await _serve_damaged(db, "sessions")
    answered = {name: said for name, said in outcome.items() if said != STORE_DAMAGED}
    # a preference lives in the users table, standings in the ratings, the list of ended
    # games in an index: they did not read the damaged page
    assert answered == {"clock dm": "answered", "ended games": "answered", "stats": "answered"}
    assert "busy" not in STORE_DAMAGED and "backup" in STORE_DAMAGED
    # logged once a request, naming the chat or session, at error level (not a traceback)
    damaged = [r for r in caplog.records if "damaged" in r.getMessage()]
    assert len(damaged) == len(outcome) - len(answered)
    assert all(r.levelno == logging.ERROR and not r.exc_info for r in damaged)
    assert any("test chat chan-1" in r.getMessage() for r in damaged)
    assert any("session 1" in r.getMessage() for r in damaged)


@pytest.mark.parametrize(
    ("table", "damaged"),
    [
        ("actions", {"log", "move"}),
        ("seats", {"board", "log", "games", "move", "press", "start", "hand", "time up"}),
        ("users", {"start", "join", "clock", "clock dm"}),
        ("one_live_game_per_chat", {"board", "log", "move", "start", "join", "abort"}),
        ("sessions_by_scope", {"games", "start"}),
    ],
)
async def test_any_page_corrupt_while_running_gives_a_clear_answer_never_a_raw_error(
    db, table, damaged
):
    """Each entry point either answers (it did not read that page) or says the store is
    damaged; at least those that must read the page say so. Nothing raises anything else."""
    outcome, _ = await _serve_damaged(db, table)
    said_damaged = {name for name, said in outcome.items() if said == STORE_DAMAGED}
    assert damaged <= said_damaged, outcome
    assert not any("busy" in said for said in outcome.values()), outcome


# ----- a row that reads but does not make sense -----------------------------------------
async def test_a_saved_position_the_engine_cannot_read_is_told_and_hides_no_other_game(db):
    """Damage SQLite cannot see (a page rewritten with other valid JSON), or a position saved
    in an older shape: that game says so and can be aborted; `/escape games` still lists
    every other game (one unreadable game used to break the whole list)."""
    store = await Store.open(db)
    service = GameService(store, seed_source=lambda: 1234, pictures=False)
    third = ChatRef("test", "chan-3", "", "guild-1")
    await service.start(third, ANN, "ghosts18")
    await service.join(third, BOB)
    conn = sqlite3.connect(db)
    conn.execute("""UPDATE sessions SET state = '{"x": 1}' WHERE chat = 'chan-1'""")
    conn.execute("UPDATE sessions SET game = 'gone' WHERE chat = 'chan-3'")
    conn.commit()
    conn.close()
    try:
        for work in (
            service.board(CHAT),
            service.move(CHAT, BOB, "place b6"),
            service.press(CHAT, BOB, "v:1"),
            service.private_view(CHAT, ANN),
            service.choices(CHAT, ANN),
        ):
            with pytest.raises(UserError, match="saved position cannot be read"):
                await work
        listing = (await service.games_here("test", "guild-1")).text.splitlines()
        assert len(listing) == 3, listing
        assert "cannot be read" in listing[0] and "no longer has the game 'gone'" in listing[2]
        assert "lobby, 1 seated" in listing[1]
        [ended] = await service.abort(CHAT, ANN)
        assert ended.final
    finally:
        await store.close()


async def test_the_timer_loop_on_a_damaged_file_says_so_once_and_keeps_going(db, caplog):
    """Every scan fails while the file is damaged; the log says it once (with the restore
    steps), not once every interval for as long as nobody restores it. (A scan reads the
    games due by their index, not the table itself: both are damaged here.)"""
    from bot.service.timer_loop import Timers

    store = await Store.open(db)
    service = GameService(store, seed_source=lambda: 1234, pictures=False)
    service.add_notifier("test", lambda chat, replies: None)
    scribble(db, "sessions")
    scribble(db, "sessions_by_platform_wake")
    poke(db)
    naps: list[float] = []

    class Stop(Exception):
        pass

    async def sleep(seconds: float) -> None:
        naps.append(seconds)
        if len(naps) > 4:
            raise Stop

    try:
        with caplog.at_level(logging.WARNING, logger="bot"), pytest.raises(Stop):
            await Timers(service, interval=60, sleep=sleep).run()
    finally:
        await store.close()
    assert naps == [60] * 5  # scanned four times, each failing, each waiting one interval
    said = [r for r in caplog.records if "damaged" in r.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.ERROR
    assert "latest backup" in said[0].getMessage()
