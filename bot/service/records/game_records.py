"""The table's records: finding a past game, its replay (animated, or board by board), the
games that ended in a chat, and whole logs a page at a time.

The pure parts live in `replay_frames.py` (frames and log pages), the pictures in
`render/animation.py` and the SQL in `bot/store/memory_queries.py`.
"""

from __future__ import annotations

from collections import OrderedDict

from bot.service.base import buttons, deadlines
from bot.service.base.command_words import GAME
from bot.service.base.delivery_plan import Choice, Picture, Plan, Reply
from bot.service.base.platform_input import number
from bot.service.base.requests import ChatRef, UserError, UserRef
from bot.service.pictures.workers import CpuPool
from bot.service.records import replay_frames as replays
from bot.service.tables.board_plans import table_language
from bot.service.tables.bot_seats import seat_names
from bot.service.tables.table import Table, title_of
from bot.store import SessionRow
from engines import REGISTRY, Game
from engines.text import Span, Text, command, joined, msg, plural
from languages import Day, say
from render import animation

HISTORY_PAGE = 5  # games a page: two buttons each stay within Discord's 25 components
REPLAY_CACHE = 8  # animations kept per process (a few MB each at most)


def _replay_gif(game_id: str, frames: list[animation.Frame], language: str) -> tuple[bytes, int]:
    return _in_language(animation.replay_gif, game_id, frames, language=language)


def _frame_png(game_id: str, frame: animation.Frame, language: str) -> bytes:
    return _in_language(animation.frame_png, game_id, frame, language=language)


def _in_language(function, *args, language: str):
    """(A renderer speaks `language` once its words are messages.)"""
    import inspect

    if "language" in inspect.signature(function).parameters:
        return function(*args, language=language)
    return function(*args)


def _span(seconds: float) -> Span:
    """How long a game took, in one whole unit (days, hours or minutes)."""
    if seconds >= deadlines.DAY:
        return Span(round(seconds / deadlines.DAY) * deadlines.DAY)
    if seconds >= deadlines.HOUR:
        return Span(round(seconds / deadlines.HOUR) * deadlines.HOUR)
    return Span(max(1, round(seconds / 60)) * 60)


