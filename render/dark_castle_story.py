"""What a Dark Castle picture says in words outside the card: the caption under the board,
and which lines of the story the card's own words make needless (the card in play shows
its scene and what it asks, so neither the caption nor the log says them again)."""

from __future__ import annotations

from engines.text import Msg, joined, msg
from languages import DEFAULT, say
from render.dark_castle_words import tail


def on_the_card(line, card: dict | None) -> bool:
    """Whether a story line is the scene of the card in play, which the card itself shows
    (its title and words): said again in the log and the caption it was the same words two
    or three times on one picture, and the costliest text of a new card to lay out."""
    return (
        card is not None
        and isinstance(line, Msg)
        and line.text == "{title}: {text}"
        and str(line.args.get("title")) == str(card["title"])
    )


def told(last, card: dict | None):
    """What just happened, for the caption: the card in play named by its title only, as
    the card itself shows its words and what it asks; other lines as they were said."""
    if on_the_card(last, card):
        return msg("Next page: {title}.", title=last.args["title"])
    parts = list(last.args.values()) if isinstance(last, Msg) and last.context == "list" else []
    if not any(on_the_card(part, card) for part in parts):
        return last
    kept: list = []
    for part in parts:
        if kept and on_the_card(kept[-1], card) and getattr(part, "text", "") == "It asks: {asks}":
            continue  # what the card just turned asks: on the card (its box, log or fight)
        kept.append(part)
    return joined([told(part, card) for part in kept], " ")


def caption(view: dict, language: str = DEFAULT) -> list[str]:
    """What just happened (its end, if long), then what is asked now."""
    last = told(view["last"], view.get("card")) if view.get("last") else ""
    lines = [tail(say(last, language), 300)] if last else []
    lines.append(say(view.get("prompt") or "", language))
    return [line for line in lines if line]
