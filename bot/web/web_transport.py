"""The web board as a delivery transport: what a plan shows the person who pressed a
button on a page comes back to that page (what the move told them, a refusal's words).

A page shows the table itself: the public board and the viewer's own view are read again
when the table-changed signal says so, so `post` and `edit` keep nothing. Nobody else can
be written to through a page, and nothing is deleted.
"""

from __future__ import annotations

import itertools

from bot.delivery import Asked, Sent
from bot.service import ChatRef, Contact, Reply, TableFacts, UserRef

PLATFORM = "web"


class WebTransport:
    platform = PLATFORM
    answers_in_place = True  # the page that asked gets the answer
    tidies = False

    def __init__(self) -> None:
        self.notes: list[str] = []  # what the asker is to read on their page
        self._ids = itertools.count(1)

    def _sent(self, reply: Reply) -> Sent:
        return Sent("page", next(self._ids), private=reply.to is not None)

    async def post(self, where: ChatRef, reply: Reply, asked: Asked | None, table: TableFacts | None) -> list[Sent]:  # fmt: skip
        return [self._sent(reply)]  # the page reads the table again (the signal tells it)

    async def answer_in_place(self, reply: Reply, asked: Asked) -> Sent | None:
        if reply.kind not in ("board", "lobby"):
            self.notes.append(reply.text)
        return self._sent(reply)

    async def edit(self, sent: Sent, reply: Reply, asked, table) -> bool:
        return True

    def moved_on(self, live: Sent) -> bool:
        return False

    async def retire(self, sent: Sent) -> None:
        pass

    async def strip(self, sent: Sent) -> None:
        pass

    async def delete(self, sent: list[Sent]) -> None:
        pass

    async def private_place(self, user: UserRef, contact: Contact) -> ChatRef | None:
        return None  # only the asker's own page

    async def cannot_reach(self, chat: ChatRef, user: UserRef, session_id: int | None, language: str) -> Sent | None:  # fmt: skip
        return None
