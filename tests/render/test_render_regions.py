"""Tap regions (`render.board_regions`): each renderer reports where it drew what an action
concerns, with its own geometry. Checked against the pictures themselves: every region lies
on the picture, something is drawn in it, and where a move puts a piece on a square the
square's pixels change when the move is made."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image, ImageChops

import render
from engines import REGISTRY
from tests.render.walks import decisions

TAPPED = ("ghosts18", "castle_doors", "haunted_house", "hidden_castle")


def _picture(game_id: str, view: dict) -> Image.Image:
    return Image.open(io.BytesIO(render.board_png(game_id, view))).convert("RGB")


def _drawn_in(img: Image.Image, box) -> bool:
    """Something is drawn in the box: it holds more than one colour."""
    return len(img.crop(box).getcolors(1 << 16) or []) > 1


@pytest.mark.parametrize("game_id", TAPPED)
def test_regions_lie_on_the_picture_over_something_drawn(game_id):
    game = REGISTRY[game_id]
    found = 0
    for n, (state, seat) in enumerate(decisions(game_id, ["Ann", "Bob"], 5, steps=80)):
        if n % 7:
            continue
        view = game.view(state, seat)
        legal = game.legal_actions(state, seat)
        regions = render.board_regions(game_id, view, legal)
        assert set(regions) <= set(legal)
        img = _picture(game_id, view)
        for action, (x0, y0, x1, y1) in regions.items():
            assert 0 <= x0 < x1 <= img.width and 0 <= y0 < y1 <= img.height, (action, img.size)
            assert _drawn_in(img, (x0, y0, x1, y1)), action
            found += 1
    assert found, f"{game_id}: no move had a place to tap in the whole game"


def _cell_changes(game_id: str, verbs: tuple[str, ...]) -> int:
    """Make actions with those verbs and check their region's pixels change."""
    game = REGISTRY[game_id]
    checked = 0
    for state, seat in decisions(game_id, ["Ann", "Bob"], 11, steps=40):
        legal = [a for a in game.legal_actions(state, seat) if a.split()[0] in verbs]
        if not legal:
            continue
        action = legal[0]
        before = game.view(state, seat)
        box = render.board_regions(game_id, before, [action]).get(action)
        if box is None:
            continue
        after_state, _ = game.apply(game.copy(state), seat, action)
        a = _picture(game_id, before).crop(box)
        b = _picture(game_id, game.view(after_state, seat)).crop(box)
        assert ImageChops.difference(a, b).getbbox() is not None, action
        checked += 1
        if checked >= 4:
            break
    return checked


def test_18_ghosts_places_and_steps_land_on_the_chamber_tapped():
    assert _cell_changes("ghosts18", ("place", "move", "jump")) >= 4


def test_hidden_castle_guests_and_spaces_are_where_they_are_drawn():
    assert _cell_changes("hidden_castle", ("place", "move")) >= 4


def test_a_hand_is_tappable_only_in_its_owners_view():
    game = REGISTRY["haunted_house"]
    for state, seat in decisions("haunted_house", ["Ann", "Bob"], 3, steps=80):
        legal = game.legal_actions(state, seat)
        if any(a.startswith("play ") for a in legal):
            assert render.board_regions("haunted_house", game.view(state, None), legal) == {}
            own = render.board_regions("haunted_house", game.view(state, seat), legal)
            assert any(a.startswith("play ") for a in own)
            boxes = sorted(set(own.values()))
            for first, second in itertools.pairwise(boxes):
                assert first[2] <= second[0], "two cards share a region"
            return
    pytest.fail("no card was ever playable")


def test_a_game_without_regions_reports_none():
    game = REGISTRY["dark_castle"]
    state = game.setup(["Ann"], {})
    view = game.view(state, 0)
    assert render.board_regions("dark_castle", view, ["anything"]) == {}
    with pytest.raises(KeyError):
        render.board_regions("no_such_game", view, [])
