"""A line of text as the pictures draw it: runs of one font and one direction, placed from
left to right, measured with the fonts that draw them.

Plain text (DejaVu alone, left to right) is one run, measured and drawn exactly as before.
Anything else is cut into runs by `fonts.split` and ordered by `bidi.visual_runs` inside a
left-to-right line: a name in an isolate reads right to left inside itself (drawn by
Pillow's Raqm layout, which shapes Arabic's joined letters), and the line keeps its order.
Every run sits on one baseline, where DejaVu's anchor puts it, so a line's height and place
do not change when a name in another script joins it.
"""

from __future__ import annotations

from functools import lru_cache

from render import fonts
from render.bidi import CONTROLS, visual_runs

Piece = tuple[str, int, bool]  # its text in logical order, its face, right to left


@lru_cache(maxsize=4096)
def pieces(content: str) -> tuple[Piece, ...]:
    """The runs of a line in the order they are drawn from the left."""
    out: list[Piece] = []
    for start, end, level in visual_runs(content):
        segment = "".join(ch for ch in content[start:end] if ch not in CONTROLS)
        if not segment:
            continue
        rtl = level % 2 == 1
        parts = fonts.split(segment)
        for text, face in reversed(parts) if rtl else parts:
            out.append((text, face, rtl))
    return tuple(out)


def _direction(rtl: bool) -> str | None:
    return ("rtl" if rtl else "ltr") if fonts.RAQM else None


def _shown(text: str, rtl: bool) -> str:
    """Without Raqm a right-to-left run is at least in its reading order (unjoined)."""
    return text[::-1] if rtl and not fonts.RAQM else text


@lru_cache(maxsize=8192)
def width(content: str, size: int) -> float:
    """The advance of a line: the sum of its runs'."""
    if fonts.plain(content):
        return fonts.truetype(fonts.PRIMARY, size).getlength(content)
    return sum(
        fonts.truetype(face, size).getlength(_shown(text, rtl), direction=_direction(rtl))
        for text, face, rtl in pieces(content)
    )


Placement = tuple[object, str, float, float, str, str | None]  # font, text, dx, dy, anchor, dir


@lru_cache(maxsize=4096)
def layout(content: str, size: int, anchor: str = "la", stroke: int = 0):
    """Where each run goes, relative to the anchor point, and the box the whole line covers
    there: ([(font, text, dx, dy, anchor, direction)], (left, top, right, bottom))."""
    primary = fonts.truetype(fonts.PRIMARY, size)
    if fonts.plain(content):
        box = primary.getbbox(content, anchor=anchor, stroke_width=stroke)
        return [(primary, content, 0.0, 0.0, anchor, None)], box
    # the baseline, where DejaVu's own anchor would put it
    top_at = primary.getbbox("x", anchor="l" + anchor[1])[1]
    baseline = top_at - primary.getbbox("x", anchor="ls")[1]
    total = width(content, size)
    x = {"l": 0.0, "m": -total / 2, "r": -total}[anchor[0]]
    placed: list[Placement] = []
    left = top = float("inf")
    right = bottom = float("-inf")
    for text, face, rtl in pieces(content):
        font = fonts.truetype(face, size)
        shown, direction = _shown(text, rtl), _direction(rtl)
        x0, y0, x1, y1 = font.getbbox(shown, anchor="ls", direction=direction, stroke_width=stroke)
        left, top = min(left, x + x0), min(top, baseline + y0)
        right, bottom = max(right, x + x1), max(bottom, baseline + y1)
        placed.append((font, shown, x, baseline, "ls", direction))
        x += font.getlength(shown, direction=direction)
    if not placed:
        return [], (0, 0, 0, 0)
    box = (int(left // 1), int(top // 1), int(-(-right // 1)), int(-(-bottom // 1)))
    return placed, box


def bbox(content: str, size: int, anchor: str = "la", stroke: int = 0):
    """The box a line covers around its anchor point (as `ImageFont.getbbox`)."""
    return layout(content, size, anchor, stroke)[1]


def draw(drawer, xy, content: str, size: int, fill, anchor: str = "la", **style) -> None:
    """Draw a line with an ImageDraw: each run with its own font, from the anchor point."""
    x, y = xy
    for font, text, dx, dy, at, direction in layout(
        content, size, anchor, style.get("stroke_width", 0)
    )[0]:
        extra = {"direction": direction} if direction else {}
        drawer.text((x + dx, y + dy), text, font=font, fill=fill, anchor=at, **style, **extra)
