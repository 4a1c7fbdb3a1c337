"""Dark Castle's words as messages: the card texts kept as data, and lists said as lists.

A card's title, scene text, an option's label or an item's name lives in `content/*.json`;
`card(text)` makes it a message whose id is that text (every one is listed by
`DarkCastle.texts()`, so the catalogues translate it). `listed` says several names as a list
("Might and Wisdom", "Might or Cunning"), never as words strung together.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from engines.text import Msg, joined, msg

# The keys of the content files whose string values are texts for the players (a
# companion's `trait` is its characteristic; in a card's steps `trait` is a letter).
TEXT_KEYS = ("title", "text", "name", "label", "no_death")


def card(text: Any) -> Msg:
    """A text of the cards (its English, as the content files hold it) as a message."""
    if isinstance(text, Msg):
        return text
    return Msg(str(text)) if text else Msg("")


def listed(parts: Sequence[Any], how: str = "and") -> Msg:
    """Names as a list: "A", "A and B", "A, B and C" (or: "A or B")."""
    parts = list(parts)
    if not parts:
        return Msg("")
    if len(parts) == 1:
        return (
            parts[0] if isinstance(parts[0], Msg) else Msg("{p0}", {"p0": parts[0]}, context="list")
        )
    head = joined(parts[:-1], ", ")
    if how == "or":
        return msg("{head} or {last}", head=head, last=parts[-1])
    return msg("{head} and {last}", head=head, last=parts[-1])


def content_texts(data: Any, key: str | None = None) -> Iterator[str]:
    """Every player-facing string of a content file (titles, texts, names, labels, a
    companion's characteristic, epilogues)."""
    if isinstance(data, dict):
        companion = "faces" in data and "hp" in data
        for k, v in data.items():
            if (k in ("won", "lost") and isinstance(v, str)) or (
                k == "trait" and companion and isinstance(v, str)
            ):
                yield v
            else:
                yield from content_texts(v, k)
    elif isinstance(data, list):
        for v in data:
            yield from content_texts(v, key)
    elif isinstance(data, str) and key in TEXT_KEYS and data:
        yield data
