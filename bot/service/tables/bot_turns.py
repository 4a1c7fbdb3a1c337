"""A run of computer turns after a stored change, each turn stored as a move of its own.

The change that gives the bots their turn (a player's move, the start, a deadline served,
a seat handed to a stand-in) is stored first, in its own transaction. Then each bot's
decision is searched on the table as stored, with no lock held (a hard search takes a
second or more, and meanwhile the table answers everyone else), and stored with the
chance it leads to under the table's lock, as a compare-and-set on the version it was
searched at: a table changed meanwhile is read again, and the bots go on from there if
it is still theirs to play. So a crash loses no stored move. A table stored with bots to
act carries a wake time soon after its last move (`deadlines.BOTS_WAKE`): if its run
stops (a crash, a restart), the timer loop, or the terminal as it resumes the game,
plays them on from where they stopped (`wake`). In one process one run plays a table at
a time; across processes the compare-and-set keeps any two from playing one turn twice.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.service.base import move_records
from bot.service.base.move_records import Turn
from bot.service.tables.bot_seats import (
    MAX_BOT_STEPS,
    BotSeats,
    bot_to_act,
    seat_level,
    table_level,
)
from bot.service.tables.table import Committed, Loaded, Overtaken, Table
from bot.store import SeatRow, SessionRow, StoreError
from engines import Event, Game
from engines.text import msg

log = logging.getLogger(__name__)

MAX_LATE_STEPS = 8  # a late player's turn played by the AI, at most this many steps

# told each stored step of a run, as it is stored
Stored = Callable[[Committed], Awaitable[None]]


@dataclass(frozen=True)
class Players:
    """Whom a run plays for: `pick` the seat to act now (None: the run ends), at which
    level, with which note before its move."""

    pick: Callable[[SessionRow, Game, object], int | None]
    level: Callable[[SessionRow, int], str]
    note: Callable[[SessionRow, Game, object, int, str], Event | None] | None = None
    steps: int = MAX_BOT_STEPS
    touch: bool = True  # False: moves made for the clock leave the idle limit running
    goes_on: bool = True  # after a race, go on from the table as it is now


BOTS = Players(pick=bot_to_act, level=lambda row, seat: seat_level(row, row.seats[seat]))


def late_players(late: set[str]) -> Players:
    """`timeout=ai`: the AI plays the late players' turn; their seats stay theirs, and
    they take over again simply by acting (so a race ends the run)."""

    def pick(row: SessionRow, game: Game, state) -> int | None:
        acting = [
            s
            for s in game.to_act(state)
            if 0 <= s < len(row.seats) and row.seats[s].user_id in late
        ]
        return acting[0] if acting else None

    def note(row: SessionRow, game: Game, state, seat: int, action: str) -> Event:
        return Event(
            msg(
                "Time is up for {name}: the bot plays {describe} for them.",
                name=row.seats[seat].name,
                describe=game.label(state, action),
            )
        )

    steps = MAX_LATE_STEPS * max(1, len(late))
    return Players(
        pick, lambda row, seat: table_level(row), note, steps, touch=False, goes_on=False
    )


class BotTurns:
    def __init__(self, table: Table, bots: BotSeats) -> None:
        self.table = table
        self.store = table.store
        self.bots = bots
        self._playing: set[int] = set()  # sessions a run of this process is playing

    async def run(
        self,
        done: Committed,
        told: Stored | None = None,
        *,
        note: Event | None = None,
        seats: list[SeatRow] | None = None,
        touch: bool = True,
    ) -> Committed:
        """The bots play on after the stored change `done`, until a human is to act (or the
        game ends). Returns the whole: the table after the last move, and everything said
        since `done` began. `note` goes before the first bot move, and `seats` (the seating
        of `done`'s row, not stored yet) is stored with it: a race then raises `Overtaken`.
        `touch=False`: a run after a deadline served leaves the idle limit running."""
        players = BOTS if touch else dataclasses.replace(BOTS, touch=False)
        return await self._run(done, players, told, note, seats)

    async def play_late(self, table: Loaded, late: set[str]) -> Committed | None:
        """`timeout=ai` at a deadline: the late players' turn, played by the AI; None if
        there was nothing to play for them."""
        done = await self._run(Committed(table, [], None), late_players(late), None, None, None)
        return done if done.table.row.version != table.row.version else None

    async def wake(self, session_id: int, told: Stored | None = None) -> Committed | None:
        """A table with bots to act and no run of this process playing it (a restart after
        a crash mid-run): its bots play on. None when there is nothing for them to do."""
        row = await self.store.session(session_id)
        if row is None or row.status != "active" or session_id in self._playing:
            return None
        table = self.table.load(row)
        if bot_to_act(row, table.game, table.state) is None:
            return None
        done = await self.run(Committed(table, [], None), told)
        return done if done.table.row.version != row.version else None

    async def _run(
        self,
        done: Committed,
        players: Players,
        told: Stored | None,
        note: Event | None,
        seats: list[SeatRow] | None,
    ) -> Committed:
        session = done.table.row.id
        if session in self._playing:  # another run of this process plays this table
            return done
        self._playing.add(session)
        table, events, last = done.table, list(done.events), done
        try:
            for _ in range(players.steps):
                row, game = table.row, table.game
                seat = players.pick(row, game, table.state)
                if seat is None:
                    break
                level = players.level(row, seat)
                # the search, on the table as stored at row.version, with no lock held
                action, pos = await self.bots.choose(
                    row, game, table.state, seat, level, row.chance_pos
                )
                said = players.note(row, game, table.state, seat, action) if players.note else None
                async with self.table.lock(session):
                    try:
                        turn = Turn(
                            game.copy(table.state), pos, seeded=move_records.seeded(row)
                        )  # kept as read if refused
                        move_records.play(game, turn, seat, action, row.seed, note=said or note)
                        step = await self.table.commit(
                            row, game, turn, touch=players.touch, seats=seats
                        )
                    except Overtaken:
                        if seats is not None:
                            raise  # the seating it was to store is no longer the table's
                        if not players.goes_on:
                            break
                        table = await self._reread(session)
                        if table is None:
                            break
                        continue
                    except StoreError as exc:  # the stored moves stand; the wake time returns
                        log.warning("session %s: a bot move could not be stored: %s", session, exc)
                        break
                note, seats = None, None
                events += step.events
                table, last = step.table, step
                if told is not None:
                    await told(step)
            else:
                log.warning(
                    "session %s: a run of bot turns stopped after %d moves", session, players.steps
                )
        finally:
            self._playing.discard(session)
        return Committed(last.table, events, last.result, last.early)

    async def _reread(self, session: int) -> Loaded | None:
        """The table as stored now (changed since it was searched), if it still runs."""
        row = await self.store.session(session)
        if row is None or row.status != "active":
            return None
        return self.table.load(row)
