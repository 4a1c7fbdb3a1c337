"""Messages, not sentences: what the rules say, to be said in each reader's language.

An engine (and the service) never builds a finished sentence for a reader: it says
`msg("{name} places a {colour} ghost on {cell}.", name=..., colour=msg("red"), cell="b1")`.
The English text is the message's id in the catalogues (`locales/<language>.po`); the
arguments fill its `{placeholders}` once the text is translated, where it is delivered.
An argument is a plain value shown as it is (a player's name, a square, a number), or a
`Msg` itself (a colour, a card's name), translated in the same language.

A message becomes JSON (`to_json`) to be stored in the log and sent to the renderers
inside views, so an old game replays in whatever language its reader reads.
"""

from __future__ import annotations

import math
import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

KEY = "$msg"  # marks a message in JSON (a view, a stored event)
COMMAND = "$command"  # marks a command named in a message, in JSON
_FORMATTER = string.Formatter()


class Msg(str):
    """A message: as a string it is its English (so code and tests that only need English
    read it as one); `languages.say` says it in any other language.

    `text`: the English text with `{named}` placeholders (the catalogue's id). `args`: the
    values for them. `plural`: the English plural, when the text depends on a number:
    `count` (an argument) chooses the form by each language's plural rules. `context`:
    tells two messages with the same English apart (a card called "Ghost" and the word)."""

    text: str
    args: Mapping[str, Any]
    plural: str | None
    context: str | None

    def __new__(
        cls,
        text: str,
        args: Mapping[str, Any] | None = None,
        plural: str | None = None,
        context: str | None = None,
    ) -> Msg:
        args = dict(args or {})
        self = super().__new__(cls, _english(text, args, plural))
        self.text, self.args, self.plural, self.context = text, args, plural, context
        return self

    def __reduce__(self):  # pickled for the CPU pool's worker processes
        return (Msg, (self.text, self.args, self.plural, self.context))

    def placeholders(self) -> set[str]:
        return placeholders(self.text) | (placeholders(self.plural) if self.plural else set())

    def to_json(self) -> dict:
        out: dict[str, Any] = {KEY: self.text}
        if self.args:
            out["args"] = {k: to_json(v) for k, v in self.args.items()}
        if self.plural is not None:
            out["plural"] = self.plural
        if self.context is not None:
            out["context"] = self.context
        return out


def _english(text: str, args: Mapping[str, Any], plural: str | None) -> str:
    if plural is not None and args.get("count") != 1:
        text = plural
    if not args and "{" not in text:
        return text
    return text.format_map({k: _plain_english(v) for k, v in args.items()})


def _plain_english(value: Any) -> str:
    if isinstance(value, float) and not isinstance(value, bool):
        return f"{value:g}"  # 6.0 days read as "6 days"
    return str(value)


def msg(text: str, /, **args: Any) -> Msg:
    return Msg(text, args)


def plural(singular: str, plural_text: str, count: int, /, **args: Any) -> Msg:
    """One message in English's two forms; `count` is an argument too (`{count}`)."""
    return Msg(singular, {**args, "count": count}, plural=plural_text)


def in_context(context: str, text: str, /, **args: Any) -> Msg:
    return Msg(text, args, context=context)


@dataclass(frozen=True)
class Span:
    """A length of time as an argument of a message, said by each language's own units
    (Babel): `left` rounds up to the minute and names two units ("1d 3h", "5h 12m", "3m"),
    and under a minute says the seconds ("30s": a reminder 30 seconds before a one-minute
    deadline must not say a minute is left); otherwise the one unit it is a whole number
    of ("12h", "2d")."""

    seconds: float
    left: bool = False

    def parts(self) -> list[tuple[float, str]]:
        """(amount, unit) pairs, unit one of day, hour, minute (second: under a minute left)."""
        if self.left:
            if self.seconds < 60 - 1e-9:
                return [(max(1, math.ceil(self.seconds - 1e-9)), "second")]
            minutes = max(1, math.ceil(self.seconds / 60 - 1e-9))
            if minutes >= 24 * 60:
                return [(minutes // (24 * 60), "day"), (minutes % (24 * 60) // 60, "hour")]
            if minutes >= 60:
                return [(minutes // 60, "hour"), (minutes % 60, "minute")]
            return [(minutes, "minute")]
        for size, unit in ((86400, "day"), (3600, "hour")):
            if self.seconds % size == 0:
                return [(self.seconds / size, unit)]
        return [(self.seconds / 60, "minute")]

    def __str__(self) -> str:  # English, as `languages.say` says it in "en"
        return " ".join(f"{amount:g}{unit[0]}" for amount, unit in self.parts())


@dataclass(frozen=True)
class Command:
    """A command of the bot named in a message, as a value: each front end spells it its
    own way (`/escape start GAME` in a chat, `start GAME` at the terminal), as
    `languages.say` is told by whoever says it (`languages.spelled`). Its words are typed as
    they are; a word the reader fills in (GAME) is a message, said in their language."""

    words: tuple[Any, ...] = ()

    def __str__(self) -> str:  # English, as a chat spells it
        return " ".join(["/escape", *(str(w) for w in self.words)])

    def to_json(self) -> dict:
        return {COMMAND: [to_json(w) for w in self.words]}


def command(*words: Any) -> Command:
    """`command("start", GAME)`: the command `start GAME`, spelled by each front end."""
    return Command(tuple(words))


Text = str | Msg


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in _FORMATTER.parse(text) if name}


def english(value: Any) -> str:
    """A message as English reads it (no catalogue needed: the ids are English)."""
    if isinstance(value, dict) and KEY in value:
        return english(from_json(value))
    return str.__str__(value) if isinstance(value, str) else str(value)


def to_json(value: Any) -> Any:
    """A message (or a value holding messages) as JSON; other values unchanged."""
    if isinstance(value, Msg | Command):
        return value.to_json()
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    return value


def from_json(value: Any) -> Any:
    """The inverse of `to_json` for a stored message; other values unchanged."""
    if isinstance(value, dict) and KEY in value:
        args = {k: from_json(v) for k, v in (value.get("args") or {}).items()}
        return Msg(value[KEY], args, value.get("plural"), value.get("context"))
    if isinstance(value, dict) and COMMAND in value and isinstance(value[COMMAND], list):
        return Command(tuple(from_json(w) for w in value[COMMAND]))
    return value


def joined(parts: list[Any], sep: str = ", ") -> Msg:
    """Several values said one after the other (a list of names or cards), each translated."""
    names = {f"p{i}": part for i, part in enumerate(parts)}
    return Msg(sep.join("{" + name + "}" for name in names), names, context="list")
