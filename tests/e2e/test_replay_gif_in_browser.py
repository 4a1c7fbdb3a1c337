"""A second decoder for the replay GIF (render/gif_frames.py writes its blocks by hand):
Chromium, as Discord's and Telegram's web and desktop clients show it. WebCodecs'
ImageDecoder composes every frame of each game's replay, and each frame's pixels are those
of its board on the palette (compared by SHA-256 in the page: 40 frames are 50 MB)."""

from __future__ import annotations

import base64
import hashlib
import http.server
import threading

import pytest

from engines import REGISTRY
from render import animation
from tests.e2e.browser import chromium
from tests.render.test_replay_gif import on_the_palette, seeded_frames

pytestmark = pytest.mark.e2e

DECODE = """
const [gif, done] = arguments;
(async () => {
  const bytes = Uint8Array.from(atob(gif), (c) => c.charCodeAt(0));
  const decoder = new ImageDecoder({data: bytes, type: "image/gif", colorSpaceConversion: "none"});
  await decoder.tracks.ready;
  const frames = [];
  for (let i = 0; i < decoder.tracks.selectedTrack.frameCount; i++) {
    const {image} = await decoder.decode({frameIndex: i});
    const canvas = new OffscreenCanvas(image.displayWidth, image.displayHeight);
    const drawn = canvas.getContext("2d");
    drawn.drawImage(image, 0, 0);
    image.close();
    const rgba = drawn.getImageData(0, 0, canvas.width, canvas.height).data;
    const rgb = new Uint8Array(rgba.length / 4 * 3);
    let opaque = true;
    for (let j = 0, k = 0; j < rgba.length; j += 4) {
      rgb[k++] = rgba[j]; rgb[k++] = rgba[j + 1]; rgb[k++] = rgba[j + 2];
      opaque = opaque && rgba[j + 3] === 255;
    }
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", rgb));
    frames.push([Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join(""), opaque]);
  }
  done(frames);
})().catch((error) => done(String(error)));
"""


class _Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(b"<!doctype html><title>replay</title>")

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def browser(tmp_path):
    driver = chromium(tmp_path)
    yield driver
    driver.quit()


@pytest.fixture
def page():
    """A page on 127.0.0.1: ImageDecoder and crypto.subtle need a secure context."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    server.server_close()


def test_chromium_decodes_every_replay_to_its_boards(browser, page):
    browser.set_script_timeout(120)
    browser.get(page)
    for game_id in sorted(REGISTRY):
        frames = seeded_frames(game_id, 40)
        data, _ = animation.replay_gif(game_id, frames)
        boards = on_the_palette(animation.frame_images(game_id, frames, animation.GIF_WIDTH))
        decoded = browser.execute_async_script(DECODE, base64.b64encode(data).decode())
        assert isinstance(decoded, list), decoded
        assert [digest for digest, _ in decoded] == [hashlib.sha256(b).hexdigest() for b in boards]
        assert all(opaque for _, opaque in decoded), game_id
