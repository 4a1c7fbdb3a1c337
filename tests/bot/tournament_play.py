"""Playing a tournament's tables through the service, as its players would: each seated
player picks one of their legal moves (seeded), until every table of the round has ended.
Kept free of pytest so the multi-process tests' workers can use it too."""

from __future__ import annotations

import random

from bot.service import GameService, UserRef
from bot.service.tables.table import chat_of
from bot.store import SessionRow

MOST_MOVES = 3000


async def round_tables(service: GameService, tournament_id: int) -> list[SessionRow]:
    t = await service.store.tournament(tournament_id)
    rows = []
    for p in await service.store.pairings(tournament_id, t.round):
        if p.session_id is not None:
            rows.append(await service.store.session(p.session_id))
    return rows


async def play_out(service: GameService, row: SessionRow, rng: random.Random) -> SessionRow:
    """One table played to its end by its seated players (random legal moves)."""
    chat = chat_of(row)
    for _ in range(MOST_MOVES):
        row = await service.store.session(row.id)
        if row.status != "active":
            return row
        moved = False
        for seat in row.seats:
            user = UserRef(row.platform, seat.user_id, seat.name)
            choices = await service.choices(chat, user)
            if choices:
                action, _ = rng.choice(choices)
                await service.move(chat, user, action)
                moved = True
                break
        assert moved, f"nobody can act at table {row.id}"
    raise AssertionError(f"table {row.id} did not end in {MOST_MOVES} moves")
