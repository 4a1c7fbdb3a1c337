"""What time and the players do to a game's clock: a deadline served, a vote to replace a
late player, and the `/escape clock` commands (mute, vacation, pause, DM, time zone, quiet).

A collaborator of the table core (its lock, loading and commit) and of the bots' runs.
Every change to a clock is a compare-and-set on the stored row (Store.set_clock with
`expect`), so a second process (or a move racing a timer) makes it a no-op instead of a
double.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from bot.service.base import buttons, deadlines, time_zones
from bot.service.base.command_words import DAYS, ZONE
from bot.service.base.delivery_plan import Choice, Plan, Reply
from bot.service.base.move_records import Turn, play, seeded
from bot.service.base.platform_input import amount
from bot.service.base.requests import ChatRef, Contact, UserError, UserRef
from bot.service.clock.forfeits import FORFEIT, lose_on_time
from bot.service.tables.board_plans import BoardPlans, table_language
from bot.service.tables.bot_seats import bot_to_act, table_level
from bot.service.tables.bot_turns import BotTurns
from bot.service.tables.table import Committed, Table, not_a_player, title_of
from bot.store import SeatRow, SessionRow, StaleVersion
from engines import Event
from engines.text import Span, Text, command, joined, msg, plural
from languages import LanguageName

MAX_DEFAULT_STEPS = 8  # a late player's turn played by default moves, at most this many steps

CLOCK_HELP = msg(
    "{clock}: this game's clock and your settings.\n{clock_mute}: no more reminders for you this turn\n{clock_vacation} (or vacation end): pause your own clock in this game\n{clock_pause}, {clock_resume}: pause the table (every player must agree)\n{clock_vote}: hand a late player's seat to a stand-in (after their time is up)\n{clock_dm} on|off: reminders also as a private message\n{clock_tz} (or +2): your time zone; {clock_quiet} (or off): no reminders then",
    clock=command("clock"),
    clock_mute=command("clock", "mute"),
    clock_vacation=command("clock", "vacation", DAYS),
    clock_pause=command("clock", "pause"),
    clock_resume=command("clock", "resume"),
    clock_vote=command("clock", "vote"),
    clock_dm=command("clock", "dm"),
    clock_tz=command("clock", "tz", ZONE),
    clock_quiet=command("clock", "quiet", "22-7"),
)


class TurnClock:
    def __init__(
        self,
        table: Table,
        plans: BoardPlans,
        turns: BotTurns,
        *,
        dm_note: Callable[[str, Contact], str],
    ) -> None:
        self.table = table
        self.store = table.store
        self.plans = plans
        self.turns = turns  # the AI's late turns, the stand-ins' and the bots' after
        self.dm_note = dm_note  # what a front end adds to "reminders as private messages: on"

    def now(self) -> float:
        return self.table.now()

    async def save_clock(self, row: SessionRow, clock: dict) -> bool:
        """Store `clock` if the row is still as read; False when someone changed it first."""
        try:
            await self.store.set_clock(
                row.id,
                row.version,
                clock,
                clock.get("deadline"),
                deadlines.next_wake(clock),
                expect=row.clock,
            )
        except StaleVersion:
            return False
        return True

    # ----- the deadline -----------------------------------------------------------
    async def time_up(self, session_id: int) -> Plan:
        """Serve a due deadline once: close a reaction window with `pass`, or play the
        game's default move for the late players (timeout=skip), or the AI's (timeout=ai,
        searched with no lock held, each move stored as it is made), or else warn and
        open a vote; then the bots play on. Returns the replies for the game's chat
        (nothing if it was not due)."""
        known = await self.store.session(session_id)
        if (
            known is not None
            and known.clock.get("timeout") == FORFEIT
            and not known.clock.get("reaction")
        ):
            return await self._lose_on_time(session_id)
        async with self.table.lock(session_id):
            row = await self.store.session(session_id)
            now = self.now()
            if row is None or row.status != "active" or not deadlines.deadline_due(row.clock, now):
                return Plan()
            loaded = self.table.load(row)
            game = loaded.game
            turn = Turn(loaded.state, row.chance_pos, seeded=seeded(row))
            late = set(row.clock.get("waiting", []))
            if row.clock.get("reaction") or row.clock.get("timeout") == "skip":
                for _ in range(MAX_DEFAULT_STEPS * max(1, len(late))):
                    acting = [
                        s
                        for s in game.to_act(turn.state)
                        if 0 <= s < len(row.seats) and row.seats[s].user_id in late
                    ]
                    pick = next(
                        (
                            (s, a)
                            for s in acting
                            if (a := game.default_action(turn.state, s)) is not None
                        ),
                        None,
                    )
                    if pick is None:
                        break
                    seat, action = pick
                    note = Event(
                        msg(
                            "Time is up for {name}: the bot plays {describe}.",
                            name=row.seats[seat].name,
                            describe=game.label(turn.state, action),
                        )
                    )
                    play(game, turn, seat, action, row.seed, note=note)
            committed = None
            if turn.entries:
                committed = await self.table.commit(row, game, turn, touch=False)
            elif row.clock.get("timeout") != "ai" or row.clock.get("reaction"):
                return await self._warn(row, game, turn.state, late)
        if committed is None:  # timeout=ai: the AI plays the late turn, the lock released
            committed = await self.turns.play_late(loaded, late)
            if committed is None:
                async with self.table.lock(session_id):
                    return await self._warn(row, game, loaded.state, late)
        committed = await self.turns.run(committed, touch=False)
        return await self.plans.after(committed)

    async def _lose_on_time(self, session_id: int) -> Plan:
        """timeout=forfeit (a tournament's table): the late players lose on time; a game
        of two ends, else a stand-in plays on for them (its first move searched with no
        lock held)."""
        async with self.table.lock(session_id):
            row = await self.store.session(session_id)
            if (
                row is None
                or row.status != "active"
                or not deadlines.deadline_due(row.clock, self.now())
            ):
                return Plan()
            loaded = self.table.load(row)
            late = set(row.clock.get("waiting", []))
            lost = await lose_on_time(self.table, loaded, late)
            if lost is None:
                return await self._warn(row, loaded.game, loaded.state, late)
            if isinstance(lost, Committed):
                return await self.plans.after(lost)
            if bot_to_act(replace(row, seats=lost.seats), loaded.game, loaded.state) is None:
                turn = Turn(loaded.state, row.chance_pos, [lost.note])
                committed = await self.table.commit(
                    row, loaded.game, turn, touch=False, seats=lost.seats
                )
                return await self.plans.after(committed)
        standing_in = self.table.load(replace(row, seats=lost.seats))
        committed = await self.turns.run(
            Committed(standing_in, [], None), note=lost.note, seats=lost.seats
        )
        return await self.plans.after(committed)

    async def _warn(self, row: SessionRow, game, state, late: set[str]) -> Plan:
        """No move to play for the late players: time is up, and the others may vote."""
        late_seats = [
            s
            for s in game.to_act(state)
            if 0 <= s < len(row.seats) and row.seats[s].user_id in late
        ]
        clock = deadlines.warn(row.clock, [row.seats[s].user_id for s in late_seats])
        if not await self.save_clock(row, clock) or not late_seats:
            return Plan()  # (no one late: nothing to say, and the clock stops waking)
        row = await self.store.session(row.id)
        return Plan([self._vote_reply(row, late_seats)])

    def _vote_reply(self, row: SessionRow, late_seats: list[int]) -> Reply:
        names = ", ".join(row.seats[s].name for s in late_seats)
        voters = _voters(row)
        if voters:
            text = plural(
                "Time is up for {names}. They can still move; or the others may vote to hand the seat to a stand-in that plays on ({needed} of {count} vote needed): press Vote or {clock_vote}.",
                "Time is up for {names}. They can still move; or the others may vote to hand the seat to a stand-in that plays on ({needed} of {count} votes needed): press Vote or {clock_vote}.",
                len(voters),
                names=names,
                needed=_needed(row),
                clock_vote=command("clock", "vote"),
            )
        else:
            text = msg(
                "Time is up for {names}. They can still move; nobody else can vote, so the game "
                "waits (it ends if left idle).",
                names=names,
            )
        choices = (
            [
                Choice(
                    msg("Vote to replace {names}", names=names),
                    buttons.VoteReplace(row.id).data,
                    "danger",
                )
            ]
            if voters
            else []
        )
        return Reply(text, kind="info", choices=choices, session_id=row.id, version=row.version)

    # ----- voting a late player out -----------------------------------------------
    async def vote(self, chat: ChatRef, user: UserRef) -> Plan:
        row = await self.table.active(chat)
        async with self.table.lock(row.id):
            row = await self.store.session(row.id)
            if row is None or row.status != "active" or not row.clock.get("warned"):
                raise UserError(msg("There is nothing to vote on: nobody's time is up."))
            if user.id not in _voters(row):
                if user.id in row.clock.get("late", []):
                    raise UserError(msg("Your time is up, so others vote; you can simply move."))
                raise UserError(msg("Only the other players at this table can vote."))
            if user.id in row.clock.get("votes", []):
                raise UserError(msg("You have already voted."))
            clock = deadlines.add_vote(row.clock, user.id)
            if len(clock["votes"]) < _needed(row):
                if not await self.save_clock(row, clock):
                    raise UserError(msg("The game changed at the same moment; try again."))
                return Plan(
                    [
                        Reply(
                            msg(
                                "{name} votes to replace the late player ({len} of {needed}).",
                                name=user.name,
                                len=len(clock["votes"]),
                                needed=_needed(row),
                            ),
                            kind="info",
                        )
                    ]
                )
            row, seats, note = self._stand_in(row, clock)
            loaded = self.table.load(row)
            if bot_to_act(row, loaded.game, loaded.state) is None:  # nothing to play now
                turn = Turn(loaded.state, row.chance_pos, [note])
                committed = await self.table.commit(row, loaded.game, turn, seats=seats)
                return await self.plans.after(committed)
        # the stand-in's first move, searched with no lock held, stores the new seating
        committed = await self.turns.run(Committed(loaded, [], None), note=note, seats=seats)
        return await self.plans.after(committed)

    @staticmethod
    def _stand_in(row: SessionRow, clock: dict) -> tuple[SessionRow, list[SeatRow], Event]:
        """The late players' seats handed to a stand-in (the row as it will be), and the
        note that says so (logged with the stand-in's first move)."""
        late = set(clock.get("late", []))
        seats = [
            SeatRow(s.seat, s.user_id, s.name, "placeholder" if s.user_id in late else s.kind)
            for s in row.seats
        ]
        names = ", ".join(s.name for s in row.seats if s.user_id in late)
        note = Event(
            msg(
                "By vote, a stand-in takes over from {names} and plays on (the computer player, level {table_level}).",
                names=names,
                table_level=table_level(row),
            )
        )
        return replace(row, seats=seats), seats, note

    # ----- ending untouched games -------------------------------------------------
    async def end_idle(self, session_id: int) -> Plan:
        async with self.table.lock(session_id):
            row = await self.store.session(session_id)
            now = self.now()
            if row is None or row.status not in ("lobby", "active"):
                return Plan()
            days = row.clock.get("idle_days", deadlines.PACES[deadlines.DEFAULT_PACE].idle_days)
            if row.updated_at > now - days * deadlines.DAY:
                return Plan()
            title = title_of(row.game)
            note = plural(
                "The game of {game} had no move for {count} day and is ended; its log is kept.",
                "The game of {game} had no move for {count} days and is ended; its log is kept.",
                days,
                game=title,
            )
            try:
                await self.store.finish(row.id, row.version, "aborted", note)
            except StaleVersion:
                return Plan()
            return Plan([Reply(note, kind="info", final=True, session_id=row.id)])

    # ----- /escape clock ----------------------------------------------------------
    async def clock_command(self, chat: ChatRef, user: UserRef, text: str = "") -> Plan:
        """One entry point for every clock command, so each adapter needs one line."""
        words = (text or "").lower().split()
        sub, args = (words[0], words[1:]) if words else ("status", [])
        try:
            if sub in ("dm", "tz", "quiet"):
                return Plan([await self._set_pref(user, sub, args)])
            if sub == "help":
                return Plan([Reply(CLOCK_HELP, kind="help")])
            if sub == "vote":
                return await self.vote(chat, user)
            if sub == "status":
                return Plan([await self._clock_status(chat, user)])
            if sub in ("mute", "vacation", "pause", "resume"):
                return await self._table_change(chat, user, sub, args)
        except deadlines.ClockError as exc:
            raise UserError(exc.args[0]) from exc
        raise UserError(
            msg("There is no clock command {sub}.\n{help}", sub=repr(sub), help=CLOCK_HELP)
        )

    async def _clock_status(self, chat: ChatRef, user: UserRef) -> Reply:
        row = await self.table.live_row(chat)
        lines: list[Text] = []
        now = self.now()
        if row is not None and row.clock:
            lines.append(
                msg("This game's clock: {clock}.", clock=deadlines.describe(row.clock, now))
            )
            lines.append(
                msg("This table speaks {language}.", language=LanguageName(table_language(row)))
            )
            if any(s.user_id == user.id for s in row.seats):
                left = deadlines.vacation_left(row.clock, user.id) / deadlines.DAY
                away = row.clock.get("vacation", {}).get(user.id, 0.0)
                if away > now:
                    lines.append(
                        plural(
                            "Your vacation: {count} day left (away for {away} more).",
                            "Your vacation: {count} days left (away for {away} more).",
                            _whole(left),
                            away=Span(away - now, left=True),
                        )
                    )
                else:
                    lines.append(
                        plural(
                            "Your vacation: {count} day left.",
                            "Your vacation: {count} days left.",
                            _whole(left),
                        )
                    )
        known = await self.store.user(user.platform, user.id)
        prefs = known["prefs"] if known else {}
        quiet = prefs.get("quiet")
        lines.append(
            msg(
                "Your reminders: private message {dm}, time zone {zone}, quiet hours {quiet}. {clock_help} lists the commands.",
                dm=msg("on") if prefs.get("dm") else msg("off"),
                zone=time_zones.describe_tz(prefs.get("tz")),
                quiet=f"{quiet[0]}-{quiet[1]}" if quiet else msg("none"),
                clock_help=command("clock", "help"),
            )
        )
        return Reply(joined(lines, "\n"), kind="info")

    async def _set_pref(self, user: UserRef, what: str, args: list[str]) -> Reply:
        if not args:
            raise UserError(
                {
                    "dm": msg("Say {clock_dm} (or off).", clock_dm=command("clock", "dm", "on")),
                    "tz": msg(
                        "Say {clock_tz} (a zone name) or tz +2 (hours from UTC).",
                        clock_tz=command("clock", "tz", ZONE),
                    ),
                    "quiet": msg(
                        "Say {clock_quiet} (or off).", clock_quiet=command("clock", "quiet", "22-7")
                    ),
                }[what]
            )
        await self.table.note_player(user)
        known = await self.store.user(user.platform, user.id)
        prefs = dict(known["prefs"]) if known else {}
        if what == "dm":
            if args[0] not in ("on", "off"):
                raise UserError(
                    msg(
                        "Say {clock_dm}, or {clock_dm2}.",
                        clock_dm=command("clock", "dm", "on"),
                        clock_dm2=command("clock", "dm", "off"),
                    )
                )
            prefs["dm"] = args[0] == "on"
            said = msg("Reminders as private messages: {setting}.", setting=msg(args[0]))
            if prefs["dm"]:
                contact = Contact((known or {}).get("private_chat"), True)
                said = joined([said, self.dm_note(user.platform, contact)], "")
        elif what == "tz":
            prefs["tz"] = deadlines.parse_tz(args[0])
            said = msg("Your time zone: {zone}.", zone=time_zones.describe_tz(prefs["tz"]))
        else:
            prefs["quiet"] = deadlines.parse_quiet(args[0])
            said = (
                msg(
                    "No reminders from {start}:00 to {end}:00 your time.",
                    start=prefs["quiet"][0],
                    end=prefs["quiet"][1],
                )
                if prefs["quiet"]
                else msg("Quiet hours off.")
            )
        await self.store.set_prefs(user.platform, user.id, prefs)
        return Reply(said, kind="info")

    async def _table_change(self, chat: ChatRef, user: UserRef, sub: str, args: list[str]) -> Plan:
        row = await self.table.active(chat)
        async with self.table.lock(row.id):
            row = await self.store.session(row.id)
            if row is None or row.status != "active":
                raise UserError(msg("That game is not running any more."))
            humans = [s.user_id for s in row.seats if s.kind == "human"]
            if user.id not in humans:
                raise UserError(not_a_player(row))
            now, c = self.now(), row.clock
            if sub == "mute":
                if user.id not in c.get("waiting", []):
                    raise UserError(msg("It is not your turn, so there is nothing to mute."))
                c, said = (
                    deadlines.mute(c, user.id),
                    msg("No more reminders for {name} this turn.", name=user.name),
                )
            elif sub == "vacation":
                if args and args[0] in ("end", "off", "stop"):
                    c, said = (
                        deadlines.end_vacation(c, user.id, now),
                        msg("{name} is back from vacation.", name=user.name),
                    )
                else:
                    days = _number(
                        args[0] if args else "",
                        msg(
                            "Say {clock_vacation}, e.g. vacation 2.",
                            clock_vacation=command("clock", "vacation", DAYS),
                        ),
                    )
                    c = deadlines.take_vacation(c, user.id, days, now)
                    said = plural(
                        "{name} is on vacation for {count} day: their clock waits.",
                        "{name} is on vacation for {count} days: their clock waits.",
                        _whole(days),
                        name=user.name,
                    )
            elif sub == "pause":
                if c.get("paused") is not None:
                    raise UserError(
                        msg(
                            "The table is already paused: {clock_resume} to go on.",
                            clock_resume=command("clock", "resume"),
                        )
                    )
                votes = sorted({*c.get("pause_votes", []), user.id})
                missing = [
                    s.name for s in row.seats if s.kind == "human" and s.user_id not in votes
                ]
                if missing:
                    c = {**c, "pause_votes": votes}
                    said = msg(
                        "{name} asks to pause the table; waiting for {missing} ({clock_pause}).",
                        name=user.name,
                        missing=", ".join(missing),
                        clock_pause=command("clock", "pause"),
                    )
                else:
                    c, said = (
                        deadlines.pause(c, now),
                        msg(
                            "Everyone agreed: the table is paused. {clock_resume} goes on.",
                            clock_resume=command("clock", "resume"),
                        ),
                    )
            else:  # resume
                if c.get("paused") is None:
                    raise UserError(msg("The table is not paused."))
                c = deadlines.resume(c, now)
                said = msg(
                    "{name} resumes the table: {left} to move.",
                    name=user.name,
                    left=Span(deadlines.time_left(c, now) or 0, left=True),
                )
            if not await self.save_clock(row, c):
                raise UserError(msg("The game changed at the same moment; try again."))
        return Plan([Reply(said, kind="info", session_id=row.id)])


def _voters(row: SessionRow) -> list[str]:
    late = set(row.clock.get("late", []))
    return [s.user_id for s in row.seats if s.kind == "human" and s.user_id not in late]


def _needed(row: SessionRow) -> int:
    """A majority of the players who are not late (one, at a two-player table)."""
    return len(_voters(row)) // 2 + 1


def _whole(days: float) -> int | float:
    """A count of days as said: a whole number as itself (chooses its plural form)."""
    return int(days) if days == int(days) else round(days, 2)


def _number(text: str, message: Text) -> float:
    """A quantity typed (`vacation 2`), by the one reading of numbers (ASCII digits)."""
    found = amount(text)
    if found is None:
        raise UserError(message)
    return found
