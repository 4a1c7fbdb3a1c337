"""Migration 9 (issue 57): a database written by the release before it (schema version 8,
tests/bot/store/fixtures/release_8.json, made by that release's own code with
make_release_8.py) opens, migrates and plays on, on SQLite and on PostgreSQL. A table's
language, its hints and who took one, its bots' level and the daily castle's day move from
the clock's JSON record into columns; everything else is kept as it was, byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.service import ChatRef, GameService, UserError
from bot.service.records.ratings import why_unrated
from bot.service.tables.bot_seats import table_level
from bot.store import Store
from bot.store.migrations import FACTS_OUT_OF_THE_CLOCK, MIGRATIONS
from bot.store.opening import open_database
from tests.bot.conftest import ANN, BOB, on_both

RELEASE_8 = json.loads((Path(__file__).parent / "fixtures" / "release_8.json").read_text())
MOVED = {key for key, *_ in FACTS_OUT_OF_THE_CLOCK}


def chat(name: str) -> ChatRef:
    return ChatRef("test", name, "", "guild-1")


async def _written_by_release_8(target) -> None:
    """The fixture's rows in a database at schema version 8, as that release left them."""
    assert RELEASE_8["schema_version"] == 8
    db = await open_database(target)
    try:
        await db.migrate(MIGRATIONS[:8])

        async def fill(conn):
            tables = sorted(RELEASE_8["tables"].items(), key=lambda t: t[0] != "sessions")
            for table, content in tables:  # (sessions first: the others refer to them)
                if not content["rows"]:
                    continue
                columns = ", ".join(content["columns"])
                marks = ", ".join("?" for _ in content["columns"])
                await conn.executemany(
                    f"INSERT INTO {table} ({columns}) VALUES ({marks})",
                    [tuple(row) for row in content["rows"]],
                )

        await db.transaction(fill)
    finally:
        await db.close(grace=0)


async def _rows(target, table: str, columns: list[str]) -> list[list]:
    db = await open_database(target)
    try:
        listed = ", ".join(columns)
        order = "id" if table == "sessions" else "1, 2"
        cur = await db.execute(f"SELECT {listed} FROM {table} ORDER BY {order}")
        return [list(r) for r in await cur.fetchall()]
    finally:
        await db.close(grace=0)


def _by_id(table: str) -> list[list]:
    content = RELEASE_8["tables"][table]
    return sorted(content["rows"], key=lambda r: r[0] if table == "sessions" else (r[0], r[1]))


@on_both
async def test_a_release_8_database_migrates_its_facts_into_columns_and_keeps_the_rest(db_target):
    await _written_by_release_8(db_target)
    store = await Store.open(db_target)
    try:
        rows = {r.chat: r for r in [await store.session(i) for i in range(1, 6)] if r}
    finally:
        await store.close()
    german, rated, bots = rows["chan-de"], rows["chan-rated"], rows["chan-bots"]
    lobby, daily = rows["chan-lobby"], rows["chan-daily"]
    assert (german.language, german.hints, german.hinted) == ("de", "on", ("u-ann",))
    assert (rated.language, rated.hinted) == ("en", ())
    assert bots.bot_level == "hard" and table_level(bots) == "hard"
    assert lobby.hints == "off"
    assert (daily.daily, daily.seeded_decks, daily.hints) == ("2026-05-28", True, "off")
    for row in rows.values():
        assert not MOVED & set(row.clock)
    # every other column of the sessions, and every other table, as release 8 wrote them
    sessions = RELEASE_8["tables"]["sessions"]
    kept = [c for c in sessions["columns"] if c != "clock"]
    clock_at = sessions["columns"].index("clock")
    before = _by_id("sessions")
    assert await _rows(db_target, "sessions", kept) == [
        [v for c, v in zip(sessions["columns"], r, strict=True) if c != "clock"] for r in before
    ]
    for row, old in zip(sorted(rows.values(), key=lambda r: r.id), before, strict=True):
        old_clock = json.loads(old[clock_at])
        assert row.clock == {k: v for k, v in old_clock.items() if k not in MOVED}
    for table, content in RELEASE_8["tables"].items():
        if table != "sessions" and content["rows"]:
            assert await _rows(db_target, table, content["columns"]) == _by_id(table), table


@on_both
async def test_a_migrated_database_plays_on_in_its_language_and_rating(db_target):
    await _written_by_release_8(db_target)
    store = await Store.open(db_target)
    try:
        service = GameService(store, seed_source=lambda: 1234, pictures=False)
        german = chat("chan-de")
        plan = await service.board(german)
        assert plan.table.language == "de"
        acting = ANN if await _can_move(service, german, ANN) else BOB
        [(action, _), *_] = await service.choices(german, acting)
        moved = await service.move(german, acting, action)
        assert moved.table.language == "de"
        row = await service.live(german)
        assert row.language == "de" and row.hinted == ("u-ann",)
        assert why_unrated(row) is not None  # (it is not over; and a hint was taken)
        # the table's language is changed in its column, not its clock
        await service.language(german, ANN, "es")
        assert (await service.live(german)).language == "es"
        # the lobby opened with hints=off refuses them once it plays
        lobby = chat("chan-lobby")
        await service.join(lobby, ANN)
        await service.begin(lobby, BOB)
        with pytest.raises(UserError, match="hints=off"):
            for user in (ANN, BOB):
                await service.hint(lobby, user)
        # the finished game's ratings are as they were
        standings = await service.stats(chat("chan-rated"), ANN)
        assert "Ann" in str(standings.replies[0].text)
    finally:
        await store.close()


async def _can_move(service: GameService, where: ChatRef, user) -> bool:
    try:
        return bool(await service.choices(where, user))
    except UserError:
        return False
