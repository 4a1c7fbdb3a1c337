"""The pictures' colours, the fixed palette every board is drawn on, a canvas of it, and
stamps: parts of a picture drawn once for their arguments and pasted since.

Colours follow Okabe and Ito's palette, and every colour that carries meaning is paired
with a shape or a letter (render/tokens.py), so no information is carried by hue alone.
Boards are drawn straight into one fixed palette (P mode): a PNG of that saves several
times faster than RGB and is half the size (measured by `bench`: the picture's encode
apart), with no quantising pass, and output stays byte-identical.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render import sprites
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


def seat_fill(*, won: bool, acting: bool) -> tuple[int, int, int]:
    """A player's row in a legend: green once they have won, highlighted while they act."""
    if won:
        return mix(GREEN, PAPER, 0.5)
    return HIGHLIGHT if acting else PANEL


@lru_cache(maxsize=128)  # a table's parts, 20-130 KB each: at most ~15 MB a worker
def stamped(draw, size: tuple[int, int], ground: tuple, args: tuple) -> Image.Image:
    """The patch `stamp` pastes: `draw(drawer, *args)` on `size` of plain `ground`."""
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
    img.paste(stamped(draw, size, ground, args), at)


def canvas(
    height: int, width: int = WIDTH, colour=PAPER
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A fixed-palette picture to draw on, and its drawer."""
    img = new_image((width, height), colour)
    return img, PaletteDraw(img)


def to_png(img: Image.Image) -> bytes:
    """Palette-mode PNG with one fixed palette: fast to save, small, byte-stable. A
    picture drawn on `canvas` is saved as it is; anything else is quantised first."""
    if img.mode != "P":
        img = _quantise(img.convert("RGB"))
    return palette_png(img)
