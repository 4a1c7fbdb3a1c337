"""Pieces pasted from the cache (render/sprites.py) and parts pasted from theirs
(render/parts.py) have the very pixels of drawing them afresh: a piece over any ground, at
any fraction of a pixel, and a whole board whether its caches were cold, warm or not used."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from PIL import ImageDraw

import render
from engines import REGISTRY
from engines.playout import play
from render import ghosts18, palette, shapes, sprites, tokens

SIZE = (160, 140)
INKS = [
    palette.PAPER,
    palette.NIGHT,
    palette.PANEL,
    palette.INK,
    palette.WHITE,
    *palette.PLAYER_COLOURS,
]


def _ground(kind: int, seed: int):
    """A picture to draw a piece on: plain (one of a few entries) or speckled, so that a
    pixel a piece leaves alone shows if it was changed."""
    img, d = palette.canvas(SIZE[1], SIZE[0], INKS[kind % len(INKS)])
    if kind >= len(INKS):
        rng = random.Random(seed)
        for _ in range(400):
            x, y = rng.randrange(SIZE[0]), rng.randrange(SIZE[1])
            d.rectangle(
                (x, y, x + rng.randrange(1, 6), y + rng.randrange(1, 6)), fill=rng.choice(INKS)
            )
    return img, d


class Direct(palette.PaletteDraw):
    """The kit's drawer without its cache: every shape drawn by Pillow."""

    rounded_rectangle = ImageDraw.ImageDraw.rounded_rectangle
    polygon = ImageDraw.ImageDraw.polygon


def _direct(ground, piece) -> bytes:
    img = ground[0].copy()
    d = Direct(img)
    shapes.body(d, *piece)
    tokens._letters(d, *piece)
    return img.tobytes()


def _token(ground, piece) -> bytes:
    img = ground[0].copy()
    tokens.token(palette.drawer(img), piece[0], piece[1], *piece[2:])
    return img.tobytes()


