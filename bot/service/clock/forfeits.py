"""A late player loses on time (`timeout=forfeit`, the clock of a tournament's table):
at the deadline their seat passes to the stand-in and the game counts as lost for them.
Where no other person is left to play (a game of two), the game ends there, the others
ranked above them; else the stand-in plays on for them and the tournament scores them
last at that table (bot/service/community/tournaments/scores.py)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.service.base.move_records import logged
from bot.service.tables.table import Committed, Loaded, Table
from bot.store import NOTE_SEAT, NewEntry, SeatRow, StaleVersion
from engines import Event, Result
from engines.text import msg

FORFEIT = "forfeit"


@dataclass
class StandIn:
    """The late seats handed to the stand-in, which plays on (the note logged with it)."""

    seats: list[SeatRow]
    note: Event


async def lose_on_time(table: Table, loaded: Loaded, late: set[str]) -> Committed | StandIn | None:
    """The late humans to act lose; None when none is late (nothing to do)."""
    row, game, state = loaded.row, loaded.game, loaded.state
    out = {
        s
        for s in game.to_act(state)
        if 0 <= s < len(row.seats) and row.seats[s].user_id in late and row.seats[s].kind == "human"
    }
    if not out:
        return None
    seats = [
        SeatRow(s.seat, s.user_id, s.name, "placeholder" if s.seat in out else s.kind)
        for s in row.seats
    ]
    names = ", ".join(row.seats[s].name for s in sorted(out))
    if sum(1 for s in seats if s.kind == "human") > 1:
        note = Event(
            msg(
                "Time is up for {names}: they lose this game on time, and a stand-in plays on for them.",
                names=names,
            )
        )
        return StandIn(seats, note)
    note = Event(
        msg("Time is up for {names}: they lose this game on time.", names=names), kind="over"
    )
    ranking = [
        [s.seat for s in seats if s.kind != "placeholder"],
        [s.seat for s in seats if s.kind == "placeholder"],
    ]
    summary = msg("{names} lost on time.", names=names)
    result = {"ranking": ranking, "scores": {}, "summary": summary}
    try:
        version = await table.store.record(
            row.id,
            row.version,
            [NewEntry(NOTE_SEAT, FORFEIT, None, logged([note]))],
            game.dump(state),
            row.chance_pos,
            "finished",
            result,
            deadline=None,
            clock=row.clock,
            wake_at=None,
            touch=False,
            seats=seats,
            expect_clock=row.clock,
        )
    except StaleVersion:
        return None  # a move (or another process) came first
    done = replace(
        row,
        version=version,
        status="finished",
        result=result,
        seats=seats,
        deadline=None,
        wake_at=None,
    )
    return Committed(Loaded(done, game, state), [note], Result(ranking, {}, summary))
