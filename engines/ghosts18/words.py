"""The words 18 Ghosts names things with, as messages: a colour or a direction is an
argument of a sentence, said in the reader's language with it."""

from __future__ import annotations

from engines.text import in_context

COLOUR = {
    "red": in_context("colour", "red"),
    "blue": in_context("colour", "blue"),
    "yellow": in_context("colour", "yellow"),
}
COLOUR_TITLE = {  # at the start of a button
    "red": in_context("colour", "Red"),
    "blue": in_context("colour", "Blue"),
    "yellow": in_context("colour", "Yellow"),
}
DIRECTION = {
    "up": in_context("direction", "up"),
    "right": in_context("direction", "right"),
    "down": in_context("direction", "down"),
    "left": in_context("direction", "left"),
}
