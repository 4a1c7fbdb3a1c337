"""What time and the players do to a game's clock: a deadline served, a vote to replace a
late player, and the `/escape clock` commands (mute, vacation, pause, DM, time zone, quiet).

A collaborator of the table core (its lock, loading and commit). Every change to a
clock is a compare-and-set on the stored row (Store.set_clock with `expect`), so a second
process (or a move racing a timer) makes it a no-op instead of a double.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from bot.service import buttons, time_zones
from bot.service import deadlines as clocks
from bot.service.board_plans import BoardPlans
from bot.service.bot_seats import table_level
from bot.service.moves import Turn, logged, play
from bot.service.plan import Choice, Plan, Reply
from bot.service.requests import ChatRef, Contact, UserError, UserRef
from bot.service.table import Table, not_a_player, title_of
from bot.store import NewEntry, SeatRow, SessionRow, StaleVersion
from engines import Event

MAX_DEFAULT_STEPS = 8  # a late player's turn played by default moves, at most this many steps

CLOCK_HELP = (
    "/escape clock: this game's clock and your settings.\n"
    "/escape clock mute: no more reminders for you this turn\n"
    "/escape clock vacation DAYS (or vacation end): pause your own clock in this game\n"
    "/escape clock pause, /escape clock resume: pause the table (every player must agree)\n"
    "/escape clock vote: hand a late player's seat to a stand-in (after their time is up)\n"
    "/escape clock dm on|off: reminders also as a private message\n"
    "/escape clock tz Europe/Berlin (or +2): your time zone; /escape clock quiet 22-7 (or off): no reminders then"
)


class TurnClock:
    def __init__(
        self, table: Table, plans: BoardPlans, *, dm_note: Callable[[str, Contact], str]
    ) -> None:
        self.table = table
        self.store = table.store
        self.plans = plans
        self.dm_note = dm_note  # what a front end adds to "reminders as private messages: on"

    def now(self) -> float:
        return self.table.now()

    async def save_clock(self, row: SessionRow, clock: dict) -> bool:
        """Store `clock` if the row is still as read; False when someone changed it first."""
        try:
            await self.store.set_clock(
                row.id, row.version, clock, clock.get("deadline"), clocks.next_wake(clock),
                expect=row.clock,
            )  # fmt: skip
        except StaleVersion:
            return False
        return True

    # ----- the deadline -----------------------------------------------------------
    async def time_up(self, session_id: int) -> Plan:
        """Serve a due deadline once: close a reaction window with `pass`, or play the
        game's default move for the late players (timeout=skip), or else warn and open a
        vote. Returns the replies for the game's chat (nothing if it was not due)."""

        async with self.table.lock(session_id):
            row = await self.store.session(session_id)
            now = self.now()
            if row is None or row.status != "active" or not clocks.deadline_due(row.clock, now):
                return Plan()
            loaded = self.table.load(row)
            game = loaded.game
            turn = Turn(loaded.state, row.chance_pos)
            late = set(row.clock.get("waiting", []))
            if row.clock.get("reaction") or row.clock.get("timeout") == "skip":
                for _ in range(MAX_DEFAULT_STEPS * max(1, len(late))):
                    acting = [
                        s for s in game.to_act(turn.state)
                        if 0 <= s < len(row.seats) and row.seats[s].user_id in late
                    ]  # fmt: skip
                    pick = next(
                        ((s, a) for s in acting if (a := game.default_action(turn.state, s)) is not None),
                        None,
                    )  # fmt: skip
                    if pick is None:
                        break
                    seat, action = pick
                    note = Event(
                        f"Time is up for {row.seats[seat].name}: "
                        f"the bot plays {game.describe(turn.state, action)}."
                    )
                    play(game, turn, seat, action, row.seed, note=note)
            if (
                not turn.entries
                and row.clock.get("timeout") == "ai"
                and not row.clock.get("reaction")
            ):
                await self.table.bots.play_for_late(row, game, turn, late)
            if turn.entries:
                committed = await self.table.commit(row, game, turn, touch=False)
                return await self.plans.after(committed)
            late_seats = [
                s for s in game.to_act(turn.state) if 0 <= s < len(row.seats) and row.seats[s].user_id in late
            ]  # fmt: skip
            clock = clocks.warn(row.clock, [row.seats[s].user_id for s in late_seats])
            if not await self.save_clock(row, clock) or not late_seats:
                return Plan()  # (no one late: nothing to say, and the clock stops waking)
            row = await self.store.session(row.id)
            return Plan([self._vote_reply(row, late_seats)])

    def _vote_reply(self, row: SessionRow, late_seats: list[int]) -> Reply:
        names = ", ".join(row.seats[s].name for s in late_seats)
        voters = _voters(row)
        text = f"Time is up for {names}. They can still move"
        if voters:
            text += (
                f"; or the others may vote to hand the seat to a stand-in that plays on "
                f"({_needed(row)} of {len(voters)} votes needed): press Vote or /escape clock vote."
            )
        else:
            text += "; nobody else can vote, so the game waits (it ends if left idle)."
        choices = [Choice(f"Vote to replace {names}", buttons.simple("k", row.id), "danger")] if voters else []  # fmt: skip
        return Reply(text, kind="info", choices=choices, session_id=row.id, version=row.version)

    # ----- voting a late player out -----------------------------------------------
    async def vote(self, chat: ChatRef, user: UserRef) -> Plan:
        row = await self.table.active(chat)
        async with self.table.lock(row.id):
            row = await self.store.session(row.id)
            if row is None or row.status != "active" or not row.clock.get("warned"):
                raise UserError("There is nothing to vote on: nobody's time is up.")
            if user.id not in _voters(row):
                if user.id in row.clock.get("late", []):
                    raise UserError("Your time is up, so others vote; you can simply move.")
                raise UserError("Only the other players at this table can vote.")
            if user.id in row.clock.get("votes", []):
                raise UserError("You have already voted.")
            clock = clocks.add_vote(row.clock, user.id)
            if len(clock["votes"]) < _needed(row):
                if not await self.save_clock(row, clock):
                    raise UserError("The game changed at the same moment; try again.")
                return Plan([Reply(f"{user.name} votes to replace the late player "
                              f"({len(clock['votes'])} of {_needed(row)}).", kind="info")])  # fmt: skip
            return await self._replace_late(row, clock)

    async def _replace_late(self, row: SessionRow, clock: dict) -> Plan:
        late = set(clock.get("late", []))
        seats = [
            SeatRow(s.seat, s.user_id, s.name, "placeholder" if s.user_id in late else s.kind)
            for s in row.seats
        ]
        names = ", ".join(s.name for s in row.seats if s.user_id in late)
        row = replace(row, seats=seats)  # stored with the stand-in's moves, in one transaction
        loaded = self.table.load(row)
        note = Event(
            f"By vote, a stand-in takes over from {names} and plays on "
            f"(the computer player, level {table_level(row)})."
        )
        turn = await self.table.bots.play_turns(
            row, loaded.game, Turn(loaded.state, row.chance_pos)
        )
        if turn.entries:  # the note goes into the log with the stand-in's first move
            first = turn.entries[0]
            turn.entries[0] = NewEntry(first.seat, first.action, first.user_id, [*logged([note]), *first.events])  # fmt: skip
        turn.events.insert(0, note)
        committed = await self.table.commit(row, loaded.game, turn, seats=seats)
        return await self.plans.after(committed)

    # ----- ending untouched games -------------------------------------------------
    async def end_idle(self, session_id: int) -> Plan:
        async with self.table.lock(session_id):
            row = await self.store.session(session_id)
            now = self.now()
            if row is None or row.status not in ("lobby", "active"):
                return Plan()
            days = row.clock.get("idle_days", clocks.PACES[clocks.DEFAULT_PACE].idle_days)
            if row.updated_at > now - days * clocks.DAY:
                return Plan()
            title = title_of(row.game)
            note = (
                f"The game of {title} had no move for {days:g} days and is ended; its log is kept."
            )
            try:
                await self.store.finish(row.id, row.version, "aborted", note)
            except StaleVersion:
                return Plan()
            return Plan([Reply(note, kind="info", final=True, session_id=row.id)])

    # ----- /escape clock ----------------------------------------------------------
    async def clock_command(self, chat: ChatRef, user: UserRef, text: str = "") -> Plan:  # fmt: skip
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
        except clocks.ClockError as exc:
            raise UserError(str(exc)) from exc
        raise UserError(f"There is no clock command {sub!r}.\n{CLOCK_HELP}")

    async def _clock_status(self, chat: ChatRef, user: UserRef) -> Reply:
        row = await self.table.live_row(chat)
        lines = []
        now = self.now()
        if row is not None and row.clock:
            lines.append("This game's clock: " + clocks.describe(row.clock, now) + ".")
            if any(s.user_id == user.id for s in row.seats):
                left = clocks.vacation_left(row.clock, user.id) / clocks.DAY
                away = row.clock.get("vacation", {}).get(user.id, 0.0)
                lines.append(
                    f"Your vacation: {left:g} days left"
                    + (f" (away for {clocks.describe_left(away - now)} more)" if away > now else "")
                    + "."
                )
        known = await self.store.user(user.platform, user.id)
        prefs = known["prefs"] if known else {}
        quiet = prefs.get("quiet")
        lines.append(
            f"Your reminders: private message {'on' if prefs.get('dm') else 'off'}, "
            f"time zone {time_zones.describe_tz(prefs.get('tz'))}, quiet hours "
            + (f"{quiet[0]}-{quiet[1]}" if quiet else "none")
            + ". /escape clock help lists the commands."
        )
        return Reply("\n".join(lines), kind="info")

    async def _set_pref(self, user: UserRef, what: str, args: list[str]) -> Reply:
        if not args:
            raise UserError({"dm": "Say /escape clock dm on (or off).", "tz": "Say /escape clock tz Europe/Berlin (a zone name) or tz +2 (hours from UTC).", "quiet": "Say /escape clock quiet 22-7 (or off)."}[what])  # fmt: skip
        await self.table.remember(user)
        known = await self.store.user(user.platform, user.id)
        prefs = dict(known["prefs"]) if known else {}
        if what == "dm":
            if args[0] not in ("on", "off"):
                raise UserError("Say /escape clock dm on, or /escape clock dm off.")
            prefs["dm"] = args[0] == "on"
            said = f"Reminders as private messages: {args[0]}."
            if prefs["dm"]:
                contact = Contact((known or {}).get("private_chat"), True)
                said += self.dm_note(user.platform, contact)
        elif what == "tz":
            prefs["tz"] = clocks.parse_tz(args[0])
            said = f"Your time zone: {time_zones.describe_tz(prefs['tz'])}."
        else:
            prefs["quiet"] = clocks.parse_quiet(args[0])
            said = (
                f"No reminders from {prefs['quiet'][0]}:00 to {prefs['quiet'][1]}:00 your time."
                if prefs["quiet"] else "Quiet hours off."
            )  # fmt: skip
        await self.store.set_prefs(user.platform, user.id, prefs)
        return Reply(said, kind="info")

    async def _table_change(self, chat: ChatRef, user: UserRef, sub: str, args: list[str]) -> Plan:  # fmt: skip
        row = await self.table.active(chat)
        async with self.table.lock(row.id):
            row = await self.store.session(row.id)
            if row is None or row.status != "active":
                raise UserError("That game is not running any more.")
            humans = [s.user_id for s in row.seats if s.kind == "human"]
            if user.id not in humans:
                raise UserError(not_a_player(row))
            now, c = self.now(), row.clock
            if sub == "mute":
                if user.id not in c.get("waiting", []):
                    raise UserError("It is not your turn, so there is nothing to mute.")
                c, said = clocks.mute(c, user.id), f"No more reminders for {user.name} this turn."
            elif sub == "vacation":
                if args and args[0] in ("end", "off", "stop"):
                    c, said = (
                        clocks.end_vacation(c, user.id, now),
                        f"{user.name} is back from vacation.",
                    )
                else:
                    days = _number(args[0] if args else "", "Say /escape clock vacation DAYS, e.g. vacation 2.")  # fmt: skip
                    c = clocks.take_vacation(c, user.id, days, now)
                    said = f"{user.name} is on vacation for {days:g} days: their clock waits."
            elif sub == "pause":
                if c.get("paused") is not None:
                    raise UserError("The table is already paused: /escape clock resume to go on.")
                votes = sorted({*c.get("pause_votes", []), user.id})
                missing = [
                    s.name for s in row.seats if s.kind == "human" and s.user_id not in votes
                ]
                if missing:
                    c = {**c, "pause_votes": votes}
                    said = f"{user.name} asks to pause the table; waiting for {', '.join(missing)} (/escape clock pause)."  # fmt: skip
                else:
                    c, said = clocks.pause(c, now), "Everyone agreed: the table is paused. /escape clock resume goes on."  # fmt: skip
            else:  # resume
                if c.get("paused") is None:
                    raise UserError("The table is not paused.")
                c = clocks.resume(c, now)
                said = f"{user.name} resumes the table: {clocks.describe_left(clocks.time_left(c, now))} to move."  # fmt: skip
            if not await self.save_clock(row, c):
                raise UserError("The game changed at the same moment; try again.")
        return Plan([Reply(said, kind="info", session_id=row.id)])


def _voters(row: SessionRow) -> list[str]:
    late = set(row.clock.get("late", []))
    return [s.user_id for s in row.seats if s.kind == "human" and s.user_id not in late]


def _needed(row: SessionRow) -> int:
    """A majority of the players who are not late (one, at a two-player table)."""
    return len(_voters(row)) // 2 + 1


def _number(text: str, message: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise UserError(message) from None
