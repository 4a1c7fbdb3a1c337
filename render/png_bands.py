"""A board's PNG deflated band by band, reusing the bands of the picture drawn before it.

A move changes a few places of a board (a piece, a seat's line, the caption); the frame,
the grid and the legends stay, so most rows of its picture are the rows of the picture
before. The deflate is most of a PNG's cost (render/png.py), and it is paid here only for
the bands of rows that changed: each band of `BAND_ROWS` rows is deflated alone (raw
deflate ended by a sync flush, so the pieces join into one zlib stream), and a band
whose rows are byte for byte those of the same band of the picture kept for the same key
is given that band's bytes again. A band's bytes depend on its rows alone, so the PNG is
the same whatever was kept; a kept band is never used for rows it was not made from.

Kept: the last picture of each key (a game and a language), at most `KEPT` of them, about
1.2 MB each (its rows and its bands).
"""

from __future__ import annotations

import struct
import threading
from collections import OrderedDict
from collections.abc import Hashable

from PIL import Image
from zlib_ng import zlib_ng

from render.png import LEVEL, assembled

BAND_ROWS = 32
KEPT = 8
_ZLIB_HEADER = b"\x78\x01"  # deflate, 32 KB window; (0x78 * 256 + 0x01) % 31 == 0
_LAST_BLOCK = b"\x03\x00"  # an empty final block (fixed codes): ends the stream


def _deflated(rows: bytes) -> bytes:
    packer = zlib_ng.compressobj(LEVEL, zlib_ng.DEFLATED, -15)
    return packer.compress(rows) + packer.flush(zlib_ng.Z_SYNC_FLUSH)


class BandedEncoder:
    """PNGs of palette pictures, each reusing the bands of the last one of its key."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._lock = threading.Lock()
        self._last: OrderedDict[Hashable, tuple[bytes, list[bytes], int]] = OrderedDict()
        self.reused = self.deflated = 0  # bands so far (the tests read them)

    def png(self, img: Image.Image, key: Hashable) -> bytes:
        return assembled(img, lambda rows: self._stream(rows, img.width + 1, key))

    def _stream(self, rows: bytes, row_bytes: int, key: Hashable) -> bytes:
        with self._lock:  # a bot without workers draws on threads
            before = self._last.pop(key, None)
        if before is not None and before[2] != row_bytes:
            before = None  # another width: no row lines up (a taller caption keeps the top)
        stride = row_bytes * BAND_ROWS
        old = before[0] if before is not None else None
        pieces: list[bytes] = []
        for i, start in enumerate(range(0, len(rows), stride)):
            band = rows[start : start + stride]  # bytes, compared at memcmp's speed (a
            if old is not None and band == old[start : start + stride]:  # memoryview: 17x)
                pieces.append(before[1][i])
                self.reused += 1
            else:
                pieces.append(_deflated(band))
                self.deflated += 1
        with self._lock:
            self._last[key] = (rows, pieces, row_bytes)
            while len(self._last) > self.kept:
                self._last.popitem(last=False)
        adler = struct.pack(">I", zlib_ng.adler32(rows))
        return b"".join([_ZLIB_HEADER, *pieces, _LAST_BLOCK, adler])
