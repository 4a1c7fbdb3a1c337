"""Pieces pasted from a cache: a piece (`toolkit.token`) drawn once at a place on a board
is pasted there since, through a mask of the pixels it covers. A piece with a polygon's
outline cost ~0.4 ms to draw (Pillow makes a mask the size of the whole board for it), a
round or square one ~20 µs; pasting one costs ~8 µs.

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

from PIL import Image, ImageChops, ImageDraw

GROUNDS = (0, 1)  # two different palette entries to draw a piece's shape over
_SAME = [255] + [0] * 255  # a difference of 0 to "the same", anything else to "differs"

Box = tuple[int, int, int, int]
Cover = tuple[Image.Image, tuple[int, int]] | None  # a 0/255 mask (L) and its top-left corner


class Kind:
    """How a kind of piece is drawn, each from `(draw, *piece)`: `body` its shape in plain
    inks (nothing blended with what is under it), `letters` what is written on it; and
    `cover(*piece)`, where the letters change pixels (None without any). It keeps the
    sprites of its pieces (`cache_clear` forgets them)."""

    def __init__(self, body: Callable[..., None], letters: Callable[..., None],
                 cover: Callable[..., Cover]) -> None:  # fmt: skip
        self.body, self.letters, self.cover = body, letters, cover
        self.kept = lru_cache(maxsize=KEPT)(_nothing_yet)
        self.cache_clear = self.kept.cache_clear


# The largest piece drawn (18 Ghosts', radius 41) makes a sprite of 84 x 84 pixels and its
# mask, 14 KB: at most ~15 MB a worker; the pieces of all five games take a few MB.
KEPT = 1024


def _nothing_yet(piece: tuple) -> list:
    """A piece's sprite once it is drawn: a list holding (pixels, mask, their box, the
    right and bottom it was drawn within), or None for a piece drawn directly always;
    empty until it first is."""
    return []


def paste(draw: ImageDraw.ImageDraw, kind: Kind, piece: tuple, reach: float) -> bool:
    """Put the piece `piece` (its centre first, then whatever else `kind` draws it from) on
    `draw`'s palette image, from the cache or drawn and kept; it reaches at most `reach`
    pixels from its centre. False when it must be drawn directly instead (and was not)."""
    try:
        kept = kind.kept(piece)
    except TypeError:  # a colour given as a list, say: not a key
        return False
    img = draw._image
    if not kept:
        drawn, sprite = _first(draw, kind, piece, reach)
        kept.append(sprite)
        return drawn
    if kept[0] is None:
        return False
    pixels, mask, box, reached = kept[0]
    if reached[0] > img.size[0] or reached[1] > img.size[1]:  # a smaller picture than its first
        return False
    img.im.paste(pixels.im, box, mask.im)  # Pillow's core image: the wrapper costs more
    return True


def _first(draw: ImageDraw.ImageDraw, kind: Kind, piece: tuple, reach: float):
    """Draw the piece where it first stands: whether it was drawn (not when it would reach
    the board's edge), and its sprite, or None for a piece to draw directly always. A trial
    shape that reached past the ring was painted over by the same shape drawn for real: a
    shape's pixels do not depend on what is under them."""
    img = draw._image
    cx, cy = piece[0]
    box = (math.floor(cx - reach), math.floor(cy - reach),
           math.ceil(cx + reach) + 1, math.ceil(cy + reach) + 1)  # fmt: skip
    ring = (box[0] - 1, box[1] - 1, box[2] + 1, box[3] + 1)  # must stay as it was
    if ring[0] < 0 or ring[1] < 0 or ring[2] > img.size[0] or ring[3] > img.size[1]:
        return False, None
    under = img.crop(ring)
    shapes = []
    for ground in GROUNDS:
        img.paste(ground, ring)
        kind.body(draw, *piece)
        shapes.append(img.crop(ring))
    img.paste(under, ring[:2])
    kind.body(draw, *piece)
    kind.letters(draw, *piece)
    inner = (1, 1, ring[2] - ring[0] - 1, ring[3] - ring[1] - 1)
    if not all(_left_alone(shape, inner, g) for shape, g in zip(shapes, GROUNDS, strict=True)):
        return True, None  # it reached past its box (never seen)
    shape = _agree(*(s.crop(inner) for s in shapes))
    cover = kind.cover(*piece)
    if cover is not None and not _within(cover, shape, box):
        return True, None  # letters over the ground blend with the board's own pixels
    covers = shape.getbbox()  # only the pixels it covers: a smaller paste
    if covers is None:
        return True, None
    left, top, right, bottom = covers
    tight = (box[0] + left, box[1] + top, box[0] + right, box[1] + bottom)
    return True, (img.crop(tight), shape.crop(covers), tight, ring[2:])


def _agree(one: Image.Image, other: Image.Image) -> Image.Image:
    """255 where two palette images have the same entry, else 0 (an L mask)."""
    a, b = (Image.frombytes("L", i.size, i.tobytes()) for i in (one, other))
    differs = ImageChops.difference(a, b)
    return differs._new(differs.im.point(_SAME, None))  # `point` rounds its table in Python


def _within(cover: tuple[Image.Image, tuple[int, int]], shape: Image.Image, box: Box) -> bool:
    """Whether every pixel of `cover` lies on the `shape` mask of the region `box`."""
    mask, (x, y) = cover
    if x < box[0] or y < box[1] or x + mask.width > box[2] or y + mask.height > box[3]:
        return False
    placed = Image.new("L", shape.size, 0)
    placed.paste(mask, (x - box[0], y - box[1]))
    return not ImageChops.subtract(placed, shape).getextrema()[1]


def _left_alone(img: Image.Image, inner: Box, ground: int) -> bool:
    """Whether `img` is still all `ground` outside `inner` (its 1-pixel border)."""
    rest = img.copy()
    rest.paste(ground, inner)
    return rest.getextrema() == (ground, ground)
