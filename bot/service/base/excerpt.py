"""Refusals that quote the user: at most a short excerpt of what they typed.

A refusal from the service or an engine may repeat the input ("not 'x=…'"); a 5,000-
character option repeated whole would break the platform's message limit (the user would
see nothing, or an error) and flood the chat. Adapters pass each refusal through
`short_refusal` with the text the user sent, before showing it.
"""

from __future__ import annotations

QUOTE_AT_MOST = 40  # characters of one input quoted back
LONG_WORD = 48  # an input word at least this long is never repeated whole
REFUSAL_AT_MOST = 400  # a refusal longer than this is cut whatever it quotes


def excerpt(text: str, limit: int = QUOTE_AT_MOST) -> str:
    """The start of `text`, marked as cut when it was."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def short_refusal(message: str, said: str = "", limit: int = REFUSAL_AT_MOST) -> str:
    """`message` with every long piece of `said` it repeats replaced by an excerpt, and
    the whole kept within `limit` characters."""
    words = said.split()
    pieces = [said.strip(), *words, *(w.split("=", 1)[-1] for w in words)]
    for piece in sorted({p for p in pieces if len(p) >= LONG_WORD}, key=len, reverse=True):
        for shown in (repr(piece), piece):
            if shown in message:
                message = message.replace(shown, repr(excerpt(piece)))
    if len(message) > limit:
        message = message[: limit - 1].rstrip() + "…"
    return message
