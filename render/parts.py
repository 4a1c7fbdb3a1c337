"""Parts of a board that depend on few inputs (18 Ghosts' portals), drawn once over the
board's own ground and pasted since.

A part is drawn at its very place on a copy of the plain board it goes on, so every
coordinate, sub-pixel and blend is the one drawing it on the board would give, and the
rectangle it stays in is cut out; pasting that is exact as long as the board still holds its
plain ground within the rectangle when the part comes (the caller draws it first there). A
part that changed anything outside its rectangle is drawn directly, always. The caller keeps
the cut parts, keyed by what they show (an `lru_cache`, cleared with the renderer's own).
"""

from __future__ import annotations

from collections.abc import Callable

from PIL import Image, ImageChops

from render import palette

Box = tuple[int, int, int, int]


def cut(ground: Image.Image, box: Box, draw: Callable, *args) -> Image.Image | None:
    """`draw(drawer, *args)` on a copy of the plain board `ground`, the rectangle `box` cut
    out of it; None when it drew outside `box` too."""
    img = ground.copy()
    draw(palette.drawer(img), *args)
    changed = ImageChops.difference(img, ground).getbbox()
    if changed and not (
        changed[0] >= box[0]
        and changed[1] >= box[1]
        and changed[2] <= box[2]
        and changed[3] <= box[3]
    ):
        return None
    return img.crop(box)


def put(img: Image.Image, found: Image.Image | None, box: Box, draw: Callable, *args) -> None:
    """The part `cut` made pasted at `box` of `img`, or, without one, drawn there."""
    if found is None:
        draw(palette.drawer(img), *args)
    else:
        img.paste(found, box[:2])
