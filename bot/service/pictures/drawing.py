"""A board picture from a view: a module-level function of plain data, so the CPU pool can
run it in a worker process (where the renderers' caches live from board to board).

The worker times its drawing and its PNG encoding and hands both back with the picture;
`draw_on` records them in this process's metrics (a worker's own counters would be lost
to Prometheus, which scrapes only this process)."""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass

from bot.service.base.delivery_plan import Picture
from bot.service.pictures.workers import CpuPool
from bot.telemetry import metrics
from render import work


@dataclass(frozen=True)
class Drawn:
    picture: Picture | None
    draw_seconds: float = 0.0
    encode_seconds: float = 0.0


def _drawn(made: tuple | None, filename: str, language: str) -> Drawn:
    if made is None:
        return Drawn(None)
    png, alt, draw_seconds, encode_seconds = made
    return Drawn(Picture(png, alt, filename, language), draw_seconds, encode_seconds)


def draw_on(
    cpu: CpuPool,
    game_id: str,
    view: dict,
    filename: str,
    recent: list | None = None,
    language: str = "en",
    alt: str | None = None,
    canvas: tuple[int, int | None] | None = None,
) -> Awaitable[Picture | None]:
    """A board's PNG and alt text in `language`, drawn on the CPU pool (a worker imports
    `render` alone for it), its timings recorded here; None for a game without a renderer.
    `recent`: what happened since the last board (messages as JSON), told under it; `alt`:
    the view's words, when they were said already; `canvas`: the table and the seat whose
    picture it is (None: the public board), which the worker keeps to paint the next one
    where it changed (render/work.py). Handed to a worker at the call
    (`CpuPool.run_waited_for`), awaited later, by the worker that drew the table's last
    board (its canvas is there)."""
    home = None if canvas is None else canvas[0]
    made = cpu.run_waited_for(work.board, game_id, view, recent, language, alt, canvas, home=home)
    return _recorded(made, game_id, filename, language)


async def _recorded(made: Awaitable, game_id: str, filename: str, language: str) -> Picture | None:
    drawn = _drawn(await made, filename, language)
    if drawn.picture is not None:
        metrics.PICTURE_DRAW_SECONDS.labels(game_id).observe(drawn.draw_seconds)
        metrics.PICTURE_ENCODE_SECONDS.labels(game_id).observe(drawn.encode_seconds)
    return drawn.picture


async def rules_on(cpu: CpuPool, game_id: str, language: str = "en") -> Picture | None:
    """A game's rules illustration (a worked example with numbered notes) and its words,
    drawn on the CPU pool."""
    made = await cpu.run(work.rules, game_id, language)
    return None if made is None else Picture(made[0], made[1], f"{game_id}-rules.png", language)
