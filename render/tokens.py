"""Game pieces: a shape and a colour for each player, a letter on top, and a legend of them."""

from __future__ import annotations

from PIL import ImageDraw

from render import lettering, shapes, sprites
from render.palette import INK, PLAYER_COLOURS, PLAYER_SHAPES, WHITE, PaletteDraw

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
        size = lettering.shrunk(label, size, radius * 1.7, 7)
    ink = label_fill or (INK if sum(fill[:3]) > 380 else WHITE)
    mx, my = shape_centre(shape, *centre, radius)
    return (mx, my + 1), label, size, ink


def reach(centre, radius, *_) -> tuple[int, int, int, int]:
    """The rectangle a piece stays in: every shape is within 1.22 times its radius (its
    sprite's box, and its box as a part of a scene: render/scene.py)."""
    (cx, cy), far = centre, radius * 1.25 + 2
    return sprites.around(cx - far, cy - far, cx + far, cy + far)


def _letters(draw, *piece) -> None:
    if (said := _label(*piece)) is not None:
        lettering.text(draw, *said, anchor="mm")


def _letters_cover(*piece):
    """Where a piece's label changes pixels (`covered`); None without one."""
    said = _label(*piece)
    return None if said is None else lettering.covered(*said[:3], "mm")


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
        lettering.label(draw, (x + 36, y + 14), description, size, width - 36, INK, anchor="lm")
        y += 34
    return y


# The largest piece drawn (18 Ghosts', radius 41) makes a sprite of 84 x 84 pixels and its
# mask, 14 KB: at most ~15 MB a worker; the pieces of all five games take a few MB.
PIECE = sprites.Kind(shapes.body, _letters, reach, _letters_cover, kept=1024)


# the drawer's shapes: here, its cache is cleared with the kit's  # how `token` draws
PLAIN = sprites.PLAIN
