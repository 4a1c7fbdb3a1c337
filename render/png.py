"""A palette picture as PNG bytes, written here rather than by Pillow's PNG plugin.

Measured on our boards (`bench`, a 1200 x 938 board of 18 Ghosts): the deflate is nearly
all of a PNG's cost, and zlib-ng's level 2 deflates the same rows about 2.8 times faster
than zlib's level 3, into a slightly smaller file (1.6 ms and 38 KB against 4.5 ms and
39 KB). Pillow links the system's zlib, so the rows are deflated here. Rows are stored
unfiltered (filter type 0), which is what the PNG specification advises for palette
pictures and what Pillow wrote for ours too.

Other libraries were measured for issue 61 (`bench.png`: 120 boards of each game); zlib-ng
stays. ISA-L (python-isal, level 1) deflated a board 2.2-2.6 times faster, 8-12% larger,
but not always into the same bytes: the same rows came out differently in one band of
about 3,000 (both decoded alike), where a board's PNG must be the same bytes whatever its
worker drew before (render/canvas.py). libdeflate writes no stream that joins band by
band, and whole took 1.4-2.7 ms. zlib-ng's Z_RLE was 15% faster and 25-50% larger.
"""

from __future__ import annotations

import struct
from collections.abc import Callable

from PIL import Image
from zlib_ng import zlib_ng

LEVEL = 2
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
IEND = b"\x00\x00\x00\x00IEND\xaeB`\x82"


def chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data))
        + kind
        + data
        + struct.pack(">I", zlib_ng.crc32(data, zlib_ng.crc32(kind)))
    )


def rows_of(img: Image.Image) -> bytes:
    """Each row behind its filter byte (0, none): the picture pasted one pixel to the
    right on a canvas whose first column is palette entry 0, which is the byte 0."""
    width, height = img.size
    framed = Image.new("P", (width + 1, height), 0)
    framed.paste(img, (1, 0))
    return framed.tobytes()


def compress(rows: bytes) -> bytes:
    """A zlib stream of `rows`."""
    return zlib_ng.compress(rows, LEVEL)


def palette_png(img: Image.Image) -> bytes:
    """A P-mode picture as PNG: 8 bits a pixel, its palette as it is, rows unfiltered."""
    return assembled(img, compress)


def head(img: Image.Image) -> bytes:
    """A P-mode picture's PNG up to its pixels: the signature, its size, its palette and
    its one clear entry, if it has one."""
    if img.mode != "P":
        raise ValueError(f"a palette picture is wanted, not {img.mode}")
    width, height = img.size
    palette = bytes(img.getpalette("RGB") or [0, 0, 0])
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    parts = [_SIGNATURE, chunk(b"IHDR", header), chunk(b"PLTE", palette[: 3 * 256])]
    transparency = img.info.get("transparency")
    if isinstance(transparency, int):  # one clear entry: every other entry opaque
        parts.append(chunk(b"tRNS", b"\xff" * transparency + b"\x00"))
    return b"".join(parts)


def assembled(img: Image.Image, deflate: Callable[[bytes], bytes]) -> bytes:
    """The PNG of a P-mode picture whose rows (`rows_of`) `deflate` makes a zlib stream of."""
    start = head(img)
    return start + chunk(b"IDAT", deflate(rows_of(img))) + IEND