class GameRecords:
    def __init__(self, table: Table, cpu: CpuPool, *, pictures: bool, recent_log) -> None:
        self.table = table
        self.store = table.store
        self.cpu = cpu
        self.pictures = pictures
        self.recent_log = recent_log  # the running game's log (`Play.recent_log`)
        self._replays: OrderedDict = OrderedDict()

    # ----- finding a game -----------------------------------------------------------
    async def recall(self, chat: ChatRef, which: str | None) -> SessionRow:
        """`#12` or `12`: that game, if it was played on this server or group; nothing:
        the game here (running or last ended), else the last game ended in this chat."""
        store = self.store
        asked = number(which.strip().lstrip("#")) if which else None
        if asked is not None:
            row = await store.session(asked)
            if row is None or row.platform != chat.platform or row.scope != chat.scope:
                raise UserError(
                    msg(
                        "There is no game {strip} here: {history}.",
                        strip=which.strip(),
                        history=command("history"),
                    )
                )
            if row.status == "lobby":
                raise UserError(msg("That game has not begun yet."))
            return row
        if which and which.strip():
            raise UserError(
                msg(
                    "Name a game by its number, like {replay} ({history} lists them).",
                    replay=command("replay", "12"),
                    history=command("history"),
                )
            )
        row = await store.latest_in_place(chat.platform, chat.chat, chat.thread)
        if row is None:
            ended = await store.ended_in_chat(chat.platform, chat.chat, 1)
            row = ended[0] if ended else None
        if row is None:
            raise UserError(
                msg(
                    "No game has been played here yet. Start one with {start}.",
                    start=command("start", GAME),
                )
            )
        return row

    async def _steps(self, row: SessionRow) -> tuple[Game, list[replays.Step]]:
        game = REGISTRY.get(row.game)
        if game is None:
            raise UserError(msg("This bot no longer has the game {game}.", game=repr(row.game)))
        return game, replays.steps(game, row, await self.store.log(row.id))

    # ----- replay -------------------------------------------------------------------
    async def replay(self, chat: ChatRef, which: str | None = None, language: str = "") -> Plan:
        """The whole game so far as one animated picture (its words in `language`, by default
        the table's: what the chat reads), with a button to page through it."""
        row = await self.recall(chat, which)
        language = language or table_language(row)
        game, steps = await self._steps(row)
        moves = len(steps) - 1
        if row.status == "active":
            text: Text = plural(
                "Replay of #{number}, {game} so far: {count} move.",
                "Replay of #{number}, {game} so far: {count} moves.",
                moves,
                number=row.id,
                game=msg(game.title),
            )
        else:
            text = plural(
                "Replay of #{number}, {game}: {count} move.",
                "Replay of #{number}, {game}: {count} moves.",
                moves,
                number=row.id,
                game=msg(game.title),
            )
        picture = None
        if self.pictures:
            frames = [(s.view, say(s.heading, language), say(s.caption, language)) for s in steps]
            cache = self._replays
            key = (row.id, row.version, language)
            if key not in cache:  # a finished game's replay is asked for again and again
                cache[key] = await self.cpu.run(_replay_gif, game.id, frames, language)
                while len(cache) > REPLAY_CACHE:
                    cache.popitem(last=False)
            data, shown = cache[key]
            if shown < len(frames):
                long_game = msg(
                    "(A long game: it shows one board in {every}; Step through shows them all.)",
                    every=-(-len(frames) // shown),
                )
                text = joined([text, long_game], " ")
            alt = msg(
                "An animation of the {boards} public boards of game #{number} of {game}, each with its move written under it.",
                boards=len(frames),
                number=row.id,
                game=msg(game.title),
            )
            picture = Picture(data, say(alt, language), f"replay-{row.id}.gif", language)
        choices = [Choice(msg("Step through"), buttons.ReplayPage(row.id, 0).data, "primary")]
        return Plan(
            [Reply(text, kind="replay", picture=picture, choices=choices)], language=language
        )

    async def replay_page(self, row: SessionRow, page: int, language: str = "") -> Plan:
        """One board of a replay, with Previous / Next (in the table's language unless
        another is asked for: a web page asks for its reader's)."""
        language = language or table_language(row)
        game, steps = await self._steps(row)
        page = max(0, min(page, len(steps) - 1))
        step = steps[page]
        text: Text = msg(
            "#{number} {game}, board {page} of {pages}. {heading}.",
            number=row.id,
            game=msg(game.title),
            page=page + 1,
            pages=len(steps),
            heading=step.heading,
        )
        if step.caption:
            text = joined([text, step.caption], "\n")
        picture = None
        if self.pictures:
            frame = (step.view, say(step.heading, language), say(step.caption, language))
            png = await self.cpu.run(_frame_png, game.id, frame, language)
            alt = msg(
                "Board {page} of game #{number}: {what}",
                page=page + 1,
                number=row.id,
                what=step.caption or step.heading,
            )
            picture = Picture(png, say(alt, language), f"replay-{row.id}-{page}.png", language)
        choices = []
        if page > 0:
            choices.append(Choice(msg("Previous"), buttons.ReplayPage(row.id, page - 1).data))
        if page < len(steps) - 1:
            choices.append(
                Choice(msg("Next"), buttons.ReplayPage(row.id, page + 1).data, "primary")
            )
        return Plan(
            [Reply(text, kind="replay", picture=picture, choices=choices)], language=language
        )

    # ----- history and logs -----------------------------------------------------------
    async def ended_games(self, chat: ChatRef, page: int = 0) -> Plan:
        """`/escape history`: the games that ended in this channel or group, newest first."""
        total = await self.store.count_ended_in_chat(chat.platform, chat.chat)
        page = max(0, min(page, max(0, (total - 1) // HISTORY_PAGE)))
        rows = await self.store.ended_in_chat(
            chat.platform, chat.chat, HISTORY_PAGE, page * HISTORY_PAGE
        )
        if not rows:
            return Plan([Reply(msg("No game has ended here yet."), kind="history")])
        lines: list[Text] = [msg("Games played here ({total}), newest first:", total=total)]
        choices: list[Choice] = []
        for row in rows:
            lines.append(await self._history_line(row))
            choices.append(Choice(msg("Replay #{id}", id=row.id), buttons.Replay(row.id).data))
            choices.append(Choice(msg("Log #{id}", id=row.id), buttons.LogPage(row.id, 0).data))
        pages = -(-total // HISTORY_PAGE)
        if page > 0:
            choices.append(Choice(msg("Newer"), buttons.HistoryPage(rows[0].id, page - 1).data))
        if page < pages - 1:
            choices.append(
                Choice(msg("Older"), buttons.HistoryPage(rows[0].id, page + 1).data, "primary")
            )
        if pages > 1:
            lines.append(msg("Page {page} of {pages}.", page=page + 1, pages=pages))
        return Plan([Reply(joined(lines, "\n"), kind="history", choices=choices)])

    async def _history_line(self, row: SessionRow) -> Text:
        players = seat_names(row.seats)
        entries = await self.store.log(row.id)
        moves = sum(1 for e in entries if e.seat >= 0 and not e.undone)
        if row.status == "finished" and row.result:
            first = (row.result.get("ranking") or [[]])[0]
            game = REGISTRY.get(row.game)
            if game is not None and game.cooperative:
                escaped = any(v > 0 for v in (row.result.get("scores") or {}).values())
                outcome: Text = msg("escaped") if escaped else msg("lost together")
            else:
                names = seat_names([row.seats[s] for s in first if s < len(row.seats)])
                outcome = (
                    msg("tie: {names}", names=names)
                    if len(first) > 1
                    else msg("won by {names}", names=names)
                )
        else:
            outcome = msg("ended unfinished")
        length = _span(row.updated_at - row.created_at)
        return msg(
            "#{number} {game}: {players}; {outcome}; {date}; {moves} over {length}",
            number=row.id,
            game=title_of(row.game),
            players=players,
            outcome=outcome,
            date=Day(row.updated_at),
            moves=plural("{count} move", "{count} moves", moves),
            length=length,
        )

    async def game_log(
        self,
        chat: ChatRef,
        user: UserRef,
        which: str | None = None,
        page: int | None = None,
    ) -> Plan:
        """`/escape log`: the running game's recent log as before; an ended game's (or a
        named game's) whole public log, a page at a time."""
        if not which:
            live = await self.table.live_row(chat)
            if live is not None and live.status != "lobby":
                return await self.recent_log(chat, user)
        row = await self.recall(chat, which)
        return await self.log_page(row, page)

    async def log_page(self, row: SessionRow, page: int | None) -> Plan:
        lines = replays.log_lines(await self.store.log(row.id))
        shown, page, pages = replays.page_of(lines, page)
        head = msg(
            "Log of #{number}, {game} (page {page} of {pages}):",
            number=row.id,
            game=title_of(row.game),
            page=page + 1,
            pages=pages,
        )
        choices = []
        if page > 0:
            choices.append(Choice(msg("Previous"), buttons.LogPage(row.id, page - 1).data))
        if page < pages - 1:
            choices.append(Choice(msg("Next"), buttons.LogPage(row.id, page + 1).data, "primary"))
        lines = [head, *shown] if shown else [head, msg("Nothing happened.")]
        return Plan([Reply(joined(lines, "\n"), kind="log", choices=choices)])
