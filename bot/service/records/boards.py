"""Leaderboards as the chat shows them: a game's rows (a rating, or a co-operative game's
escapes), the words of a board's sections, dates in UTC, and a picture of sections drawn
in whoever reads it (`Reply.later`). Shared by `/escape top`, a season's final standings
and the daily castle's boards."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from bot.service.base.delivery_plan import Picture
from bot.service.pictures.workers import CpuPool
from bot.service.records import ratings
from bot.store import RatingRow
from engines import Game
from engines.text import Text, joined, msg
from languages import say
from render.leaderboards import Section, leaderboards_png


@dataclass(frozen=True)
class Board:
    """One section of a board, in messages: said in its reader's language when drawn."""

    heading: Text
    header: Sequence[Text]
    rows: Sequence[Sequence[str]]
    empty: Text = ""


def header(game: Game) -> list[Text]:
    if game.cooperative:
        return [msg("Player"), msg("Games"), msg("Escaped"), msg("Lost")]
    return [msg("Player"), msg("Rating"), msg("Games"), msg("Won")]


def cells(game: Game, rows: Sequence[RatingRow]) -> list[list[str]]:
    if game.cooperative:
        return [[r.name, str(r.played), str(r.won), str(r.lost)] for r in rows]
    return [
        [r.name, f"{ratings.shown(r.mu, r.sigma):.1f}", str(r.played), str(r.won)] for r in rows
    ]


def when(at: float) -> str:
    """A moment as every language writes it here: the date and time in UTC."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at))


def as_text(title: Text, boards: Sequence[Board]) -> Text:
    """The boards in words (the message's text, and the picture's alt text)."""
    lines: list[Text] = [title]
    for board in boards:
        if len(boards) > 1 or board.heading:
            lines.append(board.heading)
        if not board.rows:
            lines.append(board.empty)
        lines += [f"{i}. " + " · ".join(row) for i, row in enumerate(board.rows, start=1)]
    return joined([line for line in lines if line], "\n")


def drawing(cpu: CpuPool, title: Text, boards: Sequence[Board], filename: str):
    """`Reply.later`: the boards drawn in the reader's language when delivered."""

    async def draw(language: str) -> Picture:
        sections = [
            Section(
                say(b.heading, language),
                [say(h, language) for h in b.header],
                b.rows,
                say(b.empty, language),
            )
            for b in boards
        ]
        png = await cpu.run(leaderboards_png, say(title, language), sections)
        return Picture(png, say(as_text(title, boards), language), filename, language)

    return draw
