"""Shared drawing kit: fonts, a colour-blind-safe palette, player tokens, captions, PNG output.

Colours follow Okabe and Ito's palette, and every colour that carries meaning is
paired with a shape or a letter, so no information is carried by hue alone.
Boards are drawn straight into one fixed palette (P mode): a PNG of that saves several
times faster than RGB and is half the size (measured by `bench`: the picture's encode apart), with no quantising pass,
and output stays byte-identical. Text, the costly part of a board, is rendered once per
string and size and reused (see `text`).
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from engines.text import from_json
from languages import DEFAULT, say
from render import bidi, fonts, runs, shapes, sprites
from render.png import palette_png

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
    "ink": INK,
    "paper": PAPER,
    "panel": PANEL,
    "grey": GREY,
    "dark": DARK,
    "white": WHITE,
    "orange": ORANGE,
    "sky": SKY,
    "green": GREEN,
    "yellow": YELLOW,
    "blue": BLUE,
    "vermilion": VERMILION,
    "red": VERMILION,
    "purple": PURPLE,
    "brown": BROWN,
    "night": NIGHT,
    "highlight": HIGHLIGHT,
}

# Up to eight players: a colour and a shape each; a letter or number goes on top.
PLAYER_COLOURS = (VERMILION, BLUE, GREEN, ORANGE, PURPLE, SKY, YELLOW, BROWN)
PLAYER_SHAPES = ("circle", "square", "triangle", "diamond", "hexagon", "star", "pentagon", "cross")


@lru_cache(maxsize=1024)
def mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))


def _palette_colours() -> list[tuple[int, int, int]]:
    base = list(dict.fromkeys(NAMED.values()))
    ramps = []
    for colour in base:  # half-tones towards ink and paper, for anti-aliased edges
        ramps += [mix(colour, PAPER, 0.5), mix(colour, INK, 0.5)]
    greys = [(v, v, v) for v in range(0, 256, 17)]
    colours = list(dict.fromkeys(base + ramps + greys))
    return colours[:256]


def _flat_palette() -> list[int]:
    colours = _palette_colours()
    flat = [c for rgb in colours for c in rgb]
    return flat + flat[:3] * (256 - len(colours))


PALETTE = _flat_palette()


@lru_cache(maxsize=1)
def palette_image() -> Image.Image:
    img = Image.new("P", (1, 1))
    img.putpalette(PALETTE)
    return img


def _quantise(img: Image.Image) -> Image.Image:
    return img.quantize(palette=palette_image(), dither=Image.Dither.NONE)


_INDEX: dict[tuple, int] = {}


def index(colour: tuple[int, ...] | int) -> int:
    """The palette entry a colour is drawn with: exactly what quantising an RGB drawing
    would give it, so a colour outside the palette still lands on its nearest entry."""
    if isinstance(colour, int):
        return colour
    found = _INDEX.get(colour)
    if found is None:
        rgb = tuple(colour[:3])
        found = _INDEX[colour] = _quantise(Image.new("RGB", (1, 1), rgb)).getpixel((0, 0))
    return found


class PaletteDraw(sprites.Cached):
    """ImageDraw on a fixed-palette image: RGB inks map to their palette entry (Pillow's
    own P drawing would append unknown colours to the palette instead). Its small rounded
    rectangles and wide-outlined polygons are pasted from a cache (render/sprites.py)."""

    def _getink(self, ink, fill=None):
        if ink is None and fill is None:
            return super()._getink(ink, fill)
        # on a P image an ink is its palette index
        return (None if ink is None else index(ink)), (None if fill is None else index(fill))


# Pillow hands an image's memory back as soon as the image is dropped, so each board's
# full-size canvases (the board, its caption bar, the PNG's rows) came from fresh pages,
# and faulting them in cost about a third of a picture (`bench`: a drawn and encoded
# board, medians by game, 3.2-5.7 ms cold before, 2.4-4.8 ms after). A few freed blocks
# are kept for the next board: about 8 MB more in a drawing process.
KEPT_IMAGE_BLOCKS = 4
Image.core.set_blocks_max(KEPT_IMAGE_BLOCKS)


def new_image(size: tuple[int, int], colour=PAPER) -> Image.Image:
    """A fixed-palette image filled with `colour`."""
    img = Image.new("P", size, index(colour))
    img.putpalette(PALETTE)
    return img


def drawer(img: Image.Image) -> ImageDraw.ImageDraw:
    return PaletteDraw(img) if img.mode == "P" else ImageDraw.Draw(img)


FONT = fonts.faces()[fonts.PRIMARY].path


def font(size: int) -> ImageFont.FreeTypeFont:
    """DejaVu Sans Condensed, kept beside the code: it draws German's umlauts and ß, the
    pseudo-language's accents, Greek and Cyrillic at the width every layout was made for.
    Other scripts and emoji come from the fonts after it (render/fonts.py); measure and draw
    through `text_width`, `fit` and `text`, which use them."""
    return fonts.truetype(fonts.PRIMARY, size)


isolate = bidi.isolate  # a name inside a line of words (render/bidi.py)


def bbox(content: str, size: int, anchor: str = "la", stroke: int = 0) -> tuple:
    """The box a line of text covers around its anchor point, drawn with its fonts."""
    return runs.bbox(content, size, anchor, stroke)


_ANY = [0] + [255] * 255  # coverage to "covered at all"


def _mapped(img: Image.Image, table: list[int]) -> Image.Image:
    """`img.point(table)` for a table of whole numbers: Pillow's wrapper rounds all 256
    entries in Python each call, which was a tenth of drawing a new string."""
    return img._new(img.im.point(table, None))


# Caches sized so a worker's memory stays bounded (a few tens of MB at most).
@lru_cache(maxsize=2048)
def _glyphs(content: str, size: int, anchor: str, fx: float, fy: float, stroke: int = 0):
    """A string's anti-aliased coverage (L) and, with a stroke, the stroke's; where it
    covers anything (0/255); and the offset of that patch from the text's integer anchor
    point. `fx, fy`: the fractional part of the position (FreeType renders sub-pixel)."""
    if not stroke and fonts.plain(content):
        return _plain_glyphs(content, size, anchor, fx, fy)
    placed, (left, top, right, bottom) = runs.layout(content, size, anchor, stroke)
    w, h = max(1, right - left + 4), max(1, bottom - top + 4)
    at = (fx - left + 2, fy - top + 2)
    coverage = Image.new("L", (w, h), 0)
    outline = Image.new("L", (w, h), 0) if stroke else None
    for f, part, dx, dy, where, direction in placed:
        extra = {"direction": direction} if direction else {}
        xy = (at[0] + dx, at[1] + dy)
        ImageDraw.Draw(coverage).text(xy, part, font=f, fill=255, anchor=where, **extra)
        if outline is not None:
            ImageDraw.Draw(outline).text(
                xy,
                part,
                font=f,
                fill=255,
                anchor=where,
                stroke_width=stroke,
                stroke_fill=255,
                **extra,
            )
    covered = _mapped(outline or coverage, _ANY)
    return coverage, outline, covered, (left - 2, top - 2)


def _plain_glyphs(content: str, size: int, anchor: str, fx: float, fy: float):
    """`_glyphs` of one run of DejaVu: the mask FreeType renders at the sub-pixel position,
    as `ImageDraw.text` gets it for the same place, so the same pixels as drawing it there.
    Laid out once, not measured first: measuring a new line cost a third as much again as
    rendering it. (Placed by its measured box, as before, 7% of the strings came out a
    shade different wherever that box put the pen at a negative position.)"""
    mask, (left, top) = fonts.truetype(fonts.PRIMARY, size).getmask2(
        content, "L", anchor=anchor, start=(fx, fy)
    )
    width, height = mask.size
    coverage = Image.new("L", (width + 4, height + 4), 0)
    if width and height:
        coverage.im.paste(mask, (2, 2, 2 + width, 2 + height))
    return coverage, None, _mapped(coverage, _ANY), (left - 2, top - 2)


def _blend(region: Image.Image, fill: tuple, coverage, outline=None, stroke_fill=None):
    """Text over a palette region: blended in RGB and put back on the palette, as an RGB
    drawing quantised as a whole would be."""
    rgb = region.convert("RGB")
    if outline is not None:
        rgb.paste(tuple(stroke_fill[:3]), (0, 0), outline)
    rgb.paste(tuple(fill[:3]), (0, 0), coverage)
    return _quantise(rgb)


@lru_cache(maxsize=512)
def _ramp(fill: tuple, ground: int) -> list[int]:
    """Palette entry for each coverage 0..255 of `fill` over the entry `ground`: the blend
    `_blend` makes, worked out once per pair of colours."""
    ramp = new_image((256, 1), ground)
    return list(_blend(ramp, fill, Image.frombytes("L", (256, 1), bytes(range(256)))).tobytes())


@lru_cache(maxsize=2048)
def _patch(content, size, anchor, fx, fy, stroke, fill, stroke_fill, ground: int):
    """The finished pixels of a string over one plain colour: the common case, cached.
    Returned as palette entries (an L image), by table look-up of the coverage."""
    coverage, outline, _, _ = _glyphs(content, size, anchor, fx, fy, stroke)
    if outline is None:
        return _mapped(coverage, _ramp(tuple(fill[:3]), ground))
    return _blend(new_image(coverage.size, ground), fill, coverage, outline, stroke_fill)


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    content: str,
    size: int = 22,
    fill=INK,
    anchor: str = "la",
    stroke_width: int = 0,
    stroke_fill=WHITE,
) -> None:
    """Anti-aliased text. On a palette image it is pasted from a cache (the same string,
    size and sub-pixel position over the same plain ground is rendered once), with the
    same pixels as drawing it afresh; over a mixed ground it is blended in place."""
    img = getattr(draw, "_image", None)
    if img is None or img.mode != "P" or not content:
        runs.draw(
            draw,
            xy,
            content,
            size,
            fill,
            anchor,
            stroke_width=stroke_width,
            stroke_fill=stroke_fill,
        )
        return
    x, y = xy
    ix, iy = math.floor(x), math.floor(y)
    fx, fy = x - ix, y - iy
    coverage, outline, covered, (dx, dy) = _glyphs(content, size, anchor, fx, fy, stroke_width)
    left, top = ix + dx, iy + dy
    w, h = coverage.size
    box = (left, top, left + w, top + h)
    core = img.im  # Pillow's core image: the wrappers cost more than the work here
    low, high = core.crop(box).getextrema()
    width, height = core.size
    if low == high and left >= 0 and top >= 0 and box[2] <= width and box[3] <= height:
        patch = _patch(content, size, anchor, fx, fy, stroke_width, fill, stroke_fill, low)
    else:
        patch = _blend(img.crop(box), fill[:3], coverage, outline, stroke_fill[:3])
    core.paste(patch.im, box, covered.im)


def covered(xy: tuple[float, float], content: str, size: int, anchor: str = "la", stroke: int = 0):
    """Where `text` changes a palette image's pixels: a 0/255 mask (L) and its corner."""
    ix, iy = math.floor(xy[0]), math.floor(xy[1])
    _, _, mask, (dx, dy) = _glyphs(content, size, anchor, xy[0] - ix, xy[1] - iy, stroke)
    return mask, (ix + dx, iy + dy)


