"""The Hidden Castle picture and its alt text (render/hidden_castle.py), drawn from views."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import render
from engines import CHANCE, REGISTRY
from engines.playout import play

G = REGISTRY["hidden_castle"]


def played(players: int, variant: str, steps: int, seed: int = 3):
    return play(G, players, {"variant": variant}, seed, max_steps=steps).states[-1]


@pytest.mark.parametrize("variant", ["standard", "midnight_party"])
@pytest.mark.parametrize("players", [2, 8])
def test_png_is_wide_and_byte_stable(players, variant):
    """Pictures: at least 1000 px wide, same bytes for the same view."""
    view = G.view(played(players, variant, 80), None)
    png = render.board_png("hidden_castle", view)
    assert png == render.board_png("hidden_castle", view)
    image = Image.open(io.BytesIO(png))
    assert image.width >= 1000 and image.height >= 800


def test_every_phase_draws():
    """Set-up, a pending roll, a pending move and the end all draw without error."""
    seen = set()
    run = play(G, 3, {}, seed=2, max_steps=600, keep_states=True)
    for state in [*run.states[:: max(1, len(run.states) // 40)], run.states[-1]]:
        view = G.view(state, None)
        seen.add(view["phase"])
        assert render.board_png("hidden_castle", view)[:8] == b"\x89PNG\r\n\x1a\n"
    assert {"place", "roll", "move"} <= seen
    assert run.finished and G.view(run.states[-1], None)["phase"] == "over"


def test_guests_sharing_a_space_stay_distinct_in_picture_and_text():
    """Every guest in its player's colour and shape with its letter, also on a shared space."""
    s = G.setup(["Ann", "Bo"])
    s.queue, s.phase = [], "roll"
    for g, space in ((0, 5), (1, 5), (6, 5)):
        s.where[g], s.pos[g] = "gallery", space
    view = G.view(s, None)
    text = render.describe("hidden_castle", view)
    assert "Ann (vermilion circles" in text and "Bo (blue squares" in text
    assert "A space 5" in text and "B space 5" in text and "G space 5" in text
    crowded = render.board_png("hidden_castle", view)
    s.pos[1] = 9
    assert render.board_png("hidden_castle", G.view(s, None)) != crowded


def test_alt_text_names_the_clock_the_phantom_and_the_last_move():
    """describe(view): the whole position in words."""
    s = G.setup(["Ann", "Bo"])
    s.queue, s.phase = [], "roll"
    s.where[0], s.pos[0] = "gallery", 7
    s, _ = G.apply(s, CHANCE, "phantom")
    text = render.describe("hidden_castle", G.view(s, None))
    assert "Clock 11:45" in text and "staircase, 6 spaces from the exit" in text
    assert "Last: Ann rolls the Phantom." in text
    assert "Bo rolls next." in text


def test_alt_text_names_every_shape_in_good_english():
    """Eight players: every colour and shape named (the eighth plays brown crosses)."""
    s = G.setup([f"P{i}" for i in range(1, 9)])
    text = render.describe("hidden_castle", G.view(s, None))
    assert "P8 (brown crosses, 10 points)" in text and "crosss" not in text
    assert "P6 (sky blue stars" in text


def test_a_pending_roll_is_said_once_and_the_move_before_it_is_kept():
    """While a roll waits for its move, the caption and alt text show the previous move and
    the roll once (not 'rolls 2' and 'rolled 2' together)."""
    s = G.setup(["Ann", "Bo"])
    s.queue, s.phase = [], "roll"
    s.where[0], s.pos[0] = "gallery", 7
    s.where[6], s.pos[6] = "gallery", 12
    s, _ = G.apply(s, CHANCE, "2")
    s, _ = G.apply(s, 0, "move a")
    s, _ = G.apply(s, CHANCE, "4")
    text = render.describe("hidden_castle", G.view(s, None))
    assert "Last: Ann moves guest A 2 spaces, from space 7 to space 9." in text
    assert text.endswith("Bo rolled 4: move a guest.")
    assert "Bo rolls 4" not in text


def test_a_roll_with_nothing_to_move_says_so_in_the_view():
    """Midnight Party: 'you still roll the die even though you can't move your Guests' - the
    picture's roll line says the roll moved nothing."""
    s = G.setup(["Ann", "Bo"], {"variant": "midnight_party"})
    s.queue, s.phase = [], "roll"
    s.where[0], s.pos[0] = "chamber", 11
    s.where[6], s.pos[6] = "gallery", 12
    s.climbed, s.phantom = 9, 20
    s, _ = G.apply(s, CHANCE, "5")
    view = G.view(s, None)
    assert view["last_roll"] == "Ann rolled 5 with no guest to move"
    assert render.board_png("hidden_castle", view)[:4] == b"\x89PNG"
