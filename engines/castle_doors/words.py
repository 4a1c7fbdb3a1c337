"""The words Castle Doors names things with, as messages: a colour, a card, a tile's kind,
a direction or an edge is an argument of a sentence, said in the reader's language."""

from __future__ import annotations

from engines.text import in_context

COLOUR = {
    "red": in_context("colour", "red"),
    "blue": in_context("colour", "blue"),
    "green": in_context("colour", "green"),
    "yellow": in_context("colour", "yellow"),
}
CARD = {
    "key red": in_context("card", "red key"),
    "key blue": in_context("card", "blue key"),
    "key green": in_context("card", "green key"),
    "key yellow": in_context("card", "yellow key"),
    "skeleton": in_context("card", "skeleton key"),
    "padlock": in_context("card", "padlock"),
    "passage": in_context("card", "secret passage"),
    "hacksaw": in_context("card", "hacksaw"),
    "net": in_context("card", "net"),
}
KIND = {  # what a door tile shows, with its article ("It shows an open door.")
    "open door": in_context("tile", "an open door"),
    "barred door": in_context("tile", "a barred door"),
    "extra key": in_context("tile", "an extra key tile"),
    "extra turn": in_context("tile", "an extra turn tile"),
}
DIRECTION = {
    "up": in_context("direction", "up"),
    "down": in_context("direction", "down"),
    "left": in_context("direction", "left"),
    "right": in_context("direction", "right"),
    "up-left": in_context("direction", "up-left"),
    "up-right": in_context("direction", "up-right"),
    "down-left": in_context("direction", "down-left"),
    "down-right": in_context("direction", "down-right"),
}
EDGE = {
    "bottom": in_context("edge", "bottom"),
    "left": in_context("edge", "left"),
    "top": in_context("edge", "top"),
    "right": in_context("edge", "right"),
}