text_width = runs.width  # a line's advance, measured with the fonts that draw it (cached)


ELLIPSIS = "…"


def _longest_fitting(content: str, size: int, width_px: float, tail: str = "") -> int:
    """How many leading characters of `content` (then `tail`) fit in `width_px`, found by
    bisection: a name may be 64 of the widest letters, far wider than any space for it."""
    low, high = 0, len(content)
    while low < high:
        mid = (low + high + 1) // 2
        if text_width(content[:mid].rstrip() + tail, size) <= width_px:
            low = mid
        else:
            high = mid - 1
    # never between a letter and its mark, nor inside an emoji joined with U+200D
    while 0 < low < len(content) and (fonts.extends(content[low]) or content[low - 1] == "\u200d"):
        low -= 1
    return low


@lru_cache(maxsize=4096)
def fit(content: str, size: int, width_px: float) -> str:
    """`content` as it fits on one line of `width_px` pixels at `size`: whole, or cut with an
    ellipsis (measured, so wide letters and any script are cut where they would overflow)."""
    if text_width(content, size) <= width_px:
        return content
    n = _longest_fitting(content, size, width_px, ELLIPSIS)
    return content[:n].rstrip() + ELLIPSIS if n or text_width(ELLIPSIS, size) <= width_px else ""


@lru_cache(maxsize=2048)
def _wrapped(content: str, size: int, width_px: int) -> tuple[str, ...]:
    lines: list[str] = []
    for paragraph in content.split("\n"):
        if not fonts.plain(paragraph) or not _wrap_by_words(paragraph, size, width_px, lines):
            _wrap_measuring_lines(paragraph, size, width_px, lines)
    return tuple(lines)


