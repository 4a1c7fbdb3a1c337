"""The daily castle's boards (README: The daily castle): a finished daily table's result
(escaped or not, the chapters reached, the steps taken) recorded once, and each server's
or group's board of a day (its parties, best first) and of a month (each player's daily
castles summed), as `/escape top dark_castle daily` and `... month` show them.

A result counts as a rating would (`ratings.why_unrated`): a table that ended by its
rules with every seat its party's own. Chapters reached: the chapters turned, the boss
counting as the sixteenth. Steps: the party's moves (a move taken back not counted).
"""

from __future__ import annotations

import re
import time

from bot.service.base import daily_castle
from bot.service.base.delivery_plan import Plan, Reply
from bot.service.base.requests import ChatRef, UserError
from bot.service.pictures.workers import CpuPool
from bot.service.records import boards, ratings
from bot.store import SessionRow, Store
from engines import Game
from engines.text import Text, command, msg, plural

_DAY = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", re.ASCII)  # ASCII digits only
_MONTH = re.compile(r"^[0-9]{4}-[0-9]{2}$", re.ASCII)
YES, NO = "✓", "–"


def chapters_reached(game: Game, row: SessionRow) -> tuple[bool, int]:
    """(escaped, chapters reached) of a finished castle, from its public view."""
    view = game.view(game.load(row.state), None)
    escaped = any(v > 0 for v in ((row.result or {}).get("scores") or {}).values())
    card = view.get("card") or {}
    return escaped, int(view.get("chapters_turned", 0)) + (card.get("kind") == "boss" or escaped)


class DailyBoards:
    def __init__(self, store: Store, cpu: CpuPool, *, pictures: bool, clock, scope_word) -> None:
        self.store = store
        self.cpu = cpu
        self.pictures = pictures
        self.now = clock
        self.scope_word = scope_word

    async def record(self, row: SessionRow, game: Game) -> Text:
        """A daily table just ended: its result on the boards (once), and what the final
        board says of it."""
        day = daily_castle.day_of_table(row)
        if day is None:
            return ""
        why = ratings.why_unrated(row)
        if why is not None:
            return msg("Not on the daily board: {why}.", why=why)
        escaped, chapters = chapters_reached(game, row)
        steps = await self.store.moves_made(row.id)
        players = [(s.user_id, s.name) for s in row.seats]
        await self.store.record_daily(
            row.id,
            day=day,
            platform=row.platform,
            scope=row.scope,
            players=players,
            escaped=escaped,
            chapters=chapters,
            steps=steps,
            now=self.now(),
        )
        board = await self.store.daily_board(row.platform, row.scope, day)
        place = next(
            (n for n, r in enumerate(board, start=1) if r.session_id == row.id), len(board)
        )
        how = msg("escaped") if escaped else msg("did not escape")
        return msg(
            "Daily castle of {day}: {how}, {reached}: place {place} of {count} here today ({top_dark_castle}).",
            day=day,
            how=how,
            reached=plural(
                "{count} chapter reached in {steps}",
                "{count} chapters reached in {steps}",
                chapters,
                steps=plural("{count} step", "{count} steps", steps),
            ),
            place=place,
            count=len(board),
            top_dark_castle=command("top", "dark_castle", "daily"),
        )

    # ----- the boards -------------------------------------------------------------------
    async def board(self, chat: ChatRef, which: str, when: str | None) -> Plan:
        """`which`: daily (a day, default today) or month (default this month), UTC."""
        today = daily_castle.day_of(self.now())
        scope = self.scope_word(chat.platform)
        if which == "daily":
            day = when or today
            if not _DAY.match(day) or not _real_day(day):
                raise UserError(msg("A day is written like {today}.", today=today))
            rows = await self.store.daily_board(chat.platform, chat.scope, day)
            title = msg("The daily castle of {day} on this {scope}", day=day, scope=scope)
            header = [msg("Party"), msg("Escaped"), msg("Chapters"), msg("Steps")]
            cells = [
                [", ".join(r.party), YES if r.escaped else NO, str(r.chapters), str(r.steps)]
                for r in rows
            ]
            empty = msg(
                "No party has finished this day's castle here yet: {start_dark_castle}.",
                start_dark_castle=command("start", "dark_castle", "daily=on"),
            )
            name = f"daily-{day}.png"
        else:
            month = when or today[:7]
            if not _MONTH.match(month) or not 1 <= int(month[5:]) <= 12:
                raise UserError(msg("A month is written like {month}.", month=today[:7]))
            totals = await self.store.daily_month(chat.platform, chat.scope, month)
            title = msg("The daily castles of {month} on this {scope}", month=month, scope=scope)
            header = [msg("Player"), msg("Days"), msg("Escaped"), msg("Chapters"), msg("Steps")]
            cells = [
                [t.name, str(t.days), str(t.escaped), str(t.chapters), str(t.steps)] for t in totals
            ]
            empty = msg("Nobody has finished a daily castle here this month yet.")
            name = f"daily-{month}.png"
        section = boards.Board("", header, cells, empty)
        text = boards.as_text(title, [section])
        later = boards.drawing(self.cpu, title, [section], name) if self.pictures else None
        return Plan([Reply(text, kind="top", later=later)])


def _real_day(day: str) -> bool:
    try:
        time.strptime(day, "%Y-%m-%d")
    except ValueError:
        return False
    return True
