"""Replays and leaderboards as pictures.

A replay is one animated GIF of public views, each with the move that led to it written
under the board (GIF because both Discord and Telegram play it inline). Every frame has
the same size and the fixed palette of `toolkit`, so frames differ only where the board
changed and the file stays small; a game too long for the platforms' upload limits is
drawn smaller, and only as a last resort with moves left out (the caller says so).
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from render import _module
from render.toolkit import INK, NIGHT, PANEL, PAPER, WHITE, _palette_image, font, text, to_png
from render.toolkit import wrap as wrap_text

GIF_WIDTH = 800  # phones show about this many pixels across without zooming
PAGE_WIDTH = 1000
MIN_WIDTH = 480
MAX_BYTES = 8 * 1024 * 1024  # under Discord's 10 MiB and Telegram's photo and animation limits
CAPTION_LINES = 3
MAX_FRAMES = 150  # a board takes 0.05-0.4 s to draw: a long game's boards are sampled

Frame = tuple[dict, str, str]  # (public view, heading "Move 3 of 12", what happened)


def _board(game_id: str, view: dict, width: int) -> Image.Image:
    img = _module(game_id).draw(view).convert("RGB")
    if img.width != width:
        size = (width, round(img.height * width / img.width))
        img = img.resize(size, Image.Resampling.BILINEAR, reducing_gap=2.0)
    return img


def _band(width: int) -> tuple[int, int]:
    """(font size, band height) for a caption of CAPTION_LINES lines plus a heading."""
    size = max(16, round(width / 30))
    return size, 16 + round(size * 1.3) * (CAPTION_LINES + 1)


def _compose(board: Image.Image, heading: str, caption: str, height: int) -> Image.Image:
    width = board.width
    size, band = _band(width)
    out = Image.new("RGB", (width, height + band), PAPER)
    out.paste(board, (0, 0))
    draw = ImageDraw.Draw(out)
    draw.rectangle((0, height, width, height + band), fill=NIGHT)
    y = height + 8
    text(draw, (16, y), heading, size, WHITE)
    y += round(size * 1.3)
    lines = wrap_text(caption or "(no public change)", size, width - 32)
    if len(lines) > CAPTION_LINES:
        lines = lines[:CAPTION_LINES]
        lines[-1] = lines[-1][: max(0, len(lines[-1]) - 1)].rstrip(". ") + "…"
    for line in lines:
        text(draw, (16, y), line, size, WHITE)
        y += round(size * 1.3)
    return out


def frame_images(game_id: str, frames: Sequence[Frame], width: int) -> list[Image.Image]:
    boards = [_board(game_id, view, width) for view, _, _ in frames]
    height = max(b.height for b in boards)
    return [
        _compose(board, heading, caption, height)
        for board, (_, heading, caption) in zip(boards, frames, strict=True)
    ]


def frame_png(game_id: str, frame: Frame, width: int = PAGE_WIDTH) -> bytes:
    """One page of a replay: the board and its move, for Previous / Next."""
    [img] = frame_images(game_id, [frame], width)
    return to_png(img)


def frame_seconds(count: int) -> float:
    """Long enough to read a caption; shorter for long games so the whole stays watchable."""
    return max(0.7, min(1.6, 100 / max(1, count)))


def _gif(images: list[Image.Image], seconds: float) -> bytes:
    palette = _palette_image()
    quantised = [i.quantize(palette=palette, dither=Image.Dither.NONE) for i in images]
    ms = round(seconds * 1000)
    durations = [ms] * len(quantised)
    durations[-1] = max(ms, 4000)  # rest on the final board before looping
    buf = io.BytesIO()
    quantised[0].save(
        buf, format="GIF", save_all=True, append_images=quantised[1:], duration=durations,
        loop=0, optimize=False, disposal=1,
    )  # fmt: skip
    return buf.getvalue()


def replay_gif(
    game_id: str, frames: Sequence[Frame], max_bytes: int = MAX_BYTES
) -> tuple[bytes, int]:
    """The animated replay and how many frames it shows: all of them, unless the game has
    more than MAX_FRAMES boards or even the smallest drawing exceeds `max_bytes` (then
    every k-th board, the first and last kept). Boards are drawn once; a file too large is
    made smaller by scaling the drawn frames, not by drawing again."""
    chosen = list(frames)
    if len(chosen) > MAX_FRAMES:
        step = -(-len(chosen) // MAX_FRAMES)
        chosen = [*chosen[:-1:step], chosen[-1]]
    images = frame_images(game_id, chosen, GIF_WIDTH)
    while True:
        data = _gif(images, frame_seconds(len(images)))
        if len(data) <= max_bytes:
            return data, len(images)
        width = images[0].width
        if width > MIN_WIDTH:  # the size goes roughly with the area
            factor = max(0.5, min(0.9, (max_bytes / len(data)) ** 0.5 * 0.95))
            new = max(MIN_WIDTH, round(width * factor))
            size = (new, round(images[0].height * new / width))
            images = [i.resize(size, Image.Resampling.BILINEAR, reducing_gap=2.0) for i in images]
        elif len(images) > 2:
            images = [*images[:-1:2], images[-1]]
        else:
            return data, len(images)


# ----- leaderboards -------------------------------------------------------------------
def leaderboard_png(title: str, header: Sequence[str], rows: Sequence[Sequence[str]]) -> bytes:
    """A plain table: rank, name, and the columns given; large type for phones."""
    width, size, pad = 1000, 30, 24
    row_h = round(size * 1.6)
    height = pad * 2 + row_h * (len(rows) + 2) + 10
    img = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(img)
    text(draw, (pad, pad), title, size + 6, INK)
    columns = [pad, pad + 70] + [
        width - pad - 150 * (len(header) - 1 - i) for i in range(1, len(header))
    ]
    y = pad + row_h + 10
    draw.rectangle((0, y - 6, width, y + row_h - 6), fill=PANEL)
    for x, label in zip(columns, ["#", *header], strict=False):
        text(draw, (x, y), label, size, INK)
    for rank, row in enumerate(rows, start=1):
        y += row_h
        name_width = columns[2] - columns[1] - 20 if len(columns) > 2 else width - columns[1]
        cells = [str(rank), _fit(row[0], size, name_width), *row[1:]]
        for x, cell in zip(columns, cells, strict=False):
            text(draw, (x, y), cell, size, INK)
    return to_png(img)


def _fit(name: str, size: int, width_px: int) -> str:
    while name and font(size).getlength(name) > width_px:
        name = name[:-2] + "…"
    return name
