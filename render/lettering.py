"""Words on a picture: drawing a line of text, measuring, fitting, wrapping and shrinking it.

Text is the costly part of a board, so each string is rendered once per size, sub-pixel
position and ground and reused (see `text`), with the same pixels as drawing it afresh.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from render import bidi, fonts, runs
from render.palette import INK, WHITE, _quantise, new_image

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


def text_box(
    xy: tuple[float, float], content: str, size: int, anchor: str = "la", stroke: int = 0
) -> tuple[int, int, int, int]:
    """The rectangle `text` paints in, on a palette picture (a scene's part, render/scene.py):
    the patch it pastes, at whole pixels."""
    ix, iy = math.floor(xy[0]), math.floor(xy[1])
    coverage, _, _, (dx, dy) = _glyphs(content, size, anchor, xy[0] - ix, xy[1] - iy, stroke)
    return ix + dx, iy + dy, ix + dx + coverage.width, iy + dy + coverage.height


def text_part(
    scene,
    xy: tuple[float, float],
    content: str,
    size: int = 22,
    fill=INK,
    anchor: str = "la",
    stroke_width: int = 0,
    stroke_fill=WHITE,
) -> None:
    """`text` as a part of a scene (render/scene.py), in the box it paints."""
    if content:
        box = text_box(xy, content, size, anchor, stroke_width)
        scene.add(box, _text, *xy, content, size, fill, anchor, stroke_width, stroke_fill)


def _text(draw, x, y, content, size, fill, anchor, stroke_width, stroke_fill) -> None:
    text(
        draw,
        (x, y),
        content,
        size,
        fill,
        anchor,
        stroke_width=stroke_width,
        stroke_fill=stroke_fill,
    )


def label_part(
    scene,
    xy: tuple[float, float],
    content: str,
    size: int,
    width_px: float,
    fill=INK,
    anchor: str = "la",
    smallest: int | None = None,
    **style,
) -> int:
    """`label` as a part of a scene: the size drawn."""
    shown, at = _labelled(content, size, width_px, smallest)
    text_part(scene, xy, shown, at, fill, anchor, **style)
    return at


def _labelled(content: str, size: int, width_px: float, smallest: int | None) -> tuple[str, int]:
    """What `label` draws, and at which size."""
    at = shrunk(content, size, width_px, smallest)
    return fit(content, at, width_px), at


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
    lines, size = _paragraph_lines(content, size, width_px, max_lines, smallest)
    for line in lines:
        text(draw, (x, y), line, size, fill)
        y += int(size * 1.3)
    return y


def _paragraph_lines(
    content: str, size: int, width_px: int, max_lines: int, smallest: int | None
) -> tuple[list[str], int]:
    lines = wrap(content, size, width_px)
    while len(lines) > max_lines and smallest is not None and size > smallest:
        size -= 1
        lines = wrap(content, size, width_px)
    if len(lines) > max_lines:
        _overflowed(content, size, width_px, "lines")
        lines = lines[:max_lines]
        lines[-1] = fit(lines[-1].rstrip(". ") + ELLIPSIS, size, width_px)
    return lines, size


def paragraph_part(
    scene,
    xy: tuple[int, int],
    content: str,
    size: int,
    width_px: int,
    fill=INK,
    max_lines: int = 99,
    smallest: int | None = None,
) -> int:
    """`paragraph` as parts of a scene, a line each: the y below it."""
    x, y = xy
    lines, size = _paragraph_lines(content, size, width_px, max_lines, smallest)
    for line in lines:
        text_part(scene, (x, y), line, size, fill)
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
    shown, at = _labelled(content, size, width_px, smallest)
    text(draw, xy, shown, at, fill, anchor, **style)
    return at
