"""The table's records: finding a past game, its replay (animated, or board by board), the
games that ended in a chat, and whole logs a page at a time.

The pure parts live in `replay_frames.py` (frames and log pages), the pictures in
`render/animation.py` and the SQL in `bot/store/memory_queries.py`.
"""

from __future__ import annotations

from collections import OrderedDict
from datetime import UTC, datetime

from bot.service import buttons
from bot.service import deadlines as clocks
from bot.service import replay_frames as replays
from bot.service.plan import Choice, Picture, Plan, Reply
from bot.service.requests import ChatRef, UserError, UserRef
from bot.service.table import Table, title_of
from bot.service.workers import CpuPool
from bot.store import SessionRow
from engines import REGISTRY, Game
from render import animation

HISTORY_PAGE = 5  # games a page: two buttons each stay within Discord's 25 components
REPLAY_CACHE = 8  # animations kept per process (a few MB each at most)


def _replay_gif(game_id: str, frames: list[animation.Frame]) -> tuple[bytes, int]:
    return animation.replay_gif(game_id, frames)


def _date(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d")


def _span(seconds: float) -> str:
    if seconds >= clocks.DAY:
        return f"{seconds / clocks.DAY:.0f} d"
    if seconds >= clocks.HOUR:
        return f"{seconds / clocks.HOUR:.0f} h"
    return f"{max(1, round(seconds / 60))} min"


class GameRecords:
    def __init__(self, table: Table, cpu: CpuPool, *, pictures: bool, recent_log) -> None:
        self.table = table
        self.store = table.store
        self.cpu = cpu
        self.pictures = pictures
        self.recent_log = recent_log  # the running game's log (`Play.recent_log`)
        self._replays: OrderedDict = OrderedDict()

    # ----- finding a game -----------------------------------------------------------
    async def _recall(self, chat: ChatRef, which: str | None) -> SessionRow:
        """`#12` or `12`: that game, if it was played on this server or group; nothing:
        the game here (running or last ended), else the last game ended in this chat."""
        store = self.store
        if which and which.strip().lstrip("#").isdigit():
            row = await store.session(int(which.strip().lstrip("#")))
            if row is None or row.platform != chat.platform or row.scope != chat.scope:
                raise UserError(f"There is no game {which.strip()} here: /escape history.")
            if row.status == "lobby":
                raise UserError("That game has not begun yet.")
            return row
        if which and which.strip():
            raise UserError("Name a game by its number, like /escape replay 12 (/escape history lists them).")  # fmt: skip
        row = await store.latest_in_place(chat.platform, chat.chat, chat.thread)
        if row is None:
            ended = await store.ended_in_chat(chat.platform, chat.chat, 1)
            row = ended[0] if ended else None
        if row is None:
            raise UserError("No game has been played here yet. Start one with /escape start GAME.")
        return row

    async def _steps(self, row: SessionRow) -> tuple[Game, list[replays.Step]]:
        game = REGISTRY.get(row.game)
        if game is None:
            raise UserError(f"This bot no longer has the game {row.game!r}.")
        return game, replays.steps(game, row, await self.store.log(row.id))

    # ----- replay -------------------------------------------------------------------
    async def replay(self, chat: ChatRef, which: str | None = None) -> Plan:
        """The whole game so far as one animated picture, with a button to page through it."""
        row = await self._recall(chat, which)
        game, steps = await self._steps(row)
        moves = len(steps) - 1
        where = "so far" if row.status == "active" else ""
        text = f"Replay of #{row.id}, {game.title} {where}".rstrip() + f": {moves} moves."
        picture = None
        if self.pictures:
            frames = [(s.view, s.heading, s.caption) for s in steps]
            cache = self._replays
            key = (row.id, row.version)
            if key not in cache:  # a finished game's replay is asked for again and again
                cache[key] = await self.cpu.run(_replay_gif, game.id, frames)
                while len(cache) > REPLAY_CACHE:
                    cache.popitem(last=False)
            data, shown = cache[key]
            if shown < len(frames):
                text += f" (A long game: it shows one board in {-(-len(frames) // shown)}; Step through shows them all.)"  # fmt: skip
            alt = f"An animation of the {len(frames)} public boards of game #{row.id} of {game.title}, each with its move written under it."  # fmt: skip
            picture = Picture(data, alt, f"replay-{row.id}.gif")
        choices = [Choice("Step through", buttons.paged("p", row.id, 0), "primary")]
        return Plan([Reply(text, kind="replay", picture=picture, choices=choices)])

    async def replay_page(self, row: SessionRow, page: int) -> Plan:
        """One board of a replay, with Previous / Next."""
        game, steps = await self._steps(row)
        page = max(0, min(page, len(steps) - 1))
        step = steps[page]
        text = f"#{row.id} {game.title}, board {page + 1} of {len(steps)}. {step.heading}."
        if step.caption:
            text += f"\n{step.caption}"
        picture = None
        if self.pictures:
            png = await self.cpu.run(animation.frame_png, game.id, (step.view, step.heading, step.caption))  # fmt: skip
            picture = Picture(png, f"Board {page + 1} of game #{row.id}: {step.caption or step.heading}", f"replay-{row.id}-{page}.png")  # fmt: skip
        choices = []
        if page > 0:
            choices.append(Choice("Previous", buttons.paged("p", row.id, page - 1)))
        if page < len(steps) - 1:
            choices.append(Choice("Next", buttons.paged("p", row.id, page + 1), "primary"))
        return Plan([Reply(text, kind="replay", picture=picture, choices=choices)])

    # ----- history and logs -----------------------------------------------------------
    async def ended_games(self, chat: ChatRef, page: int = 0) -> Plan:
        """`/escape history`: the games that ended in this channel or group, newest first."""
        total = await self.store.count_ended_in_chat(chat.platform, chat.chat)
        page = max(0, min(page, max(0, (total - 1) // HISTORY_PAGE)))
        rows = await self.store.ended_in_chat(
            chat.platform, chat.chat, HISTORY_PAGE, page * HISTORY_PAGE
        )
        if not rows:
            return Plan([Reply("No game has ended here yet.", kind="history")])
        lines = [f"Games played here ({total}), newest first:"]
        choices: list[Choice] = []
        for row in rows:
            lines.append(await self._history_line(row))
            choices.append(Choice(f"Replay #{row.id}", buttons.simple("y", row.id)))
            choices.append(Choice(f"Log #{row.id}", buttons.paged("n", row.id, 0)))
        pages = -(-total // HISTORY_PAGE)
        if page > 0:
            choices.append(Choice("Newer", buttons.paged("h", rows[0].id, page - 1)))
        if page < pages - 1:
            choices.append(Choice("Older", buttons.paged("h", rows[0].id, page + 1), "primary"))
        if pages > 1:
            lines.append(f"Page {page + 1} of {pages}.")
        return Plan([Reply("\n".join(lines), kind="history", choices=choices)])

    async def _history_line(self, row: SessionRow) -> str:
        players = ", ".join(s.name for s in row.seats)
        entries = await self.store.log(row.id)
        moves = sum(1 for e in entries if e.seat >= 0 and not e.undone)
        if row.status == "finished" and row.result:
            first = (row.result.get("ranking") or [[]])[0]
            game = REGISTRY.get(row.game)
            if game is not None and game.cooperative:
                escaped = any(v > 0 for v in (row.result.get("scores") or {}).values())
                outcome = "escaped" if escaped else "lost together"
            elif len(first) > 1:
                outcome = "tie: " + ", ".join(
                    row.seats[s].name for s in first if s < len(row.seats)
                )
            else:
                outcome = "won by " + ", ".join(
                    row.seats[s].name for s in first if s < len(row.seats)
                )
        else:
            outcome = "ended unfinished"
        length = _span(row.updated_at - row.created_at)
        return f"#{row.id} {title_of(row.game)}: {players}; {outcome}; {_date(row.updated_at)}; {moves} moves over {length}"

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
        row = await self._recall(chat, which)
        return await self.log_page(row, page)

    async def log_page(self, row: SessionRow, page: int | None) -> Plan:
        lines = replays.log_lines(await self.store.log(row.id))
        shown, page, pages = replays.page_of(lines, page)
        head = f"Log of #{row.id}, {title_of(row.game)} (page {page + 1} of {pages}):"
        choices = []
        if page > 0:
            choices.append(Choice("Previous", buttons.paged("n", row.id, page - 1)))
        if page < pages - 1:
            choices.append(Choice("Next", buttons.paged("n", row.id, page + 1), "primary"))
        return Plan([Reply("\n".join([head, *shown]) if shown else head + "\nNothing happened.", kind="log", choices=choices)])  # fmt: skip
