"""How every board's alt text ends: the reader's own part (a hand, in the view its owner
alone is shown), then the last move, each said in the reader's language, and the whole
joined into one text. One place, so a new renderer ends its words as the others do."""

from __future__ import annotations

from engines.text import Msg, msg
from languages import say


def told(parts: list, view: dict, language: str, own: Msg | None = None) -> str:
    """`parts` (messages or plain text) with the viewer's `own` words and the last move."""
    if own is not None:
        parts.append(own)
    if view.get("last"):
        parts.append(msg("Last: {last}", last=view["last"]))
    return " ".join(say(part, language) for part in parts)
