"""The board photos of the real `escape-bot run` (its CPU workers keep each table's board
on a canvas, repaint only the parts that changed and deflate only the bands of rows they
reach: render/canvas.py, render/png_bands.py), as the people of a Telegram group get them: Chromium decodes every one to the pixels Pillow reads, and zlib
checks each stream whole. A stranger pressing the board's buttons posts nothing."""

from __future__ import annotations

import asyncio
import base64
import io
import struct
import zlib

from PIL import Image

from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import (
    BOARD_CALLS,
    GROUP,
    choice_buttons,
    current_board,
    escape_bot_run,
    open_table,
    stop_escape_bot,
)
from tests.e2e.test_web_browser import browser  # noqa: F401 (a fixture)

PNG = b"\x89PNG"
POINTS = ((5, 5), (600, 300), (1100, 200), (300, -20), (900, -40))  # y < 0: from the bottom
DECODE = """
const [src, points, done] = arguments;
const im = new Image();
im.onerror = () => done(null);
im.onload = () => {
  const canvas = document.createElement("canvas");
  canvas.width = im.naturalWidth; canvas.height = im.naturalHeight;
  const drawn = canvas.getContext("2d"); drawn.drawImage(im, 0, 0);
  done([im.naturalWidth, im.naturalHeight, points.map(([x, y]) =>
    Array.from(drawn.getImageData(x, y < 0 ? im.naturalHeight + y : y, 1, 1).data.slice(0, 3)))]);
};
im.src = src;
"""


def _zlib_stream(png: bytes) -> bytes:
    at = png.index(b"IDAT")
    (length,) = struct.unpack(">I", png[at - 4 : at])
    return png[at + 4 : at + 4 + length]


async def _move(standin, users, board: dict) -> bool:
    """Whoever may press the board's first choice does; False when nobody could."""
    data = choice_buttons(board)[0]["callback_data"]
    for user in users:
        mark = len(standin.calls)
        answer = await standin.answer(await standin.press(user, board, data))
        if not answer.get("show_alert"):
            await standin.wait_for(lambda c: c.method in BOARD_CALLS, after=mark)
            return True
    return False


async def test_every_board_photo_decodes_in_chromium_as_in_pillow(tg_standin, tmp_path, browser):  # noqa: F811
    standin = tg_standin
    settings = {
        "TELEGRAM_TOKEN": standin.token,
        "TELEGRAM_BASE_URL": standin.base_url,
        "TELEGRAM_BASE_FILE_URL": standin.base_file_url,
        "ESCAPE_DB": str(tmp_path / "escape.sqlite3"),
    }
    process = await escape_bot_run(tmp_path, settings)
    try:
        await open_table(standin)
        carol = standin.add_user(9090, "Carol")
        standin.join_group(GROUP, carol)
        for _ in range(10):
            board = current_board(standin)
            mark = len(standin.calls)
            data = choice_buttons(board)[0]["callback_data"]
            refused = await standin.answer(await standin.press(carol, board, data))
            assert "not playing in this game" in refused["text"]
            assert await _move(standin, (standin.ann, standin.bob), board)
            assert not [c for c in standin.calls[mark:] if c.method in BOARD_CALLS][1:]
    finally:
        await stop_escape_bot(process)
    photos = [f for c in standin.calls if c.method in BOARD_CALLS for f in c.files.values()]
    photos = [p for p in photos if p.startswith(PNG)]
    assert len(photos) == 11  # the opening board and ten moves
    browser.get("about:blank")
    for png in photos:
        assert zlib.decompress(_zlib_stream(png))  # its Adler-32 checked
        seen = Image.open(io.BytesIO(png)).convert("RGB")
        url = "data:image/png;base64," + base64.b64encode(png).decode()
        decoded = await asyncio.to_thread(browser.execute_async_script, DECODE, url, POINTS)
        assert decoded is not None, "Chromium could not decode a board photo"
        width, height, pixels = decoded
        assert (width, height) == seen.size
        expected = [list(seen.getpixel((x, y if y >= 0 else height + y))) for x, y in POINTS]
        assert pixels == expected
