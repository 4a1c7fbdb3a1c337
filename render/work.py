"""A board as a CPU worker makes it: drawn, encoded and told, each step timed. Plain data
in and out (no service types), so a worker process imports `render` alone for it.

A worker keeps the last picture of each table as each seat sees it in each language (a
canvas, render/canvas.py), the least recently drawn dropped beyond `KEPT`: a table's next
board repaints only the parts that changed and deflates only the bands of rows they reach.
A public board and a seat's own view never share a canvas (the seat is in the key, None
for the public board), so nothing of a private view is ever painted under a public one.
A picture's bytes do not depend on what was kept (tests/conformance/test_kept_canvas.py):
a board drawn by another worker, or after its canvas was dropped, is the same PNG.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Hashable

import render  # its functions looked up at each call (a test may hold one back)
from languages import DEFAULT
from render.canvas import Canvas

# Canvases a worker keeps, 0.9-1.3 MB each (a board's rows and its deflated bands): 24 is
# ~30 MB a worker, every table of `make bench`'s 24 at once even without a table's boards
# going to one worker.
KEPT = 24


class Canvases:
    """The kept canvases of one process, by (table and seat, game, language)."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._lock = threading.Lock()  # a bot without workers draws on threads
        self._canvases: OrderedDict[Hashable, Canvas] = OrderedDict()
        self.rows = self.deflated_rows = self.painted_rows = 0  # so far (the bench reads them)

    def take(self, key: Hashable) -> Canvas:
        """The canvas of `key` (taken out while it is painted: another thread drawing the
        same table meanwhile paints a new one), or a new one."""
        with self._lock:
            return self._canvases.pop(key, None) or Canvas()

    def keep(self, key: Hashable, canvas: Canvas) -> None:
        with self._lock:
            self._canvases[key] = canvas
            while len(self._canvases) > self.kept:
                self._canvases.popitem(last=False)

    def counted(self, canvas: Canvas, deflated: int) -> None:
        self.rows += canvas.size[1]
        self.deflated_rows += deflated
        self.painted_rows += canvas.painted_rows

    def __len__(self) -> int:
        return len(self._canvases)


CANVASES = Canvases()


def board(
    game_id: str,
    view: dict,
    recent: list | None = None,
    language: str = DEFAULT,
    alt: str | None = None,
    canvas: Hashable = None,
) -> tuple[bytes, str, float, float] | None:
    """(PNG, alt text, seconds drawing, seconds encoding); None for a game without a
    renderer. `alt`: the view's words when the caller has them already (said once).
    `canvas`: whose picture this is (a table and a seat, None for its public board), kept
    for its next board; None: drawn on a canvas of its own, kept by nobody."""
    key = None if canvas is None else (canvas, game_id, language)
    kept = Canvas() if key is None else CANVASES.take(key)
    started = time.perf_counter()
    try:
        render.paint_board(kept, game_id, view, recent, language)
    except KeyError:
        return None  # no renderer (a canvas that painted part of a board is dropped)
    drawn = time.perf_counter()
    deflated = kept.to_deflate()
    png = kept.png()
    encoded = time.perf_counter()
    if key is not None:
        CANVASES.keep(key, kept)
        CANVASES.counted(kept, deflated)
    if alt is None:
        alt = render.describe(game_id, view, language)
    return png, alt, drawn - started, encoded - drawn


def narrow_board(game_id: str, view: dict, language: str = DEFAULT) -> bytes | None:
    """A board for a narrow screen (render/narrow), as PNG; None for a game without one."""
    try:
        return render.narrow.png(game_id, view, language)
    except KeyError:
        return None


def reuse() -> tuple[int, int, int, int]:
    """A job: this process's kept canvases, and the rows of the boards drawn on them so far,
    those deflated and those painted again (`bench` asks every worker)."""
    return len(CANVASES), CANVASES.rows, CANVASES.deflated_rows, CANVASES.painted_rows


def rules(game_id: str, language: str = DEFAULT) -> tuple[bytes, str] | None:
    """A game's rules illustration and its words; None without a renderer."""
    try:
        return render.rules_png(game_id, language), render.describe_rules(game_id, language)
    except KeyError:
        return None
