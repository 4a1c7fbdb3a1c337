"""Many tables at once (issue 13): concurrent moves in different games are all accepted;
two writes racing on one game resolve as one win and one "the board has changed"."""

from __future__ import annotations

import asyncio

import pytest

from bot.service import ChatRef, GameService, UserError
from bot.store import NewEntry, SeatRow, StaleVersion, Store, StoreError
from tests.bot.conftest import ANN, BOB, on_both

TABLES = 50


def chat(i: int) -> ChatRef:
    return ChatRef("test", f"chan-{i}", "", "guild-1")


async def _tables(service: GameService, n: int) -> list[tuple[ChatRef, object, str, int]]:
    """n running two-player games; for each, who moves now and the button they press."""
    users = {u.id: u for u in (ANN, BOB)}
    tables = []
    for i in range(n):
        await service.start(chat(i), ANN, "ghosts18")
        [board, *_] = await service.join(chat(i), BOB)
        choice = next(c for c in board.choices if c.for_user)
        tables.append((chat(i), users[choice.for_user], choice.data, board.session_id))
    return tables


@on_both
async def test_fifty_moves_at_the_same_instant_are_all_accepted(store):
    service = GameService(store, seed_source=lambda: 1234, pictures=False)
    tables = await _tables(service, TABLES)
    before = {sid: (await store.session(sid)).version for *_, sid in tables}
    results = await asyncio.gather(
        *(service.press(c, u, data) for c, u, data, _ in tables), return_exceptions=True
    )
    refused = [r for r in results if isinstance(r, BaseException)]
    assert refused == []
    for *_, sid in tables:
        assert (await store.session(sid)).version == before[sid] + 1
        assert len(await store.log(sid)) == 1


@on_both
async def test_two_writes_racing_on_one_session_one_wins(store):
    row = await store.create_session(
        platform="test",
        scope="g",
        chat="c1",
        thread="",
        game="ghosts18",
        options={},
        rules_version=1,
        creator="u1",
        seed=7,
        first_seat=SeatRow(0, "u1", "Ann"),
    )
    writes = [
        store.record(row.id, row.version, [NewEntry(0, f"move {i}", "u1", [])], {"n": i}, 0)
        for i in range(10)
    ]
    results = await asyncio.gather(*writes, return_exceptions=True)
    assert sum(r == row.version + 1 for r in results) == 1
    assert sum(isinstance(r, StaleVersion) for r in results) == 9
    assert len(await store.log(row.id)) == 1


@on_both
async def test_the_same_button_pressed_at_once_applies_once(store):
    service = GameService(store, seed_source=lambda: 1234, pictures=False)
    [(c, user, data, sid)] = await _tables(service, 1)
    results = await asyncio.gather(
        *(service.press(c, user, data) for _ in range(10)), return_exceptions=True
    )
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    for r in results:
        if isinstance(r, BaseException):
            assert isinstance(r, UserError) and "moved on" in str(r)
    assert len(await store.log(sid)) == 1


async def test_a_store_closing_lets_the_open_move_finish(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    service = GameService(store, seed_source=lambda: 1234, pictures=False)
    tables = await _tables(service, 5)
    moves = [asyncio.create_task(service.press(c, u, d)) for c, u, d, _ in tables]
    await asyncio.sleep(0)  # the moves have started
    await store.close()
    done = await asyncio.gather(*moves, return_exceptions=True)
    accepted = sum(not isinstance(r, BaseException) for r in done)
    again = await Store.open(tmp_path / "db.sqlite3")
    kept = sum([len(await again.log(sid)) for *_, sid in tables])
    await again.close()
    assert kept == accepted  # every move that was answered "accepted" is on disk


async def test_a_closed_store_refuses_with_a_store_error(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    await store.close()
    await store.close()  # twice is harmless (a shutdown path and a finally)
    with pytest.raises(StoreError, match="closed"):
        await store.session(1)
    with pytest.raises(StoreError, match="closing"):
        await store.set_meta("k", "v")
