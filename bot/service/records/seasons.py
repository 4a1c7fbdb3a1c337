"""Seasons of a server's or group's ratings (README: Seasons): `/escape season` and the
seasons' ends, which the timer loop serves.

A scope (a Discord server, a Telegram group) may run its ratings in seasons of a length
(`start 3mo`: 1 day to 12 months). While one runs, every rated game counts in it as well
as all time (`standings.py` rates both in one transaction); a season starts everyone at a
newcomer's rating and count, and all-time ratings never reset. At its end (the timer loop,
once across processes: a compare-and-set on its status) the next season of the same length
begins, and its final standings are posted, once, in the chat where seasons were started.
`end` ends the season now (the next begins); `off` ends it now and starts no other.

Who may: anyone in the scope reads the season (`status`); its chat's admins start, end
or stop seasons.
"""

from __future__ import annotations

import calendar
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.service.base.command_words import GAME
from bot.service.base.delivery_plan import Plan, Reply
from bot.service.base.requests import ChatRef, UserError, UserRef
from bot.service.pictures.workers import CpuPool
from bot.service.records import boards
from bot.service.tables.table import title_of
from bot.store import SeasonRow, Store
from engines import REGISTRY
from engines.text import Msg, Text, command, joined, msg, plural

log = logging.getLogger(__name__)

DAY = 86_400.0
LEASE = 300.0  # seconds a process may take to post a season's end before another does
TOP = 10
DEFAULT_LENGTH = "3mo"
_LENGTH = re.compile(r"^([0-9]{1,3})\s*(d|days?|w|weeks?|mo|months?)$", re.ASCII)  # ASCII digits
_MOST = {"d": 366, "w": 52, "mo": 12}

USAGE = msg(
    "{season}: this server's or group's season. An admin says {season_start} (a length: 2w, 30d, 3mo), {season_end} (the next begins) or {season_off}.",
    season=command("season"),
    season_start=command("season", "start", "3mo"),
    season_end=command("season", "end"),
    season_off=command("season", "off"),
)
ADMINS_ONLY = msg("Only an admin of this chat can start, end or stop seasons.")
CHANGED = msg("The season changed at the same moment; try again.")

Notify = Callable[[ChatRef, Plan], Awaitable[bool]]


def parse_length(text: str) -> str:
    """`3mo`, `3 months`, `2w`, `30d` into its short form; refused with how to write it."""
    found = _LENGTH.match((text or "").strip().lower())
    if found is None:
        raise UserError(
            msg(
                "A season's length is written like 2w, 30d or 3mo (1 day to 12 months), not {text}.",
                text=repr((text or "")[:20]),
            )
        )
    count, unit = int(found.group(1)), found.group(2)
    unit = "mo" if unit.startswith("mo") else unit[0]
    if not 1 <= count <= _MOST[unit]:
        raise UserError(msg("A season lasts from 1 day to 12 months."))
    return f"{count}{unit}"


def said_length(length: str) -> Text:
    count = int(length.rstrip("dwmo"))
    if length.endswith("mo"):
        return plural("{count} month", "{count} months", count)
    if length.endswith("w"):
        return plural("{count} week", "{count} weeks", count)
    return plural("{count} day", "{count} days", count)


def end_of(start: float, length: str) -> float:
    """When a season of `length` begun at `start` ends: whole days and weeks, or calendar
    months in UTC (a season from 31 January of one month ends on the last of February)."""
    count = int(length.rstrip("dwmo"))
    if length.endswith("d"):
        return start + count * DAY
    if length.endswith("w"):
        return start + count * 7 * DAY
    t = time.gmtime(start)
    months = t.tm_mon - 1 + count
    year, month = t.tm_year + months // 12, months % 12 + 1
    day = min(t.tm_mday, calendar.monthrange(year, month)[1])
    return float(calendar.timegm((year, month, day, t.tm_hour, t.tm_min, t.tm_sec)))


