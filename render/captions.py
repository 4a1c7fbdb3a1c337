"""The caption under a board: what just happened, then what comes next."""

from __future__ import annotations

from PIL import Image

from engines.text import from_json
from languages import DEFAULT, say
from render import lettering, png_bands
from render.palette import NIGHT, WHITE, drawer, new_image
from render.scene import Scene


def footer(last, status, over: bool, *said: str, language: str = DEFAULT) -> list[str]:
    """The caption under a board: what just happened, then what comes next, said in
    `language` (messages; plain text shown as it is). Once the game is over, the status is
    left out when the last line already says it (every one of `said`, such as the winner's
    name and "wins", is in its English): the same news twice reads as a fault."""
    last = from_json(last)
    lines = [say(last, language)] if last else []
    if not (over and last and all(part in str(last) for part in said)):
        lines.append(say(status, language))
    return lines


def _wrapped(lines: list[str], size: int, width: int, top: int) -> tuple[list[str], int, int]:
    """The caption's lines wrapped to the picture's width, the y of the first and the
    band's height. Each line has a band of the PNG's rows of its own (render/png_bands.py:
    32 rows, its words 2 rows in), the first the band that begins 4 rows or more under the
    board: a move changes a line or two, and a kept canvas deflates those lines' bands
    again, not one more each for a line that straddles two."""
    wrapped: list[str] = []
    for line in lines:
        wrapped += lettering.wrap(line, size, width - 40)
    rows = png_bands.BAND_ROWS
    first = -(-(top + 4) // rows) * rows
    return wrapped, first + 2, first - top + rows * max(1, len(wrapped)) + 6


def bar(scene: Scene, lines: list[str], size: int = 22) -> None:
    """`caption_bar` as parts of a scene: the band under the board (which grows the scene by
    its height), then each line on it, a part of its own, so a line that stays stays."""
    width, top = scene.size
    wrapped, y, height = _wrapped(lines, size, width, top)
    scene.size = (width, top + height)
    scene.fill((0, top, width, top + height), NIGHT)
    for line in wrapped:
        if line:
            scene.add(lettering.text_box((20, y), line, size), _line, 20, y, line, size)
        y += png_bands.BAND_ROWS


def _line(draw, x: int, y: int, line: str, size: int) -> None:
    lettering.text(draw, (x, y), line, size, WHITE)


def caption_bar(img: Image.Image, lines: list[str], size: int = 22) -> Image.Image:
    """Append a band under the picture with what just happened and whose turn it is."""
    wrapped, y, height = _wrapped(lines, size, img.width, img.height)
    if img.mode == "P":
        out = new_image((img.width, img.height + height), NIGHT)
    else:
        out = Image.new("RGB", (img.width, img.height + height), NIGHT)
    out.paste(img, (0, 0))
    draw = drawer(out)
    for line in wrapped:
        lettering.text(draw, (20, y), line, size, WHITE)
        y += png_bands.BAND_ROWS
    return out
