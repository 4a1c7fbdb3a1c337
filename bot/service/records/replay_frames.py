"""A game told again from its log: public boards move by move, and the log as pages.

The log holds every action and chance outcome, so a game replays exactly from `setup`
without a generator. A replay shows only public views (`view(state, None)`): never a
hand, not even after the game. Moves taken back by agreement are skipped, and so are the
bot's notes. Each player's move is one frame; the chance outcomes it triggered belong
to the same frame (they were drawn in the same transaction), and the opening deal
belongs to the first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.service.base.move_records import stored
from bot.service.base.requests import UserError
from bot.service.tables.table import never_began
from bot.store import LogEntry, SessionRow
from engines import CHANCE, BadOption, Game, IllegalAction
from engines.text import Text, command, joined, msg

LOG_PAGE = 20  # lines of a log page: fits a Telegram message and a Discord one easily


@dataclass(frozen=True)
class Step:
    """One frame of a replay: the public view after a move, and what the move did."""

    view: dict
    heading: Text
    caption: Text
    n: int | None  # the log row of the move (None for the opening)


def _public(entry: LogEntry) -> list[Text]:
    return [stored(e) for e in entry.events if e.get("to") is None and e.get("text")]


def replayable(game: Game, row: SessionRow) -> None:
    """Refused, said why: a table that never began, or one of older rules."""
    why = never_began(row)
    if why is not None:
        raise UserError(why)
    if row.rules_version != game.rules_version:
        raise UserError(
            msg(
                "Game #{number} was played under an older version of the rules of {game}, so its boards cannot be drawn again; its log is still there ({log}).",
                number=row.id,
                game=msg(game.title),
                log=command("log"),
            )
        )


def unreplayable(row: SessionRow) -> Text:
    return msg(
        "Game #{number} cannot be replayed with this version of the bot; its log is still there ({log}).",
        number=row.id,
        log=command("log"),
    )


def steps(game: Game, row: SessionRow, entries: Sequence[LogEntry]) -> list[Step]:
    """Every public board of the game in order: the opening, then one per move."""
    replayable(game, row)
    names = [s.name for s in row.seats]
    try:
        state = game.setup(names, row.options)
    except BadOption as exc:  # (seats or options no longer fit the game)
        raise UserError(unreplayable(row)) from exc
    moves = [e for e in entries if e.seat >= 0 and not e.undone]
    total = len(moves)
    out: list[Step] = []
    heading: Text = msg("{game}: {names}", game=msg(game.title), names=", ".join(names))
    caption: list[Text] = []
    n: int | None = None
    done = 0
    try:
        for entry in entries:
            if entry.undone or (entry.seat < 0 and entry.seat != CHANCE):
                continue  # a move taken back, or a note of the bot's
            if entry.seat >= 0:
                out.append(Step(game.view(state, None), heading, joined(caption, " "), n))
                done += 1
                who = names[entry.seat] if entry.seat < len(names) else f"{entry.seat + 1}"
                heading = msg("Move {done} of {total}: {who}", done=done, total=total, who=who)
                caption, n = [], entry.n
            state, _ = game.apply(state, entry.seat, entry.action)
            caption += _public(entry)
    except (IllegalAction, KeyError, IndexError, ValueError) as exc:
        raise UserError(unreplayable(row)) from exc
    out.append(Step(game.view(state, None), heading, joined(caption, " "), n))
    return out


def log_lines(entries: Sequence[LogEntry]) -> list[Text]:
    """The public log, a line an event; a move taken back is kept and marked."""
    lines: list[Text] = []
    for entry in entries:
        texts = _public(entry)
        if entry.undone:
            texts = [msg("(taken back) {line}", line=t) for t in texts] or [
                msg("(a move, taken back)")
            ]
        lines += texts
    return lines


def page_of(lines: Sequence[Text], page: int | None) -> tuple[list[Text], int, int]:
    """(lines of the page, the page, the number of pages); None: the last page."""
    pages = max(1, -(-len(lines) // LOG_PAGE))
    page = pages - 1 if page is None else max(0, min(page, pages - 1))
    return list(lines[page * LOG_PAGE : (page + 1) * LOG_PAGE]), page, pages
