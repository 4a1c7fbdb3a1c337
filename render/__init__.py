"""Views to pictures: `board_png(game_id, view, language=...)` and an alt text
`describe(game_id, view, language=...)`; `rules_png(game_id, language)`, the picture for a
game's rules.

Each game has a module `render/<game_id>.py` with `draw(view, language)` (the board and
its caption: `board(view, language)` and `caption(view, language)`), `describe(view,
language) -> str` and `illustration()`, the worked example of its rules picture (its notes
and title are messages, said in the picture's language by render/rules.py). A renderer
with `scene(view, language)` describes its board as parts (render/scene.py), which a kept
canvas (render/canvas.py) repaints only where they changed; `board` is that scene painted.
Every word a picture shows is said in `language` (`languages.say`). Renderers draw views,
never states, so a public picture cannot show a secret.
"""

from __future__ import annotations

from languages import DEFAULT, say
from render import narrow
from render.canvas import Canvas
from render.captions import bar, caption_bar
from render.palette import to_png
from render.renderers import in_language, renderer
from render.rules import rules_alt, rules_png
from render.scene import Scene, painted

RECENT_LINES = 4  # at most this many lines of what happened under a board


def board_png(
    game_id: str, view: dict, recent: list | None = None, language: str = DEFAULT
) -> bytes:
    """A board's PNG, drawn on a canvas of its own: the bytes a kept canvas writes too."""
    canvas = Canvas()
    paint_board(canvas, game_id, view, recent, language)
    return canvas.png()


def paint_board(
    canvas: Canvas, game_id: str, view: dict, recent: list | None = None, language: str = DEFAULT
) -> None:
    """Make `canvas` the board: its scene's changed parts painted again, or, for a renderer
    without a scene, the board drawn whole and taken."""
    scene = board_scene(game_id, view, recent, language)
    if scene is None:
        canvas.take(board_image(game_id, view, recent, language))
    else:
        canvas.show(scene)


def board_scene(
    game_id: str, view: dict, recent: list | None = None, language: str = DEFAULT
) -> Scene | None:
    """The board and its caption as a scene (render/scene.py); None for a renderer that
    draws its board whole (no `scene`)."""
    module = renderer(game_id)
    make = getattr(module, "scene", None)
    if make is None:
        return None
    scene = in_language(make, view, language=language)
    bar(scene, _caption(module, view, recent, language))
    return scene


def board_image(game_id: str, view: dict, recent: list | None = None, language: str = DEFAULT):
    """The board drawn but not yet encoded, on a picture of its own. `recent`: what
    happened since the board before this one (a move and the bots' answers to it, messages
    or text), told under the board in place of the last action alone, so that a player's
    own move does not vanish behind the answer."""
    scene = board_scene(game_id, view, recent, language)
    if scene is not None:
        return painted(scene)
    module = renderer(game_id)
    board = in_language(module.board, view, language=language)
    return caption_bar(board, _caption(module, view, recent, language))


def _caption(module, view: dict, recent: list | None, language: str) -> list[str]:
    """The lines under the board: its own caption, or with `recent` (two lines or more) those
    lines, then what its own caption adds."""
    if not recent or len(recent) < 2:
        return in_language(module.caption, view, language=language)
    own = getattr(module, "caption_after", None)  # a board that shows some of the story itself
    if own is not None:
        return in_language(own, view, recent, RECENT_LINES, language=language)
    told = [say(line, language) for line in recent[-RECENT_LINES:]]
    # the board's own caption, less what the recent lines already tell (its last move, which
    # Hidden Castle names while a roll waits, was said twice)
    lines = in_language(module.caption, view, language=language)
    if lines and lines[0] == say(view.get("last"), language):
        lines = lines[1:]
    lines = [line for line in lines if line not in told]
    return told + lines


def describe(game_id: str, view: dict, language: str = DEFAULT) -> str:
    return in_language(renderer(game_id).describe, view, language=language)


def own_words(game_id: str, view: dict):
    """The part of a player's view only they may read (a hand), as a message; None where
    the game's renderer tells no such part (or there is no renderer)."""
    try:
        told = getattr(renderer(game_id), "own_words", None)
    except KeyError:
        return None
    return told(view) if told is not None else None


Box = tuple[int, int, int, int]


def board_regions(game_id: str, view: dict, actions: list[str]) -> dict[str, Box]:
    """Where on the picture of `view` each of `actions` can be tapped, as (left, top,
    right, bottom) in the picture's pixels: measured with the geometry the renderer draws
    with, so a tap lands where the thing was drawn. Only actions that have a place are
    named (a pass or "done" stays a plain button); a renderer that reports no regions
    (`regions` absent) gives none. The caption goes under the board, so regions hold for
    the picture with or without it."""
    module = renderer(game_id)
    regions = getattr(module, "regions", None)
    return dict(regions(view, list(actions))) if regions is not None else {}


def describe_rules(game_id: str, language: str = DEFAULT) -> str:
    """The rules picture's alt text: what each numbered mark shows."""
    return rules_alt(game_id, language)


__all__ = [
    "board_image",
    "board_png",
    "board_regions",
    "board_scene",
    "describe",
    "describe_rules",
    "in_language",
    "narrow",
    "own_words",
    "paint_board",
    "renderer",
    "rules_png",
    "to_png",
]
