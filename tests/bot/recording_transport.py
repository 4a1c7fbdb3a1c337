"""A transport that keeps what delivery gave it: each reply as said (its text, its labels,
its picture's language), where it went and to whom. No platform: the delivery's own
choices (who reads what, in which language) are what a test looks at."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from bot.delivery import Asked, Sent
from bot.service import ChatRef, Contact, Reply, TableFacts, UserRef


@dataclass
class Shown:
    reply: Reply  # as delivered: its text and labels said in one language
    where: str  # "chat", "private" (a person's private chat) or "in place" (to the asker)
    to: UserRef | None = None

    @property
    def text(self) -> str:
        return self.reply.text

    @property
    def labels(self) -> list[str]:
        return [c.label for c in self.reply.choices]


@dataclass
class RecordingTransport:
    platform: str = "test"
    answers_in_place: bool = True
    tidies: bool = False
    shown: list[Shown] = field(default_factory=list)
    _ids: itertools.count = field(default_factory=lambda: itertools.count(1))

    def _sent(self, where: ChatRef | None, private: bool = False) -> Sent:
        return Sent(where.chat if where else "", next(self._ids), picture=True, private=private)

    async def post(
        self, where: ChatRef, reply: Reply, asked: Asked | None, table: TableFacts | None
    ) -> list[Sent]:
        private = reply.to is not None
        self.shown.append(Shown(reply, "private" if private else "chat", reply.to))
        return [self._sent(where, private)]

    async def edit(self, sent: Sent, reply: Reply, asked, table) -> bool:
        self.shown.append(Shown(reply, "private" if reply.to else "chat", reply.to))
        return True

    async def retire(self, sent: Sent) -> None:
        pass

    async def strip(self, sent: Sent) -> None:
        pass

    async def delete(self, sent: list[Sent]) -> None:
        pass

    def moved_on(self, live: Sent, later: int) -> bool:
        return False

    async def answer_in_place(self, reply: Reply, asked: Asked) -> Sent | None:
        self.shown.append(Shown(reply, "in place", asked.user))
        return self._sent(None, private=True)

    async def private_place(self, user: UserRef, contact: Contact) -> ChatRef | None:
        return ChatRef(self.platform, f"dm-{user.id}")

    async def cannot_reach(
        self, chat: ChatRef, user: UserRef, session_id: int | None, language: str
    ) -> Sent | None:
        return None

    def public(self) -> list[Shown]:
        return [s for s in self.shown if s.where == "chat"]

    def to(self, user: UserRef) -> list[Shown]:
        return [s for s in self.shown if s.to is not None and s.to.id == user.id]
