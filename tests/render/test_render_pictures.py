"""Pictures of every game: palette PNGs at most 60 KB, the same bytes for the same view
whatever was drawn before (the text cache never shows through), and cached text pixel for
pixel as text drawn afresh."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import render
from engines import REGISTRY
from engines.playout import configurations, play
from render import lettering, palette
from tests.render.test_render_fit import _clear_caches

MAX_BYTES = 60 * 1024


def _views(game_id: str, every: int = 4) -> list[dict]:
    """Public and private views along seeded playouts of each player count and option."""
    game = REGISTRY[game_id]
    views = []
    for k, (players, options) in enumerate(configurations(game)):
        if k % every:
            continue
        run = play(game, players, options, seed=k + 11, max_steps=400, keep_states=True)
        picks = {0, len(run.states) // 3, len(run.states) * 2 // 3, len(run.states) - 1}
        for i in sorted(picks):
            views.append(game.view(run.states[i], None))
            views.append(game.view(run.states[i], players - 1))
    return views


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_palette_pngs_within_60_kb(game_id):
    for view in _views(game_id):
        png = render.board_png(game_id, view)
        assert len(png) <= MAX_BYTES, (game_id, len(png))
        with Image.open(io.BytesIO(png)) as img:
            assert img.mode == "P" and img.width >= 1000


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_same_view_same_bytes_cold_or_warm(game_id):
    """docs/engine-contract.md, Pictures: same view, same bytes; here whichever pictures came before, since a
    worker process keeps its caches from board to board (text, parts, pieces pasted where
    they were first drawn): every one cleared, then all warm in the other order."""
    views = _views(game_id, every=6)[:6]
    cold = []
    for view in views:
        _clear_caches()
        cold.append(render.board_png(game_id, view))
    warm = [render.board_png(game_id, view) for view in reversed(views)]
    assert warm[::-1] == cold


def _pixels(img: Image.Image, box) -> list[int]:
    return list(img.crop(box).tobytes())


@pytest.mark.parametrize("stroke", [0, 3])
def test_cached_text_is_text_drawn_afresh_over_a_mixed_ground(stroke):
    """The cache serves text over a plain ground; over a mixed one it is blended in place.
    Both give the same pixels wherever the ground is the same."""
    plain, d1 = palette.canvas(120, 600, palette.PANEL)
    mixed, d2 = palette.canvas(120, 600, palette.PANEL)
    d2.rectangle((0, 0, 4, 4), fill=palette.BLUE)  # inside the text's patch: not a plain ground
    for d in (d1, d2):
        lettering.text(
            d, (2.5, 3), "Waiting for Ann (23h left)", 28, palette.VERMILION, stroke_width=stroke
        )
    box = (6, 6, 600, 120)
    assert _pixels(plain, box) == _pixels(mixed, box)
    assert len(set(_pixels(plain, box))) > 3  # ink, ground and anti-aliased edges


@pytest.mark.parametrize("anchor", ["la", "lm", "mm", "rm", "ls"])
def test_cached_text_has_the_pixels_of_pillow_drawing_it_in_place(anchor):
    """A line kept as a patch and pasted covers what Pillow draws at that very place, at any
    fraction of a pixel: a patch placed by its measured box drew 7% of such lines a shade
    differently (the pen at a negative fraction inside the patch)."""
    from PIL import ImageDraw

    from render import fonts

    lines = ["Waiting for Ann (23h left)", "P3 opens the yellow door of a5.", "Lamp Oil", "jT,"]
    for size in (17, 22, 28):
        font = fonts.truetype(fonts.PRIMARY, size)
        for k, words in enumerate(lines):
            at = (300 + k * 0.25 + 0.1, 60 + k * 0.3 + 0.2)
            pillow = Image.new("L", (700, 120), 0)
            ImageDraw.Draw(pillow).text(at, words, font=font, fill=255, anchor=anchor)
            ours = Image.new("L", (700, 120), 0)
            ix, iy = int(at[0]), int(at[1])
            coverage, _, _, (dx, dy) = lettering._glyphs(
                words, size, anchor, at[0] - ix, at[1] - iy
            )
            ours.paste(coverage, (ix + dx, iy + dy))
            assert ours.tobytes() == pillow.tobytes(), (words, size, at)


def test_text_looks_as_on_an_rgb_canvas():
    """Drawn into the palette, text has the anti-aliased edges an RGB drawing quantised
    afterwards had: the two differ in at most a few edge pixels."""
    img, d = palette.canvas(60, 700, palette.PAPER)
    rgb = Image.new("RGB", (700, 60), palette.PAPER)
    words = "Castle Doors: first across to an open far door wins"
    lettering.text(d, (10, 12), words, 30, palette.INK)
    lettering.text(palette.drawer(rgb), (10, 12), words, 30, palette.INK)
    ours, theirs = list(img.tobytes()), list(palette._quantise(rgb).tobytes())
    inked = sum(1 for p in theirs if p != palette.index(palette.PAPER))
    differ = sum(1 for a, b in zip(ours, theirs, strict=True) if a != b)
    assert inked > 1000 and differ <= inked // 20


def test_castle_doors_caption_keeps_the_card_played_before_staying_put():
    """A turn of a card then `stay`: the caption (the view's `last`) still says what the card
    did, not only that the player stays put."""
    game = REGISTRY["castle_doors"]
    run = play(game, 2, {}, seed=3, max_steps=300, keep_states=True)
    checked = 0
    for k in range(1, len(run.log)):
        (seat, action), (before_seat, before) = run.log[k], run.log[k - 1]
        if action == "stay" and before_seat == seat and before.startswith("target"):
            _, events = game.apply(run.states[k - 1], seat, before)
            played = next(e.text for e in events if e.to is None)
            last = game.view(run.states[k + 1], None)["last"]
            assert played in last and "stays put" in last
            checked += 1
    assert checked


def _colours(img: Image.Image) -> set:
    return {colour for _, colour in img.getcolors(1 << 16)}


def _drawn(game_id: str, view: dict) -> Image.Image:
    return Image.open(io.BytesIO(render.board_png(game_id, view))).convert("RGB")


def test_ghosts18_set_up_row_of_nine_fits_its_panel():
    game = REGISTRY["ghosts18"]
    view = game.view(game.setup(["Ann", "Bob"], {}), None)
    assert sum(view["unplaced"][1].values()) == 9
    img = _drawn("ghosts18", view)
    edge = img.crop((1172, 90, img.width, 560))  # right of the panels: paper only
    assert _colours(edge) == {palette.PAPER}


def test_midnight_party_draws_the_guests_waiting_to_come_back():
    from render import hidden_castle as H

    game = REGISTRY["hidden_castle"]
    view = game.view(game.setup(["Ann", "Bob"], {"variant": "midnight_party"}), None)
    assert all(g["where"] == "box" for g in view["guests"])
    strip = _drawn("hidden_castle", view).crop((200, H.STRIP_Y, 934, H.STRIP_Y + 58))
    colours = _colours(strip)
    assert palette.PLAYER_COLOURS[0] in colours and palette.PLAYER_COLOURS[1] in colours


def test_haunted_house_ghost_in_flight_is_on_the_target_floor():
    from render import haunted_house as HH

    game = REGISTRY["haunted_house"]
    run = play(game, 3, {}, seed=1, max_steps=3000, keep_states=True)
    view = next(
        v
        for v in (game.view(s, None) for s in run.states)
        if (v.get("window") or {}).get("kind") == "defend"
    )
    calm = dict(view, window=None)
    width, x0 = HH._column(view)
    target, floor = view["window"]["target"], view["window"]["floor"]
    top = HH.TOP + HH.ROOF + (3 - floor) * HH.FLOOR_H
    box = (x0 + target * width, top, x0 + (target + 1) * width - 16, top + HH.FLOOR_H)
    a, b = _drawn("haunted_house", view), _drawn("haunted_house", calm)
    assert a.crop(box).tobytes() != b.crop(box).tobytes()
    above = (0, HH.TOP, a.width, top - 1)  # other floors and houses: as before
    assert a.crop(above).tobytes() == b.crop(above).tobytes()
