"""Boards of several sections in one picture: a season's leaderboard above the all-time
one, a season's final standings, the daily castle's board of a day or a month. Large type
for phones; each section has its heading, its columns (a name, then numbers aligned
right) and its rows best first, or a sentence when it has none yet. The first three rows
of a section are marked."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.lettering import fit, isolate, text
from render.palette import DARK, GREY, HIGHLIGHT, INK, PANEL, PAPER, to_png

WIDTH = 1000
SIZE = 28
PAD = 26
NUMBER_COLUMN = 140  # each number column's width; its numbers end at its right edge
MOST_ROWS = 20  # rows a section shows (the message's text has them all)


@dataclass(frozen=True)
class Section:
    heading: str
    header: Sequence[str]  # the name column's word, then each number column's
    rows: Sequence[Sequence[str]]  # name, then the numbers, best first
    empty: str = ""  # said when there are no rows


def leaderboards_png(title: str, sections: Sequence[Section]) -> bytes:
    row_h = round(SIZE * 1.55)
    heights = [
        row_h
        * (1 + bool(s.heading) + max(1, min(len(s.rows), MOST_ROWS)) + (len(s.rows) > MOST_ROWS))
        + 18
        for s in sections
    ]
    height = PAD * 2 + row_h + 10 + sum(heights)
    img = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(img)
    text(draw, (PAD, PAD), fit(title, SIZE + 6, WIDTH - 2 * PAD), SIZE + 6, INK)
    y = PAD + row_h + 10
    for section in sections:
        y = _section(draw, section, y, row_h)
    return to_png(img)


def _section(draw: ImageDraw.ImageDraw, section: Section, y: int, row_h: int) -> int:
    numbers = len(section.header) - 1
    rights = [WIDTH - PAD - NUMBER_COLUMN * (numbers - 1 - i) for i in range(numbers)]
    name_x = PAD + 64
    name_width = (rights[0] - NUMBER_COLUMN if rights else WIDTH - PAD) - 16 - name_x
    if section.heading:
        text(draw, (PAD, y), fit(section.heading, SIZE + 2, WIDTH - 2 * PAD), SIZE + 2, INK)
        y += row_h
    draw.rectangle((0, y - 6, WIDTH, y + row_h - 6), fill=PANEL)
    text(draw, (PAD, y), "#", SIZE - 4, DARK)
    text(draw, (name_x, y), fit(section.header[0], SIZE - 4, name_width), SIZE - 4, DARK)
    for right, word in zip(rights, section.header[1:], strict=True):
        text(draw, (right, y), fit(word, SIZE - 4, NUMBER_COLUMN - 12), SIZE - 4, DARK, "ra")
    if not section.rows:
        y += row_h
        text(draw, (name_x, y), fit(section.empty, SIZE - 2, WIDTH - PAD - name_x), SIZE - 2, GREY)
        return y + row_h + 18
    for place, row in enumerate(section.rows[:MOST_ROWS], start=1):
        y += row_h
        if place <= 3:
            draw.rectangle((0, y - 6, 8, y + row_h - 10), fill=HIGHLIGHT)
        text(draw, (PAD, y), str(place), SIZE, INK)
        text(draw, (name_x, y), isolate(fit(row[0], SIZE, name_width)), SIZE, INK)
        for right, cell in zip(rights, row[1:], strict=True):
            text(draw, (right, y), fit(cell, SIZE, NUMBER_COLUMN - 12), SIZE, INK, "ra")
    if len(section.rows) > MOST_ROWS:
        y += row_h
        text(draw, (name_x, y), f"… +{len(section.rows) - MOST_ROWS}", SIZE - 4, GREY)
    return y + row_h + 18
