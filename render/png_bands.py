"""A board's PNG deflated band by band, so that a kept board (render/canvas.py) deflates
again only the bands of rows that changed.

A move changes a few places of a board (a piece, a seat's line, the caption); the frame,
the grid and the legends stay, so most rows of its picture are the rows of the picture
before. Each band of `BAND_ROWS` rows is deflated alone (raw deflate ended by a sync flush,
so the pieces join into one zlib stream): a band's bytes depend on its rows alone, so a
board's PNG is the same bytes whichever bands were deflated again, and a kept band is never
used for rows it was not made from.

`BAND_ROWS` was measured (`python -m bench.png`: zlib-ng level 2, 120 boards a game, one
after another): deflating only the bands whose rows changed took 0.07-0.66 ms a board by
game with bands of 32 rows, 0.09-0.79 with 16 and 0.08-0.66 with 64, where 64 leaves 6-12
points fewer rows alone (16 up to 6 more). Bands of 32 cost a fresh board 0.10-0.25 ms more
than one stream, and leave 36-79% of a move's rows alone by game (at most: a kept canvas
deflates again the bands its changed parts reach, render/canvas.py). The choice cannot be
made board by board: a board's bytes depend on its pixels alone, whatever came before.
"""

from __future__ import annotations

import struct

from PIL import Image
from zlib_ng import zlib_ng

from render.png import IEND, LEVEL, chunk, head

BAND_ROWS = 32
_ZLIB_HEADER = b"\x78\x01"  # deflate, 32 KB window; (0x78 * 256 + 0x01) % 31 == 0
_LAST_BLOCK = b"\x03\x00"  # an empty final block (fixed codes): ends the stream


def deflated(rows) -> bytes:
    """A band's rows as raw deflate, ended by a sync flush (byte-aligned, not final)."""
    packer = zlib_ng.compressobj(LEVEL, zlib_ng.DEFLATED, -15)
    return packer.compress(rows) + packer.flush(zlib_ng.Z_SYNC_FLUSH)


def png(img: Image.Image, rows, bands: list[bytes | None]) -> bytes:
    """The PNG of `img`, whose rows in PNG's layout are `rows` (a buffer), from its bands'
    deflated bytes: each band still None is deflated now (and kept in `bands`)."""
    step = (img.width + 1) * BAND_ROWS
    for i, band in enumerate(bands):
        if band is None:
            bands[i] = deflated(rows[i * step : (i + 1) * step])
    adler = struct.pack(">I", zlib_ng.adler32(rows))  # zlib-ng's: SIMD, 12 µs a board
    stream = b"".join([_ZLIB_HEADER, *bands, _LAST_BLOCK, adler])
    return head(img) + chunk(b"IDAT", stream) + IEND
