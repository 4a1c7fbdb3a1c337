"""The small interface each front end implements so that delivery is written once.

A transport knows how to put a `Reply` on its platform (a message with its picture and
buttons, split where it is too long), edit or retire a message it sent, show one person an
answer in place, and where a person can be written to unasked. It decides nothing about
who may see what: the plan did.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.service import ChatRef, Contact, Reply, TableFacts, UserRef


@dataclass(frozen=True)
class Sent:
    """A message a transport posted: in which chat, which one, and when (the platform's
    own clock, Unix time), with or without a picture (a text cannot be edited into one)."""

    chat: str
    message: int
    at: float = 0.0
    picture: bool = False
    private: bool = False  # in a person's private channel, or shown to them alone


class Transient(Exception):
    """The platform refused for a passing reason (a rate limit, the network): the message
    is owed and tried again after `delay` seconds."""

    def __init__(self, delay: float) -> None:
        super().__init__(f"try again in {delay:.1f} s")
        self.delay = delay


class Unreachable(Exception):
    """A person's private channel refused the bot (they blocked it, or never opened it)."""


@dataclass
class Asked:
    """The request a plan answers, as the front end received it.

    `private_chat`: the asker's private channel, when the request came from there (what is
    theirs alone is answered there); `pressed`: the message whose button was pressed (a
    player's private moves are replaced in it); `reply_to`: the message a typed command
    was (its answer refers to it)."""

    user: UserRef
    private_chat: ChatRef | None = None
    pressed: Sent | None = None
    reply_to: int | None = None


class Transport(Protocol):
    platform: str
    answers_in_place: bool  # can show the asker alone an answer in the chat (ephemeral)
    tidies: bool  # deletes a game's notices when it ends (a group that must not fill up)
    view_button: bool  # shows the shared My hand button (a board's aside speaks of it)
    # says a private view by its own lines (a hand), its whole words on request
    brief_views: bool

    async def post(
        self, where: ChatRef, reply: Reply, asked: Asked | None, table: TableFacts | None
    ) -> list[Sent]:
        """Post a reply (several messages if it is long; the last carries the picture and
        buttons). `table`: the game it concerns (a private channel may hold several).
        Raises `Transient` when it should be tried again later."""
        ...

    async def edit(
        self, sent: Sent, reply: Reply, asked: Asked | None, table: TableFacts | None
    ) -> bool:
        """Replace a message's text, picture and buttons; False if it cannot be (then the
        reply is posted anew)."""
        ...

    async def retire(self, sent: Sent) -> None:
        """A message that is history: deleted where the platform lets the bot, else its
        buttons taken away."""
        ...

    async def strip(self, sent: Sent) -> None:
        """Take a message's buttons away (its moves are spent)."""
        ...

    async def delete(self, sent: list[Sent]) -> None: ...

    def moved_on(self, live: Sent, later: int) -> bool:
        """The chat has moved on past this message (it is buried under newer ones).
        `later`: the messages its chat or thread has had since, as every process of the
        bot counted them (where the front end counts them: `LiveBoards.message_in`)."""
        ...

    async def answer_in_place(self, reply: Reply, asked: Asked) -> Sent | None:
        """Show the asker alone a reply where they asked (an ephemeral message); `asked.pressed`
        may be edited instead when it was private."""
        ...

    async def private_place(self, user: UserRef, contact: Contact) -> ChatRef | None:
        """Where `user` can be written to unasked (their private chat, a DM they asked
        for), or None."""
        ...

    async def cannot_reach(
        self, chat: ChatRef, user: UserRef, session_id: int | None, language: str
    ) -> Sent | None:
        """Tell the chat how `user` can let the bot write to them (a link), if the platform
        has such a way, in their `language`; the message sent, if any."""
        ...
