"""A kept canvas (render/canvas.py) painted from scenes (render/scene.py): each picture it
writes is the PNG a fresh canvas writes, byte for byte, and reads back as the scene painted
afresh; only the bands of rows a changed part reaches are deflated again; a part is known
by everything it paints from, so no wrong key can leave a stale part behind."""

from __future__ import annotations

import functools
import io
import struct
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from engines.text import in_context
from languages import say
from render import lettering, palette, png_bands
from render.canvas import Canvas
from render.png import rows_of
from render.scene import Scene, painted

BAND = png_bands.BAND_ROWS


def _rect(draw, box: tuple, colour: tuple) -> None:
    draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=colour)


def _words(draw, x: int, y: int, words: str, size: int) -> None:
    lettering.text(draw, (x, y), words, size, palette.INK)


def _disc(draw, x: int, y: int, r: int, colour: tuple) -> None:
    draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=palette.INK, width=2)


@functools.lru_cache(maxsize=64)
def _patch(height: int, colour: int, stripe: int) -> Image.Image:
    """A layer 16 pixels wide: a plain colour with a stripe of ink across row `stripe`."""
    img = palette.new_image((16, height), COLOURS[colour])
    palette.drawer(img).line((0, stripe, 15, stripe), fill=palette.INK)
    return img


def _shown(value, draw=None) -> None:
    """Paints what it is given (a test of what a part is painted from)."""


COLOURS = [palette.VERMILION, palette.BLUE, palette.GREEN, palette.NIGHT, palette.PANEL]
WORDS = ["Ann", "Zoë 山田", "محمد", "1", "1.0"]


def _add(scene: Scene, spec: tuple) -> None:
    kind, x, y, n, colour = spec
    if kind == 0:
        scene.add(
            (x, y, x + 3 + n, y + 2 + n), _rect, (x, y, x + 3 + n, y + 2 + n), COLOURS[colour]
        )
    elif kind == 1:
        words = WORDS[colour]
        scene.add(lettering.text_box((x, y), words, 12 + n), _words, x, y, words, 12 + n)
    elif kind == 2:
        r = 3 + n
        scene.add((x - r, y - r, x + r + 1, y + r + 1), _disc, x, y, r, COLOURS[colour])
    elif kind == 3:
        scene.fill((x, y, x + 4 + 2 * n, y + 3 + n), COLOURS[colour])
    else:  # a layer at one of two corners: layers there take each other's place
        scene.layer((x % 2 * 30, 0), _patch, 20 + 4 * n, colour, (n * 7 + y) % (20 + 4 * n))


def _scene(width: int, height: int, specs: list[tuple], order: list[int]) -> Scene:
    scene = Scene(width, height)
    for i in order:
        _add(scene, specs[i % len(specs)])
    return scene


def _read(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def _idat(png: bytes) -> bytes:
    """The zlib stream of a PNG with one IDAT chunk, as another reader sees it."""
    at = png.index(b"IDAT")
    (length,) = struct.unpack(">I", png[at - 4 : at])
    return png[at + 4 : at + 4 + length]


def _fresh(scene: Scene) -> bytes:
    canvas = Canvas()
    canvas.show(scene)
    return canvas.png()


parts = st.tuples(
    st.integers(0, 4),
    st.integers(-8, 90),
    st.integers(-8, 150),
    st.integers(0, 12),
    st.integers(0, 4),
)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(20, 100),
    st.lists(parts, min_size=1, max_size=10),
    st.lists(
        st.tuples(st.integers(1, 160), st.lists(st.integers(0, 9), max_size=10)),
        min_size=1,
        max_size=6,
    ),
)
def test_a_kept_canvas_writes_what_a_fresh_one_does(width, specs, scenes) -> None:
    """Scenes of changing sizes, drawn from a pool of overlapping parts, shown one after
    another on one canvas: each PNG is the fresh canvas's bytes, decodes (Pillow, and zlib
    with its Adler-32 check) to the scene painted on a picture of its own."""
    kept = Canvas()
    for height, order in scenes:
        scene = _scene(width, height, specs, order)
        kept.show(scene)
        png = kept.png()
        assert png == _fresh(scene)
        alone = painted(scene)
        back = _read(png)
        assert back.tobytes() == alone.tobytes()
        assert back.getpalette() == alone.getpalette()
        assert zlib.decompress(_idat(png)) == rows_of(alone)


def _marks(*where: tuple[int, int]) -> Scene:
    scene = Scene(200, 6 * BAND)
    scene.fill((0, 0, 200, 6 * BAND), palette.PANEL)
    for x, y in where:
        scene.add((x, y, x + 5, y + 5), _rect, (x, y, x + 5, y + 5), palette.VERMILION)
    return scene


