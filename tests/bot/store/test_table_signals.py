"""The table-changed signal (bot/store/table_signals.py): every committed change of a
session is announced once with its new version, a refused write is not, and on PostgreSQL
a change stored by one process reaches the subscribers of another through LISTEN/NOTIFY."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import NewEntry, SeatRow, StaleVersion, Store
from tests.bot.conftest import on_both


async def _session(store: Store, chat: str = "c1"):
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
    )


def _heard(store: Store) -> list[tuple[int, int]]:
    heard: list[tuple[int, int]] = []
    store.signals.subscribe(lambda sid, version: heard.append((sid, version)))
    return heard


@on_both
async def test_each_committed_change_is_announced_with_its_new_version(store):
    heard = _heard(store)
    row = await _session(store)
    await store.set_seats(row.id, 0, [SeatRow(0, "u1", "Ann"), SeatRow(1, "u2", "Bob")])
    await store.set_status(row.id, 1, "active")
    v = await store.record(row.id, 2, [NewEntry(0, "place b1", "u1", [])], {"n": 1}, 0)
    assert heard == [(row.id, 0), (row.id, 1), (row.id, 2), (row.id, v)] and v == 3


@on_both
async def test_a_refused_write_announces_nothing(store):
    row = await _session(store)
    heard = _heard(store)
    with pytest.raises(StaleVersion):
        await store.record(row.id, row.version + 5, [], {"n": 1}, 0)
    await store.set_meta("unrelated", "x")  # no session changed
    assert heard == []


@on_both
async def test_an_unsubscribed_listener_hears_no_more(store):
    heard: list = []
    stop = store.signals.subscribe(lambda sid, v: heard.append(sid))
    await _session(store, "a")
    stop()
    await _session(store, "b")
    assert len(heard) == 1


async def test_a_change_crosses_processes_on_postgresql(postgres_server):
    """Two stores on one database stand for two bot processes: the second hears the
    first's commit through its LISTEN connection, once, with the version."""
    url = await postgres_server.new_schema()
    writer, reader = await Store.open(url), await Store.open(url)
    try:
        arrived = asyncio.Event()
        heard: list[tuple[int, int]] = []

        def hear(sid: int, version: int) -> None:
            heard.append((sid, version))
            arrived.set()

        reader.signals.subscribe(hear)
        await reader.signals.listening()
        row = await _session(writer)
        await asyncio.wait_for(arrived.wait(), 5)
        arrived.clear()
        await writer.set_seats(row.id, 0, [SeatRow(0, "u1", "Ann")])
        await asyncio.wait_for(arrived.wait(), 5)
        assert heard == [(row.id, 0), (row.id, 1)]
        own = _heard(writer)  # the writer's own commits are announced once, not echoed
        await writer.set_status(row.id, 1, "active")
        await asyncio.sleep(0.3)
        assert own == [(row.id, 2)]
    finally:
        await writer.close()
        await reader.close()
