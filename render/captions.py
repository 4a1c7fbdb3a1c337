"""The caption under a board: what just happened, then what comes next."""

from __future__ import annotations

from PIL import Image

from engines.text import from_json
from languages import DEFAULT, say
from render import lettering
from render.palette import NIGHT, WHITE, drawer, new_image


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


def caption_bar(img: Image.Image, lines: list[str], size: int = 22) -> Image.Image:
    """Append a band under the picture with what just happened and whose turn it is."""
    wrapped: list[str] = []
    for line in lines:
        wrapped += lettering.wrap(line, size, img.width - 40)
    height = 20 + int(size * 1.35) * max(1, len(wrapped))
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
