"""The picture fixes of issue 34, item 3, each checked on what is drawn: Hidden Castle's
caption says a move once and its triangle and diamond pieces are as large as the others;
Castle Doors no longer writes "shut (open)"; 18 Ghosts writes a portal's word ("wall")
beside its bar; Dark Castle's German picture is German (title, die letters, the padlock)."""

from __future__ import annotations

import pytest

import render
from engines import REGISTRY
from engines.ghosts18 import board as GB
from engines.playout import play
from languages import say
from render import castle_doors as CD
from render import ghosts18 as G18
from render import lettering, palette, tokens
from tests.render.test_render_fit import _clear_caches, drawn  # noqa: F401


def test_hidden_castle_caption_tells_a_move_once(monkeypatch):
    """The recent lines (a move, then what followed it) hold the move the board's own
    caption names while a roll waits (its `last_move`): the band says it once."""
    game = REGISTRY["hidden_castle"]
    run = play(game, 3, {}, seed=4, max_steps=3000)
    state = game.setup(["Ann", "Bot 2 (easy)", "Cy"], {})
    bands: list[list[str]] = []
    real = render.bar  # the caption band of the board's scene
    monkeypatch.setattr(
        render, "bar", lambda scene, lines: bands.append(lines) or real(scene, lines)
    )
    before: list = []
    checked = 0
    for seat, action in run.log:
        state, events = game.apply(state, seat, action)
        view = game.view(state, None)
        said = [e.text for e in events if e.to is None]
        if view["phase"] == "move" and view.get("last_move") and before:
            bands.clear()
            recent = [
                view["last_move"],
                *[line for line in before if line != view["last_move"]][-1:],
            ]
            if len(recent) < 2:
                continue
            render.board_image("hidden_castle", view, recent)
            (lines,) = bands
            assert len(lines) == len(set(lines)), lines
            assert say(view["last_move"]) in lines
            checked += 1
        before = said or before
    assert checked >= 3


def _ink(shape: str) -> int:
    img, d = palette.canvas(80, 80, palette.WHITE)
    tokens.token(d, (40, 40), 20, shape, palette.BLUE)
    return 80 * 80 - img.histogram()[palette.index(palette.WHITE)]


def test_every_piece_covers_about_as_much_as_a_circle():
    circle = _ink("circle")
    for shape in palette.PLAYER_SHAPES:  # a star is thin by nature
        least = 0.5 if shape == "star" else 0.6
        assert least * circle <= _ink(shape) <= 1.25 * circle, shape
    assert _ink("triangle") >= 0.6 * circle and _ink("diamond") >= 0.8 * circle


def test_a_triangles_letter_sits_inside_it():
    _, d = palette.canvas(80, 80, palette.WHITE)
    tokens.token(d, (40, 40), 20, "triangle", palette.GREEN, "K")
    x, y = tokens.shape_centre("triangle", 40, 40, 20)
    _, top, _, bottom = lettering.bbox("K", 18, "mm")
    points = tokens.polygon_points("triangle", x, y, 20 * tokens.SHAPE_SCALE["triangle"])
    top_y, bottom_y = min(p[1] for p in points), max(p[1] for p in points)
    assert top_y < y + top and y + bottom <= bottom_y  # the letter between apex and base


def test_castle_doors_says_what_a_shut_tile_hides_without_open(drawn):  # noqa: F811
    game = REGISTRY["castle_doors"]
    run = play(game, 4, {}, seed=9, max_steps=2000)
    state = game.setup(["Ann", "Bob", "Cy", "Dee"], {})
    kinds = set()
    for seat, action in run.log:
        state, _ = game.apply(state, seat, action)
        view = game.view(state, None)
        shut = {t["kind"] for t in view["tiles"].values() if not t["open"] and t["kind"]}
        if shut - kinds:
            kinds |= shut
            _clear_caches()
            drawn.clear()
            render.board_png("castle_doors", view)
            words = [t[5] for t in drawn.texts]
            assert not [w for w in words if "(open)" in w], words
            for kind in shut:
                assert say(CD.KIND_SHUT[kind]) in words
    assert {"open door", "barred door"} <= kinds


@pytest.mark.parametrize("colour", GB.COLOURS)
def test_a_portals_word_is_beside_its_bar(colour):
    """On the bar's side of the chamber: "wall" sits by the wall the bar marks."""
    for facing, (dx, _) in GB.DIRECTIONS.items():
        _, bar, plate = G18.portal_parts(colour, facing)
        box = G18._cell_box(GB.PORTAL_CELL[colour])
        middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        bar_at = ((bar[0] + bar[2]) / 2, (bar[1] + bar[3]) / 2)
        plate_at = ((plate[0] + plate[2]) / 2, (plate[1] + plate[3]) / 2)
        along = 0 if dx else 1
        assert (plate_at[along] - middle[along]) * (bar_at[along] - middle[along]) > 0, facing
        assert (
            box[0] <= plate[0] and plate[2] <= box[2] and box[1] <= plate[1] <= plate[3] <= box[3]
        )


def test_dark_castle_in_german_is_german(drawn):  # noqa: F811
    game = REGISTRY["dark_castle"]
    run = play(game, 2, {}, seed=11, max_steps=3000)
    state = game.setup(["Ann", "Bob"], {})
    for seat, action in run.log[: len(run.log) // 2]:
        state, _ = game.apply(state, seat, action)
    _clear_caches()
    drawn.clear()
    render.board_png("dark_castle", game.view(state, None), language="de")
    words = [t[5] for t in drawn.texts]
    assert "Dunkle Burg" in words and "Dark Castle" not in words
    assert {"K", "L", "W"} <= set(words) and not {"M", "C"} & set(words)
    boss = next(t for t in drawn.texts if t[5] == "ENDGEGNER")
    left, _, right, _ = boss[3]
    assert left >= 960 + 8 + 4 and right <= 960 + 8 + 120 - 4  # clear of its frame


def test_the_padlock_card_is_not_a_castle_in_german():
    assert say(CD.CARD_LABEL["padlock"], "de") == "Vorhängeschloss"
    assert say(CD.KIND_SHUT["open door"], "de") != say(CD.KIND_SHUT["barred door"], "de")
    size = lettering.shrunk("Vorhängeschloss", 17, 86 - 12, 9)  # as the card draws it: it fits
    assert lettering.text_width("Vorhängeschloss", size) <= 86 - 12
