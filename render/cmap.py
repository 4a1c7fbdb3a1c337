"""Which characters a font file draws, read straight from its `cmap` table.

The fallback chain (render/fonts.py) asks this once per face and process: for DejaVu as soon
as a text leaves plain ASCII, for a Noto face when a name first needs it. fontTools did it by
building every glyph's name first: its import and DejaVu's table took 70 ms, the Chinese,
Japanese and Korean collection 270 ms, paid by the board that first needed them in each CPU
worker. The characters alone need only the table's ranges (formats 4 and 12, which every
face of the chain has): 1-6 ms.
"""

from __future__ import annotations

import mmap
import struct
from pathlib import Path

# The subtables fontTools' getBestCmap prefers, in its order: (platform, encoding).
PREFERRED = ((3, 10), (0, 6), (0, 4), (3, 1), (0, 3), (0, 2), (0, 1), (0, 0))


def code_points(path: str | Path, index: int = 0) -> frozenset[int]:
    """The code points the font maps to a glyph other than .notdef (font `index` of a
    collection). Empty when the font has no Unicode subtable this reads."""
    with open(path, "rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
        return _read(data, index)  # mapped: the Chinese, Japanese and Korean collection is 33 MB


def _read(data, index: int) -> frozenset[int]:
    table = _cmap(data, _directory(data, index))
    if table is None:
        return frozenset()
    (count,) = struct.unpack_from(">H", data, table + 2)
    records = {}
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", data, table + 4 + 8 * i)
        records.setdefault((platform, encoding), table + offset)
    for key in PREFERRED:
        if key in records:
            at = records[key]
            (kind,) = struct.unpack_from(">H", data, at)
            if kind == 4:
                return _format_4(data, at)
            if kind == 12:
                return _format_12(data, at)
    return frozenset()


def _directory(data, index: int) -> int:
    """Where the font's table directory starts (a collection lists one per font)."""
    if data[:4] == b"ttcf":
        (fonts,) = struct.unpack_from(">I", data, 8)
        if not 0 <= index < fonts:
            raise ValueError(f"the collection has {fonts} fonts, not {index + 1}")
        return struct.unpack_from(">I", data, 12 + 4 * index)[0]
    return 0


def _cmap(data, directory: int) -> int | None:
    (tables,) = struct.unpack_from(">H", data, directory + 4)
    for i in range(tables):
        tag, _checksum, offset, _length = struct.unpack_from(
            ">4sIII", data, directory + 12 + 16 * i
        )
        if tag == b"cmap":
            return offset
    return None


def _format_4(data, at: int) -> frozenset[int]:
    """Segments of 16-bit code points: a glyph by delta, or looked up in an array."""
    (segments,) = struct.unpack_from(">H", data, at + 6)
    segments //= 2
    ends = struct.unpack_from(f">{segments}H", data, at + 14)
    starts_at = at + 16 + 2 * segments
    starts = struct.unpack_from(f">{segments}H", data, starts_at)
    deltas = struct.unpack_from(f">{segments}h", data, starts_at + 2 * segments)
    offsets_at = starts_at + 4 * segments
    offsets = struct.unpack_from(f">{segments}H", data, offsets_at)
    found: set[int] = set()
    for i, (start, end, delta, offset) in enumerate(
        zip(starts, ends, deltas, offsets, strict=True)
    ):
        if start > end:
            continue
        if offset == 0:
            found.update(c for c in range(start, end + 1) if (c + delta) & 0xFFFF)
            continue
        array = offsets_at + 2 * i + offset  # the offset counts from its own place
        glyphs = struct.unpack_from(f">{end - start + 1}H", data, array)
        found.update(
            c
            for c, g in zip(range(start, end + 1), glyphs, strict=True)
            if g and (g + delta) & 0xFFFF
        )
    found.discard(0xFFFF)  # the table's closing segment, not a character
    return frozenset(found)


def _format_12(data, at: int) -> frozenset[int]:
    """Groups of code points with consecutive glyphs, the whole of Unicode."""
    (groups,) = struct.unpack_from(">I", data, at + 12)
    found: set[int] = set()
    for i in range(groups):
        start, end, glyph = struct.unpack_from(">III", data, at + 16 + 12 * i)
        found.update(range(start + (glyph == 0), end + 1))  # glyph 0 is .notdef
    return frozenset(found)
