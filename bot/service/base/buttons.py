"""Every button the bot posts: one small class per kind, each with its encoding and its
facts; `parse` turns data a platform hands back into the right one, or refuses it. The one
parser of button data, and the one place of its size limit (`MAX_BYTES`).

The data is compact ASCII, at most 48 bytes (Telegram's callback data holds 64, Discord's
custom id 100 with our prefix), and checked like any other input (it may be stale or
forged). The wire forms are those of buttons already posted in chats, so a button posted
yesterday under a board still works today (ids, versions, seats, indexes and page numbers
are decimal). A table's buttons (`Button`, S its session):
  a:S:V:SEAT:I  `Act`          j:S `Join`   l:S `Leave`   b:S `Begin`
  v:S `MyView`  g:S `BoardAgain`  k:S `VoteReplace`  o:S `AddBot`  x:S `RemoveBot`
  y:S `Replay`  w:S `Review`   r:S `Rematch`
  p:S:I `ReplayPage`  n:S:I `LogPage`  h:S:I `HistoryPage`  u:S:V / d:S:V `UndoAnswer`
  s:S:SEAT `TakeSeat`
and the others: t:L:STEP:I / t:L:p `LessonButton` (L: the lesson's number), T:ID:j|l|s
`TournamentButton`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from bot.service.base.requests import UserError
from engines.text import msg

MAX_BYTES = 48
NOT_OURS = msg("That button is not one of ours; use the buttons under the latest board.")

_SESSION = r"([0-9]{1,12})"
_NUMBER = r"([0-9]{1,9})"


class Wire:
    """What every kind of button has: its first letter on the wire, the form its data
    takes, and how its data is read back."""

    code: ClassVar[str]
    _form: ClassVar[re.Pattern[str]]

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "code" in cls.__dict__:
            KINDS[cls.code] = cls

    @property
    def data(self) -> str:
        raise NotImplementedError

    @classmethod
    def _read(cls, code: str, numbers: list[int]) -> Wire:
        return cls(*numbers)


class Stage(Enum):
    """When a button of a table still does something."""

    ANY = "any"  # the lobby's: the lobby itself refuses once the game has begun
    BEGUN = "begun"  # the table's memory (replays, logs, undo): not before the game begins
    LIVE = "live"  # the running game's: not once it is over


@dataclass(frozen=True)
class Button(Wire):
    """A button of one table (`session_id`)."""

    session_id: int

    stage: ClassVar[Stage] = Stage.LIVE
    posts_here: ClassVar[bool] = False  # posts in the table's chat what anyone could ask:
    #   a member of that chat may press it there, not only a player
    members_may: ClassVar[bool] = False  # any member of the table's chat may press it
    works_privately: ClassVar[bool] = False  # pressed in a player's private chat, it acts

    @property
    def data(self) -> str:
        return f"{self.code}:{self.session_id}"


KINDS: dict[str, type[Wire]] = {}


class _Simple(Button):
    _form = re.compile(rf"[a-z]:{_SESSION}")


@dataclass(frozen=True)
class _Paged(Button):
    page: int
    _form = re.compile(rf"[a-z]:{_SESSION}:{_NUMBER}")
    stage = Stage.BEGUN

    @property
    def data(self) -> str:
        return f"{self.code}:{self.session_id}:{self.page}"


@dataclass(frozen=True)
class Act(Button):
    """Take the `index`-th legal action of `seat` on the board of `version`."""

    version: int
    seat: int
    index: int
    code = "a"
    works_privately = True
    _form = re.compile(rf"a:{_SESSION}:{_NUMBER}:([0-9]{{1,2}}):([0-9]{{1,4}})")

    @property
    def data(self) -> str:
        return f"a:{self.session_id}:{self.version}:{self.seat}:{self.index}"


class Join(_Simple):
    code = "j"
    stage = Stage.ANY
    members_may = True


class Leave(_Simple):
    code = "l"
    stage = Stage.ANY


class Begin(_Simple):
    code = "b"
    stage = Stage.ANY


class AddBot(_Simple):
    code = "o"
    stage = Stage.ANY


class RemoveBot(_Simple):
    code = "x"
    stage = Stage.ANY


class MyView(_Simple):
    """Show me my private view."""

    code = "v"


class BoardAgain(_Simple):
    code = "g"
    posts_here = True


class VoteReplace(_Simple):
    """Vote to hand the late player's seat to a stand-in."""

    code = "k"


