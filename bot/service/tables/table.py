"""The table core: load a session, apply to it, let chance play, commit.

Everything that changes a running game passes `commit`: the new log rows, the snapshot,
the clock and the version bump are one transaction (`Store.record`, a compare-and-set on
the version), so two requests racing on one session resolve as one move and one "the
board has changed". In this process a per-session lock orders the requests of one game;
across processes the stored version does. A change after which bots are to act is stored
as it is; their turns follow, each stored as a move of its own (`bot_turns.py`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from bot.service.base import deadlines
from bot.service.base.command_words import GAME
from bot.service.base.move_records import Turn
from bot.service.base.requests import ChatRef, UserError, UserRef
from bot.service.base.table_changes import Change, RecentChanges
from bot.service.tables.bot_seats import bot_to_act
from bot.store import SeatRow, SessionRow, StaleVersion, Store
from bot.telemetry import logs
from engines import REGISTRY, Game, Result
from engines.text import Msg, Text, command, joined, msg
from languages import resolve

log = logging.getLogger(__name__)

UNREADABLE_GAME = msg(
    "This game's saved position cannot be read (a damaged database, or saved in a shape this version of the bot does not know), so it cannot go on. {abort} ends it; its log is kept.",
    abort=command("abort"),
)
NO_TABLE = msg("There is no table here. Open one with {start}.", start=command("start", GAME))
NO_GAME = msg(
    "There is no game running here. Start one with {start}.", start=command("start", GAME)
)


@dataclass
class Loaded:
    """A session row with its game and live engine state (loaded for this request only:
    the request owns it and may change it in place)."""

    row: SessionRow
    game: Game
    state: object | None

    def seat_of(self, user: UserRef) -> int | None:
        return seat_of(self.row, user)

    def user_of(self, seat: int) -> UserRef:
        s = self.row.seats[seat]
        return UserRef(self.row.platform, s.user_id, s.name)


@dataclass
class Committed:
    """A turn as stored: the table after it (row at its new version, state), what was said
    on the way, the result if the game ended, and its board's picture, started before the
    transaction so that drawing and storing overlap (`Table.prefetch`)."""

    table: Loaded
    events: list
    result: Result | None
    early: DrawingAhead | None = None


class DrawingAhead(Protocol):
    """A board's picture being drawn while its change is stored (the board plans' `Early`)."""

    drawing: asyncio.Future

    def cancel(self) -> None:
        """The change was not stored: its picture is never sent."""


# (game, state, row, version, what was said) -> the board's picture being drawn
Prefetch = Callable[[Game, object, SessionRow, int, list], DrawingAhead | None]


class Overtaken(UserError):
    """The session changed after it was read (another process, a reminder, a pause): the
    move was not stored; it may be tried again on the session as it is now."""

    def __init__(self, message: str) -> None:
        super().__init__(message, reason="race")


def chat_of(row: SessionRow) -> ChatRef:
    return ChatRef(row.platform, row.chat, row.thread, row.scope)


def title_of(game_id: str) -> Text:
    """A game's title, said in each language (a game no longer offered: its id)."""
    game = REGISTRY.get(game_id)
    return msg(game.title) if game is not None else game_id


def seat_of(row: SessionRow, user: UserRef) -> int | None:
    """The seat `user` plays at this table: the platform and the id must both match (the
    same number is another person on another platform)."""
    if user.platform != row.platform:
        return None
    return next((s.seat for s in row.seats if s.user_id == user.id), None)


def result_of(loaded: Loaded) -> Result | None:
    """How a table ended: by its rules (the engine says), or by the loss of a seat that
    the store keeps (a resignation, a loss on time): then nobody is waited for."""
    row, game = loaded.row, loaded.game
    if loaded.state is not None:
        found = game.result(loaded.state)
        if found is not None:
            return found
    if row.status == "finished" and row.result:
        stored = row.result
        scores = {int(k): v for k, v in (stored.get("scores") or {}).items()}
        return Result(stored.get("ranking") or [], scores, stored.get("summary") or "")
    return None


def never_began(row: SessionRow) -> Msg | None:
    """Why a table has nothing to replay or review: it is still in its lobby, or it was
    closed there (no position was ever stored, and its seats may be too few to set up)."""
    if row.status == "lobby":
        return msg("That game has not begun yet.")
    if row.state is None:
        return msg(
            "Game #{number} never began: it was closed in its lobby, so there is nothing to replay or review.",
            number=row.id,
        )
    return None


def not_a_player(row: SessionRow) -> Msg:
    names = joined([s.name for s in row.seats])
    return msg(
        "You are not playing in this game (players: {names}). Watch, or start the next one.",
        names=names,
    )