def test_only_the_bands_a_changed_part_reaches_are_painted_and_deflated_again() -> None:
    canvas = Canvas()
    canvas.show(_marks((10, 10), (50, 5 * BAND + 3)))
    assert canvas.to_deflate() == 6 * BAND
    canvas.png()
    canvas.show(_marks((10, 3 * BAND + 2), (50, 5 * BAND + 3)))  # leaves band 0, enters band 3
    assert canvas.painted_rows == 10
    assert canvas.to_deflate() == 2 * BAND
    assert [band is None for band in canvas.bands] == [True, False, False, True, False, False]
    canvas.png()
    canvas.show(_marks((10, 3 * BAND + 2), (50, 5 * BAND + 3)))
    assert canvas.painted_rows == 0 and canvas.to_deflate() == 0


def test_a_taller_picture_keeps_the_bands_above_and_another_width_starts_afresh() -> None:
    canvas = Canvas()
    canvas.show(_scene(120, 3 * BAND, [(0, 5, 5, 3, 1)], [0]))
    canvas.png()
    taller = _scene(120, 4 * BAND + 5, [(0, 5, 5, 3, 1)], [0])  # a longer caption, say
    canvas.show(taller)
    assert canvas.to_deflate() == BAND + 5  # the new rows only
    assert canvas.png() == _fresh(taller)
    wider = _scene(121, 3 * BAND, [(0, 5, 5, 3, 1)], [0])
    canvas.show(wider)
    assert canvas.to_deflate() == 3 * BAND
    assert canvas.png() == _fresh(wider)


def test_a_part_reaching_a_changed_box_leaves_what_lies_on_it_elsewhere() -> None:
    """A big part under a small one, and a mark changing in the big part's corner: the big
    part is painted again for the mark's box, and only that box of it is kept (the small
    part on it, far from the mark, stays on top)."""
    big = (0, 0, 0, 40, 3)  # a rectangle 43 x 42 from the corner (`_add`)
    small = (0, 20, 20, 5, 1)
    canvas = Canvas()
    canvas.show(_scene(60, 60, [big, small, (2, 40, 40, 2, 0)], [0, 1, 2]))
    moved = _scene(60, 60, [big, small, (2, 38, 38, 2, 2)], [0, 1, 2])
    canvas.show(moved)
    assert canvas.png() == _fresh(moved)


@functools.lru_cache(maxsize=16)
def _sheet(height: int, marks: tuple[int, ...]) -> Image.Image:
    """A layer 200 pixels wide (a card, say): a line of ink across each row of `marks`."""
    img = palette.new_image((200, height), palette.PANEL)
    for row in marks:
        palette.drawer(img).line((0, row, 199, row), fill=palette.INK)
    return img


def _sheets(height: int, marks: tuple[int, ...], over: bool = True) -> Scene:
    scene = Scene(200, 6 * BAND)
    dot = (10, 2 * BAND + 4, 16, 2 * BAND + 10)
    if not over:
        scene.add(dot, _rect, dot, palette.VERMILION)
    scene.layer((0, 10), _sheet, height, marks)
    if over:
        scene.add(dot, _rect, dot, palette.VERMILION)
    return scene


def test_a_layer_in_place_of_another_is_painted_again_only_where_they_differ() -> None:
    """A card's picture that changed in one line (its layer's key is new): only the bands
    where the two pictures differ are painted and deflated again; a taller one adds its
    rows; one under a part that was over the other is painted again whole."""
    canvas = Canvas()
    canvas.show(_sheets(5 * BAND, (3, 3 * BAND + 1)))
    canvas.png()
    changed = _sheets(5 * BAND, (3, 3 * BAND + 5))  # board rows 3 * BAND + 11 and 15
    canvas.show(changed)
    assert canvas.painted_rows == BAND and canvas.to_deflate() == BAND
    assert canvas.png() == _fresh(changed)
    taller = _sheets(5 * BAND + 20, (3, 3 * BAND + 5))
    canvas.show(taller)
    assert canvas.painted_rows == 20
    assert canvas.png() == _fresh(taller)
    under = _sheets(5 * BAND + 20, (3, 3 * BAND + 6), over=False)  # the dot hidden now
    canvas.show(under)
    assert canvas.png() == _fresh(under)
    shorter = _sheets(2 * BAND, (3,))
    canvas.show(shorter)
    assert canvas.png() == _fresh(shorter)


def _bar(lines: int, colour=palette.NIGHT) -> Scene:
    scene = Scene(200, 6 * BAND)
    scene.fill((0, 3 * BAND, 200, 3 * BAND + 10 * lines), colour)
    return scene


def test_a_fill_a_line_taller_is_painted_again_only_in_its_new_rows() -> None:
    canvas = Canvas()
    canvas.show(_bar(2))
    canvas.png()
    canvas.show(_bar(5))
    assert canvas.painted_rows == 30 and canvas.to_deflate() == 2 * BAND  # rows 116-146
    assert canvas.png() == _fresh(_bar(5))
    canvas.show(_bar(1))
    assert canvas.painted_rows == 40
    assert canvas.png() == _fresh(_bar(1))
    canvas.show(_bar(2, palette.VERMILION))  # another colour: painted again whole
    assert canvas.png() == _fresh(_bar(2, palette.VERMILION))


