"""A player's move is stored before the bots think, and each bot turn is a move of its own
(issue 33): stored the moment it is made, searched with the table's lock free, dropped if
the table changed while it was searched (a compare-and-set on that version), and picked up
where it stopped after a crash (the timer loop; the terminal as it resumes: a real process
killed with SIGKILL mid-search)."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import time
from pathlib import Path

import pytest

from bot.service import ChatRef, GameService, UserError
from bot.service.base import deadlines
from bot.service.timer_loop import Timers
from bot.store import Store
from tests.bot.conftest import ANN, CHAT
from tests.bot.console.test_console import _spawn, _wait_for
from tests.bot.service.clock.test_timers import T0, FakeClock


class HeldSearch:
    """Holds every bot search until released, and says when one has begun."""

    def __init__(self, service: GameService) -> None:
        self.real = service.bots.choose
        self.started = asyncio.Event()
        self.go = asyncio.Event()
        service.bots.choose = self  # type: ignore[method-assign]

    async def __call__(self, *args):
        self.started.set()
        await self.go.wait()
        return await self.real(*args)


async def ann_to_move(service: GameService) -> str:
    [(action, _label), *_] = await service.choices(CHAT, ANN)
    return action


def new_service(store, clock=None) -> GameService:
    return GameService(
        store, seed_source=lambda: 1234, pictures=False, ai_scale=0.02, clock=clock or FakeClock()
    )


async def test_the_move_is_stored_before_the_bot_searches_and_the_table_answers_meanwhile(store):
    service = new_service(store)
    await service.start(CHAT, ANN, "castle_doors", "bots=2")
    row = await service.live(CHAT)
    before = len(await store.log(row.id))
    held = HeldSearch(service)
    started = asyncio.ensure_future(held.started.wait())
    while True:  # Ann's turn may take two decisions before the bots are to act
        moving = asyncio.create_task(service.move(CHAT, ANN, await ann_to_move(service)))
        await asyncio.wait([moving, started], return_when=asyncio.FIRST_COMPLETED)
        if started.done():
            break
        await moving
    log = await store.log(row.id)
    human = [e for e in log[before:] if e.seat == 0]
    assert human and log[-1].seat in (0, -1), "Ann's move (and its chance) is stored already"
    stored = await service.live(CHAT)
    assert stored.clock.get("bots") and stored.wake_at == pytest.approx(T0 + deadlines.BOTS_WAKE)
    # the table's lock is free while the bot thinks: the board and a refusal come at once
    [board] = (await asyncio.wait_for(service.board(CHAT), 2)).public
    assert board.kind == "board" and "Waiting for Bot " in board.text  # (not "for .")
    assert not board.moves() and not board.mention  # nothing to press, nobody to ping
    with pytest.raises(UserError, match="not your turn"):
        await asyncio.wait_for(service.move(CHAT, ANN, "stay"), 2)
    held.go.set()
    plan = await moving
    assert len([r for r in plan if r.kind == "board"]) == 1  # one board for the whole run
    after = await store.log(row.id)
    bots = [e for e in after[len(log) :] if e.seat in (1, 2)]
    assert bots, "the bots played after Ann"
    done = await service.live(CHAT)
    assert not done.clock.get("bots") and done.wake_at != stored.wake_at
    # each bot decision was its own transaction (its chance with it)
    assert done.version - stored.version == len(bots)


async def test_a_search_is_dropped_when_the_table_changed_meanwhile(tmp_path):
    """Two processes on one database: one's bot searches while the other plays that turn;
    the first finds the version it searched gone, so the turn is played once, not twice."""
    path = tmp_path / "escape.sqlite3"
    one, two = await Store.open(path), await Store.open(path)
    try:
        first, second = new_service(one), new_service(two)
        await first.start(CHAT, ANN, "ghosts18", "bots=1 variant=short")
        row = await first.live(CHAT)
        held = HeldSearch(first)
        moving = asyncio.create_task(first.move(CHAT, ANN, await ann_to_move(first)))
        await held.started.wait()
        searched = await _log(path)
        assert searched[-1][0] == 0  # Ann's move, stored
        [board] = (await first.board(CHAT)).public  # an open game's board while it thinks
        assert "Waiting for Bot 1" in board.text and not board.moves()
        woken = await second.wake_bots(row.id)  # the other process plays the bot's turn
        assert [r.kind for r in woken].count("board") == 1
        played = await _log(path)
        assert 1 in [seat for seat, _ in played[len(searched) :]]
        held.go.set()
        await moving
        assert await _log(path) == played  # the first process stored nothing more
        assert await first.choices(CHAT, ANN), "Ann is to act again"
    finally:
        await one.close()
        await two.close()


async def test_bots_cut_off_by_a_crash_play_on_when_the_timer_loop_wakes_them(tmp_path):
    clock = FakeClock()
    path = tmp_path / "escape.sqlite3"
    store = await Store.open(path, clock=clock)
    service = new_service(store, clock)
    service.add_notifier("test", _ignore)
    await service.start(CHAT, ANN, "ghosts18", "bots=1 variant=short")
    row = await service.live(CHAT)
    held = HeldSearch(service)
    moving = asyncio.create_task(service.move(CHAT, ANN, await ann_to_move(service)))
    await held.started.wait()
    moving.cancel()  # the process dies mid-search: nothing after Ann's move is stored
    with pytest.raises(asyncio.CancelledError):
        await moving
    await store.close()
    cut = await _log(path)

    store = await Store.open(path, clock=clock)  # the restart
    try:
        service = new_service(store, clock)
        sent = []

        async def deliver(chat: ChatRef, plan) -> None:
            sent.extend(plan)

        service.add_notifier("test", deliver)
        timers = Timers(service, interval=30)
        clock.t = T0 + deadlines.BOTS_WAKE - 1
        assert (await timers.tick()).woken == [] and await _log(path) == cut  # not yet due
        clock.t = T0 + deadlines.BOTS_WAKE + 1
        assert (await timers.tick()).woken == [row.id]
        played = await _log(path)
        assert played[: len(cut)] == cut and 1 in [seat for seat, _ in played[len(cut) :]]
        [board] = [r for r in sent if r.kind == "board"]
        assert "Waiting for Ann" in board.text
        assert (await timers.tick()).woken == []  # played once
    finally:
        await store.close()


async def _ignore(chat, plan) -> None:
    pass


async def _log(path: Path) -> list[tuple[int, str]]:
    conn = sqlite3.connect(path)
    try:
        return [tuple(r) for r in conn.execute("SELECT seat, action FROM actions ORDER BY n")]
    finally:
        conn.close()


# ----- the real program, killed while its bot searches ------------------------------------
HARD_BOT = ("ghosts18", "--players", "Ann,bot", "--options", "level=hard")


def test_killed_while_the_bot_searches_the_move_is_kept_and_the_bot_plays_on(tmp_path):
    db, pictures = tmp_path / "escape.sqlite3", tmp_path / "pics"
    # a search twenty times a hard one's: the kill comes while it runs
    first = _spawn(db, pictures, HARD_BOT, ESCAPE_AI_SCALE="20")
    seen: list[str] = []
    _wait_for(first, "Waiting for Ann", seen)
    opening = _actions(db)
    first.stdin.write("place b1\n")
    first.stdin.flush()
    _wait_for(first, "Ann places a red ghost on b1.", seen)  # shown at once, before the bot
    time.sleep(1.0)
    assert _actions(db) == [*opening, "place b1"]  # stored before the bot has chosen
    assert not any("Bot 1 (hard) places" in line for line in seen[-3:])
    first.send_signal(signal.SIGKILL)
    first.wait(10)
    assert _actions(db) == [*opening, "place b1"]

    second = _spawn(db, pictures, HARD_BOT, ESCAPE_AI_SCALE="0.02")
    seen2: list[str] = []
    _wait_for(second, "Resuming game #1", seen2)
    _wait_for(second, "Bot 1 (hard) places", seen2)  # the bot plays on from where it stopped
    _wait_for(second, "Waiting for Ann", seen2)
    second.stdin.close()
    assert second.wait(20) == 0
    after = _actions(db)
    assert after[: len(opening) + 1] == [*opening, "place b1"] and len(after) > len(opening) + 1
    assert not any("Traceback" in line for line in seen + seen2), "".join(seen + seen2)


def _actions(db: Path) -> list[str]:
    conn = sqlite3.connect(db)
    try:
        return [row[0] for row in conn.execute("SELECT action FROM actions ORDER BY n")]
    finally:
        conn.close()