def _wrap_by_words(paragraph: str, size: int, width_px: int, lines: list[str]) -> bool:
    """Plain text wrapped by adding up its words' widths (each measured once), measuring a
    whole line only when the sum comes near the edge; cold, a card's page of text costs a
    few measurements instead of one a word. False (and `lines` untouched) if a finished
    line measures wider than the sum said: the caller wraps it line by line instead."""
    space, near = text_width(" ", size), 2 + size / 10  # kerning across a space is smaller
    found: list[str] = []
    line, line_width = "", 0.0
    for word in paragraph.split():
        word_width = text_width(word, size)
        if line:
            guess = line_width + space + word_width
            if guess <= width_px - near:
                line, line_width = f"{line} {word}", guess
                continue
            if guess <= width_px + near and text_width(f"{line} {word}", size) <= width_px:
                line, line_width = f"{line} {word}", text_width(f"{line} {word}", size)
                continue
            found.append(line)
        if word_width > width_px:
            return False  # a word cut across lines: the careful way
        line, line_width = word, word_width
    found.append(line)
    if any(text_width(done, size) > width_px for done in found):
        return False
    lines.extend(found)
    return True


def _wrap_measuring_lines(paragraph: str, size: int, width_px: int, lines: list[str]) -> None:
    line = ""
    for word in paragraph.split():
        joined = f"{line} {word}" if line else word
        if text_width(joined, size) <= width_px:
            line = joined
            continue
        if line:
            lines.append(line)
        while text_width(word, size) > width_px:  # a word wider than a line: cut it
            n = max(1, _longest_fitting(word, size, width_px))
            lines.append(word[:n])
            word = word[n:]
        line = word
    lines.append(line)


