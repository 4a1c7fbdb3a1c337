"""A pressed button: parsed into its kind (base/buttons.py, the one parser of every kind:
a table's, a lesson's, a tournament's), let through by the table's rule (access.py), and
handed to the collaborator that answers that kind.

Each kind's handler is found by the button's class, not by a letter: a new kind is a class
in buttons.py and one line in `Presses.handlers`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.service.base import buttons
from bot.service.base.buttons import Button, Stage
from bot.service.base.delivery_plan import Plan
from bot.service.base.requests import ChatRef, UserError, UserRef
from bot.service.clock.turn_clock import TurnClock
from bot.service.community.tournaments import Tournaments
from bot.service.learning.reviews import Reviews
from bot.service.learning.tutorial import Tutorials
from bot.service.records.game_records import GameRecords
from bot.service.tables.access import Access, Visitor
from bot.service.tables.leaving import Leaving
from bot.service.tables.lobby import Lobby
from bot.service.tables.play import Play
from bot.service.tables.rematch import Rematch
from bot.service.tables.table import chat_of
from bot.service.tables.undo_requests import UndoRequests
from bot.store import SessionRow, Store
from engines.text import Msg, msg

# what one kind does, for the presser at the table of the row (already let through)
Handler = Callable[[SessionRow, UserRef, Button], Awaitable[Plan]]
OVER = msg("That game is over; its buttons no longer do anything.")


class Presses:
    def __init__(
        self,
        store: Store,
        access: Access,
        *,
        lobby: Lobby,
        play: Play,
        clock: TurnClock,
        records: GameRecords,
        rematches: Rematch,
        undo: UndoRequests,
        reviews: Reviews,
        tutorials: Tutorials,
        tournaments: Tournaments,
        leaving: Leaving,
        language_of: Callable[[UserRef], Awaitable[str]],
        chat_word: Callable[[str], Msg],
    ) -> None:
        self.store = store
        self.access = access
        self.reviews = reviews
        self.tutorials = tutorials
        self.tournaments = tournaments
        self.language_of = language_of
        self.chat_word = chat_word

        def lobby_(step: Callable[[ChatRef, UserRef], Awaitable[Plan]]) -> Handler:
            return lambda row, user, _: step(chat_of(row), user)

        async def move(row: SessionRow, user: UserRef, button: Button) -> Plan:
            assert isinstance(button, buttons.Act)
            plan = await play.press_move(row, user, button)
            plan.fresh = False
            return plan

        async def over(row: SessionRow, user: UserRef, button: Button) -> Plan:
            raise UserError(OVER)  # a review pressed on the web: its chat answers it

        self.handlers: dict[type[Button], Handler] = {
            buttons.Act: move,
            buttons.Join: lobby_(lobby.join),
            buttons.Leave: lobby_(lobby.leave),
            buttons.Begin: lobby_(lobby.begin),
            buttons.AddBot: lobby_(lobby.add_bot),
            buttons.RemoveBot: lobby_(lobby.remove_bot),
            buttons.MyView: lambda row, user, _: play.private_view(chat_of(row), user),
            buttons.BoardAgain: lambda row, user, _: play.board(chat_of(row)),
            buttons.VoteReplace: lambda row, user, _: clock.vote(chat_of(row), user),
            buttons.Review: over,
            buttons.Replay: lambda row, user, _: records.replay(chat_of(row), str(row.id)),
            buttons.Rematch: lambda row, user, _: rematches.press(row, user),
            buttons.ReplayPage: lambda row, user, b: records.replay_page(row, b.page),  # type: ignore[attr-defined]
            buttons.LogPage: lambda row, user, b: records.log_page(row, b.page),  # type: ignore[attr-defined]
            buttons.HistoryPage: lambda row, user, b: records.ended_games(chat_of(row), b.page),  # type: ignore[attr-defined]
            buttons.UndoAnswer: lambda row, user, b: undo.answer_undo(
                row, user, b.version, b.accept
            ),  # type: ignore[attr-defined]
            buttons.TakeSeat: lambda row, user, b: leaving.take(row, user, b.seat),  # type: ignore[attr-defined]
        }

    async def press(self, chat: ChatRef, user: UserRef, data: str) -> Plan:
        """A button clicked in a table's chat."""
        button = buttons.parse(data)
        if isinstance(button, buttons.LessonButton):  # the presser's own lesson
            return await self.tutorials.press(chat, user, button)
        if isinstance(button, buttons.TournamentButton):
            return await self.tournaments.press(chat, user, button)
        assert isinstance(button, Button)
        row = await self.store.session(button.session_id)
        if row is None or row.platform != chat.platform or row.chat != chat.chat:
            raise UserError(msg("That button belongs to no game in this chat."))
        if isinstance(button, buttons.Review):  # to its reader alone, whom the rule lets watch
            reader = replace(user, language=await self.language_of(user))
            return await self.reviews.reply(row, Visitor(user, here=chat), reader)
        await self.access.presser(row, Visitor(user, here=chat), button)
        return await self.pressed(row, user, button)

    async def press_privately(
        self, platform: str, user: UserRef, data: str
    ) -> tuple[ChatRef, Plan]:
        """A button pressed in a player's private chat: a move acts on the game the data
        names, in that game's chat, as the player who pressed it. Returns that chat too."""
        button = buttons.parse(data)
        if isinstance(button, buttons.LessonButton):  # a lesson in the private chat: there
            chat = ChatRef(platform, user.id)
            return chat, await self.tutorials.press(chat, user, button)
        row = await self.store.session(button.session_id) if isinstance(button, Button) else None
        if (
            not isinstance(button, Button)
            or not button.works_privately
            or row is None
            or row.platform != platform
        ):
            where = self.chat_word(platform)
            raise UserError(
                msg("That button works under the game's board in its {where}.", where=where)
            )
        await self.access.presser(row, Visitor(user), button)
        return chat_of(row), await self.pressed(row, user, button)

    async def pressed(self, row: SessionRow, user: UserRef, button: Button) -> Plan:
        """A button the table's rule let through: answered by its kind's handler."""
        if button.stage is Stage.BEGUN and row.status == "lobby":
            raise UserError(msg("That game has not begun yet."))
        if button.stage is Stage.LIVE and row.status in ("finished", "aborted"):
            raise UserError(OVER)
        return await self.handlers[type(button)](row, user, button)
