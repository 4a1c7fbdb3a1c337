"""A board as a CPU worker makes it: drawn, encoded and told, each step timed. Plain data
in and out (no service types), so a worker process imports `render` alone for it."""

from __future__ import annotations

import time
from collections.abc import Hashable

import render  # its functions looked up at each call (a test may hold one back)
from languages import DEFAULT
from render.png_bands import BandedEncoder

# The last board of each table (and seat, and language) this process drew, its bands
# deflated: a move's picture deflates only the bands of rows that changed
# (render/png_bands.py). A table's boards come to the same worker while it lives
# (bot/service/pictures/workers.py), so it keeps the tables it is given.
BANDS = BandedEncoder(kept=24)


def board(
    game_id: str,
    view: dict,
    recent: list | None = None,
    language: str = DEFAULT,
    alt: str | None = None,
    table: Hashable = None,
) -> tuple[bytes, str, float, float] | None:
    """(PNG, alt text, seconds drawing, seconds encoding); None for a game without a
    renderer. `alt`: the view's words when the caller has them already (said once);
    `table`: whose boards these are (a table and seat): its last board's bands are reused."""
    started = time.perf_counter()
    try:
        image = render.board_image(game_id, view, recent, language)
    except KeyError:
        return None
    drawn = time.perf_counter()
    png = render.encoded_board(image, BANDS, (game_id, language, table))
    encoded = time.perf_counter()
    if alt is None:
        alt = render.describe(game_id, view, language)
    return png, alt, drawn - started, encoded - drawn


def rules(game_id: str, language: str = DEFAULT) -> tuple[bytes, str] | None:
    """A game's rules illustration and its words; None without a renderer."""
    try:
        return render.rules_png(game_id, language), render.describe_rules(game_id, language)
    except KeyError:
        return None


def band_counts() -> tuple[int, int]:
    """(bands reused, bands deflated) by this process's boards so far (a bench's
    measure: bench/bands.py)."""
    return BANDS.reused, BANDS.deflated
