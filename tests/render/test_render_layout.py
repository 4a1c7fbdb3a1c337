"""What the pictures must not do (issue 29, items 10, 11 and 13): draw one thing over
another, tell the same news twice, or give a replay frame two captions."""

from __future__ import annotations

import itertools

import pytest

import render
from engines import REGISTRY
from engines.castle_doors import board as CB
from engines.ghosts18 import board as GB
from engines.playout import play
from render import animation, captions, lettering, palette
from render import castle_doors as CD
from render import ghosts18 as G18
from render import haunted_house as HH
from render import hidden_castle as HC
from tests.render.test_render_fit import NAMES, Drawn


def _apart(a, b) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def _finished(game_id: str, players: int, seed: int, names=None) -> tuple[list, dict]:
    game = REGISTRY[game_id]
    run = play(game, players, {}, seed=seed, max_steps=3000, keep_states=True)
    assert run.finished
    state = game.setup(names or run.names, {})
    states = [state]
    for seat, action in run.log:
        state, _ = game.apply(state, seat, action)
        states.append(state)
    return states, game.view(states[-1], None)


# ----- item 10: nothing over anything -----------------------------------------------------
@pytest.mark.parametrize("colour", GB.COLOURS)
def test_a_portals_label_is_never_on_its_bar(colour):
    for facing in GB.DIRECTIONS:
        label, bar, plate = G18.portal_parts(colour, facing)
        assert _apart(bar, plate), (colour, facing, label)


@pytest.mark.parametrize("players", [2, 4])
def test_a_castle_doors_character_covers_no_word_of_its_tile(players):
    width, height = CB.size(players)
    edges = CB.edges(players)
    cells = CB.cells(width, height)
    for where in cells:
        view = {
            "width": width,
            "height": height,
            "edges": edges,
            "names": NAMES[:players],
            "at": [where] + [None] * (players - 1),
        }
        (cx, cy), r = CD.character_spot(view, 0)
        ring = (cx - r - CD.RING, cy - r - CD.RING, cx + r + CD.RING, cy + r + CD.RING)
        left, top, right, bottom = CD._box(view, where)
        words = [
            (left, top, right, top + CD.LETTER_BOTTOM),  # its letter and its name
            (left, bottom - CD.STATE_TOP, right, bottom),  # its state ("shut", "OPEN", ...)
        ]
        assert all(_apart(ring, w) for w in words), where
        assert left < ring[0] and ring[2] < right and r >= 12, where  # on its tile, visible


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_waiting_character_leaves_its_band_label_alone(players):
    width, height = CB.size(players)
    view = {
        "width": width,
        "height": height,
        "edges": CB.edges(players),
        "names": NAMES[:players],
        "at": [None] * players,
    }
    for seat, edge in enumerate(view["edges"]):
        label, room = CD.band_label(view, seat)
        assert label.endswith(": starts here") and lettering.text_width(label, 18) <= room
        band = CD._band(view, edge)
        (cx, cy), r = CD.character_spot(view, seat)
        along = (
            (cx - band[0])
            if edge in ("bottom", "top")
            else (band[3] - cy if edge == "left" else cy - band[1])
        )
        assert along - r - CD.RING >= 10 + room, (edge, along, room)  # past the label's end


def test_the_ghost_in_flight_is_in_its_floors_column_not_on_a_room():
    for players in (2, 3, 4):
        width, x0 = HH._column({"names": NAMES[:players]})
        w = width - 16
        for ghosts in (0, 1):
            ring = HH.incoming_ring(x0, HH.TOP, w, ghosts)
            assert all(_apart(ring, slot) for slot in HH.slot_boxes(x0, HH.TOP, w))
            assert x0 < ring[0] and ring[2] <= x0 + w  # inside the floor
            assert ring[1] > HH.TOP and ring[3] <= HH.TOP + HH.FLOOR_H


def test_to_place_tokens_stay_apart_in_an_800_pixel_replay():
    scale = animation.GIF_WIDTH / palette.WIDTH
    for n in range(2, 10):
        step, r = G18.row_spacing(n)
        gap = step - 2 * r - 3  # the outline is 3 pixels wide
        assert gap * scale >= 3, (n, gap)
        assert (n - 1) * step <= G18.ROW_WIDTH + 0.01


# ----- item 11: the same news once --------------------------------------------------------
@pytest.mark.parametrize(
    "game_id, players, seed",
    [
        ("ghosts18", 2, 3),
        ("castle_doors", 2, 3),
        ("hidden_castle", 3, 2),
    ],
)
def test_the_final_caption_does_not_repeat_the_result(game_id, players, seed):
    _, view = _finished(game_id, players, seed)
    lines = render.renderer(game_id).caption(view)
    assert lines == [view["last"]], lines
    assert not any(line.startswith("Game over") for line in lines)


def test_hidden_castles_panel_does_not_repeat_the_caption(monkeypatch):
    record = Drawn()
    monkeypatch.setattr(lettering, "text", record.text)
    game = REGISTRY["hidden_castle"]
    run = play(game, 3, {}, seed=2, max_steps=3000, keep_states=True)
    checked = 0
    for state in run.states[10::5]:
        view = game.view(state, None)
        said = " ".join(HC.caption(view))
        if not said.strip():
            continue
        record.clear()
        HC.board(view)
        panel = [t[5] for t in record.texts if t[3][0] >= HC.PANEL_X - 10]
        repeated = [line for line in panel if len(line) > 12 and line in said]
        assert not repeated, repeated
        assert any(line.startswith("STAIRCASE") for line in panel)  # the legend instead
        checked += 1
    assert checked > 5


# ----- item 13: one caption a replay frame --------------------------------------------------
def test_a_replay_frame_has_one_caption_and_no_placeholder(monkeypatch):
    record = Drawn()
    monkeypatch.setattr(animation, "text", record.text)
    monkeypatch.setattr(lettering, "text", record.text)
    game = REGISTRY["ghosts18"]
    state = game.setup(["Ann", "Bob"], {})
    opening = (game.view(state, None), "18 Ghosts: Ann, Bob", "")
    state, events = game.apply(state, 0, game.legal_actions(state, 0)[0])
    said = " ".join(e.text for e in events if e.to is None)
    move = (game.view(state, None), "Move 1 of 40: Ann", said)
    for frame, expected in ((opening, "Set-up: Ann places a ghost."), (move, said)):
        record.clear()
        (image,) = animation.frame_images("ghosts18", [frame], animation.GIF_WIDTH)
        texts = [t[5] for t in record.texts]
        assert "(no public change)" not in texts
        assert texts[-2:] == [frame[1], expected]  # the heading, then what happened
        assert texts.count(expected) == 1  # not in a footer of the board as well
        board = G18.board(frame[0])
        band = image.height - round(board.height * animation.GIF_WIDTH / board.width)
        assert band == animation._band(animation.GIF_WIDTH, 1)  # a heading and one line


def test_every_renderer_draws_its_board_and_caption_apart():
    for game_id, players in itertools.product(sorted(REGISTRY), [2]):
        game = REGISTRY[game_id]
        run = play(game, max(players, game.min_players), {}, seed=1, max_steps=60, keep_states=True)
        view = game.view(run.states[-1], None)
        module = render.renderer(game_id)
        board, lines = module.board(view), module.caption(view)
        drawn = module.draw(view)
        assert drawn.width == board.width and drawn.height > board.height and lines
        assert palette.to_png(drawn) == palette.to_png(captions.caption_bar(board, lines))
