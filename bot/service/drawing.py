"""A board picture from a view: a module-level function of plain data, so the CPU pool can
run it in a worker process (where the renderers' caches live from board to board)."""

from __future__ import annotations

import render
from bot.service.plan import Picture


def draw_picture(
    game_id: str, view: dict, filename: str, recent: list[str] | None = None
) -> Picture | None:
    """The PNG and its alt text; None for a game without a renderer. `recent`: what
    happened since the last board, told under it."""
    try:
        png = render.board_png(game_id, view, recent)
        alt = render.describe(game_id, view)
    except KeyError:
        return None
    return Picture(png, alt, filename)


def draw_rules(game_id: str) -> Picture | None:
    """A game's rules illustration (a worked example with numbered notes) and its words."""
    try:
        return Picture(
            render.rules_png(game_id), render.describe_rules(game_id), f"{game_id}-rules.png"
        )
    except KeyError:
        return None
