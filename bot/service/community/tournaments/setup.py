"""A tournament's settings, as `/escape tournament create GAME ...` gives them: checked
once, with a clear refusal for anything that cannot be."""

from __future__ import annotations

from dataclasses import dataclass

from bot.service.base import deadlines
from bot.service.base.platform_input import whole
from bot.service.base.requests import UserError
from engines import Game
from engines.text import msg

ROUNDS = (1, 20)  # the rounds a tournament may have
DEFAULT_ROUNDS = 4
MOST_PLAYERS = 1_000
TOURNAMENT_OPTIONS = ("rounds", "size", "start")
NOT_HERE = ("bots", "level", "hints", "timeout")  # a tournament table is humans, unhinted


@dataclass(frozen=True)
class Settings:
    rounds: int
    size: int  # players a table: 2 for Swiss pairs
    starts_in: float | None  # seconds from now, or None: the organiser starts it
    table_options: dict[str, str]  # the game's and the clock's, for every table


def table_size(game: Game, wanted: str | None) -> int:
    fixed = game.max_players == 2 or game.min_players == game.max_players
    default = game.max_players if fixed else max(min(game.max_players, 4), game.min_players)
    if wanted is None:
        return default
    size = whole(wanted, 2, game.max_players)
    if (
        size is None
        or not game.min_players <= size <= game.max_players
        or (fixed and size != default)
    ):
        raise UserError(
            msg(
                "size= is the players a table: {low} to {high} for {game}.",
                low=max(2, game.min_players),
                high=game.max_players,
                game=msg(game.title),
            )
        )
    return size


def read(game: Game, options: dict[str, str]) -> Settings:
    """The tournament's own options (rounds, size, start) taken out of the tables'."""
    if game.cooperative or game.max_players < 2:
        raise UserError(
            msg(
                "{game} is played together, not against each other: a tournament needs a competitive game.",
                game=msg(game.title),
            )
        )
    for name in NOT_HERE:
        if name in options:
            raise UserError(
                msg(
                    "A tournament's tables are played by people, without hints, and a late player loses on time: {name}= cannot be set.",
                    name=name,
                )
            )
    rounds = whole(options.get("rounds", str(DEFAULT_ROUNDS)), ROUNDS[0], ROUNDS[1])
    if rounds is None:
        raise UserError(
            msg("rounds= is a number from {low} to {high}.", low=ROUNDS[0], high=ROUNDS[1])
        )
    size = table_size(game, options.get("size"))
    starts_in = None
    if "start" in options:
        try:
            starts_in = deadlines.parse_duration(options["start"])
        except deadlines.ClockError as exc:
            raise UserError(
                msg("start= is when sign-up ends, like 30m, 12h or 2d (from 1 minute to 30 days).")
            ) from exc
    tables = {k: v for k, v in options.items() if k not in TOURNAMENT_OPTIONS}
    return Settings(rounds, size, starts_in, tables)
