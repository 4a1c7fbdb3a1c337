"""An animated GIF of palette frames, each frame after the first stored as what changed.

Pillow's own `optimize` already crops each frame to the box that changed and makes the
pixels in it that did not change transparent, but it left a replay of 40 Dark Castle boards
only 2.6 times smaller than every frame saved whole (922 -> 349 KiB), short of issue 61's
third. What it does not do, each step measured on that replay (`python -m bench.replay`):
- one colour table for the file: Pillow writes the palette again before every frame, 768
  bytes each (349 -> 319 KiB);
- LZW codes as narrow as the palette: 60 colours and "unchanged" need 6 bits, Pillow's
  start at 8 (319 -> 311 KiB);
- a run of fewer than GAP unchanged pixels between changed ones keeps its colours rather
  than turning transparent, so a changed line of text stays in the letters' shapes LZW has
  seen before instead of being cut into new patterns (311 -> 284 KiB, 3.2 times smaller).
The pixels are still compressed by Pillow's LZW encoder (`Image.tobytes("gif")`); only the
frame difference and the file's blocks are written here.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageChops

GAP = 8  # a power of two: shorter runs of unchanged pixels between changed ones keep colours
_CHANGED = [0] + [255] * 255
_LOOP = b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"  # play forever


@dataclass
class _Frame:
    box: tuple[int, int, int, int]
    pixels: Image.Image  # "L", the box's palette indices, `transparent` where unchanged
    ms: int
    transparent: int | None

    def encoded(self, bits: int) -> bytes:
        left, top, right, bottom = self.box
        flags = 1 << 2 | (self.transparent is not None)  # disposal 1: the next frame draws on it
        centiseconds = min(0xFFFF, round(self.ms / 10))
        control = struct.pack("<BHB", flags, centiseconds, self.transparent or 0)
        descriptor = struct.pack("<4HB", left, top, right - left, bottom - top, 0)
        lzw = self.pixels.tobytes("gif", "L", bits)  # sub-blocks, without their end
        return b"!\xf9\x04" + control + b"\0," + descriptor + bytes([bits]) + lzw + b"\0"


def _close_gaps(mask: Image.Image) -> Image.Image:
    """`mask` (255 changed, 0 not) with every run of fewer than GAP zeros between two 255s
    filled, in the order LZW reads pixels (row after row): a closing along one line, by
    doubling shifts."""
    line = Image.frombytes("L", (mask.width * mask.height, 1), mask.tobytes())
    closed = line
    for sign in (1, -1):  # grow to the right, then shrink back from the left
        step = 1
        while step < GAP:
            moved = closed.crop((-sign * step, 0, line.width - sign * step, 1))  # zeros come in
            closed = (ImageChops.lighter if sign > 0 else ImageChops.darker)(closed, moved)
            step *= 2
    closed = ImageChops.lighter(closed, line)  # shrinking at the line's end took changed ones
    return Image.frombytes("L", mask.size, closed.tobytes())


def _compact(palette: Sequence[int]) -> tuple[bytes, list[int]]:
    """The palette's distinct colours in order, and each index's place among them."""
    places: dict[bytes, int] = {}
    lut = []
    for i in range(0, len(palette) - 2, 3):
        lut.append(places.setdefault(bytes(palette[i : i + 3]), len(places)))
    return b"".join(places), lut + [0] * (256 - len(lut))


def animated_gif(
    frames: Sequence[Image.Image], durations: Sequence[int], palette: Sequence[int]
) -> bytes:
    """The looping GIF of `frames` (one size, their pixels indices into `palette`, a flat RGB
    list), each shown for its `durations` milliseconds; a frame the same as the one before
    adds its time to it. Decoded, every frame has exactly the colours of its pixels."""
    colours, lut = _compact(palette)
    count = len(colours) // 3
    transparent = count if count < 256 else None
    bits = max(2, (count + (transparent is not None) - 1).bit_length())
    width, height = frames[0].size
    shown = [Image.frombytes("L", f.size, f.tobytes()).point(lut) for f in frames]
    kept = [_Frame((0, 0, width, height), shown[0], durations[0], None)]
    for before, now, ms in zip(shown, shown[1:], durations[1:], strict=False):
        difference = ImageChops.difference(before, now)
        box = difference.getbbox()
        if box is None:
            kept[-1].ms += ms
            continue
        pixels = now.crop(box)
        if transparent is not None:
            pixels = Image.new("L", pixels.size, transparent)
            pixels.paste(now.crop(box), mask=_close_gaps(difference.crop(box).point(_CHANGED)))
        kept.append(_Frame(box, pixels, ms, transparent))
    table = colours + bytes(3 * ((1 << bits) - count))
    screen = struct.pack("<2H3B", width, height, 0x80 | (bits - 1) << 4 | (bits - 1), 0, 0)
    return b"GIF89a" + screen + table + _LOOP + b"".join(f.encoded(bits) for f in kept) + b";"
