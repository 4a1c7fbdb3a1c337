"""A board as a CPU worker makes it: drawn, encoded and told, each step timed. Plain data
in and out (no service types), so a worker process imports `render` alone for it."""

from __future__ import annotations

import time

import render  # its functions looked up at each call (a test may hold one back)
from languages import DEFAULT
from render.png_bands import BandedEncoder

# The last board of each game and language this process drew, its bands deflated: a move's
# picture deflates only the bands of rows that changed (render/png_bands.py).
BANDS = BandedEncoder()


def board(
    game_id: str,
    view: dict,
    recent: list | None = None,
    language: str = DEFAULT,
    alt: str | None = None,
) -> tuple[bytes, str, float, float] | None:
    """(PNG, alt text, seconds drawing, seconds encoding); None for a game without a
    renderer. `alt`: the view's words when the caller has them already (said once)."""
    started = time.perf_counter()
    try:
        image = render.board_image(game_id, view, recent, language)
    except KeyError:
        return None
    drawn = time.perf_counter()
    png = render.encoded_board(image, BANDS, (game_id, language))
    encoded = time.perf_counter()
    if alt is None:
        alt = render.describe(game_id, view, language)
    return png, alt, drawn - started, encoded - drawn


def narrow_board(game_id: str, view: dict, language: str = DEFAULT) -> bytes | None:
    """A board for a narrow screen (render/narrow), as PNG; None for a game without one."""
    try:
        return render.narrow.png(game_id, view, language)
    except KeyError:
        return None


def rules(game_id: str, language: str = DEFAULT) -> tuple[bytes, str] | None:
    """A game's rules illustration and its words; None without a renderer."""
    try:
        return render.rules_png(game_id, language), render.describe_rules(game_id, language)
    except KeyError:
        return None
