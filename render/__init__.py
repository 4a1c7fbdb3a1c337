"""Views to pictures: `board_png(game_id, view)` and an alt-text `describe(game_id, view)`.

Each game has a module `render/<game_id>.py` with `draw(view) -> PIL.Image` and
`describe(view) -> str`. Renderers draw views, never states, so a public picture
cannot show a secret.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from render.toolkit import to_png


def _module(game_id: str) -> ModuleType:
    if not game_id.isidentifier():
        raise KeyError(game_id)
    try:
        return importlib.import_module(f"{__name__}.{game_id}")
    except ModuleNotFoundError as exc:
        raise KeyError(f"no renderer for {game_id!r}") from exc


def board_png(game_id: str, view: dict) -> bytes:
    return to_png(_module(game_id).draw(view))


def board_image(game_id: str, view: dict):
    """The board drawn but not yet encoded: `board_png` is `to_png` of it (the two steps
    are timed apart for the metrics)."""
    return _module(game_id).draw(view)


def describe(game_id: str, view: dict) -> str:
    return _module(game_id).describe(view)


__all__ = ["board_image", "board_png", "describe", "to_png"]
