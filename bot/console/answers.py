"""Answers typed at the keyboard in the reader's language: a yes (the language's own, and
English's, which always works), and a choice shown as words in the language while its code
(`short`, `hard`), the words or its number are all understood."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from bot.console.spoken import say
from languages import Text, in_context

YES = in_context("typed answer", "yes")
NO = in_context("typed answer", "no")


def plain(text: str) -> str:
    """As typed, compared: lower case, no accents ("Sí" and "si" alike), single spaces."""
    decomposed = unicodedata.normalize("NFD", text.strip().casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


def is_yes(answer: str | None, language: str) -> bool:
    """The language's yes or its first letter ("ja", "j"; "sí", "s"; "да", "д"), or
    English's ("yes", "y")."""
    typed = plain(answer or "")
    said = plain(say(YES, language))
    return bool(typed) and typed in {said, said[:1], "yes", "y"}


def chosen(answer: str, choices: Mapping[str, Text], language: str) -> str | None:
    """The code of the choice typed: its code, its words in the language, or its number
    in the list shown; None if it is none of them."""
    typed = plain(answer)
    for code, words in choices.items():
        if typed in (plain(code), plain(say(words, language))):
            return code
    if typed.isdigit() and 1 <= int(typed) <= len(choices):
        return list(choices)[int(typed) - 1]
    return None


def shown(choices: Mapping[str, Text], language: str) -> str:
    """The choices as a prompt lists them: "standard/kurz"."""
    return "/".join(say(words, language) for words in choices.values())