class Review(_Simple):
    """My review of a finished game: answered to its reader alone."""

    code = "w"


class Replay(_Simple):
    """The animated replay."""

    code = "y"
    stage = Stage.BEGUN
    posts_here = True


class Rematch(_Simple):
    """A rematch: the same players and options."""

    code = "r"
    stage = Stage.BEGUN
    posts_here = True


class ReplayPage(_Paged):
    """The replay board by board."""

    code = "p"
    posts_here = True


class LogPage(_Paged):
    code = "n"
    posts_here = True


class HistoryPage(_Paged):
    """A page of the finished games of the table's chat."""

    code = "h"
    posts_here = True


@dataclass(frozen=True)
class TakeSeat(Button):
    """Take the seat `seat`, offered to a new player (`/escape offer`): any member of the
    table's chat may press it."""

    seat: int
    code = "s"
    members_may = True
    _form = re.compile(rf"s:{_SESSION}:([0-9]{{1,2}})")

    @property
    def data(self) -> str:
        return f"s:{self.session_id}:{self.seat}"


@dataclass(frozen=True)
class UndoAnswer(Button):
    """Accept (u) or decline (d) the undo asked at `version`."""

    version: int
    accept: bool
    stage = Stage.BEGUN
    _form = re.compile(rf"[ud]:{_SESSION}:{_NUMBER}")

    @property
    def data(self) -> str:
        return f"{'u' if self.accept else 'd'}:{self.session_id}:{self.version}"

    @classmethod
    def _read(cls, code: str, numbers: list[int]) -> Button:
        return cls(numbers[0], numbers[1], code == "u")


KINDS["u"] = KINDS["d"] = UndoAnswer


@dataclass(frozen=True)
class LessonButton(Wire):
    """A lesson's button, for whoever presses it (their own lesson): the `index`-th legal
    move at `step` of lesson number `lesson`, or with no step, a real game against a bot."""

    lesson: int
    step: int | None = None
    index: int = 0
    code = "t"
    _form = re.compile(r"t:([0-9]{1,2}):(?:([0-9]{1,3}):([0-9]{1,3})|p)")

    @property
    def data(self) -> str:
        if self.step is None:
            return f"t:{self.lesson}:p"
        return f"t:{self.lesson}:{self.step}:{self.index}"

    @classmethod
    def _read(cls, code: str, numbers: list[int | None]) -> Wire:
        lesson, step, index = numbers
        return cls(lesson, step, index or 0)  # type: ignore[arg-type]


@dataclass(frozen=True)
class TournamentButton(Wire):
    """A tournament's sign-up message's button: join (j), leave (l) or its standings (s)."""

    tournament_id: int
    what: str
    code = "T"
    _form = re.compile(rf"T:{_SESSION}:([jls])")

    @property
    def data(self) -> str:
        return f"T:{self.tournament_id}:{self.what}"

    @classmethod
    def _read(cls, code: str, numbers: list) -> Wire:
        return cls(numbers[0], str(numbers[1]))


def parse(data: object) -> Wire:
    """The button that `data` encodes; anything else is refused with one message."""
    kind = KINDS.get(data[:1]) if isinstance(data, str) and len(data) <= MAX_BYTES else None
    match = kind._form.fullmatch(data) if kind is not None else None  # type: ignore[arg-type]
    if kind is None or match is None:
        raise UserError(NOT_OURS)
    read = [int(n) if n is not None and n.isdigit() else n for n in match.groups()]
    return kind._read(data[0], read)  # type: ignore[index]


def table_button(data: object) -> Button:
    """The table's button that `data` encodes; any other is refused as `parse` refuses."""
    button = parse(data)
    if not isinstance(button, Button):
        raise UserError(NOT_OURS)
    return button
