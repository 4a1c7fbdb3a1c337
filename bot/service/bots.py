"""Computer players at the table: bot seats, stand-ins for voted-out players, and turns
played for a late player at the deadline (`timeout=ai`).

A mixin of GameService. Every decision runs on the CPU pool (`engines.ai.decide`, off the
event loop) with a seed drawn from the session's generator, and is stored in the log like
a player's move, so a replay needs no AI and a retried request cannot choose differently.
Bots act as soon as they are to act (reaction windows too) and a chain of bot turns is
stored and shown as one board; only where a human may also act now (a co-operative
group decision) do the bots leave the choice to the humans.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from bot.service.chance import uniform
from bot.service.replies import ChatRef, Reply, UserError, UserRef
from bot.store import NewEntry, SeatRow, SessionRow
from engines import Event, Game
from engines.ai import DEFAULT_LEVEL, LEVELS, decide

if TYPE_CHECKING:
    from bot.service.game_service import GameService

log = logging.getLogger(__name__)

BOT_KINDS = ("ai", "placeholder")  # seats the AI plays: a bot, a stand-in voted in
MAX_BOT_STEPS = 2000  # bot moves in one commit at most (a table of stand-ins plays on)
MAX_LATE_STEPS = 8  # a late player's turn played by the AI, at most this many steps


def scale_from_env() -> float:
    """ESCAPE_AI_SCALE: the share of each level's search budget (1; less on a slow host)."""
    try:
        return max(0.001, float(os.environ.get("ESCAPE_AI_SCALE") or 1))
    except ValueError:
        return 1.0


def bot_options(game: Game, options: Mapping[str, str]) -> tuple[dict[str, str], int, str]:
    """Take `bots=N` and `level=L` out of the start options: (the rest, N, L).
    Refuses what cannot be, naming what can: the table must keep a seat for its creator."""
    rest = {k: v for k, v in options.items() if k not in ("bots", "level")}
    level = options.get("level", DEFAULT_LEVEL)
    if level not in LEVELS:
        raise UserError(f"Option level cannot be {level!r}; choose one of: {', '.join(LEVELS)}.")
    most = game.max_players - 1
    text = options.get("bots", "0")
    allowed = f"0 to {most}" if most > 0 else "only 0"
    if not text.isdigit() or int(text) > most:
        raise UserError(
            f"Option bots cannot be {text!r}: {game.title} seats {game.player_range()} "
            f"players and you take one, so bots can be {allowed}."
        )
    count = int(text)
    if count and 1 + count < game.min_players:
        raise UserError(
            f"{game.title} needs {game.player_range()} players: with you, "
            f"bots must be at least {game.min_players - 1}."
        )
    return rest, count, level


def bot_seat(seat: int, number: int, level: str) -> SeatRow:
    """A bot's seat: named as a bot, its level in its id (the seats table's kind is `ai`)."""
    return SeatRow(seat, f"ai:{level}:{number}", f"Bot {number} ({level})", "ai")


def seat_level(row: SessionRow, seat: SeatRow) -> str:
    if seat.kind == "ai":
        level = seat.user_id.split(":")[1] if seat.user_id.count(":") == 2 else ""
        if level in LEVELS:
            return level
    return table_level(row)


def table_level(row: SessionRow) -> str:
    """The level the table chose at start (stand-ins and late turns play at it too)."""
    level = (row.clock or {}).get("ai_level", DEFAULT_LEVEL)
    return level if level in LEVELS else DEFAULT_LEVEL


