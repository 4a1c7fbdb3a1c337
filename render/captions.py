"""The caption under a board: what just happened, then what comes next."""

from __future__ import annotations

from PIL import Image

from engines.text import from_json
from languages import DEFAULT, say
from render import lettering
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


def _wrapped(lines: list[str], size: int, width: int) -> tuple[list[str], int]:
    """The caption's lines wrapped to the picture's width, and the band's height."""
    wrapped: list[str] = []
    for line in lines:
        wrapped += lettering.wrap(line, size, width - 40)
    return wrapped, 20 + int(size * 1.35) * max(1, len(wrapped))


def bar(scene: Scene, lines: list[str], size: int = 22) -> None:
    """`caption_bar` as parts of a scene: the band under the board (which grows the scene by
    its height), then each line on it, a part of its own, so a line that stays stays."""
    width, top = scene.size
    wrapped, height = _wrapped(lines, size, width)
    scene.size = (width, top + height)
    scene.fill((0, top, width, top + height), NIGHT)
    y = top + 10
    for line in wrapped:
        if line:
            scene.add(lettering.text_box((20, y), line, size), _line, 20, y, line, size)
        y += int(size * 1.35)


def _line(draw, x: int, y: int, line: str, size: int) -> None:
    lettering.text(draw, (x, y), line, size, WHITE)


def caption_bar(img: Image.Image, lines: list[str], size: int = 22) -> Image.Image:
    """Append a band under the picture with what just happened and whose turn it is."""
    wrapped, height = _wrapped(lines, size, img.width)
    if img.mode == "P":
        out = new_image((img.width, img.height + height), NIGHT)
    else:
        out = Image.new("RGB", (img.width, img.height + height), NIGHT)
    out.paste(img, (0, 0))
    draw = drawer(out)
    y = img.height + 10
    for line in wrapped:
        lettering.text(draw, (20, y), line, size, WHITE)
        y += int(size * 1.35)
    return out
