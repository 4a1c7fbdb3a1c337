"""The daily castle (README: The daily castle): `/escape start dark_castle daily=on`.

Each day (the date in UTC) has one castle: its packs and its seed come from the date
alone, and the table deals the castle's decks from the seed (`Game.chance_key`: the start
card, the chapters in one order, the boss), so every party that day meets the same castle
in the same order, whatever its size and whatever its dice. The dice and the item deck
follow the table's seed as in any game (the same seed: the same rolls for the same moves).

A person plays each day's castle once, on their platform, whoever they play with and in
whichever server or group: a table may begin only if none of its players has begun that
day's castle at another table (a table closed before it began spends nobody's day). So a
party is its players: a party with one member new to the day still cannot play if another
member already has. The claim is one transaction for the whole party, when it begins.

A daily table is played by its party alone: no bots, no hints, no computer turns at the
deadline (`timeout=ai`); the packs are the day's. Its result goes on the day's and the
month's boards of its server or group (`daily_boards.py`).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence

from bot.service.base.requests import UserError, UserRef
from bot.store import SessionRow, Store
from engines import Game
from engines.text import Text, command, msg

OPTION = "daily"
GAME = "dark_castle"
PACKS = ("cult", "undead", "plague", "collector")
CHOSEN_BY_THE_DAY = ("castle", *PACKS)
NOT_AT_A_DAILY_TABLE = ("bots", "level")


def day_of(now: float) -> str:
    """The date in UTC: a day's castle runs from midnight to midnight UTC."""
    return time.strftime("%Y-%m-%d", time.gmtime(now))


def _digest(day: str, what: str) -> bytes:
    return hashlib.sha256(f"escape daily castle {day} {what}".encode()).digest()


def seed_of(day: str) -> int:
    """The day's seed (62 bits, as every table's): from the date alone."""
    return int.from_bytes(_digest(day, "seed")[:8], "big") >> 2


def packs_of(day: str) -> dict[str, str]:
    """The day's pack mix: each supplement on or off by a bit of the date's digest, mixed
    into the core castle."""
    bits = _digest(day, "packs")[0]
    return {pack: "on" if bits >> n & 1 else "off" for n, pack in enumerate(PACKS)} | {
        "castle": "mixed"
    }


def setting(
    game: Game, options: dict[str, str], clock_options: dict[str, str], now: float
) -> tuple[dict[str, str], dict]:
    """Take `daily=on|off` out of a table's start options: (the game's options, now the
    day's packs for a daily table; what the table is opened with for it, as fields of the
    store's `OpenedWith`)."""
    value = options.get(OPTION)
    if value is None:
        return options, {}
    if value not in ("on", "off"):
        raise UserError(
            msg(
                "Option {name} cannot be {value}; choose one of: {choices}.",
                name=OPTION,
                value=repr(value),
                choices="on, off",
            )
        )
    rest = {k: v for k, v in options.items() if k != OPTION}
    if value == "off":
        return rest, {}
    if game.id != GAME:
        raise UserError(
            msg(
                "Only Dark Castle has a daily castle: {start_dark_castle}.",
                start_dark_castle=command("start", "dark_castle", "daily=on"),
            )
        )
    for name in CHOSEN_BY_THE_DAY:
        if name in rest:
            raise UserError(
                msg(
                    "The daily castle's packs are the day's, the same for every party: {name}= cannot be set.",
                    name=name,
                )
            )
    for name in NOT_AT_A_DAILY_TABLE:
        if name in rest:
            raise UserError(
                msg(
                    "The daily castle is played by its party alone: {name}= cannot be set.",
                    name=name,
                )
            )
    if rest.get("hints", "off") != "off" or clock_options.get("timeout") == "ai":
        raise UserError(
            msg(
                "The daily castle is played without hints or computer turns: hints=on and timeout=ai cannot be set."
            )
        )
    day = day_of(now)
    rest = {k: v for k, v in rest.items() if k != "hints"} | packs_of(day)
    return rest, {"daily": day, "seeded_decks": True, "hints": "off"}


def day_of_table(row: SessionRow) -> str | None:
    return row.daily or None


def packs_said(options: dict[str, str]) -> str:
    return ", ".join(p for p in PACKS if options.get(p) == "on") or "-"


class OnceADay:
    """The rule that a person plays each day's castle once, asked by the lobby."""

    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self.store = store
        self.now = clock

    async def refuse_played(
        self, day: str, users: Sequence[UserRef], but: int | None = None
    ) -> None:
        """Refused (naming them) if any of these people has begun `day`'s castle."""
        if not users:
            return
        played = set(
            await self.store.daily_played(day, users[0].platform, [u.id for u in users], but)
        )
        if played:
            names = ", ".join(u.name for u in users if u.id in played)
            raise UserError(_played(names, day, len(played)))

    async def claim(self, row: SessionRow) -> None:
        """The party's claim on its day, as its table begins; refused when any of its
        players has begun that day's castle at another table, or the day is over."""
        day = day_of_table(row)
        if day is None:
            return
        if day != day_of(self.now()):
            raise UserError(
                msg(
                    "This table was opened for the daily castle of {day}, and that day is over (UTC). End it with {abort} and open today's.",
                    day=day,
                    abort=command("abort"),
                )
            )
        humans = [s for s in row.seats if s.kind == "human"]
        taken = set(
            await self.store.claim_daily(day, row.platform, [s.user_id for s in humans], row.id)
        )
        if taken:
            names = ", ".join(s.name for s in humans if s.user_id in taken)
            raise UserError(_played(names, day, len(taken)))


def _played(names: str, day: str, count: int) -> Text:
    if count == 1:
        return msg(
            "{names} has played the daily castle of {day} already: each person plays each day's castle once (the next opens at midnight UTC).",
            names=names,
            day=day,
        )
    return msg(
        "{names} have played the daily castle of {day} already: each person plays each day's castle once (the next opens at midnight UTC).",
        names=names,
        day=day,
    )
