"""What the service takes and gives: plain values an adapter turns into platform messages."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.service.platform_input import clean_id, clean_name

STORE_TROUBLE = "The game store could not save that just now (it is busy or full). Nothing changed; try again in a moment."
STORE_DAMAGED = (
    "The game store is damaged (a page of its database file is corrupt), so this could not be "
    "read or saved, and trying again will not help. The bot's operator must restore the latest "
    "backup (README: Data and backups)."
)
UNREADABLE_GAME = (
    "This game's saved position cannot be read (a damaged database, or saved in a shape this "
    "version of the bot does not know), so it cannot go on. /escape abort ends it; its log is kept."
)
STORE_RACE = "The game changed at the same moment; look at the latest board and try again."


class UserError(Exception):
    """A request refused with a message for the user; nothing was changed.

    `secret`: the message tells what only the asker may know (an engine's refusal in a game
    with hidden hands names their cards and moves), so an adapter must show it to the asker
    alone, never in the chat."""

    def __init__(self, message: str, *, secret: bool = False) -> None:
        super().__init__(message)
        self.secret = secret


@dataclass(frozen=True)
class ChatRef:
    """Where a game lives. `scope` groups chats (a Discord server) for `/escape games`."""

    platform: str
    chat: str
    thread: str = ""
    scope: str = ""

    def __post_init__(self) -> None:  # whatever a platform sent, a ref is safe to store and show
        for name in ("platform", "chat", "thread", "scope"):
            object.__setattr__(self, name, clean_id(getattr(self, name)))


@dataclass(frozen=True)
class UserRef:
    platform: str
    id: str
    name: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "platform", clean_id(self.platform))
        object.__setattr__(self, "id", clean_id(self.id))
        object.__setattr__(self, "name", clean_name(self.name))


@dataclass(frozen=True)
class Picture:
    png: bytes
    alt: str
    filename: str = "board.png"


@dataclass(frozen=True)
class Choice:
    """A button. `data` is opaque to adapters (at most 48 ASCII bytes): hand it back to
    `GameService.press` exactly as it was, from whoever clicks it."""

    label: str
    data: str
    style: str = "secondary"  # primary, secondary, success, danger
    for_user: str | None = None  # the user id this choice is offered to; None: anyone


@dataclass
class Reply:
    text: str
    kind: str = "info"  # board, lobby, private, log, rules, help, games, error, info
    picture: Picture | None = None
    choices: list[Choice] = field(default_factory=list)
    to: UserRef | None = None  # None: everyone in the chat; else only this user may see it
    mention: list[UserRef] = field(default_factory=list)  # whom to ping (the players to act)
    session_id: int | None = None
    version: int | None = None
    final: bool = False  # the game ended with this reply

    @property
    def private(self) -> bool:
        return self.to is not None
