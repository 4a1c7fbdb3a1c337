"""A late player loses on time (`timeout=forfeit`, the clock of a tournament's table):
at the deadline their seat passes to the stand-in and the game counts as lost for them,
as a resignation does (bot/service/tables/leaving.py, `lose_seats`): where no other person
is left to play (a game of two), the game ends there, the others ranked above them; else
the stand-in plays on for them and the tournament scores them last at that table
(bot/service/community/tournaments/scores.py). The loss is theirs, not the bot's: the
game is rated."""

from __future__ import annotations

from bot.service.tables.leaving import StandIn, lose_seats
from bot.service.tables.table import Committed, Loaded, Table
from engines.text import msg

FORFEIT = "forfeit"

__all__ = ["FORFEIT", "StandIn", "lose_on_time"]


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
    names = ", ".join(row.seats[s].name for s in sorted(out))
    return await lose_seats(
        table,
        loaded,
        out,
        plays_on=msg(
            "Time is up for {names}: they lose this game on time, and a stand-in plays on for them.",
            names=names,
        ),
        ends=msg("Time is up for {names}: they lose this game on time.", names=names),
        summary=msg("{names} lost on time.", names=names),
        note=FORFEIT,
    )
