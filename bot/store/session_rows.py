"""The sessions table as the store reads it: its columns (`SESSION_COLUMNS`, in the order
`session_row` reads them), a session with its seats, a log entry, and a log row to append.
Shared by every query mixin that reads sessions (session_queries.py, memory_queries.py,
channel_queries.py) and by the service, which is handed these rows."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

LIVE = ("lobby", "active")
NOTE_SEAT = -2  # a log row that is a note of the bot's (a game ended for idleness), not a move


@dataclass(frozen=True)
class SeatRow:
    seat: int
    user_id: str
    name: str
    kind: str = "human"
    since: int = 0  # the log row from which this person holds the seat (0: the start)
    lost: bool = False  # its person lost it (resigned, out of time): a stand-in plays on


@dataclass(frozen=True)
class LogEntry:
    n: int
    seat: int
    action: str
    user_id: str | None
    events: list[dict]
    at: float
    undone: bool = False  # taken back by agreement: kept in the log, skipped by replays


@dataclass(frozen=True)
class SessionRow:
    id: int
    platform: str
    scope: str
    chat: str
    thread: str
    game: str
    options: dict[str, str]
    rules_version: int
    status: str
    creator: str
    version: int
    state: dict | None
    seed: int
    chance_pos: int
    deadline: float | None
    result: dict | None
    created_at: float
    updated_at: float
    clock: dict = field(default_factory=dict)  # the turn clock's record: time alone
    wake_at: float | None = None
    seats: list[SeatRow] = field(default_factory=list)
    language: str = ""  # the table's boards and messages speak it ("": the default)
    bot_level: str = ""  # its computer players' level ("": the default level)
    hints: str = "on"  # whether a player may ask for a hint (`hints=off`: competitive)
    hinted: tuple[str, ...] = ()  # the user ids who asked for one: then it is not rated
    daily: str = ""  # the daily castle's day (UTC) it plays, if it is a daily table
    seeded_decks: bool = False  # its decks dealt from its seed (the daily castle's)
    offered: tuple[int, ...] = ()  # its seats offered to a new player (`/escape offer`)


@dataclass(frozen=True)
class OpenedWith:
    """What a table is opened with beside its game's options (see `SessionRow`)."""

    language: str = ""
    bot_level: str = ""
    hints: str = "on"
    daily: str = ""
    seeded_decks: bool = False


@dataclass(frozen=True)
class NewEntry:
    """A log row to append: an action of a seat, or a chance outcome (seat -1)."""

    seat: int
    action: str
    user_id: str | None
    events: list[dict]


SEAT_COLUMNS = "seat, user_id, name, kind, since, lost"


def seat_row(row: Sequence[Any]) -> SeatRow:
    seat, user_id, name, kind, since, lost = row
    return SeatRow(seat, user_id, name, kind, since, bool(lost))


SESSION_COLUMNS = (
    "id, platform, scope, chat, thread, game, options, rules_version, status, creator, "
    "version, state, seed, chance_pos, deadline, result, created_at, updated_at, clock, wake_at, "
    "language, bot_level, hints, hinted, daily, seeded_decks, offered"
)


def session_row(row: Sequence[Any], seats: list[SeatRow]) -> SessionRow:
    (
        sid,
        platform,
        scope,
        chat,
        thread,
        game,
        options,
        rules_version,
        status,
        creator,
        version,
        state,
        seed,
        chance_pos,
        deadline,
        result,
        created,
        updated,
        clock,
        wake_at,
        language,
        bot_level,
        hints,
        hinted,
        daily,
        seeded_decks,
        offered,
    ) = row
    return SessionRow(
        id=sid,
        platform=platform,
        scope=scope,
        chat=chat,
        thread=thread,
        game=game,
        options=json.loads(options),
        rules_version=rules_version,
        status=status,
        creator=creator,
        version=version,
        state=json.loads(state) if state else None,
        seed=seed,
        chance_pos=chance_pos,
        deadline=deadline,
        result=json.loads(result) if result else None,
        created_at=created,
        updated_at=updated,
        clock=json.loads(clock or "{}"),
        wake_at=wake_at,
        seats=seats,
        language=language,
        bot_level=bot_level,
        hints=hints,
        hinted=tuple(json.loads(hinted or "[]")),
        daily=daily,
        seeded_decks=bool(seeded_decks),
        offered=tuple(int(n) for n in (offered or "").split(",") if n),
    )
