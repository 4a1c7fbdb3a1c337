"""A full disk: the move that does not fit is refused with a message, and every earlier
move stays (spine issue, "a database that is locked or full")."""

from __future__ import annotations

from bot.service import UserError
from tests.bot.conftest import ANN, BOB, CHAT
from tests.bot.service.tables.test_service import snapshot, started


async def _cap_at_current_size(store, pages: int | None = None) -> None:
    """PRAGMA max_page_count caps this connection's database: past it SQLite answers
    SQLITE_FULL exactly as it does when the disk runs out."""
    if pages is None:
        (pages,) = await (await store._conn.execute("PRAGMA page_count")).fetchone()
    await store._conn.execute(f"PRAGMA max_page_count = {pages}")


async def test_a_full_database_refuses_the_move_and_loses_no_earlier_one(service, store):
    sid = await started(service)
    await _cap_at_current_size(store)
    users = {u.id: u for u in (ANN, BOB)}
    accepted = 0
    refused = None
    for _ in range(200):  # placements fill the free room of the last page, then one fails
        board = (await service.board(CHAT))[0]
        choice = next(c for c in board.choices if c.for_user)
        before = await snapshot(service, sid)
        try:
            await service.press(CHAT, users[choice.for_user], choice.data)
        except UserError as exc:
            refused = (str(exc), before, choice)
            break
        accepted += 1
    assert refused is not None, "the capped database never filled up"
    message, before, choice = refused
    assert "could not save" in message and "Nothing changed" in message
    assert await snapshot(service, sid) == before  # state, version and log as they were
    assert len(before[2]) == accepted

    await _cap_at_current_size(store, 1_073_741_823)  # room again: the same press now lands
    await service.press(CHAT, users[choice.for_user], choice.data)
    assert len((await snapshot(service, sid))[2]) == accepted + 1
