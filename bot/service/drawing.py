"""A board picture from a view: a module-level function of plain data, so the CPU pool can
run it in a worker process (where the renderers' caches live from board to board).

The worker times its drawing and its PNG encoding and hands both back with the picture;
`draw_on` records them in this process's metrics (a worker's own counters would be lost
to Prometheus, which scrapes only this process)."""

from __future__ import annotations

import time
from dataclasses import dataclass

import render
from bot.service.plan import Picture
from bot.service.workers import CpuPool
from bot.telemetry import metrics


@dataclass(frozen=True)
class Drawn:
    picture: Picture | None
    draw_seconds: float = 0.0
    encode_seconds: float = 0.0


def draw_timed(
    game_id: str, view: dict, filename: str, recent: list | None = None, language: str = "en"
) -> Drawn:
    """The PNG and its alt text in `language`, with the time each step took; no picture
    for a game without a renderer. `recent`: what happened since the last board (messages
    as JSON), told under it."""
    started = time.perf_counter()
    try:
        image = render.board_image(game_id, view, recent, language)
    except KeyError:
        return Drawn(None)
    drawn = time.perf_counter()
    png = render.to_png(image)
    encoded = time.perf_counter()
    alt = render.describe(game_id, view, language)
    return Drawn(Picture(png, alt, filename, language), drawn - started, encoded - drawn)


def draw_picture(
    game_id: str, view: dict, filename: str, recent: list | None = None, language: str = "en"
) -> Picture | None:
    """The PNG and its alt text; None for a game without a renderer."""
    return draw_timed(game_id, view, filename, recent, language).picture


async def draw_on(
    cpu: CpuPool,
    game_id: str,
    view: dict,
    filename: str,
    recent: list | None = None,
    language: str = "en",
) -> Picture | None:
    """`draw_picture` on the CPU pool, its timings recorded here."""
    drawn = await cpu.run(draw_timed, game_id, view, filename, recent, language)
    if drawn.picture is not None:
        metrics.PICTURE_DRAW_SECONDS.labels(game_id).observe(drawn.draw_seconds)
        metrics.PICTURE_ENCODE_SECONDS.labels(game_id).observe(drawn.encode_seconds)
    return drawn.picture


def draw_rules(game_id: str, language: str = "en") -> Picture | None:
    """A game's rules illustration (a worked example with numbered notes) and its words."""
    try:
        png = render.rules_png(game_id, language)
        alt = render.describe_rules(game_id, language)
    except KeyError:
        return None
    return Picture(png, alt, f"{game_id}-rules.png", language)
