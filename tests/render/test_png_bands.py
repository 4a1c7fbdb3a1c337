"""A move's PNG deflated band by band (render/png_bands.py): the picture reads back pixel
for pixel, and its bytes do not depend on which picture was kept before it."""

from __future__ import annotations

import io
import struct
import zlib

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

import render
from engines import REGISTRY
from render import lettering, palette, png_bands, work
from render.png import rows_of
from render.png_bands import BandedEncoder


def _read(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def _idat(png: bytes) -> bytes:
    """The zlib stream of a PNG with one IDAT chunk, as another reader sees it."""
    at = png.index(b"IDAT")
    (length,) = struct.unpack(">I", png[at - 4 : at])
    return png[at + 4 : at + 4 + length]


def _board(width: int, height: int, mark: tuple[int, int] | None = None) -> Image.Image:
    img, draw = palette.canvas(height, width)
    lettering.text(draw, (4, 4), "Zoë 山田 محمد", 18)
    if mark is not None:
        draw.rectangle((*mark, mark[0] + 5, mark[1] + 5), fill=palette.VERMILION)
    return img


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(8, 60), st.integers(1, 120), st.integers(0, 7), st.integers(0, 119)),
        min_size=1,
        max_size=5,
    )
)
def test_every_picture_reads_back_and_is_the_same_bytes_whatever_came_before(pictures) -> None:
    """Pictures of changing sizes, each with a mark at a changing row, one after another
    under one key: each reads back exactly, and is the PNG a fresh encoder writes."""
    kept = BandedEncoder()
    for width, height, x, y in pictures:
        img = _board(width, height, (min(x, width - 1), min(y, height - 1)))
        png = kept.png(img, "game")
        back = _read(png)
        assert back.tobytes() == img.tobytes()
        assert back.getpalette() == img.getpalette()
        assert png == BandedEncoder().png(img, "game")
        assert zlib.decompress(_idat(png)) == rows_of(img)  # zlib checks the stream's Adler-32


def test_a_move_reuses_the_bands_it_did_not_change_and_deflates_the_rest() -> None:
    rows = 6 * png_bands.BAND_ROWS
    encoder = BandedEncoder()
    encoder.png(_board(200, rows, (10, 10)), "ghosts18")
    assert (encoder.reused, encoder.deflated) == (0, 6)
    moved = _board(200, rows, (10, 3 * png_bands.BAND_ROWS + 2))  # leaves band 0, enters band 3
    png = encoder.png(moved, "ghosts18")
    assert (encoder.reused, encoder.deflated) == (4, 8)
    assert _read(png).tobytes() == moved.tobytes()


def test_a_taller_picture_keeps_the_bands_above_and_another_key_shares_nothing() -> None:
    band = png_bands.BAND_ROWS
    encoder = BandedEncoder()
    encoder.png(_board(120, 3 * band), "a")
    taller = _board(120, 4 * band + 5)  # a longer caption: the same rows on top
    encoder.png(taller, "a")
    assert encoder.reused >= 1
    before = encoder.reused
    encoder.png(_board(120, 3 * band), "b")
    assert encoder.reused == before  # nothing kept under "b" yet
    wider = _board(121, 3 * band)
    assert _read(encoder.png(wider, "a")).tobytes() == wider.tobytes()
    assert encoder.reused == before  # another width: no band lines up


def test_only_the_last_pictures_of_a_few_keys_are_kept() -> None:
    encoder = BandedEncoder(kept=2)
    for key in ("a", "b", "c"):
        encoder.png(_board(60, 40), key)
    encoder.png(_board(60, 40), "a")  # dropped as the least recent: deflated again
    assert encoder.reused == 0
    encoder.png(_board(60, 40), "c")
    assert encoder.reused > 0


def test_a_workers_boards_are_the_bytes_a_fresh_process_writes() -> None:
    """render.work.board keeps the last board of a game (render/work.py `BANDS`): a seeded
    game's boards, drawn one after another there, are byte for byte `render.board_png`'s,
    and many of their bands were not deflated again."""
    game = REGISTRY["ghosts18"]
    state = game.setup(["Ann", "Bob"], {})
    reused = work.BANDS.reused
    for _ in range(6):
        view = game.view(state, None)
        png = work.board("ghosts18", view)[0]
        assert png == render.board_png("ghosts18", view)
        seat = game.to_act(state)[0]
        state, _ = game.apply(state, seat, game.legal_actions(state, seat)[0])
    assert work.BANDS.reused - reused >= 5 * 10  # of the 30 bands of each later board
