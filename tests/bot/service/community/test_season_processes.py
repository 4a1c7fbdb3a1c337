"""A season's end served by the timer loops of two OS processes sharing one real PostgreSQL
server at the same instant: ended once, the next season begun once, and its final
standings posted once (docs/community.md: Seasons, the end, once)."""

from __future__ import annotations

import asyncio
import time

from tests.bot.service.community.test_tournament_processes import _spawn, postgres_only


@postgres_only
async def test_two_processes_end_a_season_and_post_it_exactly_once(store, db_target):
    now = time.time()
    await store.start_season(
        platform="test",
        scope="guild-1",
        length="2w",
        starts_at=now - 15 * 86400,
        ends_at=now - 86400 + 60,
        chat="club",
        thread="",
        language="en",
    )
    results, codes = await asyncio.to_thread(_spawn, str(db_target), 2)
    assert codes == [0, 0] and len(results) == 2
    said = [line for r in results for line in r["said"]]
    ended = [line for line in said if "Season 1 of this chat has ended" in line]
    assert ended == [
        "|Season 1 of this chat has ended (0 rated games). No rated game finished in it."
    ]
    first = await store.season("test", "guild-1", 1)
    assert first.status == "ended" and first.posted_at is not None
    running = await store.running_season("test", "guild-1")
    # the next season runs from the end of the last (its two weeks are not over yet)
    assert running.number == 2 and running.starts_at == first.ends_at
    assert await store.season("test", "guild-1", 3) is None