def following(s: SeasonRow, now: float) -> tuple[float, float]:
    """The next season's start and end: from this one's end (time the bot was down is
    the next season's), or from now if a whole season would already be over."""
    start = s.ends_at if s.status == "running" and s.ends_at <= now else now
    end = end_of(start, s.length)
    if end <= now:
        start, end = now, end_of(now, s.length)
    return start, end


def heading(s: SeasonRow) -> Text:
    if s.status == "running":
        return msg("Season {number} (until {end})", number=s.number, end=boards.when(s.ends_at))
    return msg(
        "Season {number} ({start} to {end})",
        number=s.number,
        start=boards.when(s.starts_at),
        end=boards.when(ended(s)),
    )


def ended(s: SeasonRow) -> float:
    """When a season ended: its end, or earlier if an admin ended it early."""
    return min(s.ended_at or s.ends_at, s.ends_at)


@dataclass
class SeasonsDone:
    """What one scan did (for logs and tests)."""

    ended: list[tuple[str, str, int]] = field(default_factory=list)  # (platform, scope, number)
    posted: list[tuple[str, str, int]] = field(default_factory=list)


class Seasons:
    def __init__(
        self,
        store: Store,
        cpu: CpuPool,
        *,
        pictures: bool,
        clock: Callable[[], float],
        notify: Notify,
        scope_word: Callable[[str], Msg],
        language: Callable[[ChatRef, UserRef], Awaitable[str]],
    ) -> None:
        self.store = store
        self.cpu = cpu
        self.pictures = pictures
        self.now = clock
        self.notify = notify
        self.scope_word = scope_word
        self.language = language

    # ----- the command ------------------------------------------------------------------
    async def command(self, chat: ChatRef, user: UserRef, text: str, is_admin: bool) -> Plan:
        words = (text or "").split()
        what = words[0].lower() if words else "status"
        if what == "status":
            return Plan([Reply(await self.status(chat), kind="info")])
        if what not in ("start", "end", "off"):
            raise UserError(USAGE)
        if not is_admin:
            raise UserError(ADMINS_ONLY)
        if what == "start":
            return await self.start(chat, user, " ".join(words[1:]) or DEFAULT_LENGTH)
        running = await self.store.running_season(chat.platform, chat.scope)
        if running is None:
            raise UserError(
                msg(
                    "No season is running here: {season_start} begins one.",
                    season_start=command("season", "start", "3mo"),
                )
            )
        if not await self.end(running, repeat=what == "end"):
            raise UserError(CHANGED)
        if what == "end":
            text_: Text = msg(
                "{name} ended season {number}; season {next} begins, until {end}.",
                name=user.name,
                number=running.number,
                next=running.number + 1,
                end=boards.when(following(running, self.now())[1]),
            )
        else:
            text_ = msg(
                "{name} ended season {number}; ratings here are all time only from now on.",
                name=user.name,
                number=running.number,
            )
        await self.post(await self._fresh(running))
        return Plan([Reply(text_, kind="info")])

    async def status(self, chat: ChatRef) -> Text:
        scope = self.scope_word(chat.platform)
        running = await self.store.running_season(chat.platform, chat.scope)
        if running is not None:
            return msg(
                "Season {number} of this {scope}: {length}, from {start} to {end}; rated games so far: {games}. Every rated game counts in the season (everyone began it at 0) and all time: {top} shows both.",
                number=running.number,
                scope=scope,
                length=said_length(running.length),
                start=boards.when(running.starts_at),
                end=boards.when(running.ends_at),
                games=running.games,
                top=command("top"),
            )
        last = await self.store.last_season(chat.platform, chat.scope)
        if last is not None:
            return msg(
                "This {scope} plays without seasons now; its last was season {number}, ended {end} ({top_season} shows its final standings).",
                scope=scope,
                number=last.number,
                end=boards.when(ended(last)),
                top_season=command("top", GAME, "season", last.number),
            )
        return msg(
            "This {scope} plays without seasons: its ratings are all time. An admin starts seasons with {season_start} (a length: 2w, 30d, 3mo).",
            scope=scope,
            season_start=command("season", "start", "3mo"),
        )

    async def start(self, chat: ChatRef, user: UserRef, length_text: str) -> Plan:
        length = parse_length(length_text)
        running = await self.store.running_season(chat.platform, chat.scope)
        if running is not None:
            raise UserError(
                msg(
                    "Season {number} is running until {end}; {season_end} ends it now.",
                    number=running.number,
                    end=boards.when(running.ends_at),
                    season_end=command("season", "end"),
                )
            )
        now = self.now()
        season = await self.store.start_season(
            platform=chat.platform,
            scope=chat.scope,
            length=length,
            starts_at=now,
            ends_at=end_of(now, length),
            chat=chat.chat,
            thread=chat.thread,
            language=await self.language(chat, user),
        )
        if season is None:
            raise UserError(CHANGED)
        text = msg(
            "{name} started seasons of {length} on this {scope}: season {number} runs until {end}. "
            "Every rated game counts in the season (everyone begins it at 0) and all time; "
            "at its end its final standings are posted here and the next season begins.",
            name=user.name,
            length=said_length(length),
            scope=self.scope_word(chat.platform),
            number=season.number,
            end=boards.when(season.ends_at),
        )
        return Plan([Reply(text, kind="info")], language=season.language)

    # ----- the end, once ----------------------------------------------------------------
    async def end(self, s: SeasonRow, *, repeat: bool) -> bool:
        """Season `s` ended (and the next begun when `repeat`), if nobody ended it first."""
        now = self.now()
        return await self.store.end_season(s, now, following(s, now) if repeat else None)

    async def tick(self, now: float, platforms: list[str]) -> SeasonsDone:
        """Every season past its end ended, and every ended season's final standings posted
        (each once, whichever process gets there first)."""
        done = SeasonsDone()
        for s in await self.store.due_seasons(now, platforms, LEASE):
            key = (s.platform, s.scope, s.number)
            if s.status == "running":
                if not await self.end(s, repeat=s.repeats):
                    continue  # another process ended it
                done.ended.append(key)
                s = await self._fresh(s)
            if await self.post(s):
                done.posted.append(key)
        return done

    async def post(self, s: SeasonRow) -> bool:
        """The ended season's final standings in its chat, by the one process that claims
        them; given up (for the next scan) if the chat cannot be reached now."""
        if not await self.store.claim_season_post(s, self.now(), LEASE):
            return False
        plan = await self.final_standings(s)
        home = ChatRef(s.platform, s.chat, s.thread, s.scope)
        if not await self.notify(home, plan):
            log.warning(
                "could not post the end of season %s in %s; trying again later", s.number, home
            )
            await self.store.season_posted(s, None)
            return False
        await self.store.season_posted(s, self.now())
        return True

    async def final_standings(self, s: SeasonRow) -> Plan:
        scope = self.scope_word(s.platform)
        games = [
            g for g in await self.store.season_games(s.platform, s.scope, s.number) if g in REGISTRY
        ]
        head = plural(
            "Season {number} of this {scope} has ended ({count} rated game).",
            "Season {number} of this {scope} has ended ({count} rated games).",
            s.games,
            number=s.number,
            scope=scope,
        )
        if not games:
            return Plan(
                [Reply(joined([head, msg("No rated game finished in it.")], " "), kind="info")],
                language=s.language,
            )
        replies = [Reply(head, kind="info")]
        for game_id in games:
            game = REGISTRY[game_id]
            rows = await self.store.season_leaderboard(s.platform, s.scope, s.number, game_id, TOP)
            title = msg(
                "{game}: final standings of season {number}",
                game=title_of(game_id),
                number=s.number,
            )
            board = boards.Board(heading(s), boards.header(game), boards.cells(game, rows))
            later = boards.drawing(self.cpu, title, [board], f"season-{s.number}-{game_id}.png")
            replies.append(
                Reply(
                    boards.as_text(title, [board]),
                    kind="top",
                    later=later if self.pictures else None,
                )
            )
        return Plan(replies, language=s.language)

    async def _fresh(self, s: SeasonRow) -> SeasonRow:
        return await self.store.season(s.platform, s.scope, s.number) or s
