"""The delivery plan: what every service call gives back, saying what to show, to whom,
and where. Front ends only deliver it; none of them decides who may see what.

A plan is an ordered list of `Reply` values with a few facts about the table:
- a reply with `to=None` is for everyone in the table's chat; `live` marks the session's
  one live message (its lobby, then its board), which a newer one edits or replaces;
- a reply with `to=user` is for that person alone: in a game with secrets, each player
  to act gets one such message a plan, holding what the move told them privately, their
  view and their own moves; nothing private ever rides on a public reply;
- `Choice.role` says what a button is (a move, the shared "my view" button, or a plain
  shared button), so no front end parses the data the service reads back.

A private view a front end may not be able to deliver (a player who cannot be reached
unasked) is drawn only when delivered (`Reply.drawn`): nothing draws a picture it does
not send.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field

from bot.service.base.requests import UserRef
from engines.text import Text

MOVE = "move"  # one of a player's legal moves (`for_user` is that player)
VIEW = "view"  # the shared "My hand / my view" button of a game with secrets
SHARED = "shared"  # any other button (join, begin, replay, vote...)

LIVE_KINDS = ("board", "lobby")


@dataclass(frozen=True)
class Picture:
    png: bytes
    alt: str
    filename: str = "board.png"
    language: str = "en"  # the language of its labels and alt text


@dataclass(frozen=True)
class Choice:
    """A button. `data` is opaque to front ends (at most `buttons.MAX_BYTES` ASCII bytes): hand it back to
    `GameService.press` exactly as it was, from whoever clicks it."""

    label: Text
    data: str
    style: str = "secondary"  # primary, secondary, success, danger
    for_user: str | None = None  # the user id this choice is offered to; None: anyone
    role: str = SHARED


@dataclass
class Reply:
    """One message. Its `text` and the labels of its `choices` are messages (`Msg`) or
    plain text; delivery says them in the reader's language (`language`, once said)."""

    text: Text
    kind: str = "info"  # board, lobby, private, log, rules, help, games, reminder, info...
    picture: Picture | None = None
    choices: list[Choice] = field(default_factory=list)
    to: UserRef | None = None  # None: everyone in the chat; else only this user may see it
    mention: list[UserRef] = field(default_factory=list)  # whom to ping (the players to act)
    session_id: int | None = None
    version: int | None = None
    final: bool = False  # the game ended with this reply
    later: Callable[[str], Awaitable[Picture | None]] | None = field(
        default=None, repr=False, compare=False
    )  # the picture in a given language, drawn when the reply is delivered
    language: str = ""  # set on the copy delivery makes in its reader's language
    # a last line said only where the front end shows the shared My hand button
    # (`Transport.view_button`): a terminal or a page, which show the hand, leave it out
    aside: Text = ""
    # a private view's own lines (a hand): said instead of its whole words where the
    # front end shows those on request (`Transport.brief_views`: the terminal)
    brief: Text = ""

    @property
    def private(self) -> bool:
        return self.to is not None

    @property
    def live(self) -> bool:
        """The session's live message in its chat (its lobby or board)."""
        return self.to is None and self.kind in LIVE_KINDS and self.session_id is not None

    def moves(self) -> list[Choice]:
        return [c for c in self.choices if c.role == MOVE]

    async def drawn(self, language: str = "en") -> Reply:
        """This reply with its picture in `language`, drawn now if it was left for delivery
        or is in another language."""
        stale = self.picture is not None and self.picture.language != language
        if (self.picture is None or stale) and self.later is not None:
            self.picture = await self.later(language)
        return self


@dataclass(frozen=True)
class TableFacts:
    """What a front end needs to know about the table a plan concerns."""

    session_id: int
    version: int
    game_id: str
    title: str
    secrets: bool  # players see more than the table: views and moves are private
    over: bool = False  # the game has ended (finished or aborted)
    language: str = "en"  # what the table speaks (its board, its notices)


@dataclass
class Plan(Sequence[Reply]):
    """What one request (or a timer) produced, in the order it should be shown.

    `quiet`: only the asker needs these replies; a front end that can answer one person in
    place (an ephemeral message, the terminal) shows them to the asker alone.
    `fresh`: the asker wants to see the table now: its board is posted anew, not edited.
    `language`: what the chat reads (the table's language, else the chat's).
    """

    replies: list[Reply] = field(default_factory=list)
    table: TableFacts | None = None
    asker: UserRef | None = None
    quiet: bool = False
    fresh: bool = False
    language: str = ""

    def __getitem__(self, index):  # a plan reads as the list of its replies
        return self.replies[index]

    def __len__(self) -> int:
        return len(self.replies)

    def __iter__(self) -> Iterator[Reply]:
        return iter(self.replies)

    @property
    def public(self) -> list[Reply]:
        return [r for r in self.replies if r.to is None]

    @property
    def board(self) -> Reply | None:
        """The newest live message of the plan (a board or lobby), if it has one."""
        return next((r for r in reversed(self.replies) if r.live), None)

    def for_user(self, user_id: str) -> list[Reply]:
        return [r for r in self.replies if r.to is not None and r.to.id == user_id]

    def then(self, other: Plan | Sequence[Reply]) -> Plan:
        """This plan followed by another's replies (the later table facts win)."""
        table = other.table if isinstance(other, Plan) and other.table else self.table
        return Plan(
            [*self.replies, *other], table, self.asker, self.quiet, self.fresh, self.language
        )
