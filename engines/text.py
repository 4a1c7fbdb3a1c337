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

import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

KEY = "$msg"  # marks a message in JSON (a view, a stored event)
_FORMATTER = string.Formatter()


@dataclass(frozen=True)
class Msg:
    """`text`: the English text, with `{named}` placeholders (the catalogue's id).
    `plural`: the English plural, when the text depends on a number: `count` (an argument)
    chooses the form by each language's plural rules. `context`: tells two messages with
    the same English apart (a card called "Ghost" and the word ghost)."""

    text: str
    args: Mapping[str, Any] = field(default_factory=dict)
    plural: str | None = None
    context: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "args", MappingProxyType(dict(self.args)))

    def __hash__(self) -> int:
        return hash((self.text, self.plural, self.context, tuple(sorted(self.args.items(), key=str))))  # fmt: skip

    def __str__(self) -> str:
        return english(self)

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


def msg(text: str, /, **args: Any) -> Msg:
    return Msg(text, args)


def plural(singular: str, plural_text: str, count: int, /, **args: Any) -> Msg:
    """One message in English's two forms; `count` is an argument too (`{count}`)."""
    return Msg(singular, {**args, "count": count}, plural=plural_text)


def in_context(context: str, text: str, /, **args: Any) -> Msg:
    return Msg(text, args, context=context)


Text = str | Msg


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in _FORMATTER.parse(text) if name}


def english(value: Any) -> str:
    """A message as English reads it (no catalogue needed: the ids are English)."""
    if isinstance(value, Msg):
        text = value.text
        if value.plural is not None and value.args.get("count") != 1:
            text = value.plural
        args = {k: english(v) if isinstance(v, Msg) else v for k, v in value.args.items()}
        return text.format_map(args) if args or "{" in text else text
    if isinstance(value, dict) and KEY in value:
        return english(from_json(value))
    return str(value)


def to_json(value: Any) -> Any:
    """A message (or a value holding messages) as JSON; other values unchanged."""
    if isinstance(value, Msg):
        return value.to_json()
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    return value


def from_json(value: Any) -> Any:
    """The inverse of `to_json` for a stored message; other values unchanged."""
    if isinstance(value, dict) and KEY in value:
        args = {k: from_json(v) for k, v in (value.get("args") or {}).items()}
        return Msg(value[KEY], args, value.get("plural"), value.get("context"))
    return value


def joined(parts: list[Any], sep: str = ", ") -> Msg:
    """Several values said one after the other (a list of names or cards), each translated."""
    names = {f"p{i}": part for i, part in enumerate(parts)}
    return Msg(sep.join("{" + name + "}" for name in names), names, context="list")
