"""Each game's renderer module (`render/<game_id>.py`) found by its game id, and its
functions called in a language: shared by the board pictures (render/__init__.py), the
rules pictures (render/rules.py) and the animations (render/animation.py)."""

from __future__ import annotations

import importlib
import inspect
from functools import cache
from types import ModuleType


def renderer(game_id: str) -> ModuleType:
    """The renderer module of `game_id`; KeyError when there is none."""
    if not game_id.isidentifier():
        raise KeyError(game_id)
    try:
        return importlib.import_module(f"render.{game_id}")
    except ModuleNotFoundError as exc:
        raise KeyError(f"no renderer for {game_id!r}") from exc


@cache
def _speaks(function) -> bool:
    """Whether a renderer's function takes the language (every one does, once its words
    are messages)."""
    return "language" in inspect.signature(function).parameters


def in_language(function, *args, language: str):
    """`function(*args)`, told the language when it takes one."""
    return function(*args, language=language) if _speaks(function) else function(*args)
