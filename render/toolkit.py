"""Shared drawing kit: fonts, a colour-blind-safe palette, player tokens, captions, PNG output.

Colours follow Okabe and Ito's palette, and every colour that carries meaning is
paired with a shape or a letter, so no information is carried by hue alone.
PNGs are saved in palette mode with one fixed palette: that is several times faster
than RGB and half the size (architecture.md), and it keeps output byte-identical.
"""

from __future__ import annotations

import io
import math
import textwrap
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

WIDTH = 1200

# Okabe-Ito, plus inks and paper.
INK = (25, 25, 35)
PAPER = (246, 242, 232)
PANEL = (228, 222, 208)
GREY = (150, 150, 150)
DARK = (70, 70, 80)
WHITE = (255, 255, 255)
ORANGE = (230, 159, 0)
SKY = (86, 180, 233)
GREEN = (0, 158, 115)
YELLOW = (240, 228, 66)
BLUE = (0, 114, 178)
VERMILION = (213, 94, 0)
PURPLE = (204, 121, 167)
BROWN = (140, 90, 50)
NIGHT = (40, 44, 70)
HIGHLIGHT = (255, 210, 60)

NAMED = {
    "ink": INK, "paper": PAPER, "panel": PANEL, "grey": GREY, "dark": DARK, "white": WHITE,
    "orange": ORANGE, "sky": SKY, "green": GREEN, "yellow": YELLOW, "blue": BLUE,
    "vermilion": VERMILION, "red": VERMILION, "purple": PURPLE, "brown": BROWN,
    "night": NIGHT, "highlight": HIGHLIGHT,
}  # fmt: skip

# Up to eight players: a colour and a shape each; a letter or number goes on top.
PLAYER_COLOURS = (VERMILION, BLUE, GREEN, ORANGE, PURPLE, SKY, YELLOW, BROWN)
PLAYER_SHAPES = ("circle", "square", "triangle", "diamond", "hexagon", "star", "pentagon", "cross")


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))


def _palette_colours() -> list[tuple[int, int, int]]:
    base = list(dict.fromkeys(NAMED.values()))
    ramps = []
    for colour in base:  # half-tones towards ink and paper, for anti-aliased edges
        ramps += [_mix(colour, PAPER, 0.5), _mix(colour, INK, 0.5)]
    greys = [(v, v, v) for v in range(0, 256, 17)]
    colours = list(dict.fromkeys(base + ramps + greys))
    return colours[:256]


@lru_cache(maxsize=1)
def _palette_image() -> Image.Image:
    colours = _palette_colours()
    flat = [c for rgb in colours for c in rgb]
    flat += flat[:3] * (256 - len(colours))
    img = Image.new("P", (1, 1))
    img.putpalette(flat)
    return img


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's own bundled font, so no font file has to be installed anywhere."""
    return ImageFont.load_default(size=size)


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    content: str,
    size: int = 22,
    fill=INK,
    anchor: str = "la",
) -> None:
    draw.text(xy, content, font=font(size), fill=fill, anchor=anchor)


def text_width(content: str, size: int) -> float:
    return font(size).getlength(content)


def wrap(content: str, size: int, width_px: int) -> list[str]:
    """Wrap to a pixel width, approximating characters per line from the font's average."""
    avg = max(1.0, text_width("abcdefghijklmnopqrstuvwxyz", size) / 26)
    lines: list[str] = []
    for paragraph in content.split("\n"):
        lines += textwrap.wrap(paragraph, max(8, int(width_px / avg))) or [""]
    return lines


def paragraph(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    content: str,
    size: int,
    width_px: int,
    fill=INK,
    max_lines: int = 99,
) -> int:
    """Draw wrapped text; return the y below it."""
    x, y = xy
    lines = wrap(content, size, width_px)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = lines[-1].rstrip(". ") + "…"
    for line in lines:
        text(draw, (x, y), line, size, fill)
        y += int(size * 1.3)
    return y


