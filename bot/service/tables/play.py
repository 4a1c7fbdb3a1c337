"""Playing and looking: a move (typed or pressed) and the bots' turns after it, the board,
a player's own view, the running game's log, the move list for autocomplete, and the
games running in a scope."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from bot.service.base import buttons
from bot.service.base.command_words import GAME
from bot.service.base.delivery_plan import SHARED, Choice, Plan, Reply
from bot.service.base.move_records import Turn, play, seeded, stored
from bot.service.base.requests import ChatRef, UserError, UserRef
from bot.service.tables.board_plans import BoardPlans
from bot.service.tables.bot_seats import seat_name, seat_names
from bot.service.tables.bot_turns import BotTurns, Stored
from bot.service.tables.table import (
    NO_TABLE,
    Committed,
    Loaded,
    Overtaken,
    Table,
    chat_of,
    not_a_player,
    title_of,
)
from bot.store import SessionRow, StoreError
from bot.telemetry import metrics
from engines import CHANCE, REGISTRY, Event, IllegalAction
from engines.text import Msg, Text, command, joined, msg


@dataclass(frozen=True)
class TableSummary:
    """A lobby or running game as a list of saved games shows it."""

    session_id: int
    chat: ChatRef
    game_id: str
    title: str
    status: str  # lobby or active
    seats: list[tuple[Text, str]]  # (name, kind: human, ai, placeholder)
    options: dict[str, str]  # those that differ from the game's defaults
    waiting: list[Text]  # the names it waits for

    def describe(self) -> Msg:
        names = joined([name for name, _ in self.seats])
        opts = " ".join(f"{k}={v}" for k, v in self.options.items())
        if self.status == "lobby":
            state = msg("waiting for players")
        else:
            state = msg(
                "waiting for {names}",
                names=joined(self.waiting) if self.waiting else msg("the dice"),
            )
        if opts:
            return msg(
                "#{number} {game} ({options}) with {names}: {state}.",
                number=self.session_id,
                game=msg(self.title),
                options=opts,
                names=names,
                state=state,
            )
        return msg(
            "#{number} {game} with {names}: {state}.",
            number=self.session_id,
            game=msg(self.title),
            names=names,
            state=state,
        )


# shown each stored step of a move and the bots' turns after it, as it is stored (a front
# end that shows moves as they come: the terminal)
Told = Callable[[Plan], Awaitable[None]]
Checked = tuple[int, str, Sequence[str] | None]
"""A checked request: the seat, its move, and the seat's legal moves where they were built
to find the move (a press), so the move is not listed again to be checked."""

STALE = msg("The board has moved on since those buttons were drawn; use the latest board.")


class Play:
    def __init__(self, table: Table, plans: BoardPlans, turns: BotTurns) -> None:
        self.table = table
        self.store = table.store
        self.plans = plans
        self.turns = turns

    # ----- moving ---------------------------------------------------------------------
    async def move(
        self,
        chat: ChatRef,
        user: UserRef,
        action: str,
        version: int | None = None,
        told: Told | None = None,
    ) -> Plan:
        """`told`: each stored step (this move, then each bot's) as it is stored, for a
        front end that shows them as they come; the plan then repeats none of it."""
        try:
            row = await self.table.active(chat)
        except UserError:
            metrics.MOVES_REFUSED.labels("none", chat.platform, "not_running").inc()
            raise
        return await self.act(row, user, action, version, told)

    async def press_move(self, row: SessionRow, user: UserRef, button: buttons.Act) -> Plan:
        """A move button: the data names the seat, the board's version and the move's place
        in that board's list; checked before the move is made (it may be stale or forged)."""

        def pressed(loaded: Loaded) -> Checked:
            seat = self._seat(loaded, user)
            if seat != button.seat:
                raise UserError(
                    msg("Those buttons are for another player; your choices come with your turn."),
                    reason="not_a_player",
                )
            if button.version != loaded.row.version:
                raise UserError(STALE, reason="stale")
            legal = loaded.game.legal_actions(loaded.state, seat)
            if button.index >= len(legal):
                raise UserError(
                    msg("That choice is no longer offered; use the latest board."), reason="stale"
                )
            return seat, legal[button.index], legal  # the move is checked by its place in them

        return await self._attempt(row, user, pressed)

    async def act(
        self,
        row: SessionRow,
        user: UserRef,
        action: str,
        version: int | None = None,
        told: Told | None = None,
    ) -> Plan:
        def typed(loaded: Loaded) -> Checked:
            seat = self._seat(loaded, user)
            if version is not None and version != loaded.row.version:
                raise UserError(
                    msg(
                        "The board has moved on since then; look at the latest board and try again."
                    ),
                    reason="stale",
                )
            return seat, action, None

        return await self._attempt(row, user, typed, told)

    @staticmethod
    def _seat(loaded: Loaded, user: UserRef) -> int:
        seat = loaded.seat_of(user)
        if seat is None:
            raise UserError(not_a_player(loaded.row), reason="not_a_player")
        if loaded.row.seats[seat].kind == "placeholder":
            raise UserError(
                msg("Your seat was handed to a stand-in by vote; it plays on for you."),
                reason="not_a_player",
            )
        return seat

    async def _attempt(
        self,
        row: SessionRow,
        user: UserRef,
        check: Callable[[Loaded], Checked],
        told: Told | None = None,
    ) -> Plan:
        """Check and store a move under the session's lock, on the row as read; if the
        session changed meanwhile (`Overtaken`), once more on the session as it is now.
        Then, the lock released, the bots play their turns after it. Counted in the
        metrics: accepted with its service time, or refused with why."""
        started = time.perf_counter()
        try:
            committed = await self._attempt_locked(row, user, check)
        except UserError as exc:
            metrics.MOVES_REFUSED.labels(row.game, row.platform, exc.reason).inc()
            raise
        except StoreError:
            metrics.MOVES_REFUSED.labels(row.game, row.platform, "store").inc()
            raise
        metrics.MOVES_ACCEPTED.labels(row.game, row.platform).inc()
        metrics.MOVE_SECONDS.labels(row.game, row.platform).observe(time.perf_counter() - started)
        return await self.bots_after(committed, user, told)

    async def bots_after(
        self, committed: Committed, asker: UserRef | None, told: Told | None = None
    ) -> Plan:
        """The bots' turns after a stored change, and the plan of the whole: one board."""
        tell = self._teller(told)
        if tell is not None:
            await tell(committed)
        committed = await self.turns.run(committed, tell)
        return await self.plans.after(committed, asker, told=told is not None)

    async def wake_bots(self, session_id: int, told: Told | None = None) -> Plan:
        """The bots of a table whose run stopped (a restart after a crash) play on; an
        empty plan when they have nothing to do."""
        committed = await self.turns.wake(session_id, self._teller(told))
        if committed is None:
            return Plan()
        return await self.plans.after(committed, told=told is not None)

    def _teller(self, told: Told | None) -> Stored | None:
        if told is None:
            return None

        thinkers: list[str] = []  # this run's notices of who is thinking

        async def tell(step: Committed) -> None:
            await told(self.plans.step(step, thinkers))

        return tell

    async def _attempt_locked(
        self, row: SessionRow, user: UserRef, check: Callable[[Loaded], Checked]
    ) -> Committed:
        async with self.table.lock(row.id):
            current = await self.table.fresh(row)
            for attempt in range(2):
                if current is None or current.status != "active":
                    raise UserError(msg("That game is not running any more."), reason="not_running")
                loaded = self.table.load(current)
                seat, action, listed = check(loaded)
                try:
                    return await self._apply(loaded, seat, user, action, listed)
                except Overtaken:
                    if attempt:
                        raise
                    current = await self.store.session(row.id)
        raise AssertionError("unreachable")

    async def _apply(
        self,
        loaded: Loaded,
        seat: int,
        user: UserRef,
        action: str,
        listed: Sequence[str] | None = None,
    ) -> Committed:
        game, row = loaded.game, loaded.row
        # Only a seat that may act is refused by its own hand ("You may: ..."); the others
        # hear whose turn it is, which is no secret.
        secret = game.hidden_information and seat in game.to_act(loaded.state)
        turn = Turn(loaded.state, row.chance_pos, seeded=seeded(row))
        try:
            play(game, turn, seat, action, row.seed, user_id=user.id, listed=listed)
        except IllegalAction as exc:
            raise UserError(exc.msg, secret=secret, reason="illegal") from exc
        return await self.table.commit(row, game, turn)

    # ----- looking ----------------------------------------------------------------------
    async def since(
        self, chat: ChatRef, session_id: int, version: int, viewer: UserRef | None = None
    ) -> Plan:
        """What happened at a table of this chat after `version`, whoever made it and
        wherever (the browser, a bot, another process), said as its moves said it, then
        the board as it is now: for a front end that showed the table at `version` and
        heard it change. An empty plan when nothing did."""
        row = await self.table.store.session(session_id)
        if row is None or (row.platform, row.chat, row.thread) != (
            chat.platform,
            chat.chat,
            chat.thread,
        ):
            raise UserError(NO_TABLE)
        if row.version <= version:
            return Plan()
        game = REGISTRY.get(row.game)
        if row.status == "lobby" or row.state is None or game is None:
            return await self.board(chat, viewer) if row.status == "lobby" else Plan()
        events = [
            Event(stored(e), e.get("to"), e.get("kind", "info"))
            for entry in await self.table.store.log_between_versions(row.id, version, row.version)
            for e in entry.events
            if (e.get("text") or e.get("msg")) and e.get("to") != CHANCE
        ]
        loaded = self.table.load(row)
        result = game.result(loaded.state)
        return await self.plans.board(loaded, events, result, asker=viewer)

    async def board(self, chat: ChatRef, viewer: UserRef | None = None) -> Plan:
        """The board, posted anew; a `viewer` who does not play is told so and offered the
        replay."""
        row = await self.table.live_row(chat)
        if row is None:
            raise UserError(
                msg("There is no game here. Start one with {start}.", start=command("start", GAME))
            )
        game = REGISTRY.get(row.game)
        if row.status == "lobby" and game is not None:
            plan = self.plans.lobby_plan(row, game, msg("Waiting for players."), viewer)
        else:
            loaded = self.table.load(row)
            plan = await self.plans.board(loaded, [], None, asker=viewer, private=False)
            plan = plan.then(self.watch_note(row, viewer))
        plan.fresh = True
        return plan

    async def board_again(self, chat: ChatRef) -> Plan | None:
        """The board and each player's private message, posted anew (none in a lobby)."""
        row = await self.table.live_row(chat)
        game = REGISTRY.get(row.game) if row is not None else None
        if row is None or game is None:
            return None
        if row.status == "lobby":
            plan = self.plans.lobby_plan(row, game, msg("Waiting for players."), None)
        else:
            plan = await self.plans.board(self.table.load(row), [], None)
        plan.fresh = True
        return plan

    async def private_view(self, chat: ChatRef, user: UserRef) -> Plan:
        row = await self.table.active(chat)
        return await self.view_of(row, user)

    async def view_of(self, row: SessionRow, user: UserRef) -> Plan:
        loaded = self.table.load(row)
        seat = loaded.seat_of(user)
        if seat is None:
            raise UserError(not_a_player(row))
        return await self.plans.own_view(loaded, seat, user)

    async def choices(self, chat: ChatRef, user: UserRef) -> list[tuple[str, str]]:
        """(action, label) pairs for autocomplete; empty when it is not this user's move."""
        row = await self.table.live_row(chat)
        if row is None or row.status != "active":
            return []
        loaded = self.table.load(row)
        seat = loaded.seat_of(user)
        if seat is None:
            return []
        legal = loaded.game.legal_actions(loaded.state, seat)
        return [(a, loaded.game.label(loaded.state, a)) for a in legal]

    async def buttons_of(self, session_id: int, version: int, user: UserRef | None) -> list[Choice]:
        """The buttons of the session's board as it is now (`user`: that player's own moves,
        as their private message carries them), without drawing anything; a front end that
        pages long lists asks for them again. Refused once the board has moved on."""
        row = await self.store.session(session_id)
        if row is None or row.status != "active" or row.version != version:
            raise UserError(STALE)
        plan = await self.plans.board(self.table.load(row), [], None, draw=False)
        if user is None:
            return list(plan.public[0].choices)
        own = [c for r in plan.for_user(user.id) for c in r.choices]
        return own or [c for c in plan.public[0].choices if c.for_user == user.id]

    def watch_note(self, row: SessionRow, viewer: UserRef | None) -> list[Reply]:
        """`/escape board` asked by someone who does not play: say so, offer the replay."""
        if viewer is None or row.status != "active":
            return []
        if any(s.user_id == viewer.id for s in row.seats):
            return []
        players = seat_names(row.seats)
        # said in the chat, not privately: a Telegram user may never have opened the bot's
        # private chat, and the replay button works only in the game's chat
        return [
            Reply(
                msg(
                    "{name}, you are watching: you do not play in this game (players: {players}). Boards are public; the replay shows the game so far.",
                    name=viewer.name,
                    players=players,
                ),
                kind="info",
                choices=[Choice(msg("Replay so far"), buttons.Replay(row.id).data, role=SHARED)],
            )
        ]

    async def recent_log(self, chat: ChatRef, user: UserRef | None = None, last: int = 15) -> Plan:
        """The public log; a player who asks also gets their own private events, privately."""
        row = await self.table.live_row(chat)
        if row is None:
            raise UserError(msg("There is no game here."))
        entries = await self.store.log(row.id)
        seat = next((s.seat for s in row.seats if user and s.user_id == user.id), None)
        public = [stored(e) for entry in entries for e in entry.events if e.get("to") is None]
        text = joined(public[-last:], "\n") if public else msg("Nothing has happened yet.")
        replies = [Reply(text, kind="log")]
        own = [
            stored(e)
            for entry in entries
            for e in entry.events
            if seat is not None and e.get("to") == seat
        ]
        if own:
            said = joined([msg("Only you saw:"), *own[-last:]], "\n")
            replies.append(Reply(said, kind="private", to=user))
        return Plan(replies, asker=user)

    # ----- the games of a scope ---------------------------------------------------------
    async def games_here(self, platform: str, scope: str, link=None) -> Reply:
        """`link(row)`: how a front end names a game's place (a channel mention); by
        default its number."""
        rows = await self.store.sessions_in_scope(platform, scope)
        if not rows:
            text = msg(
                "No games are running here. Start one with {start}.", start=command("start", GAME)
            )
            return Reply(text, kind="games")
        lines: list[Text] = []
        for row in rows:
            title = title_of(row.game)
            if row.status == "lobby":
                who: Text = msg("lobby, {seated} seated", seated=len(row.seats))
            else:
                try:
                    loaded = self.table.load(row)
                except UserError as exc:  # one game that cannot be read must not hide the rest
                    lines.append(
                        msg(
                            "#{number} {game}: {problem}",
                            number=row.id,
                            game=title,
                            problem=exc.msg,
                        )
                    )
                    continue
                waiting = [
                    loaded.user_of(s).name for s in loaded.game.to_act(loaded.state) if s >= 0
                ]
                names = ", ".join(waiting) or msg("the dice")
                who = msg(
                    "waiting for {names}{clock}", names=names, clock=self.plans.clock_note(row)
                )
            where = link(row) if link is not None else (row.thread or row.chat)
            lines.append(
                msg(
                    "#{number} {game} in {where}: {who}",
                    number=row.id,
                    game=title,
                    where=where,
                    who=who,
                )
            )
        return Reply(joined(lines, "\n"), kind="games")

    async def live_tables(self, platform: str, scope: str) -> list[TableSummary]:
        """The lobbies and running games of one scope, each with the names it waits for
        (the terminal's list of saved games); games this bot no longer offers are left out."""
        rows = await self.store.sessions_in_scope(platform, scope)
        tables = []
        for row in rows:
            game = REGISTRY.get(row.game)
            if game is None:
                continue
            waiting: list[str] = []
            if row.status == "active":
                loaded = self.table.load(row)
                acting = loaded.game.to_act(loaded.state)
                waiting = [seat_name(row.seats[s]) for s in acting if 0 <= s < len(row.seats)]
            changed = {
                k: v
                for k, v in row.options.items()
                if k in game.options and v != game.options[k].default
            }
            seats = [(seat_name(s), s.kind) for s in row.seats]
            tables.append(
                TableSummary(
                    row.id, chat_of(row), game.id, game.title, row.status, seats, changed, waiting
                )
            )
        return tables
