"""What delivery asks of the service, and nothing more: the people to tell a table with no
public place, the live table of a chat, how to reach a person, and its own records (which
message is a table's live board, what to tidy at its end), kept with the table so every
process of the bot and every restart finds them (`deliveries`). `GameService` gives all of
it; a test may give the same from a real service."""

from __future__ import annotations

from typing import Protocol

from bot.service import ChatRef, Contact, UserRef


class LiveRow(Protocol):
    @property
    def id(self) -> int: ...


class BoardRow(Protocol):
    """A table's live message as the store keeps it."""

    kind: str
    version: int | None
    sent: str  # the transport's record of the message (JSON)
    touched: float
    later: int


class NoteRow(Protocol):
    kind: str
    who: str
    sent: str


class Records(Protocol):
    """The service's `deliveries` (bot/service/shared/delivery_records.py)."""

    async def board(self, platform: str, session_id: int) -> BoardRow | None: ...

    async def put_board(
        self,
        platform: str,
        session_id: int,
        chat: ChatRef,
        kind: str,
        version: int | None,
        message: int,
        sent: str,
        replaces: int | None,
        retiring: str = "",
    ) -> bool: ...

    async def edited(
        self, platform: str, session_id: int, message: int, version: int | None
    ) -> bool: ...

    async def message_in(self, chat: ChatRef) -> None: ...

    async def notes(self, platform: str, session_id: int) -> list[NoteRow]: ...

    async def add_notes(
        self, platform: str, session_id: int, kind: str, who: str, sent: list[str]
    ) -> None: ...

    async def swap_note(
        self, platform: str, session_id: int, kind: str, who: str, sent: str | None
    ) -> list[str]: ...

    async def forget(
        self, platform: str, session_id: int
    ) -> tuple[BoardRow | None, list[NoteRow]]: ...


class ServiceNeeds(Protocol):
    deliveries: Records

    async def seated_at(self, chat: ChatRef) -> list[UserRef] | None:
        """Who is told privately what a table with no public place shows (None: the chat
        is a public place)."""
        ...

    async def live(self, chat: ChatRef) -> LiveRow | None:
        """The table running in a chat, if any."""
        ...

    async def contact(self, user: UserRef) -> Contact: ...
