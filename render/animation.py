"""Replays and leaderboards as pictures.

A replay is one animated GIF of public views, each with the move that led to it written
under the board (GIF because both Discord and Telegram play it inline). Every frame has
the same size and the fixed palette of `palette`, so frames differ only where the board
changed; `gif_frames` stores each frame after the first as the box that changed, on one
colour table: 3.2-9.1 times smaller for 40 boards than every frame whole, decoded to the
same pixels (`bench.replay`).
A game too long for the platforms' upload limits is drawn smaller, and only as a last
resort with moves left out (the caller says so).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from languages import DEFAULT
from render.gif_frames import animated_gif
from render.lettering import fit, isolate, text
from render.lettering import wrap as wrap_text
from render.palette import INK, NIGHT, PANEL, PAPER, WHITE, palette_image, to_png
from render.renderers import in_language, renderer

GIF_WIDTH = 800  # phones show about this many pixels across without zooming
PAGE_WIDTH = 1000
MIN_WIDTH = 480
MAX_BYTES = 8 * 1024 * 1024  # under Discord's 10 MiB and Telegram's photo and animation limits
CAPTION_LINES = 3
MAX_FRAMES = 150  # a board takes 0.05-0.4 s to draw: a long game's boards are sampled

Frame = tuple[dict, str, str]  # (public view, heading "Move 3 of 12", what happened)


def _board(game_id: str, view: dict, width: int, language: str = DEFAULT) -> Image.Image:
    """The board without its own caption: the frame's band is the one caption (a board's
    footer above the band would say the move twice)."""
    img = in_language(renderer(game_id).board, view, language=language).convert("RGB")
    if img.width != width:
        size = (width, round(img.height * width / img.width))
        img = img.resize(size, Image.Resampling.BILINEAR, reducing_gap=2.0)
    return img


def _size(width: int) -> int:
    return max(16, round(width / 30))


def _lines(
    game_id: str, view: dict, caption: str, width: int, language: str = DEFAULT
) -> list[str]:
    """The caption's lines, at most CAPTION_LINES. A board with nothing public to tell (the
    opening, a secret move) says what the board itself says comes next ("Set-up: Ann places
    a ghost."), rather than a placeholder."""
    size = _size(width)
    said = caption or in_language(renderer(game_id).caption, view, language=language)[-1]
    lines = wrap_text(said, size, width - 32)
    if len(lines) > CAPTION_LINES:
        lines = lines[:CAPTION_LINES]
        lines[-1] = fit(lines[-1].rstrip(". ") + "…", size, width - 32)
    return lines


def _band(width: int, lines: int) -> int:
    """The band's height for a heading and `lines` lines of caption."""
    return 16 + round(_size(width) * 1.3) * (lines + 1)


def _compose(
    board: Image.Image, heading: str, lines: list[str], height: int, band: int
) -> Image.Image:
    width = board.width
    size = _size(width)
    out = Image.new("RGB", (width, height + band), PAPER)
    out.paste(board, (0, 0))
    draw = ImageDraw.Draw(out)
    draw.rectangle((0, height, width, height + band), fill=NIGHT)
    y = height + 8
    text(draw, (16, y), fit(heading, size, width - 32), size, WHITE)
    for line in lines:
        y += round(size * 1.3)
        text(draw, (16, y), line, size, WHITE)
    return out


def frame_images(
    game_id: str, frames: Sequence[Frame], width: int, language: str = DEFAULT
) -> list[Image.Image]:
    """The frames, all of one size (the tallest board, the longest caption); the headings and
    captions come said, the boards are drawn in `language`."""
    boards = [_board(game_id, view, width, language) for view, _, _ in frames]
    captions = [_lines(game_id, view, caption, width, language) for view, _, caption in frames]
    height = max(b.height for b in boards)
    band = _band(width, max(len(lines) for lines in captions))
    return [
        _compose(board, heading, lines, height, band)
        for board, lines, (_, heading, _) in zip(boards, captions, frames, strict=True)
    ]


def frame_png(
    game_id: str, frame: Frame, width: int = PAGE_WIDTH, language: str = DEFAULT
) -> bytes:
    """One page of a replay: the board and its move, for Previous / Next."""
    [img] = frame_images(game_id, [frame], width, language)
    return to_png(img)


def frame_seconds(count: int) -> float:
    """Long enough to read a caption; shorter for long games so the whole stays watchable."""
    return max(0.7, min(1.6, 100 / max(1, count)))


def _gif(images: list[Image.Image], seconds: float) -> bytes:
    palette = palette_image()
    quantised = [i.quantize(palette=palette, dither=Image.Dither.NONE) for i in images]
    ms = round(seconds * 1000)
    durations = [ms] * len(quantised)
    durations[-1] = max(ms, 4000)  # rest on the final board before looping
    return animated_gif(quantised, durations, palette.getpalette())


def replay_gif(
    game_id: str, frames: Sequence[Frame], max_bytes: int = MAX_BYTES, language: str = DEFAULT
) -> tuple[bytes, int]:
    """The animated replay and how many frames it shows: all of them, unless the game has
    more than MAX_FRAMES boards or even the smallest drawing exceeds `max_bytes` (then
    every k-th board, the first and last kept). Boards are drawn once; a file too large is
    made smaller by scaling the drawn frames, not by drawing again."""
    chosen = list(frames)
    if len(chosen) > MAX_FRAMES:
        step = -(-len(chosen) // MAX_FRAMES)
        chosen = [*chosen[:-1:step], chosen[-1]]
    images = frame_images(game_id, chosen, GIF_WIDTH, language)
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
LEADER_WIDTH = 1000
NUMBER_COLUMN = 150  # each number column's width; its numbers end at its right edge


def leaderboard_png(title: str, header: Sequence[str], rows: Sequence[Sequence[str]]) -> bytes:
    """A plain table: rank, name, and the columns given (numbers, right-aligned); large
    type for phones. A name takes the width the numbers leave, and is cut there."""
    width, size, pad = LEADER_WIDTH, 30, 24
    row_h = round(size * 1.6)
    height = pad * 2 + row_h * (len(rows) + 2) + 10
    img = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(img)
    text(draw, (pad, pad), fit(title, size + 6, width - 2 * pad), size + 6, INK)
    numbers = len(header) - 1
    rights = [width - pad - NUMBER_COLUMN * (numbers - 1 - i) for i in range(numbers)]
    name_x = pad + 70
    name_width = (rights[0] - NUMBER_COLUMN if rights else width - pad) - 20 - name_x
    y = pad + row_h + 10
    draw.rectangle((0, y - 6, width, y + row_h - 6), fill=PANEL)
    cells_of = [["#", header[0], *header[1:]]] + [
        [str(rank), row[0], *row[1:]] for rank, row in enumerate(rows, start=1)
    ]
    for n, cells in enumerate(cells_of):
        if n:
            y += row_h
        text(draw, (pad, y), cells[0], size, INK)
        text(draw, (name_x, y), isolate(fit(cells[1], size, name_width)), size, INK)
        for right, cell in zip(rights, cells[2:], strict=False):
            text(draw, (right, y), fit(cell, size, NUMBER_COLUMN - 16), size, INK, "ra")
    return to_png(img)
