"""A board's PNG from bands deflated alone (render/png_bands.py): the bands join into one
zlib stream that every reader takes (Pillow, and zlib with its Adler-32 check), and a band
deflated for an earlier picture with the same rows gives the same bytes."""

from __future__ import annotations

import io
import struct
import zlib

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from render import lettering, palette, png_bands
from render.png import rows_of


def _board(width: int, height: int, mark: tuple[int, int]) -> Image.Image:
    img, draw = palette.canvas(height, width)
    lettering.text(draw, (4, 4), "Zoë 山田 محمد", 18)
    draw.rectangle((*mark, mark[0] + 5, mark[1] + 5), fill=palette.VERMILION)
    return img


def _written(img: Image.Image, kept: list | None = None) -> tuple[bytes, list]:
    """The PNG from `img`'s bands, those of `kept` (bands of an earlier picture) taken
    where their rows are the same."""
    rows = rows_of(img)
    step = (img.width + 1) * png_bands.BAND_ROWS
    bands: list = [None] * ((img.height + png_bands.BAND_ROWS - 1) // png_bands.BAND_ROWS)
    if kept is not None:
        old_rows, old_bands, old_width = kept
        for i in range(len(bands) if old_width == img.width else 0):
            if (
                i < len(old_bands)
                and rows[i * step : (i + 1) * step] == old_rows[i * step : (i + 1) * step]
            ):
                bands[i] = old_bands[i]
    return png_bands.png(img, rows, bands), [rows, bands, img.width]


def _idat(png: bytes) -> bytes:
    at = png.index(b"IDAT")
    (length,) = struct.unpack(">I", png[at - 4 : at])
    return png[at + 4 : at + 4 + length]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(8, 60), st.integers(1, 120), st.integers(0, 7), st.integers(0, 119)),
        min_size=1,
        max_size=5,
    )
)
def test_every_picture_reads_back_and_is_the_same_bytes_whatever_came_before(pictures) -> None:
    kept = None
    for width, height, x, y in pictures:
        img = _board(width, height, (min(x, width - 1), min(y, height - 1)))
        png, kept = _written(img, kept)
        back = Image.open(io.BytesIO(png))
        back.load()
        assert back.tobytes() == img.tobytes()
        assert back.getpalette() == img.getpalette()
        assert png == _written(img)[0]
        assert zlib.decompress(_idat(png)) == rows_of(img)  # zlib checks the stream's Adler-32
