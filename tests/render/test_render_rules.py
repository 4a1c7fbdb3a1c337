"""Rules pictures (issue 29, item 12): `render.rules_png(game)` is a worked example, not a
bare starting board: numbered marks on a board under way, and a key under it saying what
each marked thing is and does."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image

import render
from engines import REGISTRY
from render import lettering, rules
from tests.render.test_render_fit import Drawn


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_rules_picture_marks_and_explains_the_board(game_id, monkeypatch):
    module = render.renderer(game_id)
    view, notes, title = module.illustration()
    board = module.board(view)
    marks = [at for at, _ in notes if at is not None]
    assert len(notes) >= 5 and len(marks) >= 4, notes
    for x, y in marks:  # on the board, each mark whole
        assert rules.MARK_R <= x <= board.width - rules.MARK_R, (x, y)
        assert rules.MARK_R <= y <= board.height - rules.MARK_R, (x, y)
    for (ax, ay), (bx, by) in itertools.combinations(marks, 2):  # no mark hides another
        assert abs(ax - bx) >= 2 * rules.MARK_R or abs(ay - by) >= 2 * rules.MARK_R

    record = Drawn()
    monkeypatch.setattr(lettering, "text", record.text)
    rules.rules_png.cache_clear()
    png = render.rules_png(game_id)
    key = [t for t in record.texts if t[3][1] > board.height]  # drawn under the board
    assert key[0][5] == title
    lines = [t[5] for t in key if t[4] == "lm" and abs(t[3][0] - rules.INDENT) <= 2]
    assert " ".join(lines) == " ".join(text for _, text in notes)  # every note, whole
    numbers = [t[5] for t in key if t[4] == "mm"]
    assert numbers == [str(n) for n in range(1, len(notes) + 1)]
    assert len(
        [
            t
            for t in record.texts
            if t[3][1] <= board.height
            and t[4] == "mm"
            and t[5].isdigit()
            and int(t[5]) <= len(notes)
        ]
    ) >= len(marks)
    with Image.open(io.BytesIO(png)) as img:
        assert img.width >= 1000 and img.height > board.height + 60 * len(notes)


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_rules_picture_is_the_same_bytes_every_time(game_id):
    rules.rules_png.cache_clear()
    first = render.rules_png(game_id)
    rules.rules_png.cache_clear()
    for cached in (
        lettering._glyphs,
        lettering._patch,
        lettering.text_width,
        lettering._wrapped,
        lettering.fit,
    ):
        cached.cache_clear()
    assert render.rules_png(game_id) == first


def test_a_game_without_a_renderer_has_no_rules_picture():
    with pytest.raises(KeyError):
        render.rules_png("no_such_game")