def test_parts_in_another_order_are_painted_again() -> None:
    """Two overlapping parts swapped: the same keys, another picture."""
    one, two = (0, 10, 10, 12, 0), (0, 14, 14, 12, 1)
    canvas = Canvas()
    canvas.show(_scene(60, 40, [one, two], [0, 1]))
    swapped = _scene(60, 40, [one, two], [1, 0])
    canvas.show(swapped)
    assert canvas.png() == _fresh(swapped)
    assert _read(canvas.png()).tobytes() != painted(_scene(60, 40, [one, two], [0, 1])).tobytes()


# ----- a wrong key, planted ------------------------------------------------------------------
def test_values_equal_in_python_but_not_alike_are_different_keys() -> None:
    """1, 1.0 and True are equal as Python compares them (and hash alike), but a part may
    paint them differently: each is its own key, so none is left standing for another."""
    canvas = Canvas()
    for value in (1, 1.0, True, 0.0, -0.0):
        scene = Scene(80, 30)
        scene.add((0, 0, 80, 30), _words, 2, 2, str(value), 16)  # shown in its own words
        canvas.show(scene)
        assert canvas.painted_rows == 30, f"{value!r} taken for the value before it"
        assert canvas.png() == _fresh(scene)
    scene = Scene(10, 10)
    for value in (1, 1.0, True):
        scene.add((0, 0, 1, 1), _shown, value)
    keys = {part.key for part in scene.parts}
    assert len(keys) == 3


def test_a_part_is_painted_from_its_key_not_from_a_list_changed_later() -> None:
    label = ["Ann"]
    scene = Scene(60, 20)
    scene.add((0, 0, 60, 20), _listed, 2, 2, label)
    label[0] = "Bob"  # the renderer's list changed after the part was made
    ann = Scene(60, 20)
    ann.add((0, 0, 60, 20), _listed, 2, 2, ["Ann"])
    assert scene.parts[0].key == ann.parts[0].key
    assert _fresh(scene) == _fresh(ann)


def _listed(draw, x: int, y: int, words: list) -> None:
    lettering.text(draw, (x, y), words[0], 14, palette.INK)


class _Painter:
    def paint(self, draw) -> None:
        pass


def test_a_painter_that_could_hide_what_it_shows_is_refused() -> None:
    """A lambda, a function made inside another (a closure), a bound method or a partial
    would paint from something its key does not hold: refused."""
    shown = "Ann"

    def inner(draw) -> None:
        lettering.text(draw, (0, 0), shown, 12)

    scene = Scene(20, 20)
    for painter in (
        lambda draw: None,
        inner,
        _Painter().paint,
        functools.partial(_words, x=1),
    ):
        with pytest.raises(TypeError, match="plain function"):
            scene.add((0, 0, 5, 5), painter)
    assert scene.parts == []


def _said(draw, word) -> None:
    lettering.text(draw, (2, 2), say(word, "de"), 14, palette.INK)


def test_an_argument_that_is_no_plain_value_is_painted_every_time() -> None:
    """A message is a str that is only its English: "door" on a staircase and "door" on a
    tile say different words in German. No key is made from it: such a part is painted
    again every time, never taken for the one before."""
    stairs, tile = in_context("staircase", "door"), in_context("tile kind", "open door")
    canvas = Canvas()
    for word in (stairs, stairs, tile, _Painter()):
        scene = Scene(120, 24)
        if isinstance(word, _Painter):
            scene.add((0, 0, 120, 24), _shown, word)
        else:
            scene.add((0, 0, 120, 24), _said, word)
        assert not scene.parts[0].plain
        canvas.show(scene)
        assert canvas.painted_rows == 24
        assert canvas.png() == _fresh(scene)


def test_a_canvas_that_failed_mid_paint_is_not_what_the_worker_keeps() -> None:
    """render.work keeps a canvas only once its board is painted and written."""
    from render import work

    kept = work.Canvases(kept=4)
    canvas = kept.take("t")
    assert len(kept) == 0 and isinstance(canvas, Canvas)
    kept.keep("t", canvas)
    assert kept.take("t") is canvas
    assert kept.take("t") is not canvas  # taken out: a thread drawing alongside gets a new one


def test_only_the_last_few_canvases_are_kept() -> None:
    from render import work

    kept = work.Canvases(kept=2)
    canvases = {key: kept.take(key) for key in "abc"}
    for key, canvas in canvases.items():
        kept.keep(key, canvas)
    assert len(kept) == 2
    assert kept.take("a") is not canvases["a"]  # the least recent, dropped
    assert kept.take("c") is canvases["c"]
