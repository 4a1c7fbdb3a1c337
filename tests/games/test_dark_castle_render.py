"""Dark Castle pictures and alt text: drawn from views, wide, stable, complete."""

from __future__ import annotations

import io

from PIL import Image
from test_dark_castle_helpers import G, act, chance, open_card, started

import render


def _combat_view():
    s = open_card(started(("smith", "tailor", "abbot")), "empty_harness", who="abbot")
    s = chance(s, "mcw")
    s = act(s, "fight")
    return G.view(chance(s, "mm", "c", "w"), None)


def test_picture_is_wide_and_byte_stable():
    """Engine contract: at least 1000 pixels wide, the same bytes for the same view."""
    view = _combat_view()
    png = render.board_png("dark_castle", view)
    assert png == render.board_png("dark_castle", view)
    image = Image.open(io.BytesIO(png))
    assert image.width >= 1000 and image.height >= 600


def test_pictures_of_every_phase_render():
    """Pictures of the choosing, the start and a combat all draw from views alone."""
    for view in (G.view(G.setup(["A", "B"], {}), None), G.view(started(), 0), _combat_view()):
        assert render.board_png("dark_castle", view).startswith(b"\x89PNG")


def test_alt_text_names_the_chapter_row_attack_and_party():
    """Engine contract: "a one-paragraph text description of a view for alt text"."""
    view = _combat_view()
    text = render.describe("dark_castle", view)
    attack = f"attack {view['combat']['attack']}"
    for words in ("The Empty Harness", attack, "Might", "Wisdom", "The Abbot",
                  "of 14 HP", "Special:"):  # fmt: skip
        assert words in text
