"""Every text in the reader's language: gettext catalogues read with Babel.

A language is one catalogue file, `languages/catalogues/<code>.po` (German: `de.po`),
found at start: adding a language needs that one file and no code. English needs none:
the messages' ids are their English text. `qps` is a pseudo-language made on the fly from
the English, accented and 40% longer, so that a text that escaped translation (it stays
plain English) or a picture that clips a long label shows at once.

`say(value, language)` turns a message (`engines.text.Msg`, or its JSON form inside a
view or a stored event) into text; plain strings are shown as they are (names). Numbers,
dates and durations go through Babel (`duration`, `number`), never hand-written rules.
"""

from __future__ import annotations

import string
import unicodedata
from collections.abc import Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.dates import format_date, format_timedelta
from babel.lists import format_list
from babel.numbers import format_decimal
from babel.units import format_unit

from engines.text import (
    COMMAND,
    KEY,
    Command,
    Msg,
    Span,
    Text,
    command,
    from_json,
    in_context,
    joined,
    msg,
    plural,
)
from languages.catalogues import Catalogues, pseudo

DEFAULT = "en"
PSEUDO = "qps"
CHAT = "/escape"  # how a chat spells a command: `/escape start GAME`
KEYBOARD = ""  # the terminal's: `start GAME`

# how the front end saying a text spells the commands it names (`spelled`): its prefix, and
# the group a command sits in there (Discord's `/escape admin unbar`), by the command's name
_spelling: ContextVar[str] = ContextVar("escape_command_spelling", default=CHAT)
_groups: ContextVar[Mapping[str, str] | None] = ContextVar("escape_command_groups", default=None)


@contextmanager
def spelled(prefix: str, groups: Mapping[str, str] | None = None):
    """While it lasts, commands named in what is said are spelled with `prefix` (`CHAT`,
    `KEYBOARD`), each inside its group where `groups` names one: the service names a
    command, each front end spells it."""
    token = _spelling.set(prefix)
    grouped = _groups.set(groups if groups is not None else _groups.get())
    try:
        yield
    finally:
        _groups.reset(grouped)
        _spelling.reset(token)


def spell_in_groups(groups: Mapping[str, str]) -> None:
    """From now on in this task and the tasks it starts, commands are spelled inside
    their groups (Discord's client, for what it says outside a delivery: refusals)."""
    _groups.set(groups)


def spelling(command: str = "") -> str:
    """The words before `command` as the front end saying it types them."""
    group = (_groups.get() or {}).get(command, "")
    return " ".join(w for w in (_spelling.get(), group) if w)


_catalogues = Catalogues()
_watching: list[set] = []  # while `watched()` runs: every message said, (text, context)


def available() -> list[str]:
    """The languages a table can be set to: English, each catalogue, the pseudo-language."""
    return [DEFAULT, *_catalogues.languages(), PSEUDO]


def resolve(tag: str | None, fallback: str = DEFAULT) -> str:
    """A platform's or a person's language tag ("de-DE", "de_DE.UTF-8", "pt-BR", "en") as one
    of ours; the fallback when we have none of it."""
    if not tag:
        return fallback
    code = tag.split(".")[0].replace("_", "-").strip().lower()
    if code in available():
        return code
    base = code.split("-")[0]
    return base if base in available() else fallback


