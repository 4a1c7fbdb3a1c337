"""The project's own PNG writer (render/png.py): what Pillow reads back is the picture."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from render import lettering, palette
from render.png import palette_png


@st.composite
def palette_pictures(draw) -> Image.Image:
    width = draw(st.integers(1, 40))
    height = draw(st.integers(1, 30))
    entries = draw(st.integers(1, 256))
    pixels = draw(st.binary(min_size=width * height, max_size=width * height))
    img = Image.frombytes("P", (width, height), bytes(b % entries for b in pixels))
    palette = draw(st.binary(min_size=3 * entries, max_size=3 * entries))
    img.putpalette(palette)
    return img


def _read(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


@settings(max_examples=60, deadline=None)
@given(palette_pictures())
def test_a_palette_picture_reads_back_pixel_for_pixel(img: Image.Image) -> None:
    back = _read(palette_png(img))
    assert back.mode == "P" and back.size == img.size
    assert back.tobytes() == img.tobytes()
    assert back.convert("RGB").tobytes() == img.convert("RGB").tobytes()


def test_a_board_canvas_reads_back_with_its_palette() -> None:
    img, draw = palette.canvas(64, 48)
    lettering.text(draw, (4, 4), "Zoë 山田", 18)
    back = _read(palette.to_png(img))
    assert back.tobytes() == img.tobytes()
    assert back.getpalette() == img.getpalette()


def test_one_clear_entry_stays_clear() -> None:
    img = Image.new("P", (3, 2), 2)
    img.putpalette([10, 20, 30] * 4)
    img.info["transparency"] = 2
    back = _read(palette_png(img))
    assert back.info.get("transparency") == 2
    assert back.convert("RGBA").getpixel((0, 0))[3] == 0


def test_only_a_palette_picture_is_written() -> None:
    with pytest.raises(ValueError):
        palette_png(Image.new("RGB", (2, 2)))
