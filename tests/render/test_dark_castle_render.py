"""Dark Castle pictures and alt text: drawn from views, wide, stable, complete."""

from __future__ import annotations

import io

from PIL import Image

import render
import render.dark_castle_words
from engines.text import to_json
from tests.engines.dark_castle.test_dark_castle_helpers import G, act, chance, open_card, started


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
    for words in (
        "The Empty Harness",
        attack,
        "Might",
        "Wisdom",
        "The Abbot",
        "of 14 HP",
        "Special:",
    ):
        assert words in text


def _drawn_strings(monkeypatch, view, language="en") -> list[str]:
    """Every string the picture draws, as `lettering.text` is asked to draw it."""
    drawn: list[str] = []
    real = render.lettering.text

    def spy(draw, xy, content, *args, **kwargs):
        drawn.append(content)
        return real(draw, xy, content, *args, **kwargs)

    monkeypatch.setattr(render.lettering, "text", spy)
    render.renderer("dark_castle")._top.cache_clear()  # the card, drawn once and kept
    render.renderer("dark_castle")._rest.cache_clear()
    render.renderer("dark_castle").draw(view, language)
    return drawn


def test_a_turned_page_shows_its_words_once(monkeypatch):
    """The card shows its scene: the caption names it by title and the log leaves it out,
    where they used to say the same words twice more on one picture."""
    s = open_card(started(("smith", "tailor", "abbot")), "empty_harness", who="abbot")
    view = G.view(s, None)
    scene = str(view["card"]["text"])
    opening = scene.split()[:4]  # the scene's first words, wherever a line breaks them
    drawn = _drawn_strings(monkeypatch, view)
    lines_with_opening = [line for line in drawn if line.split()[:4] == opening]
    assert len(lines_with_opening) == 1, drawn
    caption = render.renderer("dark_castle").caption(view)
    assert caption[0].startswith("Next page: The Empty Harness."), caption
    assert scene[:30] not in " ".join(caption)
    german = render.renderer("dark_castle").caption(view, "de")
    assert german[0].startswith("Nächste Seite: "), german


def test_a_turned_page_under_its_move_shows_its_words_once(monkeypatch):
    """The bot draws a move's board with the move's lines under it (`recent`): there too the
    card's scene is named by its title, and what it asks is left to the card."""
    s = open_card(started(("smith", "tailor", "abbot")), "empty_harness", who="abbot")
    view = G.view(s, None)
    recent = [to_json(line) for line in view["last"].args.values()]
    assert any(line.get("$msg") == "It asks: {asks}" for line in recent)
    drawn: list[str] = []
    real = render.lettering.text
    monkeypatch.setattr(
        render.lettering,
        "text",
        lambda d, xy, content, *a, **k: (drawn.append(content), real(d, xy, content, *a, **k)),
    )
    render.renderer("dark_castle")._top.cache_clear()  # the card, drawn once and kept
    render.renderer("dark_castle")._rest.cache_clear()
    render.board_image("dark_castle", view, recent)
    opening = str(view["card"]["text"]).split()[:4]
    assert len([line for line in drawn if line.split()[:4] == opening]) == 1
    assert "Next page: The Empty Harness." in drawn
    asks = [line for line in drawn if line.startswith("It asks")]
    assert len(asks) <= 1, drawn  # the card's own log may tell it; the caption does not


def test_a_scene_of_an_earlier_card_is_still_told():
    """Only the card in play is left to the card: the story of an earlier one is kept."""
    s = open_card(started(("smith", "tailor", "abbot")), "empty_harness", who="abbot")
    earlier = G.view(s, None)["last"]
    view = G.view(s, None)
    view["card"] = {**view["card"], "title": "Another Room"}
    assert render.renderer("dark_castle").caption(view)[0] == render.dark_castle_words.tail(
        str(earlier), 300
    )
