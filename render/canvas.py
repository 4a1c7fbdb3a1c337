"""A board kept from move to move: painted from its scene (render/scene.py) where its parts
changed, held in the PNG's own row layout, and deflated again only in the bands of rows
that changed (render/png_bands.py).

The picture's pixels live in one buffer laid out as the PNG's filtered rows: each row is
its filter byte (0: none) and its pixels, so the picture Pillow paints on is a view of that
buffer with rows one byte apart, and the rows are never copied into PNG's layout again.

A new scene is compared with the last, part by part: a part whose key is new, or an old one
now gone, marks its box; the parts that kept their keys kept their order, or the whole
picture is painted again. A layer (a picture made once for what it shows: a card, a board's
ground) that took the place of an old one, by the same maker from the same corner and as
wide, between the same kept parts, marks only the bands of rows where the two pictures'
bytes differ (and the rows only the taller has): a card whose one line changed is painted
and deflated again in that line's band, not whole. Where the two pictures hold the same
pixels, so does the board: a layer covers its box, so what lies under it does not show,
and what lies on it is the same parts in the same order. Each marked box is painted again
from the ground up by every part that reaches into it, and only the box is kept of that
painting (a part paints its whole box; its pixels outside the marked box are put back as
they were). A pixel outside every marked box is the work of the same parts in the same order
as before, so it is what it was; a pixel inside is painted as a fresh picture paints it. So a kept canvas shows exactly the
picture a fresh one does (tests/conformance/test_kept_canvas.py), and the bands of rows no
marked box reaches keep their deflated bytes.
"""

from __future__ import annotations

from PIL import Image

from render import palette, png_bands
from render.scene import Box, Part, Scene, paint_part

SLACK = 64  # rows a canvas's buffer has beyond its picture (captions vary by a line or two)


