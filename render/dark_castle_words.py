"""Dark Castle's words shared by its picture and its alt text: the traits (shape, colour,
letter, name), the enemy's dice and the Living Stone's faces, a character's short name, and
the end of a long text."""

from __future__ import annotations

import re

from engines.dark_castle.cards import TRAIT_LETTERS
from engines.text import Msg, in_context, msg
from render import palette

TRAIT = {  # shape, colour, letter (the initial in each language), name
    "m": ("square", palette.VERMILION, TRAIT_LETTERS["m"], msg("Might")),
    "c": ("triangle", palette.ORANGE, TRAIT_LETTERS["c"], msg("Cunning")),
    "w": ("circle", palette.SKY, TRAIT_LETTERS["w"], msg("Wisdom")),
}
STONE = {
    "crush": msg("crush a die"),
    "shelter": msg("shelter (block)"),
    "mend": msg("mend (+2 HP)"),
    "sleep": msg("sleeps"),
    "bite": msg("bites (-1 HP)"),
}
DEATH_NAMES = {
    "s": msg("Shield"),
    "mc": msg("Might+Cunning"),
    "mw": msg("Might+Wisdom"),
    "cw": msg("Cunning+Wisdom"),
}


def die_name(face: str) -> Msg:
    """A die of the enemy's row in words: a trait, or a death die's shield or split face."""
    return DEATH_NAMES.get(face) or TRAIT[face][3]


def short_name(view: dict, who: str) -> Msg:
    """A character's short name ("Cook") from the view, by their id."""
    for char in view.get("chars", []):
        if char.get("who") == who and char.get("short"):
            return char["short"]
    return Msg(who.title())


SPECIAL = ("star", palette.PURPLE, in_context("special face letter", "S"), msg("the special face"))


def tail(text: str, limit: int) -> str:
    """The end of a long text, from its first whole sentence (else its first whole word, after
    an ellipsis), never from the middle of a word."""
    if len(text) <= limit:
        return text
    tail = text[-limit:]
    sentence = re.search(r"[.!?] (?=\S)", tail)
    if sentence:
        return tail[sentence.end() :]
    return "… " + tail.split(" ", 1)[-1]
