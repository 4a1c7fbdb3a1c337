"""English left in German text (issue 26): `tests.english_words` for German."""

from __future__ import annotations

from tests.english_words import english_left as _english_left


def english_left(text: str, allowed: set[str] = frozenset()) -> list[str]:
    """The English words of `text` (a German text), less `allowed` (lower case)."""
    return _english_left(text, "de", allowed)
