"""A board as a scene: the parts it is painted from, each a box, a key that says what it
shows, and how to paint it. A kept canvas (render/canvas.py) repaints only the parts whose
key changed, and so knows which rows of the picture changed.

A part is `paint(draw, *args)`: a plain function of a module (no closure, no lambda, no
bound method: nothing it shows can hide outside its arguments) and arguments of plain
values (numbers, text, bytes, None, and tuples, lists and dicts of them). Its key is the
function, its box and the arguments' marshalled bytes, so two parts have one key only when
they are the same call, value for value and type for type (1 and 1.0 and True are three
keys), and it is painted from a copy read back from those bytes (a list the renderer changes
later cannot make it show what its key does not say). A part with an argument that is no
plain value (a message, whose text is only its English: `plain` gives its whole JSON form)
gets a key no other part has, so it is painted every time, never left standing. It
paints within its box (whole pixels, right and bottom excluded: a box given in fractions
is widened to them), at the board's own coordinates, and every pixel it paints depends
only on its arguments and on that pixel as it was before: what every drawing of `render` does (text is blended pixel by pixel, shapes
are plain inks, stamps and sprites are pasted). Parts are painted in order over the
scene's ground, so a pixel is the work of the parts whose boxes hold it, in order; where
that list did not change, neither did the pixel.

A layer is a part that is a picture pasted whole (a stamp, a board's unchanging ground), a
fill one plain colour: either covers its box, so nothing under it shows, and a canvas paints
only the piece of it that it needs.
"""

from __future__ import annotations

import inspect
import marshal
from collections.abc import Callable
from math import ceil, floor

from PIL import Image, ImageDraw

from engines.text import KEY, Msg, from_json
from render import palette

Box = tuple[int, int, int, int]

_CHECKED: dict[Callable, bool] = {}  # painters already found plain


def _plain_function(paint: Callable) -> None:
    """A painter whose every input is its arguments, as far as can be seen: a function of
    a module, no closure (a lambda or a function defined inside another is refused), not a
    bound method or a partial, whose object would be part of what it paints."""
    if _CHECKED.get(paint):
        return
    inner = inspect.unwrap(paint)  # a function behind its `lru_cache`
    if (
        not inspect.isfunction(inner)
        or inner.__closure__ is not None
        or "<" in inner.__qualname__  # <lambda>, <locals>
    ):
        raise TypeError(f"a part is painted by a plain function of a module, not {paint!r}")
    _CHECKED[paint] = True


def _said(args: tuple) -> bytes | None:
    """The arguments as bytes: marshal's version 2, which writes a value alone (its later
    versions write an object met twice, or an interned string, differently); None for an
    argument marshal does not write (a message, an object), which is no plain value."""
    try:
        return marshal.dumps(args, 2)
    except ValueError:
        return None


def plain(value):
    """A view's value with its messages (`Msg`, a str that is only its English) as their
    JSON form, which says everything a message is: a part's argument. `restored` undoes it."""
    if isinstance(value, Msg):
        return value.to_json()
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(plain(item) for item in value)
    return value


def restored(value):
    """`plain` undone: the messages again."""
    if isinstance(value, dict):
        if KEY in value:
            return from_json(value)
        return {key: restored(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(restored(item) for item in value)
    return value


class Part:
    """One part of a scene (see the module's docstring)."""

    __slots__ = ("args", "box", "image", "key", "paint")

    def __init__(
        self, box: Box, paint: Callable, args: tuple, image: Image.Image | int | None = None
    ) -> None:
        _plain_function(paint)
        said = _said(args)
        if not all(type(edge) is int for edge in box):  # whole pixels, as a canvas paints
            box = (floor(box[0]), floor(box[1]), ceil(box[2]), ceil(box[3]))
        self.box = box
        self.paint = paint
        self.image = image  # a layer's picture pasted at the box's corner, or a fill's colour
        if said is None:  # no key says what it shows: a key of its own, painted every time
            self.args, self.key = args, (paint, box, object())
        elif image is not None:  # a layer or a fill is its picture, made already
            self.args, self.key = args, (paint, box, said)
        else:  # painted from its key: a list changed after the part was made changes nothing
            self.args, self.key = marshal.loads(said), (paint, box, said)

    @property
    def plain(self) -> bool:
        """Whether the part's key says what it shows (its arguments are plain values)."""
        return isinstance(self.key[2], bytes)

    def __repr__(self) -> str:
        return f"Part({self.paint.__module__}.{self.paint.__qualname__}, {self.box})"


class Scene:
    """A picture of `size` on a plain `ground`, painted from its parts in order."""

    __slots__ = ("ground", "parts", "size")

    def __init__(self, width: int, height: int, ground=palette.PAPER) -> None:
        self.size = (width, height)
        self.ground = palette.index(ground)
        self.parts: list[Part] = []

    def add(self, box: Box, paint: Callable, *args) -> None:
        """A part: `paint(draw, *args)` paints within `box`."""
        self.parts.append(Part(box, paint, args))

    def layer(self, at: tuple[int, int], make: Callable, *args) -> None:
        """A picture `make(*args)` (kept by its maker: `lru_cache`) pasted at `at`."""
        image = make(*args)
        box = (at[0], at[1], at[0] + image.width, at[1] + image.height)
        self.parts.append(Part(box, make, args, image))

    def fill(self, box: Box, colour) -> None:
        """A plain colour over `box`."""
        ink = palette.index(colour)
        self.parts.append(Part(box, fill, (ink,), ink))

    def stamp(
        self,
        at: tuple[int, int],
        size: tuple[int, int],
        draw: Callable,
        *args,
        ground=palette.PAPER,
    ) -> None:
        """`palette.stamp` as a layer: `draw(drawer, *args)` drawn once on a patch of its
        own plain ground and pasted at `at`."""
        image = palette.stamped(draw, size, ground, args)
        box = (at[0], at[1], at[0] + size[0], at[1] + size[1])
        self.parts.append(Part(box, draw, (size, palette.index(ground), args), image))


def fill(draw: ImageDraw.ImageDraw, ink: int) -> None:
    """A fill's painter (its key's): the canvas paints a fill itself (`paint_part`)."""


def paint_part(draw: ImageDraw.ImageDraw, part: Part, clip: Box | None = None) -> None:
    """Paint `part` on `draw`'s picture; a layer or fill only within `clip`, when given."""
    if part.image is None:
        part.paint(draw, *part.args)
        return
    box = part.box
    if isinstance(part.image, int):
        draw._image.im.paste(part.image, clip or box)
        return
    if clip is None or clip == box:
        draw._image.im.paste(part.image.im, box)
        return
    left, top, right, bottom = clip
    piece = part.image.im.crop((left - box[0], top - box[1], right - box[0], bottom - box[1]))
    draw._image.im.paste(piece, clip)


def painted(scene: Scene) -> Image.Image:
    """The scene painted on a picture of its own (the picture a board always was)."""
    img, draw = palette.canvas(scene.size[1], scene.size[0], scene.ground)
    for part in scene.parts:
        paint_part(draw, part)
    return img


def image_of(draw: ImageDraw.ImageDraw) -> Image.Image:
    """The picture a part's drawer paints on (for a part that pastes)."""
    return draw._image
