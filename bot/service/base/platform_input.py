"""Text from a chat platform made safe before the service uses it.

Platforms hand us strings we do not control: a display name with a lone UTF-16 surrogate
(which no UTF-8 encoder, SQLite's included, accepts), control characters that would break a
message's lines, 10,000 characters that no message or picture can show. Everything a request
carries passes one of these on its way in (the request types call them in their
constructors, the service's entry points on their text arguments), so nothing a platform
sends can raise out of the service. Each function is idempotent: a value read back from the
store is already clean and comes out unchanged.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

MAX_ID = 100  # Discord snowflakes and Telegram ids are under 25 characters
MAX_NAME = 64  # Telegram's first name alone may be 64; Discord's display names are 32
MAX_TEXT = 100  # moves are at most 23 characters; a refusal that echoes it fits a message
NO_NAME = "(no name)"

_WHITESPACE_CONTROLS = "\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85"
# bidirectional embeddings, overrides and isolates: in a name they reverse the text after it
_BIDI_CONTROLS = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clean_id(value: object) -> str:
    """An id, a scope or a command's text: unencodable and control characters written as
    escapes (so two different ids stay different), bounded in length (a long one keeps a
    hash of the rest, for the same reason)."""
    text = value if isinstance(value, str) else str(value)
    if len(text) <= MAX_ID and text.isascii() and text.isprintable():
        return text  # every real platform id
    return _safe(text, MAX_ID)


MAX_NUMBER = 2**53 - 1  # a table, version or page number: exact in JSON and in every store


def number(value: object, most: int = MAX_NUMBER) -> int | None:
    """A whole number a person or a page sent (`12`, or 12 in JSON), or None: ASCII digits
    only (`"²".isdigit()` is true, and `int("٣")` is 3), at most `most`; never a bool, a
    float or a string that could take a long time to read."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 0 <= value <= most else None
    if (
        not isinstance(value, str)
        or not 0 < len(value) <= 20
        or not (value.isascii() and value.isdigit())
    ):
        return None
    found = int(value)
    return found if found <= most else None


def whole(value: object, least: int = 0, most: int = MAX_NUMBER) -> int | None:
    """A whole number typed anywhere (`rounds=4`, `size=3`, a season's length, quiet hours,
    a page), from `least` to `most`, else None: `number`'s rule (ASCII digits only: not
    `٣`, `３`, `२`, `1_0`, `+3` or `-1`, though Python's `int` reads every one)."""
    found = number(value, most)
    return found if found is not None and found >= least else None


_AMOUNT = re.compile(r"[0-9]{1,6}(?:\.[0-9]{1,3})?", re.ASCII)


def amount(value: object) -> float | None:
    """A quantity typed with an optional fraction (`2`, `1.5`): ASCII digits and one dot,
    nothing else (`float` reads `١٫٥`, `1_0`, `+3`, `1e3`, `inf` and `nan`)."""
    if not isinstance(value, str) or not _AMOUNT.fullmatch(value):
        return None
    return float(value)


def clean_text(value: object) -> str:
    """Free text a user typed (a move, options, a game id): like an id, but a long one is
    cut with an ellipsis (no move is that long, so it is refused with its start quoted)."""
    text = value if isinstance(value, str) else str(value)
    if len(text) <= MAX_TEXT and text.isprintable():
        return text
    return _safe(text, MAX_TEXT, distinct=False)


def clean_name(value: object) -> str:
    """A display name as people should read it: unencodable characters become U+FFFD,
    control characters a space, bidirectional overrides dropped, at most MAX_NAME long."""
    text = value if isinstance(value, str) else str(value)
    if len(text) <= MAX_NAME and text.isprintable() and not _BIDI_CONTROLS & set(text):
        return text or NO_NAME
    out = []
    for ch in text[: MAX_NAME * 4]:  # (spaces collapse below; 10,000 characters are not read)
        category = unicodedata.category(ch)
        if category == "Cs":
            out.append("\ufffd")
        elif category == "Cc" or ch in _WHITESPACE_CONTROLS:
            out.append(" ")
        elif ch not in _BIDI_CONTROLS:
            out.append(ch)
    name = " ".join("".join(out).split())
    if len(name) > MAX_NAME:
        name = name[: MAX_NAME - 1].rstrip() + "…"
    return name or NO_NAME


def _escaped(text: str) -> str:
    out = []
    for ch in text:
        if ch in _WHITESPACE_CONTROLS:
            out.append(" ")
        elif unicodedata.category(ch) in ("Cs", "Cc"):
            out.append(ch.encode("unicode_escape", "backslashreplace").decode("ascii"))
        else:
            out.append(ch)
    return "".join(out)


def _safe(text: str, limit: int, distinct: bool = True) -> str:
    """Escaped and at most `limit` long (only `limit` characters are read). A longer id ends
    in a hash of the whole, so two different ids stay different; longer free text is cut
    with an ellipsis, as a refusal that quotes it will show."""
    head = _escaped(text[:limit])
    if len(text) <= limit and len(head) <= limit:
        return head
    if not distinct:
        return head[: limit - 1] + "…"
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"{head[: limit - 17]}~{digest}"
