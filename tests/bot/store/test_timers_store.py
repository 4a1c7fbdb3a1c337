"""The store's part of the turn clock: compare-and-set clocks, wake times, the heartbeat,
idle limits per game, moves that do not count as activity, and atomic re-seating."""

from __future__ import annotations

import pytest

from bot.store import NewEntry, SeatRow, StaleVersion, Store
from tests.bot.conftest import on_both


class Clock:
    t = 1000.0

    def __call__(self) -> float:
        return self.t


pytestmark = on_both


@pytest.fixture
async def timed(db_target):
    clock = Clock()
    store = await Store.open(db_target, clock=clock, busy_timeout=0.2)
    yield store, clock
    await store.close()


async def _session(store: Store, chat: str = "c1", clock: dict | None = None):
    return await store.create_session(
        platform="test",
        scope="g",
        chat=chat,
        thread="",
        game="ghosts18",
        options={},
        rules_version=1,
        creator="u1",
        seed=7,
        first_seat=SeatRow(0, "u1", "Ann"),
        clock=clock,
    )


async def _activate(store: Store, row, wake: float, clock: dict | None = None) -> int:
    return await store.record(
        row.id, row.version, [], {"s": 1}, 0, clock=clock or {"deadline": wake}, wake_at=wake
    )


async def test_set_clock_is_a_compare_and_set(timed):
    store, _ = timed
    row = await _session(store)
    await _activate(store, row, 50.0)
    row = await store.session(row.id)
    await store.set_clock(row.id, row.version, {"sent": 1}, 60.0, 55.0, expect=row.clock)
    with pytest.raises(StaleVersion):  # a second process read the same clock: refused
        await store.set_clock(row.id, row.version, {"sent": 1}, 60.0, 55.0, expect=row.clock)
    again = await store.session(row.id)
    assert (again.clock, again.wake_at, again.version) == ({"sent": 1}, 55.0, row.version)
    with pytest.raises(StaleVersion):
        await store.set_clock(row.id, row.version - 1, {}, None, None)


async def test_due_sessions_and_next_wake(timed):
    store, _ = timed
    a, b = await _session(store, "a"), await _session(store, "b")
    await _activate(store, a, 100.0)
    await _activate(store, b, 300.0)
    assert await store.next_wake() == 100.0
    assert [r.id for r in await store.due_sessions(100.0)] == [a.id]
    assert [r.id for r in await store.due_sessions(300.0)] == [a.id, b.id]
    await store.postpone_wake(a.id, 200.0)
    assert await store.next_wake() == 200.0
    await store.postpone_wake(a.id, 150.0)  # never earlier than it was
    assert (await store.session(a.id)).wake_at == 200.0


async def test_swap_meta_returns_the_old_heartbeat_once(timed):
    store, _ = timed
    assert await store.swap_meta("hb", "1") is None
    assert await store.swap_meta("hb", "2") == "1"
    assert await store.get_meta("hb") == "2"


async def test_idle_limit_per_game_and_moves_that_do_not_touch(timed):
    store, clock = timed
    fast = await _session(store, "fast", clock={"idle_days": 2})
    normal = await _session(store, "normal", clock={"idle_days": 14})
    old = await _session(store, "old")  # a clock from before: the default limit
    clock.t += 3 * 86400
    assert [r.id for r in await store.idle_sessions(clock(), 14)] == [fast.id]
    # a clock-made move leaves updated_at; a player's move touches it
    await store.record(fast.id, fast.version, [], {"s": 1}, 0, clock={"idle_days": 2}, touch=False)
    assert [r.id for r in await store.idle_sessions(clock(), 14)] == [fast.id]
    fast = await store.session(fast.id)
    await store.record(fast.id, fast.version, [], {"s": 2}, 0, clock={"idle_days": 2})
    assert await store.idle_sessions(clock(), 14) == []
    clock.t += 12 * 86400
    assert {r.id for r in await store.idle_sessions(clock(), 14)} == {fast.id, normal.id, old.id}
    await store.discount_idle(11 * 86400.0)  # the bot was down 11 of those days
    assert await store.idle_sessions(clock(), 14) == []


async def test_record_with_seats_reseats_in_the_same_transaction(timed):
    store, _ = timed
    row = await _session(store)
    seats = [SeatRow(0, "u1", "Ann", "placeholder")]
    with pytest.raises(StaleVersion):
        await store.record(
            row.id, row.version + 5, [NewEntry(0, "a", None, [])], {}, 0, seats=seats
        )
    assert (await store.seats(row.id))[0].kind == "human"  # nothing of a refused write
    await store.record(row.id, row.version, [NewEntry(0, "a", None, [])], {}, 0, seats=seats)
    assert (await store.seats(row.id))[0].kind == "placeholder"