def _meets(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _within(a: Box, limit: Box) -> Box | None:
    box = (max(a[0], limit[0]), max(a[1], limit[1]), min(a[2], limit[2]), min(a[3], limit[3]))
    return box if box[0] < box[2] and box[1] < box[3] else None


def _union(a: Box, b: Box) -> Box:
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def _merged(boxes: list[Box]) -> list[Box]:
    """Boxes that meet joined into one (each pixel then painted once)."""
    out: list[Box] = []
    for box in boxes:
        joined = True
        while joined:
            joined = False
            for i, other in enumerate(out):
                if _meets(box, other):
                    box = _union(box, out.pop(i))
                    joined = True
                    break
        out.append(box)
    return out


def _swapped(after: int, part: Part, gone: list[tuple[int, Part]]) -> tuple[int, Part] | None:
    """The old layer a new one took the place of: a picture by the same maker (or a fill of
    the same colour: a caption's bar a line taller) from the same corner, as wide, between
    the same parts both scenes have. Where the two pictures hold the same pixels the board
    does too: a layer covers its box, so what lies under it does not show, and what lies on
    it is the same parts in the same order."""
    if part.image is None:
        return None
    box = part.box
    fill = isinstance(part.image, int)
    for found in gone:
        was_after, old = found
        if (
            was_after == after
            and old.paint is part.paint
            and old.image is not None
            and (old.image == part.image if fill else not isinstance(old.image, int))
            and old.box[0] == box[0]
            and old.box[1] == box[1]
            and old.box[2] == box[2]
        ):
            return found
    return None


def _rows_apart(old: Part, new: Part) -> list[Box]:
    """The boxes of the rows, in bands of the PNG's rows, where two layers of one corner and
    width differ (compared as bytes), and the rows only the taller one has."""
    left, top, right = new.box[:3]
    width = right - left
    common = min(old.box[3], new.box[3])
    boxes: list[Box] = []
    rows = png_bands.BAND_ROWS
    y = top
    if isinstance(new.image, int):  # a fill of the same colour: alike where both reach
        y = common
    else:
        was, now = old.image.tobytes(), new.image.tobytes()
    while y < common:
        end = min(common, (y // rows + 1) * rows)
        lo, hi = (y - top) * width, (end - top) * width
        if was[lo:hi] != now[lo:hi]:
            if boxes and boxes[-1][3] == y:
                boxes[-1] = (left, boxes[-1][1], right, end)
            else:
                boxes.append((left, y, right, end))
        y = end
    taller = max(old.box[3], new.box[3])
    if taller > common:
        boxes.append((left, common, right, taller))
    return boxes


class Canvas:
    """One table's picture as one seat sees it in one language (the worker keeps these:
    render/work.py)."""

    def __init__(self) -> None:
        self.size: tuple[int, int] | None = None
        self.ground: int | None = None
        self.parts: list[Part] | None = None  # None: what it shows is not a scene's
        self.buffer = bytearray()
        self.image: Image.Image | None = None
        self.bands: list[bytes | None] = []  # each band's deflate; None: to deflate
        self.painted_rows = 0  # rows painted again by the last `show` (the bench reads it)

    # ----- the pixels --------------------------------------------------------------------
    def _allocate(self, size: tuple[int, int], ground: int, keep: int = 0) -> None:
        """The picture at `size`: its first `keep` rows those it had, the rest the plain
        `ground`. The buffer has room for `SLACK` more rows than the picture it was made
        for, so a caption a line or two longer only maps the rows again."""
        width, height = size
        row = width + 1
        if self.size is None or self.size[0] != width or len(self.buffer) < row * height + 1:
            # the extra byte: Pillow maps each row from its first pixel
            buffer = bytearray(row * (height + SLACK) + 1)
            if keep:
                buffer[: row * keep] = self.buffer[: row * keep]
            self.buffer = buffer
        image = Image.frombuffer("P", size, memoryview(self.buffer)[1:], "raw", "P", row, 1)
        image.readonly = 0  # painted in place: the buffer is this canvas's own
        image.putpalette(palette.PALETTE)
        if keep < height:
            image.im.paste(ground, (0, keep, width, height))
        old_bands = self.bands if keep else []
        rows = png_bands.BAND_ROWS
        self.bands = [
            old_bands[i] if i < len(old_bands) and (i + 1) * rows <= keep else None
            for i in range((height + rows - 1) // rows)
        ]
        self.image, self.size, self.ground = image, size, ground

    def _mark(self, top: int, bottom: int) -> None:
        rows = png_bands.BAND_ROWS
        for i in range(top // rows, (bottom - 1) // rows + 1):
            self.bands[i] = None
        self.painted_rows += bottom - top

    def show(self, scene: Scene) -> None:
        """Make the canvas `scene`'s picture, painting again only where it changed."""
        width, height = scene.size
        self.painted_rows = 0
        if (
            self.parts is None
            or self.size is None
            or (width, self.ground) != (self.size[0], scene.ground)
        ):
            self._fresh(scene)
            return
        marked: list[Box] = []
        if height != self.size[1]:
            old_height = self.size[1]
            self._allocate(scene.size, scene.ground, keep=min(old_height, height))
            if height > old_height:
                marked.append((0, old_height, width, height))
        whole = (0, 0, width, height)
        changed = self._changes(self.parts, scene.parts)
        if changed is None:
            marked = [whole]
        else:
            marked += [box for box in (_within(b, whole) for b, _ in changed) if box is not None]
        self.parts = scene.parts
        draw = palette.drawer(self.image)
        for box in _merged(marked):
            self._repaint(draw, box)
        self._check(width, height)

    def _fresh(self, scene: Scene) -> None:
        self._allocate(scene.size, scene.ground)
        draw = palette.drawer(self.image)
        for part in scene.parts:
            paint_part(draw, part)
        self.parts = scene.parts
        self.painted_rows = scene.size[1]
        self._check(*scene.size)

    @staticmethod
    def _changes(old: list[Part], new: list[Part]) -> list[tuple[Box, Part]] | None:
        """The boxes of the parts only one of `old` and `new` has, each with its part (`python
        -m bench.canvas parts` names them); None when the parts both have are not in the same
        order (everything is painted again). A layer that took the place of another
        (`_swapped`) gives only the rows where their pictures differ."""
        where: dict = {}
        for i, part in enumerate(old):
            where.setdefault(part.key, []).append(i)
        boxes: list[tuple[Box, Part]] = []
        added: list[tuple[int, Part]] = []  # a new part, after the old part matched last
        last = -1
        for part in new:
            found = where.get(part.key)
            if found:
                i = found.pop(0)
                if i < last:
                    return None
                last = i
            else:
                added.append((last, part))
        left = {i for remaining in where.values() for i in remaining}
        gone: list[tuple[int, Part]] = []  # an old part gone, after the matched part before it
        last = -1
        for i, part in enumerate(old):
            if i in left:
                gone.append((last, part))
            else:
                last = i
        for after, part in added:
            twin = _swapped(after, part, gone)
            if twin is None:
                boxes.append((part.box, part))
            else:
                gone.remove(twin)
                boxes += [(box, part) for box in _rows_apart(twin[1], part)]
        boxes += [(part.box, part) for _, part in gone]
        return boxes

    def _repaint(self, draw, box: Box) -> None:
        """Paint `box` again from the ground up with every part that reaches into it."""
        parts = [p for p in self.parts if _meets(p.box, box)]
        start = 0
        for j in range(len(parts) - 1, -1, -1):  # nothing under a layer that covers it shows
            p = parts[j]
            if p.image is not None and _within(box, p.box) == box:
                start = j
                break
        else:
            self.image.im.paste(self.ground, box)
        reach = box
        for p in parts[start:]:
            if p.image is None:
                reach = _union(reach, p.box)
        core = self.image.im
        reach = _within(reach, (0, 0, *self.size))
        saved = core.crop(reach) if reach != box else None
        for p in parts[start:]:
            paint_part(draw, p, _within(p.box, box) if p.image is not None else None)
        if saved is not None:
            patch = core.crop(box)
            core.paste(saved, reach)
            core.paste(patch, box)
        self._mark(box[1], box[3])

    def _check(self, width: int, height: int) -> None:
        """The parts painted on the buffer itself (a part that swapped the picture for a
        copy of it, which Pillow does for a picture it thinks read-only, would be lost)."""
        if self.image.readonly or self.image.size != (width, height):
            raise RuntimeError("a part painted on a copy of the canvas")

    def take(self, image: Image.Image) -> None:
        """Show a picture drawn whole (a board without a scene): the bands whose rows it
        did not change keep their deflated bytes."""
        if image.mode != "P":
            raise ValueError("a board is a palette picture")
        end = (image.width + 1) * image.height
        before = self.buffer[:end] if self.size == image.size else b""
        if self.size != image.size:
            self._allocate(image.size, 0)
        self.image.im.paste(image.im, (0, 0, *image.size))
        self.image.putpalette(image.getpalette("RGB"))
        self.parts = None
        row = image.width + 1
        step = row * png_bands.BAND_ROWS
        self.painted_rows = 0
        for i in range(len(self.bands)):
            lo, hi = i * step, min((i + 1) * step, end)
            if not before or self.buffer[lo:hi] != before[lo:hi]:  # as bytes: memcmp's speed
                self._mark(lo // row, hi // row)

    # ----- the PNG -----------------------------------------------------------------------
    def to_deflate(self) -> int:
        """The rows whose bands `png` deflates again."""
        rows = png_bands.BAND_ROWS
        last = self.size[1] - rows * (len(self.bands) - 1)
        return sum(rows for band in self.bands if band is None) - (rows - last) * (
            self.bands[-1] is None
        )

    def png(self) -> bytes:
        """The picture as PNG: the bands of changed rows deflated, the rest as they were."""
        return png_bands.png(
            self.image, memoryview(self.buffer)[: (self.size[0] + 1) * self.size[1]], self.bands
        )