pieces = st.tuples(
    st.tuples(
        st.integers(50, 110).map(float) | st.floats(50, 110),
        st.integers(50, 90).map(float) | st.floats(50, 90),
    ),
    st.sampled_from([7, 8, 9.5, 12, 13, 14, 15, 16, 20, 24, 26, 31, 40, 40.8]) | st.floats(7, 40),
    st.sampled_from(palette.PLAYER_SHAPES),
    st.sampled_from(INKS),
    st.text("ABMRWY1É", max_size=3),
    st.sampled_from([palette.INK, palette.WHITE]),
    st.sampled_from([None, palette.INK, palette.YELLOW]),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(piece=pieces, first=st.integers(0, 2 * len(INKS)), then=st.integers(0, 2 * len(INKS)))
def test_a_pasted_piece_has_the_pixels_of_one_drawn(piece, first, then):
    """Drawn once where it stands (over one ground), then pasted there over another: the
    same pixels as drawing it there, or drawn directly when it cannot be pasted."""
    tokens.PIECE.cache_clear()
    tokens.PLAIN.cache_clear()
    one, other = _ground(first, 1), _ground(then, 2)
    assert _token(one, piece) == _direct(one, piece)  # the first: drawn and kept
    pasted = tokens.PIECE.kept(piece)[0] is not None
    event("pasted" if pasted else "drawn directly")
    assert _token(other, piece) == _direct(other, piece)
    assert _token(one, piece) == _direct(one, piece)


def test_a_piece_is_pasted_at_the_very_place_it_was_drawn():
    """Pasting is what happens for the pieces of the games (a letter on its shape), and a
    sprite a pixel off would differ from the piece drawn there."""
    tokens.PIECE.cache_clear()
    for shape in palette.PLAYER_SHAPES:
        for radius, centre, label in (
            (40.8, (80.0, 71.0), "R"),
            (13, (60.5, 60.25), "B"),
            (16, (90.0, 80.5), ""),
            (9.5, (71.5, 70.0), ""),
        ):
            piece = (centre, radius, shape, palette.BLUE, label, palette.INK, None)
            ground = _ground(len(INKS) + 1, 7)
            assert _token(_ground(0, 0), piece) == _direct(_ground(0, 0), piece)
            assert tokens.PIECE.kept(piece)[0] is not None, piece
            assert _token(ground, piece) == _direct(ground, piece), piece


def test_letters_wider_than_their_piece_are_drawn_directly():
    """Letters over the ground blend with it: such a piece is never pasted."""
    tokens.PIECE.cache_clear()
    piece = ((80.0, 70.0), 7, "triangle", palette.YELLOW, "WWW", palette.INK, None)
    ground = _ground(len(INKS) + 2, 3)
    assert _token(_ground(1, 0), piece) == _direct(_ground(1, 0), piece)
    assert tokens.PIECE.kept(piece)[0] is None
    assert _token(ground, piece) == _direct(ground, piece)


def test_a_piece_at_the_edge_is_drawn_directly():
    tokens.PIECE.cache_clear()
    piece = ((8.0, 70.0), 16, "hexagon", palette.GREEN, "G", palette.INK, None)
    ground = _ground(len(INKS) + 3, 4)
    assert _token(ground, piece) == _direct(ground, piece)
    assert _token(ground, piece) == _direct(ground, piece)


coordinate = st.integers(20, 140).map(float) | st.floats(20, 140)
rounded = st.tuples(
    st.just("rounded_rectangle"),
    st.tuples(coordinate, coordinate, coordinate, coordinate).map(
        lambda c: (min(c[0], c[2]), min(c[1], c[3]), max(c[0], c[2]), max(c[1], c[3]))
    ),
    st.integers(0, 20),
    st.sampled_from([None, *INKS]),
    st.sampled_from([None, palette.INK, palette.GREY]),
    st.integers(1, 5),
)
polygon = st.tuples(
    st.just("polygon"),
    st.lists(st.tuples(coordinate, coordinate), min_size=3, max_size=8).map(tuple),
    st.sampled_from([None, *INKS]),
    st.sampled_from([palette.INK, palette.GREY]),
    st.integers(2, 5),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    shape=rounded | polygon, first=st.integers(0, 2 * len(INKS)), then=st.integers(0, 2 * len(INKS))
)
def test_a_pasted_shape_has_the_pixels_of_one_drawn(shape, first, then):
    """The drawer's rounded rectangles and wide-outlined polygons, drawn once over one ground
    and pasted over another: the pixels Pillow draws there."""
    tokens.PLAIN.cache_clear()
    name, xy, *rest = shape
    try:  # a box a pixel too small for its corners' radius: Pillow itself refuses it
        getattr(Direct(_ground(first, 1)[0]), name)(xy, *rest)
    except ValueError:
        with pytest.raises(ValueError):
            getattr(palette.PaletteDraw(_ground(first, 1)[0]), name)(xy, *rest)
        event("refused, as Pillow refuses it")
        return
    pictures = []
    for drawer in (
        palette.PaletteDraw,
        palette.PaletteDraw,
        Direct,
    ):  # drawn and kept, pasted, drawn
        for kind, seed in ((first, 1), (then, 2)):
            img = _ground(kind, seed)[0]
            getattr(drawer(img), name)(xy, *rest)
            pictures.append(img.tobytes())
    kept = tokens.PLAIN.kept(shape if name == "polygon" else (*shape, None))  # no `corners`
    event("pasted" if kept and kept[0] is not None else "drawn directly")
    assert pictures[:2] == pictures[4:] and pictures[2:4] == pictures[4:]


def _views(game_id: str) -> list[dict]:
    game = REGISTRY[game_id]
    players = max(2, game.min_players) if game.max_players > 1 else 1
    run = play(game, players, {}, seed=5, keep_states=True)
    states = run.states[1 :: max(1, len(run.states) // 12)]
    return [game.view(s, seat) for s in states for seat in (None, 0)]


@pytest.mark.parametrize(
    "game_id", ["ghosts18", "castle_doors", "haunted_house", "hidden_castle", "dark_castle"]
)
def test_a_board_is_the_same_drawn_without_the_caches(game_id, monkeypatch):
    """Pieces, shapes and portals pasted (the caches warm) against all of them drawn by
    Pillow: the same bytes."""
    views = _views(game_id)
    for view in views:
        render.board_png(game_id, view)
    pasted = [render.board_png(game_id, view) for view in views]
    monkeypatch.setattr(sprites, "paste", lambda *_: False)
    monkeypatch.setattr(ghosts18, "_portal_part", lambda *_: None)
    assert [render.board_png(game_id, view) for view in views] == pasted
