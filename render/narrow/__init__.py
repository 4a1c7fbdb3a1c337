"""Boards for a narrow screen (a phone, 390 CSS px wide): the board alone, without the side
panels (the page says the players, the caption and the log as text beside it), drawn
`WIDTH` pixels wide with no word smaller than `SMALLEST` pixels, so that shown across a
phone (some 366 CSS px) every word on it reads at 11 CSS px or more. The page asks for this
layout when it is narrower than the wide board's own width.

One module a game (`render/narrow/<game_id>.py`) with `draw(view, language)` and
`regions(view, actions)`: every move with a place on the narrow board can be tapped there.
A game without one is shown by its wide board, scaled (`has` says which)."""

from __future__ import annotations

import importlib

from languages import DEFAULT
from render.palette import to_png
from render.renderers import in_language

WIDTH = 520
SMALLEST = 16  # drawn pixels: 16 x 366 / 520 = 11.3 CSS px across a phone
GAMES = ("castle_doors", "dark_castle", "ghosts18", "haunted_house", "hidden_castle")

Box = tuple[int, int, int, int]


def has(game_id: str) -> bool:
    return game_id in GAMES


def _module(game_id: str):
    if not has(game_id):
        raise KeyError(f"no narrow board for {game_id!r}")
    return importlib.import_module(f"render.narrow.{game_id}")


def draw(game_id: str, view: dict, language: str = DEFAULT):
    return in_language(_module(game_id).draw, view, language=language)


def png(game_id: str, view: dict, language: str = DEFAULT) -> bytes:
    return to_png(draw(game_id, view, language))


def regions(game_id: str, view: dict, actions: list[str]) -> dict[str, Box]:
    """Where on the narrow board each of `actions` is tapped (those with a place)."""
    return dict(_module(game_id).regions(view, list(actions))) if has(game_id) else {}