def seat_fill(*, won: bool, acting: bool) -> tuple[int, int, int]:
    """A player's row in a legend: green once they have won, highlighted while they act."""
    if won:
        return mix(GREEN, PAPER, 0.5)
    return HIGHLIGHT if acting else PANEL


def wrap(content: str, size: int, width_px: int) -> list[str]:
    """Wrap to a pixel width, measuring each line: no line is wider than `width_px` (a word
    wider than a line, such as a long name, is cut where it would overflow)."""
    return list(_wrapped(content, size, width_px))


def paragraph(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    content: str,
    size: int,
    width_px: int,
    fill=INK,
    max_lines: int = 99,
    smallest: int | None = None,
) -> int:
    """Draw wrapped text; return the y below it. More than `max_lines` lines: the size
    shrinks (down to `smallest`, if given) until it fits; past that the last line is cut
    and the overflow recorded (`overflows`)."""
    x, y = xy
    lines = wrap(content, size, width_px)
    while len(lines) > max_lines and smallest is not None and size > smallest:
        size -= 1
        lines = wrap(content, size, width_px)
    if len(lines) > max_lines:
        _overflowed(content, size, width_px, "lines")
        lines = lines[:max_lines]
        lines[-1] = fit(lines[-1].rstrip(". ") + ELLIPSIS, size, width_px)
    for line in lines:
        text(draw, (x, y), line, size, fill)
        y += int(size * 1.3)
    return y


# ----- words in their space -------------------------------------------------------------
_watching: list[list] = []


@contextmanager
def overflows():
    """While open, every text drawn with `label` or `paragraph` that did not fit its space
    even at its smallest size, as (text, size, room, how): a German or pseudo-language
    label that would be cut shows here (tests/render/test_text_fits.py)."""
    found: list = []
    _watching.append(found)
    try:
        yield found
    finally:
        _watching.remove(found)


def _overflowed(content: str, size: int, room: float, how: str) -> None:
    for found in _watching:
        found.append((content, size, room, how))


def shrunk(content: str, size: int, width_px: float, smallest: int | None = None) -> int:
    """The largest size from `size` down to `smallest` (three quarters of it by default) at
    which `content` fits `width_px` on one line; the smallest, with the overflow recorded,
    when even that does not fit (the caller then cuts it)."""
    low = smallest if smallest is not None else max(10, round(size * 0.75))
    for at in range(size, low - 1, -1):
        if text_width(content, at) <= width_px:
            return at
    _overflowed(content, low, width_px, "width")
    return low


def label(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    content: str,
    size: int,
    width_px: float,
    fill=INK,
    anchor: str = "la",
    smallest: int | None = None,
    **style,
) -> int:
    """One line of words in `width_px` pixels: shrunk to fit (see `shrunk`), and cut with
    an ellipsis only when even the smallest size is too wide (recorded). The size drawn."""
    at = shrunk(content, size, width_px, smallest)
    text(draw, xy, fit(content, at, width_px), at, fill, anchor, **style)
    return at


