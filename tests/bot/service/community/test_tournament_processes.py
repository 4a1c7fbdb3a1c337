"""A tournament's round moved on by the timer loops of two processes sharing one real
PostgreSQL server: paired, opened and announced exactly once; and a process killed
(SIGKILL) in the middle of opening a round leaves no half round: the next scan, in
another process, opens the rest of the same pairing."""

from __future__ import annotations

import asyncio
import multiprocessing as mp
import random
import time

import pytest

from bot.service import ChatRef, GameService, UserRef
from bot.service.community.tournaments.rounds import LEASE
from tests.bot.tournament_play import play_out, round_tables
from tests.bot.tournament_worker import tick_once

CHAT = ChatRef("test", "club", "", "guild-1")
PLAYERS = [UserRef("test", f"u{i}", f"Player {i}") for i in range(1, 11)]
postgres_only = pytest.mark.parametrize("db_kind", ["postgresql"], indirect=True)


async def first_round_played(store) -> int:
    """Ten players signed up, round 1 opened by the organiser's start and played out."""
    service = GameService(store, pictures=False)
    await service.tournament(CHAT, PLAYERS[0], "create ghosts18 variant=short rounds=3")
    for user in PLAYERS:
        await service.tournament(CHAT, user, "join")
    await service.tournament(CHAT, PLAYERS[0], "start")
    t = (await store.tournaments_in_chat("test", CHAT.chat))[0]
    rng = random.Random(11)
    for row in await round_tables(service, t.id):
        await play_out(service, row, rng)
    return t.id


def _spawn(target: str, count: int, die_at: int = 0) -> list[dict | None]:
    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(count) if count > 1 else None
    results = ctx.Queue()
    procs = [
        ctx.Process(target=tick_once, args=(target, barrier, results, die_at)) for _ in range(count)
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=180)
    out = []
    while not results.empty():
        out.append(results.get(timeout=5))
    return out, [p.exitcode for p in procs]


async def _round_sessions(store, tid: int, round_: int) -> tuple[list, int]:
    pairings = await store.pairings(tid, round_)
    async with store._conn.execute("SELECT COUNT(*) FROM sessions") as cur:
        (sessions,) = await cur.fetchone()
    return pairings, sessions


@postgres_only
async def test_two_processes_move_a_round_on_exactly_once(store, db_target):
    tid = await first_round_played(store)
    results, codes = await asyncio.to_thread(_spawn, str(db_target), 2)
    assert codes == [0, 0] and len(results) == 2
    t = await store.tournament(tid)
    assert t.round == 2 and t.shown == 2 and t.reported == 1
    paired = [r["progress"][tid]["paired"] for r in results]
    assert sorted(paired) == [[], [2]]  # one process paired round 2; the other found it done
    pairings, sessions = await _round_sessions(store, tid, 2)
    tables = [p for p in pairings if not p.bye]
    assert len(tables) == 5 and all(p.session_id for p in tables)
    assert sessions == 5 + 5  # round 1's five tables and round 2's, no session more
    said = [line for r in results for line in r["said"]]
    assert sum("round 2 of 3:" in line for line in said) == 1  # the home chat heard it once
    assert sum("standings after round 1 of 3" in line for line in said) == 1
    assert sum("round 2, table" in line for line in said) == 5  # each table pinged once
    for p in tables:
        row = await store.session(p.session_id)
        assert row.status == "active" and [s.user_id for s in row.seats] == p.players


@postgres_only
async def test_a_process_killed_mid_opening_leaves_no_half_round(store, db_target):
    tid = await first_round_played(store)
    results, codes = await asyncio.to_thread(_spawn, str(db_target), 1, 3)
    assert codes == [-9] and results == []  # killed while opening the third table
    t = await store.tournament(tid)
    assert t.round == 2 and t.shown == 1  # paired whole, not yet announced
    pairings, sessions = await _round_sessions(store, tid, 2)
    tables = [p for p in pairings if not p.bye]
    seated = sorted(u for p in pairings for u in p.players)
    assert seated == sorted(u.id for u in PLAYERS)  # the whole round is stored, or nothing
    assert [bool(p.session_id) for p in tables] == [True, True, False, False, False]
    assert sessions == 5 + 2
    # another process, once the dead one's lease on the third table has run out
    later = GameService(store, pictures=False, clock=lambda: time.time() + LEASE + 1)
    said = []

    async def deliver(chat, plan):
        said.extend(str(r.text) for r in plan)

    later.add_notifier("test", deliver)
    from bot.service.timer_loop import Timers

    report = await Timers(later, interval=30).tick()
    assert report.tournaments[tid].paired == []  # the same pairing, opened on
    again, sessions = await _round_sessions(store, tid, 2)
    assert [p.players for p in again] == [p.players for p in pairings]
    assert all(p.session_id for p in again if not p.bye) and sessions == 5 + 5
    assert (await store.tournament(tid)).shown == 2
    assert sum("round 2 of 3:" in line for line in said) == 1
