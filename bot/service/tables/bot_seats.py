"""Computer players at the table: bot seats, stand-ins for voted-out players, and turns
played for a late player at the deadline (`timeout=ai`).

A collaborator of the table core, handed the CPU pool. Every decision runs on that pool
(`engines.ai.decide`, off the event loop) with a seed drawn from the session's generator,
and is stored in the log like a player's move, so a replay needs no AI and a retried
request cannot choose differently. Bots act as soon as they are to act (reaction windows
too), each turn stored as its own move and a run of them shown as one board
(`bot_turns.py`); only where a human may also act now (a co-operative group decision) do
the bots leave the choice to the humans.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Mapping

from bot.service.base.chance import uniform
from bot.service.base.platform_input import number
from bot.service.base.requests import UserError
from bot.service.pictures.workers import CpuPool
from bot.store import SeatRow, SessionRow
from bot.telemetry import metrics
from engines import Game
from engines.ai import DEFAULT_LEVEL, LEVELS, decide
from engines.text import Msg, Text, in_context, joined, msg
from languages import DEFAULT, say

log = logging.getLogger(__name__)

BOT_KINDS = ("ai", "placeholder")  # seats the AI plays: a bot, a stand-in voted in
MAX_BOT_STEPS = 2000  # bot moves in one run at most (a table of stand-ins plays on)
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
        raise UserError(
            msg(
                "Option {name} cannot be {value}; choose one of: {choices}.",
                name="level",
                value=repr(level),
                choices=", ".join(LEVELS),
            )
        )
    most = game.max_players - 1
    text = options.get("bots", "0")
    allowed = msg("0 to {most}", most=most) if most > 0 else msg("only 0")
    count = number(text, most)
    if count is None:
        raise UserError(
            msg(
                "Option bots cannot be {value}: {game} seats {range} players and you take one, so bots can be {allowed}.",
                value=repr(text),
                game=msg(game.title),
                range=game.player_range(),
                allowed=allowed,
            )
        )
    if count and 1 + count < game.min_players:
        raise UserError(
            msg(
                "{title} needs {player_range} players: with you, bots must be at least {value}.",
                title=msg(game.title),
                player_range=game.player_range(),
                value=game.min_players - 1,
            )
        )
    return rest, count, level


# a bot's level as its name says it (the level's key stays English in its id and options)
LEVEL_WORDS = {
    "easy": in_context("bot level", "easy"),
    "normal": in_context("bot level", "normal"),
    "hard": in_context("bot level", "hard"),
}


def bot_name(number: int, level: str) -> Msg:
    return msg("Bot {number} ({level})", number=number, level=LEVEL_WORDS.get(level, level))


def bot_seat(seat: int, number: int, level: str, language: str = DEFAULT) -> SeatRow:
    """A bot's seat: named as a bot in the table's language (a name is kept as written, so
    a Russian table's bot is called in Russian from its seating on), its level in its id
    (the seats table's kind is `ai`)."""
    return SeatRow(seat, f"ai:{level}:{number}", say(bot_name(number, level), language), "ai")


def seat_name(seat: SeatRow) -> Text:
    """A seat's name where a list of seats shows it (a history, the saved games, a lobby,
    a page's players): a bot's in the reader's language (its id says its level and
    number), whatever language its table spoke when it sat down; anyone else's as written."""
    if seat.kind == "ai" and seat.user_id.count(":") == 2:
        _, level, number = seat.user_id.split(":")
        if level in LEVELS and number.isdigit():
            return bot_name(int(number), level)
    return seat.name


def seat_names(seats: list[SeatRow]) -> Msg:
    return joined([seat_name(s) for s in seats])


def seat_level(row: SessionRow, seat: SeatRow) -> str:
    if seat.kind == "ai":
        level = seat.user_id.split(":")[1] if seat.user_id.count(":") == 2 else ""
        if level in LEVELS:
            return level
    return table_level(row)


def bot_to_act(row: SessionRow, game: Game, state) -> int | None:
    """The bot or stand-in to act now, if every seat to act is one: where a human may act
    now too, the choice is left to the humans."""
    bots = {s.seat for s in row.seats if s.kind in BOT_KINDS}
    acting = [s for s in game.to_act(state) if 0 <= s < len(row.seats)]
    mine = [s for s in acting if s in bots]
    return mine[0] if mine and len(mine) == len(acting) else None


def table_level(row: SessionRow) -> str:
    """The level the table chose at start (stand-ins and late turns play at it too)."""
    level = row.bot_level or DEFAULT_LEVEL
    return level if level in LEVELS else DEFAULT_LEVEL


class BotSeats:
    """The computer players' decisions, each stored in the log like a player's move."""

    def __init__(self, cpu: CpuPool, scale: float = 1.0) -> None:
        self.cpu = cpu
        self.scale = scale  # the search budget's share (tests use a tiny one)

    async def choose(
        self, row: SessionRow, game: Game, state, seat: int, level: str, pos: int
    ) -> tuple[str, int]:
        """The AI's move for `seat` (seeded at `pos` of the session's generator), or the
        game's default move, logged, if the search fails."""
        seed = int(uniform(row.seed, pos) * 2**62)
        legal = game.legal_actions(state, seat)
        try:
            started = time.perf_counter()
            decision = await self.cpu.run(
                decide, game.id, game.dump(state), seat, level, seed, self.scale
            )
            metrics.AI_DECISION_SECONDS.labels(game.id, level).observe(
                time.perf_counter() - started
            )
            action = decision.action
            if action not in legal:
                raise ValueError(f"the search chose {action!r}, not a legal move")
        except Exception:
            action = game.default_action(state, seat) or legal[0]
            log.exception(
                "AI search failed in session %s for seat %s; playing the default move %r",
                row.id,
                seat,
                action,
            )
        return action, pos + 1