# the pieces' geometry (render/shapes.py)
polygon_points, shape_centre, SHAPE_SCALE = (
    shapes.polygon_points,
    shapes.shape_centre,
    shapes.SHAPE_SCALE,
)


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
    """A game piece: its shape tells the player apart even without colour. On a palette
    board it is pasted from a cache of the pieces drawn before (render/sprites.py), with
    the same pixels as drawing it there."""
    piece = (centre, radius, shape, fill, label, outline, label_fill)
    if type(draw) is PaletteDraw and sprites.paste(draw, PIECE, piece):
        return
    shapes.body(draw, *piece)
    _letters(draw, *piece)


def _label(centre, radius, shape, fill, label, outline, label_fill):
    """Where a piece's label goes and how: ((x, y), label, size, ink), None without one."""
    if not label:
        return None
    size = max(12, int(radius * (0.9 if len(label) == 1 else 0.7)))
    if len(label) > 2:  # a longer language's letter: as large as fits the piece
        size = shrunk(label, size, radius * 1.7, 7)
    ink = label_fill or (INK if sum(fill[:3]) > 380 else WHITE)
    mx, my = shape_centre(shape, *centre, radius)
    return (mx, my + 1), label, size, ink


def _reach(centre, radius, *_) -> tuple[int, int, int, int]:
    """The rectangle a piece stays in: every shape is within 1.22 times its radius."""
    (cx, cy), reach = centre, radius * 1.25 + 2
    return sprites.around(cx - reach, cy - reach, cx + reach, cy + reach)


def _letters(draw, *piece) -> None:
    if (said := _label(*piece)) is not None:
        text(draw, *said, anchor="mm")


def _letters_cover(*piece):
    """Where a piece's label changes pixels (`covered`); None without one."""
    said = _label(*piece)
    return None if said is None else covered(*said[:3], "mm")


def player_token(draw, centre, radius, seat: int, label: str = "") -> None:
    token(draw, centre, radius, PLAYER_SHAPES[seat % 8], PLAYER_COLOURS[seat % 8], label)


def legend(
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    entries: list[tuple[str, str, tuple, str]],
    size: int = 20,
    width: int = 10_000,
) -> int:
    """Rows of (shape, label-in-token, colour, text), each text fitted into `width` pixels
    from `x` (shrunk, and cut if a long name needs it); returns the y below the legend."""
    for shape, mark, colour, description in entries:
        token(draw, (x + 14, y + 14), 13, shape, colour, mark)
        label(draw, (x + 36, y + 14), description, size, width - 36, INK, anchor="lm")
        y += 34
    return y


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
        wrapped += wrap(line, size, img.width - 40)
    height = 20 + int(size * 1.35) * max(1, len(wrapped))
    if img.mode == "P":
        out = new_image((img.width, img.height + height), NIGHT)
    else:
        out = Image.new("RGB", (img.width, img.height + height), NIGHT)
    out.paste(img, (0, 0))
    draw = drawer(out)
    y = img.height + 10
    for line in wrapped:
        text(draw, (20, y), line, size, WHITE)
        y += int(size * 1.35)
    return out


@lru_cache(maxsize=128)  # a table's parts, 20-130 KB each: at most ~15 MB a worker
def _stamp(draw, size: tuple[int, int], ground: tuple, args: tuple) -> Image.Image:
    part = new_image(size, ground)
    draw(drawer(part), *args)
    return part


def stamp(
    img: Image.Image, at: tuple[int, int], size: tuple[int, int], draw, *args, ground=PAPER
) -> None:
    """A part of a picture that does not change within a game (a title, a legend, a key),
    drawn once for its arguments (names, language...) on a patch of its own plain ground
    and pasted at `at` since: the same pixels as drawing it there, since `at` is whole
    pixels. `draw(drawer, *args)` draws it from the patch's own (0, 0); `args` hashable."""
    img.paste(_stamp(draw, size, ground, args), at)


def canvas(
    height: int, width: int = WIDTH, colour=PAPER
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A fixed-palette picture to draw on, and its drawer."""
    img = new_image((width, height), colour)
    return img, PaletteDraw(img)


# The largest piece drawn (18 Ghosts', radius 41) makes a sprite of 84 x 84 pixels and its
# mask, 14 KB: at most ~15 MB a worker; the pieces of all five games take a few MB.
PIECE = sprites.Kind(shapes.body, _letters, _reach, _letters_cover, kept=1024)
# the drawer's shapes: here, its cache is cleared with the kit's  # how `token` draws
PLAIN = sprites.PLAIN


def to_png(img: Image.Image) -> bytes:
    """Palette-mode PNG with one fixed palette: fast to save, small, byte-stable. A
    picture drawn on `canvas` is saved as it is; anything else is quantised first."""
    if img.mode != "P":
        img = _quantise(img.convert("RGB"))
    return palette_png(img)
