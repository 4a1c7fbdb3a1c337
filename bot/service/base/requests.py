"""What a request names: the chat a table lives in and the person asking; and the refusal.

Whatever a platform sends is made safe here, in the constructors, so nothing a platform
sends can raise out of the service or reach the store unclean.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.service.base.platform_input import clean_id, clean_name
from engines.text import Text


class UserError(Exception):
    """A request refused with a message for the user; nothing was changed.

    `message`: a `Msg`, said in the asker's language, or plain English; `str(error)` is
    its English (for logs and tests). `secret`: the message tells what only the asker may
    know (an engine's refusal in a game with hidden hands names their cards and moves), so
    a front end must show it to the asker alone, never in the chat.

    `reason`: a short word for why, counted in the metrics (a refused move's reason)."""

    def __init__(self, message: Text, *, secret: bool = False, reason: str = "refused") -> None:
        super().__init__(message)
        self.msg = message
        self.secret = secret
        self.reason = reason


@dataclass(frozen=True)
class ChatRef:
    """Where a game lives. `scope` groups chats (a Discord server) for `/escape games`."""

    platform: str
    chat: str
    thread: str = ""
    scope: str = ""
    # the language the platform says the place prefers (a Discord server's; in a Telegram
    # group, the asker's): a new table speaks it unless the chat was given one
    language: str = field(default="", compare=False)

    def __post_init__(self) -> None:  # whatever a platform sent, a ref is safe to store and show
        for name in ("platform", "chat", "thread", "scope", "language"):
            object.__setattr__(self, name, clean_id(getattr(self, name)))


@dataclass(frozen=True)
class UserRef:
    platform: str
    id: str
    name: str
    language: str = field(default="", compare=False)  # what their app is set to, if known

    def __post_init__(self) -> None:
        object.__setattr__(self, "platform", clean_id(self.platform))
        object.__setattr__(self, "id", clean_id(self.id))
        object.__setattr__(self, "name", clean_name(self.name))
        object.__setattr__(self, "language", clean_id(self.language))


@dataclass(frozen=True)
class Contact:
    """How a person can be reached outside the table's chat: the private chat they opened
    with the bot (known once they pressed START), and whether they asked for reminders and
    their turns by private message (`/escape clock dm on`)."""

    private_chat: str | None = None
    wants_dm: bool = False
    language: str = ""  # what they chose to read (`/escape language` in a private chat)
    seen_language: str = ""  # what their app said when they last used the bot
