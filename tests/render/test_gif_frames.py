"""The GIF writer behind replays (render/gif_frames.py): whatever changed between frames,
at the edges, in runs and gaps of every length, decoded every frame has exactly its pixels;
a repeated frame lengthens the one before; a palette with no free entry still works."""

from __future__ import annotations

import io
import random

from PIL import Image

from render.gif_frames import GAP, animated_gif
from render.palette import PALETTE
from tests.render.test_replay_gif import decoded


def _frame(pixels: bytes, size: tuple[int, int], palette: list[int]) -> Image.Image:
    img = Image.frombytes("P", size, pixels)
    img.putpalette(palette)
    return img


def _changed(before: bytes, rng: random.Random, colours: int) -> bytes:
    """`before` with a few runs changed, gaps between them of 1 to twice GAP pixels."""
    now = bytearray(before)
    at = rng.randrange(len(now))
    for _ in range(rng.randrange(1, 6)):
        for i in range(at, min(len(now), at + rng.randrange(1, 5))):
            now[i] = (now[i] + rng.randrange(1, colours)) % colours
        at += rng.randrange(1, 2 * GAP + 1) + 4
    return bytes(now)


def _durations(data: bytes) -> list[int]:
    img = Image.open(io.BytesIO(data))
    out = []
    for n in range(img.n_frames):
        img.seek(n)
        out.append(img.info["duration"])
    return out


def test_frames_changed_anywhere_decode_to_their_own_pixels():
    rng = random.Random(3)
    size = (23, 17)
    pixels = [bytes(rng.randrange(60) for _ in range(size[0] * size[1]))]
    for _ in range(60):
        pixels.append(_changed(pixels[-1], rng, 60))
    last = bytearray(pixels[-1])  # the very last pixel alone: the end of LZW's line
    last[-1] = (last[-1] + 1) % 60
    first = bytearray(last)  # and the very first
    first[0] = (first[0] + 1) % 60
    pixels += [bytes(last), bytes(first)]
    frames = [_frame(p, size, PALETTE) for p in pixels]
    data = animated_gif(frames, [100] * len(frames), PALETTE)
    assert decoded(data) == [f.convert("RGB").tobytes() for f in frames]


def test_a_repeated_frame_adds_its_time_to_the_one_before():
    size = (8, 8)
    a, b = bytes(64), bytes([1] * 64)
    frames = [_frame(p, size, PALETTE) for p in (a, b, b, a)]
    data = animated_gif(frames, [100, 200, 300, 4000], PALETTE)
    assert decoded(data) == [frames[i].convert("RGB").tobytes() for i in (0, 1, 3)]
    assert _durations(data) == [100, 500, 4000]


def test_a_palette_without_a_free_entry_is_written_without_transparency():
    rng = random.Random(5)
    palette = [rng.randrange(256) for _ in range(256 * 3)]
    palette[: 256 * 3 : 3] = range(256)  # 256 distinct colours
    size = (30, 10)
    pixels = [bytes(rng.randrange(256) for _ in range(300))]
    for _ in range(8):
        pixels.append(_changed(pixels[-1], rng, 256))
    frames = [_frame(p, size, palette) for p in pixels]
    data = animated_gif(frames, [100] * len(frames), palette)
    assert decoded(data) == [f.convert("RGB").tobytes() for f in frames]


def test_an_entry_repeating_a_colour_shows_that_colour():
    """The fixed palette repeats ink after its 60 colours; a pixel on a repeat is ink."""
    size = (4, 4)
    frames = [_frame(bytes([200] * 16), size, PALETTE), _frame(bytes([1] * 16), size, PALETTE)]
    data = animated_gif(frames, [100, 100], PALETTE)
    assert decoded(data) == [f.convert("RGB").tobytes() for f in frames]
