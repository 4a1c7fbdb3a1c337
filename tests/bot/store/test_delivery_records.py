"""Delivery's records kept with the table (issue 58, migration 10), on SQLite and
PostgreSQL: a live board replaced by compare-and-set on the message it replaced, edits that
never move its version back, messages counted per chat and thread, notes, a game's record
forgotten for one process only, and the meta keys of earlier releases moved in."""

from __future__ import annotations

import asyncio
import json

from bot.service import ChatRef
from bot.service.shared.delivery_records import DeliveryRecords
from bot.store import Store
from bot.store.migrations import MIGRATIONS
from bot.store.opening import open_database
from tests.bot.conftest import ANN, on_both

TOPIC_A = ChatRef("telegram", "-100", "11", "-100")
TOPIC_B = ChatRef("telegram", "-100", "12", "-100")


async def _table(service, chat: ChatRef) -> int:
    plan = await service.start(chat, ANN, "ghosts18")
    return plan.table.session_id


@on_both
async def test_a_live_board_is_replaced_only_in_place_of_the_one_read(service):
    records = DeliveryRecords(service.store)
    sid = await _table(service, TOPIC_A)
    assert await records.put_board("telegram", sid, TOPIC_A, "board", 2, 5, '{"m": 5}', None)
    # a second process that read "none" too loses, and learns what won
    assert not await records.put_board("telegram", sid, TOPIC_A, "board", 2, 6, "{}", None)
    assert not await records.put_board("telegram", sid, TOPIC_A, "board", 3, 7, "{}", 6)
    assert await records.put_board("telegram", sid, TOPIC_A, "board", 3, 7, '{"m": 7}', 5)
    found = await records.board("telegram", sid)
    assert (found.message, found.version, found.sent, found.later) == (7, 3, '{"m": 7}', 0)
    assert await records.board("discord", sid) is None  # per platform


@on_both
async def test_two_processes_replacing_at_once_leave_one_board(service, db_target):
    records = DeliveryRecords(service.store)
    sid = await _table(service, TOPIC_A)
    await records.put_board("telegram", sid, TOPIC_A, "board", 1, 1, "{}", None)
    other = await Store.open(db_target)
    try:
        results = await asyncio.gather(
            records.put_board("telegram", sid, TOPIC_A, "board", 2, 2, "{}", 1),
            DeliveryRecords(other).put_board("telegram", sid, TOPIC_A, "board", 2, 3, "{}", 1),
        )
    finally:
        await other.close()
    assert sorted(results) == [False, True]
    assert (await records.board("telegram", sid)).message == (2 if results[0] else 3)


@on_both
async def test_an_edit_never_moves_the_version_back(service):
    records = DeliveryRecords(service.store)
    sid = await _table(service, TOPIC_A)
    await records.put_board("telegram", sid, TOPIC_A, "board", 4, 9, "{}", None)
    assert await records.edited("telegram", sid, 9, 6)
    assert await records.edited("telegram", sid, 9, 5)
    assert (await records.board("telegram", sid)).version == 6
    assert not await records.edited("telegram", sid, 8, 7)  # not the live message


@on_both
async def test_messages_are_counted_per_topic(service):
    """Two tables in one forum group: a message in one topic buries only its own board."""
    records = DeliveryRecords(service.store)
    first, second = await _table(service, TOPIC_A), await _table(service, TOPIC_B)
    await records.put_board("telegram", first, TOPIC_A, "board", 1, 1, "{}", None)
    await records.put_board("telegram", second, TOPIC_B, "board", 1, 2, "{}", None)
    for _ in range(3):
        await records.message_in(TOPIC_A)
    await records.message_in(TOPIC_B)
    assert (await records.board("telegram", first)).later == 3
    assert (await records.board("telegram", second)).later == 1
    await records.put_board("telegram", first, TOPIC_A, "board", 2, 3, "{}", 1)
    assert (await records.board("telegram", first)).later == 0  # a new board: nothing after it


@on_both
async def test_notes_and_a_game_forgotten_once(service):
    records = DeliveryRecords(service.store)
    sid = await _table(service, TOPIC_A)
    await records.put_board("telegram", sid, TOPIC_A, "lobby", 1, 1, "{}", None)
    await records.add_notes("telegram", sid, "litter", "", ['{"a": 1}', '{"a": 2}'])
    assert await records.swap_note("telegram", sid, "moves", "u1", '{"b": 1}') == []
    assert await records.swap_note("telegram", sid, "moves", "u1", '{"b": 2}') == ['{"b": 1}']
    found, notes = await records.forget("telegram", sid)
    assert found.message == 1
    assert [(n.kind, n.sent) for n in notes] == [
        ("litter", '{"a": 1}'),
        ("litter", '{"a": 2}'),
        ("moves", '{"b": 2}'),
    ]
    assert await records.forget("telegram", sid) == (None, [])  # the second process: nothing


@on_both
async def test_the_meta_records_of_earlier_releases_move_into_the_tables(db_target):
    db = await open_database(db_target)
    try:
        await db.migrate(MIGRATIONS[:9])

        async def fill(conn):
            await conn.execute(
                "INSERT INTO sessions (id, platform, chat, thread, game, options, rules_version, "
                "status, creator, seed, created_at, updated_at) "
                "VALUES (4, 'telegram', '-100', '11', 'ghosts18', '{}', 1, 'active', 'u', 1, 0, 0)"
            )
            sent = {"chat": "-100", "message": 31, "at": 5.0, "picture": True, "private": False}
            live = {"sent": sent, "kind": "board", "version": 7}
            litter = [dict(sent, message=29, picture=False)]
            for key, value in [
                ("delivery.telegram.live.4", json.dumps(live)),
                ("delivery.telegram.litter.4", json.dumps(litter)),
                ("delivery.telegram.live.5", ""),  # a forgotten one
                ("heartbeat", "123"),
            ]:
                await conn.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (key, value))

        await db.transaction(fill)
    finally:
        await db.close(grace=0)
    store = await Store.open(db_target)
    try:
        records = DeliveryRecords(store)
        found = await records.board("telegram", 4)
        assert (found.chat, found.thread, found.kind, found.version) == ("-100", "11", "board", 7)
        assert json.loads(found.sent)["message"] == found.message == 31
        assert found.touched == 0  # not changed lately: its next board is posted anew
        assert [json.loads(n.sent)["message"] for n in await records.notes("telegram", 4)] == [29]
        assert await store.get_meta("delivery.telegram.live.4") is None
        assert await store.get_meta("heartbeat") == "123"
    finally:
        await store.close()
