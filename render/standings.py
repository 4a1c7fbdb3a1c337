"""A tournament's standings as a picture: place, player, points and the tie-breaks, large
type for phones. The leaders' rows are banded; a withdrawn player's row is greyed and
says so. A long field is cut after `MOST_ROWS` (the caption and the web page have all)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from render.lettering import fit, text
from render.palette import DARK, GREY, HIGHLIGHT, INK, PANEL, PAPER, to_png

WIDTH = 1000
SIZE = 28
PAD = 28
COLUMN = 130  # each number column's width
MOST_ROWS = 40


def standings_png(
    title: str,
    header: Sequence[str],
    rows: Sequence[tuple[str, str, str, str, str, bool]],
    withdrawn_word: str,
) -> bytes:
    """`header`: player, points, and three more columns' names; `rows`: (name, points,
    Buchholz, Sonneborn-Berger, games, withdrawn), best first."""
    shown = list(rows[:MOST_ROWS])
    row_h = round(SIZE * 1.55)
    height = PAD * 2 + row_h * (len(shown) + 2) + 24 + (row_h if len(rows) > MOST_ROWS else 0)
    img = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(img)
    text(draw, (PAD, PAD), fit(title, SIZE + 4, WIDTH - 2 * PAD), SIZE + 4, INK)
    rights = [WIDTH - PAD - COLUMN * (3 - i) for i in range(4)]
    name_x = PAD + 64
    name_width = rights[0] - COLUMN - name_x - 12
    y = PAD + row_h + 16
    draw.rectangle((0, y - 6, WIDTH, y + row_h - 6), fill=PANEL)
    text(draw, (PAD, y), "#", SIZE, DARK)
    text(draw, (name_x, y), fit(header[0], SIZE, name_width), SIZE, DARK)
    for right, word in zip(rights, header[1:], strict=False):
        text(draw, (right, y), fit(word, SIZE - 4, COLUMN - 12), SIZE - 4, DARK, "ra")
    for place, (name, points, buchholz, sonneborn, games, withdrawn) in enumerate(shown, start=1):
        y += row_h
        if place <= 3 and not withdrawn:
            draw.rectangle((0, y - 6, 8, y + row_h - 10), fill=HIGHLIGHT)
        colour = GREY if withdrawn else INK
        label = f"{name} ({withdrawn_word})" if withdrawn else name
        text(draw, (PAD, y), str(place), SIZE, colour)
        text(draw, (name_x, y), fit(label, SIZE, name_width), SIZE, colour)
        for right, cell in zip(rights, (points, buchholz, sonneborn, games), strict=True):
            text(draw, (right, y), fit(cell, SIZE, COLUMN - 12), SIZE, colour, "ra")
    if len(rows) > MOST_ROWS:
        y += row_h
        text(draw, (name_x, y), f"… +{len(rows) - MOST_ROWS}", SIZE, GREY)
    return to_png(img)