def polygon_points(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    sides = {"triangle": 3, "diamond": 4, "pentagon": 5, "hexagon": 6}
    if shape == "star":
        pts = []
        for i in range(10):
            rr = r if i % 2 == 0 else r * 0.45
            a = -math.pi / 2 + i * math.pi / 5
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        return pts
    n = sides[shape]
    offset = -math.pi / 2
    return [
        (
            cx + r * math.cos(offset + 2 * math.pi * i / n),
            cy + r * math.sin(offset + 2 * math.pi * i / n),
        )
        for i in range(n)
    ]


def token(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    radius: float,
    shape: str,
    fill,
    label: str = "",
    outline=INK,
    label_fill=None,
) -> None:
    """A game piece: its shape tells the player apart even without colour."""
    cx, cy = centre
    box = (cx - radius, cy - radius, cx + radius, cy + radius)
    if shape == "circle":
        draw.ellipse(box, fill=fill, outline=outline, width=3)
    elif shape == "square":
        inset = radius * 0.12
        draw.rectangle(
            (box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset),
            fill=fill,
            outline=outline,
            width=3,
        )
    elif shape == "cross":
        w = radius * 0.42
        draw.polygon(
            [(cx - w, cy - radius), (cx + w, cy - radius), (cx + w, cy - w), (cx + radius, cy - w),
             (cx + radius, cy + w), (cx + w, cy + w), (cx + w, cy + radius), (cx - w, cy + radius),
             (cx - w, cy + w), (cx - radius, cy + w), (cx - radius, cy - w), (cx - w, cy - w)],
            fill=fill, outline=outline, width=3,
        )  # fmt: skip
    else:
        draw.polygon(polygon_points(shape, cx, cy, radius), fill=fill, outline=outline, width=3)
    if label:
        size = max(12, int(radius * (0.9 if len(label) == 1 else 0.7)))
        ink = label_fill or (INK if sum(fill[:3]) > 380 else WHITE)
        text(draw, (cx, cy + 1), label, size, ink, anchor="mm")


def player_token(draw, centre, radius, seat: int, label: str = "") -> None:
    token(draw, centre, radius, PLAYER_SHAPES[seat % 8], PLAYER_COLOURS[seat % 8], label)


def legend(
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    entries: list[tuple[str, str, tuple, str]],
    size: int = 20,
) -> int:
    """Rows of (shape, label-in-token, colour, text); returns the y below the legend."""
    for shape, label, colour, description in entries:
        token(draw, (x + 14, y + 14), 13, shape, colour, label)
        text(draw, (x + 36, y + 14), description, size, INK, anchor="lm")
        y += 34
    return y


def caption_bar(img: Image.Image, lines: list[str], size: int = 22) -> Image.Image:
    """Append a band under the picture with what just happened and whose turn it is."""
    wrapped: list[str] = []
    for line in lines:
        wrapped += wrap(line, size, img.width - 40)
    height = 20 + int(size * 1.35) * max(1, len(wrapped))
    out = Image.new("RGB", (img.width, img.height + height), NIGHT)
    out.paste(img, (0, 0))
    draw = ImageDraw.Draw(out)
    y = img.height + 10
    for line in wrapped:
        text(draw, (20, y), line, size, WHITE)
        y += int(size * 1.35)
    return out


def canvas(
    height: int, width: int = WIDTH, colour=PAPER
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (width, height), colour)
    return img, ImageDraw.Draw(img)


def to_png(img: Image.Image) -> bytes:
    """Palette-mode PNG with one fixed palette: fast to save, small, byte-stable."""
    quantised = img.convert("RGB").quantize(palette=_palette_image(), dither=Image.Dither.NONE)
    buf = io.BytesIO()
    # zlib level 3: measured on our boards it saves two to four times faster than the
    # default 6 for files about a quarter larger (still well under 100 KB).
    quantised.save(buf, format="PNG", compress_level=3)
    return buf.getvalue()