def accepted(header: str | None, fallback: str = DEFAULT) -> str:
    """The best of ours in an HTTP Accept-Language header ("de-CH,de;q=0.9,en;q=0.8")."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((header or "").split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        if tag and tag != "*" and weight > 0:
            ranked.append((-weight, i, tag))
    for _, _, tag in sorted(ranked):
        found = resolve(tag, "")
        if found:
            return found
    return fallback


def say(value: Any, language: str = DEFAULT) -> str:
    """A message in `language`; a plain value as it is."""
    if isinstance(value, dict) and (KEY in value or COMMAND in value):
        value = from_json(value)
    if hasattr(value, "said_in"):  # a text that knows how to say itself (a view in words)
        return value.said_in(language)
    if isinstance(value, Span):
        return span(value, language)
    if isinstance(value, Command):
        words = [
            str(said).upper() if _is_word(w) else said
            for w in value.words
            if (said := say(w, language))
        ]
        first = str(value.words[0]) if value.words else ""
        return " ".join(w for w in (spelling(first), *words) if w)
    if not isinstance(value, Msg):
        return "" if value is None else str(value)
    if language == DEFAULT and not _watching and _plain_english(value):
        return str.__str__(value)  # its English, made when it was: nothing to say again
    for seen in _watching:
        seen.add((value.text, value.plural, value.context))
    args = {
        k: say(v, language) if _is_message(v) else _plain(v, language)
        for k, v in value.args.items()
    }
    count = value.args.get("count")
    count = count if isinstance(count, int) else None
    text = _text(value.text, value.plural, value.context, language, count)
    try:
        return text.format_map(args) if args or "{" in text else text
    except (KeyError, IndexError, ValueError):  # a catalogue's broken placeholder: English
        return value.text.format_map(args)


@lru_cache(maxsize=16384)
def _plain_english(message: Msg) -> bool:
    """Whether a message's own English (its string) is what `say` would make in English:
    its arguments are plain text without right-to-left letters (no isolate to add), whole
    numbers Babel writes as Python does (under 1,000), or such messages in turn."""
    for value in message.args.values():
        if isinstance(value, Command):  # spelled by whoever says it
            return False
        if isinstance(value, Msg):
            if not _plain_english(value):
                return False
        elif isinstance(value, str):
            if hasattr(value, "said_in") or any(_rtl(ch) for ch in value):
                return False
        elif isinstance(value, bool) or not isinstance(value, int) or not -1000 < value < 1000:
            return False
    return True


@lru_cache(maxsize=16384)
def _text(
    text: str, plural: str | None, context: str | None, language: str, count: int | None
) -> str:
    """A message's text in `language` before its placeholders are filled: looked up once
    (a picture's alt text says the same few hundred messages on every board)."""
    english = text
    if plural is not None and count != 1:
        english = plural
    if language == DEFAULT or not _translatable(text):
        return english
    if language == PSEUDO:
        return pseudo(english)
    return _catalogues.text(language, text, plural, count, context)


@lru_cache(maxsize=16384)
def _translatable(text: str) -> bool:
    """Some words outside the placeholders (a list "{p0}, {p1}" has none)."""
    bare = "".join(literal for literal, *_ in _format_parts(text))
    return any(ch.isalpha() for ch in bare)


def _format_parts(text: str):
    try:
        return list(string.Formatter().parse(text))
    except ValueError:
        return [(text, None, None, None)]


def _is_message(value: Any) -> bool:
    return (
        isinstance(value, Msg | Command)
        or (isinstance(value, dict) and (KEY in value or COMMAND in value))
        or hasattr(value, "said_in")
    )


def _is_word(value: Any) -> bool:
    """A word of a command the reader fills in (said in capitals)."""
    return isinstance(value, Msg) and value.context == "command argument"


def _plain(value: Any, language: str) -> Any:
    if isinstance(value, str):
        return isolate(value)
    if isinstance(value, Span):
        return span(value, language)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value
    return number(value, language)


FSI, PDI = "\u2068", "\u2069"  # first-strong isolate and its end (Unicode bidi, UAX #9)


def isolate(text: str) -> str:
    """A value typed by someone (a name, an excerpt) as a run of its own inside a sentence:
    wrapped in FSI ... PDI when it holds right-to-left letters, so that "محمد" reads right to
    left inside itself and the sentence around it keeps its order ("1 محمد: starts here",
    not "starts here :محمد 1"). Text without such letters cannot turn a left-to-right
    sentence round, and is left as it is. Chat clients, browsers and our pictures honour it."""
    if not text or text.startswith(FSI) or not any(_rtl(ch) for ch in text):
        return text
    return f"{FSI}{text}{PDI}"


@lru_cache(maxsize=4096)
def _rtl(ch: str) -> bool:
    return unicodedata.bidirectional(ch) in ("R", "AL")


def span(value: Span, language: str = DEFAULT) -> str:
    """A length of time in the language's narrowest units ("23h 59m", "23 Std., 59 Min.")."""
    locale = babel_locale(language)
    for length in ("narrow", "short"):
        said = [
            format_unit(amount, f"duration-{unit}", length=length, locale=locale)
            for amount, unit in value.parts()
        ]
        if not any("duration-" in part for part in said):
            break
    if language == DEFAULT:
        return " ".join(said)  # "1d 3h", as the bot always wrote it
    return format_list(said, style=f"unit-{length}", locale=locale)


@contextmanager
def watched():
    """Every message said while it is open, as (text, plural, context): a test checks
    each is in the catalogues (a text kept as data and never listed would slip by)."""
    seen: set = set()
    _watching.append(seen)
    try:
        yield seen
    finally:
        _watching.remove(seen)


@lru_cache(maxsize=16384)
def number(value: float, language: str = DEFAULT) -> str:
    """A number as the language writes it (Babel's rules, worked out once a value)."""
    return format_decimal(value, locale=babel_locale(language))


def duration(seconds: float, language: str = DEFAULT, *, direction: bool = False) -> str:
    """ "2 days", "in 2 Tagen": a span of time as the language says it."""
    return format_timedelta(
        timedelta(seconds=seconds),
        locale=babel_locale(language),
        add_direction=direction,
        threshold=1.1,
    )


@dataclass(frozen=True)
class Day:
    """A calendar day (UTC) as an argument of a message, in each language's own form:
    "2026-11-24" in English (as the bot always wrote it), "24.11.2026" in German."""

    at: float  # a Unix time within the day

    def said_in(self, language: str) -> str:
        day = datetime.fromtimestamp(self.at, UTC).date()
        if language == DEFAULT:
            return day.isoformat()
        return format_date(day, format="medium", locale=babel_locale(language))

    def __str__(self) -> str:
        return self.said_in(DEFAULT)


@dataclass(frozen=True)
class LanguageName:
    """A language's name, in the language of whoever reads it ("German", "Deutsch")."""

    code: str

    def said_in(self, language: str) -> str:
        if self.code == PSEUDO:
            return say(msg("pseudo-language (qps)"), language)
        name = babel_locale(self.code).get_display_name(babel_locale(language))
        return f"{name} ({self.code})"

    def __str__(self) -> str:
        return self.said_in(DEFAULT)


@lru_cache(maxsize=64)
def babel_locale(language: str) -> Locale:
    try:
        return Locale.parse(DEFAULT if language == PSEUDO else language.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return Locale.parse(DEFAULT)


__all__ = [
    "CHAT",
    "DEFAULT",
    "KEYBOARD",
    "PSEUDO",
    "Command",
    "Day",
    "LanguageName",
    "Msg",
    "Span",
    "Text",
    "accepted",
    "available",
    "command",
    "duration",
    "in_context",
    "isolate",
    "joined",
    "msg",
    "number",
    "plural",
    "resolve",
    "say",
    "spell_in_groups",
    "spelled",
    "spelling",
]
