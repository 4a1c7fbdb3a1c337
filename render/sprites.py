"""Pieces pasted from a cache: a piece (`tokens.token`) drawn once at a place on a board
is pasted there since, through a mask of the pixels it covers. A piece with a polygon's
outline cost 0.35-0.6 ms to draw (Pillow makes a mask the size of the whole board for it),
a round or square one 7-20 µs; pasting one costs 2-9 µs (measured).

The cache is keyed by the piece's exact place. Pillow truncates coordinates to whole pixels
after float arithmetic done at the board's magnitude, so the same piece drawn on a small
patch at the same fraction of a pixel is not always the same: a hexagon of radius 24-31 came
out a pixel different in about 1 place in 1,000 (measured). Drawn at the same coordinates
on the same board, nothing clipped, Pillow makes the same pixels; and a game's pieces stand
in few places (108 in Dark Castle to 800 in Hidden Castle over thousands of boards of random
playouts), so nearly every piece is found again.

What a piece covers is found where it first stands, on the board itself: its shape is drawn
there over two different plain grounds (drawn pixels are the same over both, pixels left
alone differ), then the board is put back and the piece drawn on it for real. Its letters
blend with what is under them, so they must fall on its shape: a piece whose letters overflow
it, or that reaches the board's edge, is drawn directly every time.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

GROUNDS = (0, 1)  # two different palette entries to draw a piece's shape over
_SAME = [255] + [0] * 255  # a difference of 0 to "the same", anything else to "differs"

Box = tuple[int, int, int, int]
Cover = tuple[Image.Image, tuple[int, int]] | None  # a 0/255 mask (L) and its top-left corner


class Kind:
    """How a kind of piece is drawn, each from `(draw, *piece)`: `body` its shape in plain
    inks (nothing blended with what is under it), `letters` what is written on it; and from
    `piece` alone, `box` the rectangle it stays in and `cover` where its letters change
    pixels (None without any). It keeps the sprites of `kept` pieces at most (`cache_clear`
    forgets them)."""

    def __init__(
        self,
        body: Callable[..., None],
        letters: Callable[..., None],
        box: Callable[..., Box],
        cover: Callable[..., Cover],
        kept: int,
    ) -> None:
        self.body, self.letters, self.box, self.cover = body, letters, box, cover
        self.kept = lru_cache(maxsize=kept)(_nothing_yet)
        self.cache_clear = self.kept.cache_clear


def _nothing_yet(piece: tuple) -> list:
    """A piece's sprite once it is drawn: a list holding (pixels, mask, their box, the
    right and bottom it was drawn within), the images as Pillow's core ones; or None for a
    piece drawn directly always. Empty until it first is."""
    return []


def paste(draw: ImageDraw.ImageDraw, kind: Kind, piece: tuple) -> bool:
    """Put the piece `piece` (what `kind` draws it from) on `draw`'s palette image, from the
    cache or drawn and kept. False when it must be drawn directly instead (and was not)."""
    try:
        kept = kind.kept(piece)
    except TypeError:  # a colour given as a list, say: not a key
        return False
    img = draw._image
    if not kept:
        drawn, sprite = _first(draw, kind, piece, kind.box(*piece))
        kept.append(sprite)
        return drawn
    if kept[0] is None:
        return False
    pixels, mask, box, reached = kept[0]
    if reached[0] > img.size[0] or reached[1] > img.size[1]:  # a smaller picture than its first
        return False
    img.im.paste(pixels, box, mask)  # Pillow's core images: the wrappers cost more
    return True


def _first(draw: ImageDraw.ImageDraw, kind: Kind, piece: tuple, box: Box):
    """Draw the piece where it first stands: whether it was drawn (not when it would reach
    the board's edge), and its sprite, or None for a piece to draw directly always. A trial
    shape that reached past the ring was painted over by the same shape drawn for real: a
    shape's pixels do not depend on what is under them. (Pillow's core images throughout:
    its wrappers' checks cost more than the work, and this runs once a place.)"""
    img = draw._image
    ring = (box[0] - 1, box[1] - 1, box[2] + 1, box[3] + 1)  # must stay as it was
    if ring[0] < 0 or ring[1] < 0 or ring[2] > img.size[0] or ring[3] > img.size[1]:
        return False, None
    core = img.im
    under = core.crop(ring)
    trials = []
    for ground in GROUNDS:
        core.paste(ground, ring)
        kind.body(draw, *piece)
        trials.append(core.crop(ring))
    core.paste(under, ring)
    kind.body(draw, *piece)
    kind.letters(draw, *piece)
    shape = trials[0].chop_difference(trials[1]).point(_SAME, "L")  # 255 where it drew
    covers = shape.getbbox()
    width, height = shape.size
    if (
        covers is None
        or covers[0] < 1
        or covers[1] < 1
        or covers[2] >= width
        or covers[3] >= height
    ):
        return True, None  # nothing drawn, or it reached the ring (never seen)
    cover = kind.cover(*piece)
    if cover is not None and not _within(cover, shape, ring):
        return True, None  # letters over the ground blend with the board's own pixels
    tight = (ring[0] + covers[0], ring[1] + covers[1], ring[0] + covers[2], ring[1] + covers[3])
    return True, (core.crop(tight), shape.crop(covers), tight, ring[2:])


def around(left: float, top: float, right: float, bottom: float, margin: int = 2) -> Box:
    """The whole pixels from `left, top` to `right, bottom` (included), `margin` more."""
    return (
        math.floor(left) - margin,
        math.floor(top) - margin,
        math.ceil(right) + 1 + margin,
        math.ceil(bottom) + 1 + margin,
    )


def _within(cover: tuple[Image.Image, tuple[int, int]], shape, ring: Box) -> bool:
    """Whether every pixel of `cover` lies on `shape`, the mask of the region `ring` (a
    core image)."""
    mask, (x, y) = cover
    if x < ring[0] or y < ring[1] or x + mask.width > ring[2] or y + mask.height > ring[3]:
        return False
    placed = Image.core.fill("L", shape.size, 0)
    placed.paste(
        mask.im, (x - ring[0], y - ring[1], x - ring[0] + mask.width, y - ring[1] + mask.height)
    )
    return not placed.chop_subtract(shape, 1.0, 0).getextrema()[1]


# ----- plain shapes ----------------------------------------------------------------------
SMALL = 60_000  # the largest shape kept, in pixels of its box: pasting a larger one gains little


def _plain(draw: ImageDraw.ImageDraw, name: str, *args) -> None:
    """A shape drawn by Pillow's own method `name` (the cached drawer's would come back)."""
    if name == "polygon":
        ImageDraw.ImageDraw.polygon(draw, *args)
    else:
        xy, radius, fill, outline, width, corners = args
        ImageDraw.ImageDraw.rounded_rectangle(
            draw, xy, radius, fill, outline, width, corners=corners
        )


def _bounds(name: str, xy: tuple, *_) -> Box:
    points = xy if name == "polygon" else (xy[:2], xy[2:])
    return around(
        min(x for x, _ in points),
        min(y for _, y in points),
        max(x for x, _ in points),
        max(y for _, y in points),
    )


# A shape kept is 60,000 pixels at most, 120 KB with its mask: at most ~15 MB a worker; the
# five games' panels, plates and polygon-outlined marks take ~1 MB.
PLAIN = Kind(_plain, lambda draw, *shape: None, _bounds, lambda *shape: None, kept=128)


class Cached(ImageDraw.ImageDraw):
    """A drawer that pastes its small rounded rectangles and wide-outlined polygons from
    `PLAIN`, like pieces: Pillow draws a rounded rectangle in a dozen calls from Python
    (~40 µs), and a polygon's wide outline through a mask the size of the whole picture
    (~0.3 ms); a paste costs a few µs."""

    def rounded_rectangle(self, xy, radius=0, fill=None, outline=None, width=1, *, corners=None):
        x0, y0, x1, y1 = (*xy[0], *xy[1]) if isinstance(xy[0], list | tuple) else xy
        shape = ("rounded_rectangle", (x0, y0, x1, y1), radius, fill, outline, width, corners)
        if (x1 - x0) * (y1 - y0) > SMALL or not paste(self, PLAIN, shape):
            super().rounded_rectangle(xy, radius, fill, outline, width, corners=corners)

    def polygon(self, xy, fill=None, outline=None, width=1):
        if width > 1 and outline is not None and outline != fill:
            points = (
                tuple(map(tuple, xy))
                if isinstance(xy[0], list | tuple)
                else tuple(zip(xy[::2], xy[1::2], strict=True))
            )
            box = _bounds("polygon", points)
            if (box[2] - box[0]) * (box[3] - box[1]) <= SMALL and paste(
                self, PLAIN, ("polygon", points, fill, outline, width)
            ):
                return
        super().polygon(xy, fill, outline, width)
