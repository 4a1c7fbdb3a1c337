"""Finding English left in a translated text (issues 26 and 37): a word counts as English
when the English catalogue says it and no translation of that language does. Built from the
catalogues themselves, so it grows with every message; names, squares and the typed move
syntax (`place a1`, which players type in every language) are allowed."""

from __future__ import annotations

import re
from functools import cache

from babel.messages.pofile import read_po

from languages import extract

WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ]{3,}")


@cache
def english_only(language: str) -> frozenset[str]:
    with (extract.CATALOGUES / f"{language}.po").open("rb") as source:
        catalog = read_po(source, locale=language)
    english, translated = set(), set()
    for message in catalog:
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        for text in ids:
            english |= {w.lower() for w in WORD.findall(_outside_placeholders(text))}
        for text in strings:
            translated |= {w.lower() for w in WORD.findall(_outside_placeholders(text))}
    return frozenset(english - translated)


def _outside_placeholders(text: str) -> str:
    return re.sub(r"\{\w+\}|`[^`]*`|/escape [\w /|=-]+", " ", text)


def english_left(text: str, language: str, allowed: set[str] = frozenset()) -> list[str]:
    """The English words of `text` (a text in `language`), less `allowed` (lower case)."""
    return [
        w
        for w in WORD.findall(_outside_placeholders(text))
        if w.lower() in english_only(language) and w.lower() not in allowed
    ]
