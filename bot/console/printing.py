"""The terminal as a delivery transport: every message printed, pictures written to files.

Hot-seat play shares one keyboard, so a message for one player is printed only while that
player has the keyboard; until then it waits for them (`Terminal.private`). Nothing is
edited or deleted in a terminal: each board is printed anew. The transport is handed what
prints (a `ReplyPrinter`: the terminal), so it needs nothing else of the terminal.
"""

from __future__ import annotations

import itertools
from typing import Protocol

from bot.delivery import Asked, Sent
from bot.service import ChatRef, Contact, Reply, TableFacts, UserRef
from languages import KEYBOARD

PLATFORM = "console"


class ReplyPrinter(Protocol):
    """What prints a reply on the screen (the terminal, for whoever has the keyboard)."""

    def print_reply(self, reply: Reply) -> None: ...


class TerminalTransport:
    platform = PLATFORM
    answers_in_place = True  # whoever typed sees the answer at once
    view_button = False  # shows the shared My hand button
    brief_views = True  # a hand under its picture; `hand` or `describe on` say the whole
    tidies = False
    spelling = KEYBOARD  # the commands a message names, typed bare: `start GAME`

    def __init__(self, terminal: ReplyPrinter) -> None:
        self.terminal = terminal
        self._ids = itertools.count(1)

    def _sent(self, where: str, reply: Reply) -> list[Sent]:
        return [
            Sent(
                where,
                next(self._ids),
                picture=reply.picture is not None,
                private=reply.to is not None,
            )
        ]

    async def post(
        self, where: ChatRef, reply: Reply, asked: Asked | None, table: TableFacts | None
    ) -> list[Sent]:
        self.terminal.print_reply(reply)
        return self._sent(where.chat, reply)

    async def answer_in_place(self, reply: Reply, asked: Asked) -> Sent | None:
        self.terminal.print_reply(reply)
        return self._sent("terminal", reply)[0]

    async def edit(self, sent: Sent, reply: Reply, asked, table) -> bool:
        return False  # a terminal prints anew

    def moved_on(self, live: Sent, later: int) -> bool:
        return True

    async def retire(self, sent: Sent) -> None:
        pass

    async def strip(self, sent: Sent) -> None:
        pass

    async def delete(self, sent: list[Sent]) -> None:
        pass

    async def private_place(self, user: UserRef, contact: Contact) -> ChatRef | None:
        """Every player at this keyboard can be written to: it waits until they have it."""
        return ChatRef(PLATFORM, f"keyboard:{user.id}")

    async def cannot_reach(
        self, chat: ChatRef, user: UserRef, session_id: int | None, language: str
    ) -> Sent | None:
        return None
