"""What delivery asks of the service, and nothing more: the people to tell a table with no
public place, the live table of a chat, how to reach a person, and its own small records
(which message is a table's live board, what to tidy at its end), kept so they survive a
restart. `GameService` gives all of it; a test may give the same from a real service."""

from __future__ import annotations

from typing import Protocol

from bot.service import ChatRef, Contact, UserRef


class LiveRow(Protocol):
    @property
    def id(self) -> int: ...


class ServiceNeeds(Protocol):
    async def seated_at(self, chat: ChatRef) -> list[UserRef] | None:
        """Who is told privately what a table with no public place shows (None: the chat
        is a public place)."""
        ...

    async def live(self, chat: ChatRef) -> LiveRow | None:
        """The table running in a chat, if any."""
        ...

    async def contact(self, user: UserRef) -> Contact: ...

    async def recall(self, key: str) -> str | None:
        """A record delivery wrote with `remember`, after a restart too."""
        ...

    async def remember(self, key: str, value: str) -> None: ...
