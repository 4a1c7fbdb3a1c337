"""Long text cut to a platform's message size, where a reader would cut it."""

from __future__ import annotations

from collections.abc import Callable

Length = Callable[[str], int]


def utf16_length(text: str) -> int:
    """Telegram counts UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def head_and_rest(text: str, limit: int, length: Length = len) -> tuple[str, str]:
    """(head, rest): head fits `limit`, cut at a line or word boundary where one is near,
    and marked with "…" when something follows."""
    if length(text) <= limit:
        return text, ""
    budget = limit - 1
    head = text[:budget]
    while length(head) > budget:
        head = head[:-1]
    cut = max(head.rfind("\n"), head.rfind(" "))
    if cut >= budget // 2:
        head = head[:cut]
    return head.rstrip() + "…", text[len(head) :].lstrip()


def parts(text: str, limit: int, length: Length = len) -> list[str]:
    """The messages a long text becomes: cut at line ends where possible (rules and logs
    stay readable), else at a word; no part is empty and none exceeds `limit`."""
    out: list[str] = []
    rest = text
    while length(rest) > limit:
        cut = rest.rfind("\n", 0, limit)
        if cut <= 0 or length(rest[:cut]) > limit:
            head, rest = head_and_rest(rest, limit, length)
            out.append(head.removesuffix("…"))
            continue
        out.append(rest[:cut])
        rest = rest[cut:].lstrip("\n")
    out.append(rest)
    return out


def sentences_within(text: str, limit: int) -> str:
    """A description within `limit`, cut after a whole sentence where it can be."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    cut = max(head.rfind(". "), head.rfind("; "))
    if cut >= limit // 2:
        head = head[: cut + 1]
    return head.rstrip() + "…"


def label_within(text: str, limit: int) -> str:
    """A button's label within a platform's limit: on one line, cut after a whole word
    where one ends in its second half (a cut word reads as another word, or another
    language), and marked with "…"."""
    text = " ".join(str(text).split()) or "…"
    return head_and_rest(text, limit)[0]