class BotSeats:
    """Mixed into GameService (see the module docstring)."""

    ai_scale: float = 1.0  # the search budget's share (tests use a tiny one)

    # ----- the lobby ----------------------------------------------------------------
    async def add_bot(self: GameService, chat: ChatRef, user: UserRef) -> list[Reply]:
        row = await self._lobby(chat)
        game = self.game(row.game)
        if not any(s.user_id == user.id for s in row.seats):
            raise UserError("Only a seated player can add a bot: /escape join first.")
        if len(row.seats) >= game.max_players:
            raise UserError(f"The table is full: {game.title} seats at most {game.max_players}.")
        numbers = {int(s.user_id.rsplit(":", 1)[1]) for s in row.seats if s.kind == "ai"}
        number = next(n for n in range(1, game.max_players + 1) if n not in numbers)
        seat = bot_seat(len(row.seats), number, table_level(row))
        seats = [*row.seats, seat]
        await self._write_seats(row, seats)
        if len(seats) == game.max_players:
            return await self.begin(chat, user)
        row = await self.store.session(row.id)
        return [self._lobby_reply(row, game, f"{user.name} adds {seat.name}.")]

    async def remove_bot(self: GameService, chat: ChatRef, user: UserRef) -> list[Reply]:
        row = await self._lobby(chat)
        if not any(s.user_id == user.id for s in row.seats):
            raise UserError("Only a seated player can remove a bot.")
        bots = [s for s in row.seats if s.kind == "ai"]
        if not bots:
            raise UserError("There is no bot at this table to remove.")
        gone = bots[-1]
        seats = [
            SeatRow(i, s.user_id, s.name, s.kind)
            for i, s in enumerate(s for s in row.seats if s is not gone)
        ]
        await self._write_seats(row, seats)
        row = await self.store.session(row.id)
        return [self._lobby_reply(row, self.game(row.game), f"{user.name} removes {gone.name}.")]

    # ----- decisions ------------------------------------------------------------------
    async def _ai_choice(
        self: GameService, row: SessionRow, game: Game, state, seat: int, level: str, pos: int
    ) -> tuple[str, int]:
        """The AI's move for `seat` (seeded at `pos` of the session's generator), or the
        game's default move, logged, if the search fails."""
        seed = int(uniform(row.seed, pos) * 2**62)
        legal = game.legal_actions(state, seat)
        try:
            decision = await self.cpu.run(
                decide, game.id, game.dump(state), seat, level, seed, self.ai_scale
            )
            action = decision.action
            if action not in legal:
                raise ValueError(f"the search chose {action!r}, not a legal move")
        except Exception:
            action = game.default_action(state, seat) or legal[0]
            log.exception(
                "AI search failed in session %s for seat %s; playing the default move %r",
                row.id, seat, action,
            )  # fmt: skip
        return action, pos + 1

    async def _bot_moves(self: GameService, row: SessionRow, game: Game, state, pos: int):
        """Bots and stand-ins play at once, each in turn, until a human is to act (or the
        game ends). Where a human may act now too, the choice is left to the humans."""

        events: list[Event] = []
        entries: list[NewEntry] = []
        bots = {s.seat: s for s in row.seats if s.kind in BOT_KINDS}
        for _ in range(MAX_BOT_STEPS):
            acting = [s for s in game.to_act(state) if 0 <= s < len(row.seats)]
            mine = [s for s in acting if s in bots]
            if not mine or len(mine) < len(acting):
                break
            seat = mine[0]
            action, pos = await self._ai_choice(
                row, game, state, seat, seat_level(row, bots[seat]), pos
            )
            state, said, logged, pos = self._play_for(game, state, seat, action, row.seed, pos)
            events += said
            entries += logged
        return state, events, entries, pos

    async def _ai_for_late(
        self: GameService, row: SessionRow, game: Game, state, pos: int, late: set[str]
    ):
        """`timeout=ai`: the AI plays the late players' turn; their seats stay theirs, and
        they take over again simply by acting."""

        events: list[Event] = []
        entries: list[NewEntry] = []
        level = table_level(row)
        for _ in range(MAX_LATE_STEPS * max(1, len(late))):
            acting = [
                s for s in game.to_act(state)
                if 0 <= s < len(row.seats) and row.seats[s].user_id in late
            ]  # fmt: skip
            if not acting:
                break
            seat = acting[0]
            action, pos = await self._ai_choice(row, game, state, seat, level, pos)
            note = Event(
                f"Time is up for {row.seats[seat].name}: the bot plays "
                f"{game.describe(state, action)} for them."
            )
            state, said, logged, pos = self._play_for(
                game, state, seat, action, row.seed, pos, note
            )
            events += said
            entries += logged
        return state, events, entries, pos
