"""Leaving a game before its end, and a seat changing hands.

- **Resign** (`/escape resign`, a player, confirmed): a loss, and rated as one. Where
  other people play on (more than two in a game of rivals; anyone left in a co-operative
  party), a stand-in (the computer player) plays the seat on and the resigned person is
  ranked last whatever the stand-in reaches; else the game ends there, the others ranked
  above. A tournament scores the resigned person last at that table. Losing on time
  (`timeout=forfeit`, clock/forfeits.py) is the same loss, said otherwise (`lose_seats`).
- **Offer a seat** (`/escape offer`: a player their own; an admin anyone's, naming them):
  the chat is shown a Take the seat button; the seat stays with its player (or with the
  stand-in, after an admin's `/escape remove`) until a member of the chat takes it. The
  log says from which move the new player plays the seat (`SeatRow.since`), and ratings
  count each person's own games only: a seat that changed hands is rated for nobody.
- **Remove a player** (`/escape remove PLAYER`, an admin): in a lobby, their seat is gone;
  in a running game, the stand-in plays it on and it is offered.

A tournament's seat is its entrant's: it is not offered nor taken (resigning is the way
out). Who may sit is asked of `Moderation.gate` (bars and blocks).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.service.base.buttons import TakeSeat
from bot.service.base.delivery_plan import Choice, Plan, Reply
from bot.service.base.move_records import Turn, logged
from bot.service.base.requests import ChatRef, UserError, UserRef
from bot.service.tables.board_plans import BoardPlans
from bot.service.tables.bot_seats import bot_to_act
from bot.service.tables.bot_turns import BotTurns
from bot.service.tables.moderation import ADMINS_ONLY, Moderation
from bot.service.tables.table import Committed, Loaded, Table, seat_of
from bot.store import NOTE_SEAT, NewEntry, SeatRow, SessionRow, StaleVersion
from engines import Event, Result
from engines.text import Text, command, msg

RESIGN = "resign"  # the log's note of a resignation
SEAT = "seat"  # the log's note of a seat that changed hands
REMOVED = "removed"  # the log's note of a player an admin removed
NOT_IN_TOURNAMENTS = msg(
    "A tournament's seat belongs to its player: it cannot be handed over ({resign} ends your game).",
    resign=command("resign"),
)
RACE = msg("The game changed at the same moment; try again.")


@dataclass
class StandIn:
    """The seats handed to the stand-in, which plays on (the note logged with it)."""

    seats: list[SeatRow]
    note: Event
    action: str = RESIGN  # the log's note, when nothing is played at once


def in_tournament(row: SessionRow) -> bool:
    return bool(row.clock.get("tournament"))


async def lose_seats(
    table: Table,
    loaded: Loaded,
    out: set[int],
    *,
    plays_on: Text,
    ends: Text,
    summary: Text,
    note: str,
) -> Committed | StandIn | None:
    """Seats `out` lose the game (resigned, or out of time): where other people play on,
    the stand-in takes them (`StandIn`, stored with its first move by the caller); else
    the game ends here, stored, with those seats ranked last (`Committed`). None: the
    table moved on meanwhile."""
    row, game, state = loaded.row, loaded.game, loaded.state
    seats = [replace(s, kind="placeholder", lost=True) if s.seat in out else s for s in row.seats]
    people = sum(1 for s in seats if s.kind == "human")
    if people > (0 if game.cooperative else 1):
        return StandIn(seats, Event(plays_on), note)
    said = Event(ends, kind="over")
    if game.cooperative:  # the party gave up: lost together
        ranking = [[s.seat for s in seats]]
    else:
        ranking = [[s.seat for s in seats if not s.lost], [s.seat for s in seats if s.lost]]
    result = {"ranking": ranking, "scores": {}, "summary": summary}
    try:
        version = await table.store.record(
            row.id,
            row.version,
            [NewEntry(NOTE_SEAT, note, None, logged([said]))],
            game.dump(state),
            row.chance_pos,
            "finished",
            result,
            deadline=None,
            clock=row.clock,
            wake_at=None,
            touch=note != "forfeit",
            seats=seats,
            expect_clock=row.clock,
            offered=(),
        )
    except StaleVersion:
        return None
    done = replace(
        row,
        version=version,
        status="finished",
        result=result,
        seats=seats,
        deadline=None,
        wake_at=None,
        offered=(),
    )
    return Committed(Loaded(done, game, state), [said], Result(ranking, {}, summary))


class Leaving:
    def __init__(
        self, table: Table, plans: BoardPlans, turns: BotTurns, moderation: Moderation
    ) -> None:
        self.table = table
        self.store = table.store
        self.plans = plans
        self.turns = turns
        self.moderation = moderation

    async def stand_in(self, loaded: Loaded, lost: StandIn, offered: tuple[int, ...]) -> Plan:
        """The stand-in takes its seats and plays on at once if it is to act (its first
        move, searched with no lock held, stores the new seating)."""
        row = loaded.row
        if bot_to_act(replace(row, seats=lost.seats), loaded.game, loaded.state) is None:
            async with self.table.lock(row.id):
                turn = Turn(loaded.state, row.chance_pos, [lost.note])
                turn.entries.append(NewEntry(NOTE_SEAT, lost.action, None, logged([lost.note])))
                committed = await self.table.commit(
                    row, loaded.game, turn, seats=lost.seats, offered=offered
                )
            return await self.plans.after(committed)
        if offered != row.offered:
            await self.store.set_offered(row.id, row.version, offered)
        standing_in = self.table.load(replace(row, seats=lost.seats, offered=offered))
        committed = await self.turns.run(
            Committed(standing_in, [], None), note=lost.note, seats=lost.seats
        )
        return await self.plans.after(committed)

    # ----- resign -----------------------------------------------------------------------
    async def resign(self, chat: ChatRef, user: UserRef) -> Plan:
        row = await self.table.active(chat)
        async with self.table.lock(row.id):
            row = await self.store.session(row.id)
            if row is None or row.status != "active":
                raise UserError(msg("This game is over already."))
            loaded = self.table.load(row)
            seat = seat_of(row, user)
            if seat is None or row.seats[seat].kind != "human":
                raise UserError(
                    msg("You are not playing in this game, so there is nothing to resign.")
                )
            name = row.seats[seat].name
            lost = await lose_seats(
                self.table,
                loaded,
                {seat},
                plays_on=msg(
                    "{name} resigns: they lose this game, and a stand-in plays their seat on.",
                    name=name,
                ),
                ends=msg("{name} resigns: they lose this game.", name=name),
                summary=msg("{name} resigned.", name=name),
                note=RESIGN,
            )
            if lost is None:
                raise UserError(RACE)
            if isinstance(lost, Committed):
                return await self.plans.after(lost, user)
        offered = tuple(s for s in row.offered if s != seat)
        return await self.stand_in(loaded, lost, offered)

    # ----- a seat offered, taken -------------------------------------------------------
    async def offer(
        self, chat: ChatRef, user: UserRef, who: UserRef | str | None, is_admin: bool
    ) -> Plan:
        """`/escape offer [PLAYER]`: the asker's own seat, or (an admin) that player's."""
        row = await self.table.active(chat)
        if in_tournament(row):
            raise UserError(NOT_IN_TOURNAMENTS)
        named = who is not None and not (isinstance(who, str) and not who.strip())
        if named:
            person = await self.moderation.person(chat, who)
            if person.id != user.id and not is_admin:
                raise UserError(
                    msg("You can offer only your own seat; an admin may offer anyone's.")
                )
        else:
            person = user
        async with self.table.lock(row.id):
            row = await self.store.session(row.id)
            if row is None or row.status != "active":
                raise UserError(msg("This game is over already."))
            seat = seat_of(row, person)
            if seat is None or row.seats[seat].lost:
                raise UserError(msg("{name} has no seat in this game.", name=person.name))
            if seat in row.offered:
                raise UserError(msg("That seat is offered already."))
            try:
                await self.store.set_offered(row.id, row.version, (*row.offered, seat))
            except StaleVersion as exc:
                raise UserError(RACE) from exc
        return Plan([offer_reply(row, seat)], asker=user)

    async def take(self, row: SessionRow, user: UserRef, seat: int) -> Plan:
        """The Take the seat button: a member of the chat takes an offered seat."""
        if in_tournament(row):
            raise UserError(NOT_IN_TOURNAMENTS)
        async with self.table.lock(row.id):
            row = await self.store.session(row.id)
            if row is None or row.status != "active" or seat not in row.offered:
                raise UserError(msg("That seat is no longer offered."))
            if seat_of(row, user) is not None:
                raise UserError(msg("You have a seat at this table already."))
            if not 0 <= seat < len(row.seats):
                raise UserError(msg("That seat is no longer offered."))
            await self.moderation.gate(row.platform, row.scope, user, row.seats)
            await self.table.note_player(user)
            loaded = self.table.load(row)
            log = await self.store.log(row.id)
            since = max((e.n for e in log), default=0) + 1
            before = row.seats[seat]
            seats = [
                SeatRow(s.seat, user.id, user.name, "human", since) if s.seat == seat else s
                for s in row.seats
            ]
            note = Event(
                msg(
                    "{name} takes over the seat of {before} and plays it from here on.",
                    name=user.name,
                    before=before.name,
                )
            )
            turn = Turn(loaded.state, row.chance_pos, [note])
            turn.entries.append(NewEntry(NOTE_SEAT, SEAT, user.id, logged([note])))
            offered = tuple(s for s in row.offered if s != seat)
            try:
                committed = await self.table.commit(
                    row, loaded.game, turn, seats=seats, offered=offered
                )
            except UserError as exc:
                raise UserError(RACE) from exc
        return await self.plans.after(committed, user)

    # ----- an admin removes a player ----------------------------------------------------
    async def remove(
        self, chat: ChatRef, admin: UserRef, who: UserRef | str | None, is_admin: bool
    ) -> Plan:
        if not is_admin:
            raise UserError(ADMINS_ONLY, reason="not_admin")
        person = await self.moderation.person(chat, who)
        row = await self.table.live_row(chat)
        if row is None:
            raise UserError(msg("There is no game here."))
        if row.status == "lobby":
            if seat_of(row, person) is None:
                raise UserError(msg("{name} has no seat in this game.", name=person.name))
            seats = [
                SeatRow(i, s.user_id, s.name, s.kind)
                for i, s in enumerate(s for s in row.seats if s.user_id != person.id)
            ]
            await self.table.write_seats(row, seats)
            said = msg("An admin removed {name} from the table.", name=person.name)
            return Plan([Reply(said, kind="lobby", session_id=row.id)], asker=admin)
        if in_tournament(row):
            raise UserError(NOT_IN_TOURNAMENTS)
        async with self.table.lock(row.id):
            row = await self.store.session(row.id)
            if row is None or row.status != "active":
                raise UserError(msg("This game is over already."))
            seat = seat_of(row, person)
            if seat is None or row.seats[seat].kind != "human":
                raise UserError(msg("{name} has no seat in this game.", name=person.name))
            loaded = self.table.load(row)
        seats = [replace(s, kind="placeholder") if s.seat == seat else s for s in row.seats]
        note = Event(
            msg(
                "An admin removed {name}: a stand-in plays their seat until someone takes it.",
                name=person.name,
            )
        )
        plan = await self.stand_in(
            loaded, StandIn(seats, note, REMOVED), tuple(sorted({*row.offered, seat}))
        )
        fresh = await self.store.session(row.id)
        if fresh is not None and fresh.status == "active" and seat in fresh.offered:
            plan.replies.append(offer_reply(fresh, seat))
        return plan


def offer_reply(row: SessionRow, seat: int) -> Reply:
    name = row.seats[seat].name
    return Reply(
        msg(
            "The seat of {name} is offered: a member of this chat may take it over with the button below and play it from here on.",
            name=name,
        ),
        kind="info",
        choices=[
            Choice(
                msg("Take the seat of {name}", name=name),
                TakeSeat(row.id, seat).data,
                "primary",
            )
        ],
        session_id=row.id,
    )
