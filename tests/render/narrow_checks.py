"""What the narrow boards' tests share: the sizes a drawing uses, and for each game the kinds
of move its narrow board gives no place (they stay buttons); every other legal move must
have its tap region."""

from __future__ import annotations

from contextlib import contextmanager

import render
from render import lettering, tokens

BUTTONS: dict[str, set[str]] = {
    "ghosts18": set(),
    "castle_doors": {"stay", "exit", "back", "pass"},
    "hidden_castle": {"stay"},
    "haunted_house": {"done", "cancel", "pass"},
    "dark_castle": {"roll", "reroll", "keep", "drink", "stop", "cast", "pick", "done", "pass"},
}


@contextmanager
def sizes_drawn():
    """Every text size a drawing uses (words, and the letters on pieces)."""
    found: list[float] = []
    text, token = lettering.text, tokens.token

    def recorded_text(draw, xy, content, size=22, *args, **kwargs):
        if str(content).strip():
            found.append(size)
        return text(draw, xy, content, size, *args, **kwargs)

    def recorded_token(draw, centre, radius, shape, fill, label="", *args, **kwargs):
        said = tokens._label(centre, radius, shape, fill, label, None, None)
        if said is not None:
            found.append(said[2])
        return token(draw, centre, radius, shape, fill, label, *args, **kwargs)

    lettering.text, tokens.token = recorded_text, recorded_token
    try:
        yield found
    finally:
        lettering.text, tokens.token = text, token


def smallest_drawn(game_id: str, view: dict, language: str = "en") -> float:
    with sizes_drawn() as found:
        render.narrow.draw(game_id, view, language)
    return min(found)