class Table:
    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float],
        default_pace: str,
        changes: RecentChanges | None = None,
        prefetch: Prefetch | None = None,
    ) -> None:
        self.store = store
        self.changes = changes or RecentChanges()  # each table's newest change, for its pages
        self.now = clock
        self.default_pace = default_pace
        self._locks: dict[int, asyncio.Lock] = {}
        self._newest: dict[int, int] = {}  # session -> the version this process last wrote
        self.prefetch = prefetch  # starts drawing the board while it is stored

    # ----- finding and loading ------------------------------------------------------
    def lock(self, session_id: int) -> asyncio.Lock:
        return self._locks.setdefault(session_id, asyncio.Lock())

    async def fresh(self, row: SessionRow) -> SessionRow | None:
        """The row, read again only if this process has stored a newer version since (a
        change by another process is caught by the commit's compare-and-set)."""
        if row.version < self._newest.get(row.id, row.version):
            return await self.store.session(row.id)
        return row

    def load(self, row: SessionRow) -> Loaded:
        logs.bind(table=row.id, game=row.game, version=row.version)  # on this request's lines
        game = REGISTRY.get(row.game)
        if game is None:
            raise UserError(
                msg("This bot no longer has the game {game}.", game=repr(row.game)),
                reason="unknown_game",
            )
        try:
            state = game.load(row.state) if row.state is not None else None
        except Exception as exc:  # stored JSON this engine cannot read: damage, or an old shape
            log.exception("session %s: its saved state cannot be read", row.id)
            raise UserError(UNREADABLE_GAME, reason="unreadable") from exc
        return Loaded(row, game, state)

    async def live_row(self, chat: ChatRef) -> SessionRow | None:
        return await self.store.live_session(chat.platform, chat.chat, chat.thread)

    async def lobby(self, chat: ChatRef) -> SessionRow:
        row = await self.live_row(chat)
        if row is None:
            raise UserError(NO_TABLE)
        if row.status != "lobby":
            raise UserError(msg("The game has already begun."))
        return row

    async def active(self, chat: ChatRef) -> SessionRow:
        row = await self.live_row(chat)
        if row is None:
            raise UserError(NO_GAME)
        if row.status == "lobby":
            raise UserError(
                msg(
                    "The game has not begun yet: {begin} once everyone has joined.",
                    begin=command("begin"),
                )
            )
        return row

    # ----- writing ------------------------------------------------------------------
    async def write_seats(self, row: SessionRow, seats: list[SeatRow]) -> None:
        async with self.lock(row.id):
            try:
                await self.store.set_seats(row.id, row.version, seats)
            except StaleVersion as exc:
                raise UserError(msg("The table changed at the same moment; try again.")) from exc

    async def guard(self, write) -> None:
        try:
            await write
        except StaleVersion as exc:
            raise UserError(msg("The game changed at the same moment; try again.")) from exc

    async def note_player(self, user: UserRef) -> None:
        """Keep a person's name and language as last seen (their stats and private replies
        use them); not the service's `remember`, which keeps a front end's records."""
        await self.store.upsert_user(
            user.platform, user.id, user.name, seen_language=resolve(user.language, "")
        )

    def next_clock(self, row: SessionRow, game: Game, state) -> dict:
        """A new board restarts the clock for the humans now to act; players answering
        someone else's move out of turn (the engine's reaction window: a cat, a ghost
        against an escape) get the short reaction time. A board on which bots are to act
        says so (it wakes the timer loop soon, should their run stop)."""
        acting = [s for s in game.to_act(state) if 0 <= s < len(row.seats)]
        waiting = [row.seats[s].user_id for s in acting if row.seats[s].kind == "human"]
        window = bool(acting) and game.reaction_window(state)
        base = row.clock or deadlines.new_clock({}, self.default_pace)
        bots = bot_to_act(row, game, state) is not None
        return deadlines.start_turn(base, self.now(), waiting, window, bots)

    async def commit(
        self,
        row: SessionRow,
        game: Game,
        turn: Turn,
        *,
        touch: bool = True,
        seats: list[SeatRow] | None = None,
        offered: tuple[int, ...] | None = None,
    ) -> Committed:
        """Store the turn (and new seats, and the seats still offered, if given) with the
        new clock in one transaction,
        as a compare-and-set on the version and clock of `row`. The board's picture starts
        drawing meanwhile, unless bots are to act next (theirs is the board shown)."""
        if seats is not None:
            row = dataclasses.replace(row, seats=list(seats))
        state = turn.state
        result = game.result(state)
        status = "finished" if result is not None else "active"
        result_json = (
            {
                "ranking": result.ranking,
                "scores": {str(k): v for k, v in result.scores.items()},
                "summary": result.summary,
            }
            if result is not None
            else None
        )
        clock = self.next_clock(row, game, state) if result is None else {}
        early = None
        if self.prefetch is not None and not clock.get("bots"):  # first: the picture is the
            early = self.prefetch(game, state, row, row.version + 1, turn.events)  # long part
        try:
            dumped, wake_at = game.dump(state), deadlines.next_wake(clock) if clock else None
            version = await self.store.record(
                row.id,
                row.version,
                turn.entries,
                dumped,
                turn.pos,
                status,
                result_json,
                deadline=clock.get("deadline"),
                clock=clock or row.clock,
                wake_at=wake_at,
                touch=touch,
                seats=seats,
                expect_clock=row.clock,
                offered=offered,
            )
        except BaseException as exc:
            # Not stored (a lost race, a busy or failing store, a cancelled caller): its
            # picture is never sent, and is not kept under the version the next change makes.
            if early is not None:
                early.cancel()
            if isinstance(exc, StaleVersion):
                raise Overtaken(
                    msg("Someone else moved first; the board has changed. Look again and retry.")
                ) from exc
            raise
        self._newest[row.id] = version
        # The row as just written, without reading it back (updated_at aside, unused here).
        row = dataclasses.replace(
            row,
            version=version,
            state=dumped,
            chance_pos=turn.pos,
            status=status,
            result=result_json,
            deadline=clock.get("deadline"),
            clock=clock or row.clock,
            wake_at=wake_at,
            offered=row.offered if offered is None else tuple(sorted(set(offered))),
        )
        self.changes.note(Change(row, tuple(turn.entries)))  # before anyone hears of it
        return Committed(Loaded(row, game, state), turn.events, result, early)
