"""What a Dark Castle picture says in words outside the card: the caption under the board,
and which lines of the story the card's own words make needless (the card in play shows
its scene and what it asks, so neither the caption nor the log says them again)."""

from __future__ import annotations

from engines.text import Msg, from_json, joined, msg
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


def retold(lines: list, card: dict | None) -> list:
    """Story lines as a picture of `card` tells them: the card's own scene named by its title
    only, and what it asks (the line after its scene) left to the card, which shows both;
    lines said as one (`game._one_after_another`) taken one by one; other lines as said."""
    flat: list = []
    for line in lines:
        line = from_json(line)
        parts = line.args.values() if isinstance(line, Msg) and line.context == "list" else [line]
        flat.extend(from_json(part) for part in parts)
    kept: list = []
    for line in flat:
        if kept and on_the_card(kept[-1], card) and getattr(line, "text", "") == "It asks: {asks}":
            continue  # what the card just turned asks: on the card (its box, log or fight)
        kept.append(line)
    return [
        msg("Next page: {title}.", title=x.args["title"]) if on_the_card(x, card) else x
        for x in kept
    ]


def caption(view: dict, language: str = DEFAULT) -> list[str]:
    """What just happened (its end, if long), then what is asked now."""
    told = retold([view["last"]], view.get("card")) if view.get("last") else []
    lines = [tail(say(joined(told, " "), language), 300)] if told else []
    lines.append(say(view.get("prompt") or "", language))
    return [line for line in lines if line]


def caption_after(view: dict, recent: list, keep: int, language: str = DEFAULT) -> list[str]:
    """The caption of a board drawn with what happened since the board before (`recent`: a
    move's lines and the bots' answers): the last `keep` of those lines as the card leaves
    them, then what is asked now."""
    told = [say(line, language) for line in retold(recent, view.get("card"))][-keep:]
    asked = say(view.get("prompt") or "", language)
    return [*told, asked] if asked and asked not in told else told
