"""The boards drawn for a phone (render/narrow), checked along seeded random games of each
game that has one: the picture is `narrow.WIDTH` wide, no word on it is drawn under
`narrow.SMALLEST` pixels, every legal move but those of the kinds that have no place (which
stay buttons) has its tap region on the picture, and where a move puts a piece somewhere
the pixels of its region change when it is made (the region is where the thing is drawn)."""

from __future__ import annotations

import random

import pytest
from PIL import ImageChops

import render
from engines import CHANCE, REGISTRY
from engines.playout import pick_chance
from tests.render.narrow_checks import BUTTONS, smallest_drawn

NARROW = render.narrow.GAMES


def _castle_doors_at(view: dict, seat: int):
    from render.narrow.castle_doors import tile_box

    return tile_box(view, view["at"][seat]) if view["at"][seat] else None


ARRIVES = {  # where a game's piece is drawn once it has moved (by the engine's word)
    "castle_doors": _castle_doors_at,
}
LANDS = {  # the moves that put a piece where they are tapped
    "ghosts18": ("place", "move", "jump"),
    "castle_doors": ("move", "enter"),
    "hidden_castle": ("place", "move"),
    "haunted_house": ("cat", "bulb"),
}


def _decisions(game_id: str, players: int, seed: int, options: dict, steps: int = 160):
    """(state, seat to act) along a seeded random game."""
    game = REGISTRY[game_id]
    state = game.setup([f"P{i + 1}" for i in range(players)], options)
    rng = random.Random(seed)
    for _ in range(steps):
        acting = game.to_act(state)
        if not acting or game.result(state) is not None:
            return
        seat = acting[0]
        if seat == CHANCE:
            outcome = pick_chance(game.chance_outcomes(state), rng.random())
            state, _ = game.apply(state, seat, outcome)
            continue
        yield state, seat
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))


def _tables(game_id: str):
    game = REGISTRY[game_id]
    variants = game.options["variant"].choices if "variant" in game.options else ("",)
    for variant in variants:
        options = {"variant": variant} if variant else {}
        for players in sorted({game.min_players, min(game.max_players, 4)}):
            for seed in (1, 2):
                yield from _decisions(game_id, max(players, 1), seed, options)


def test_haunted_house_floors_are_lit_where_they_are_tapped():
    """Lighting a floor starts a choice of cards: the floor tapped is checked by lighting it
    in the view, which must change the picture inside the tapped region, and only there
    (the other floors and houses stay as they were)."""
    game = REGISTRY["haunted_house"]
    checked = 0
    for state, seat in _tables("haunted_house"):
        lights = [a for a in game.legal_actions(state, seat) if a.startswith("light ")]
        view = game.view(state, seat)
        for action in lights:
            box = render.narrow.regions("haunted_house", view, [action])[action]
            floor = view["houses"][seat][int(action.split()[1]) - 1]
            if floor["lit"]:
                continue
            was = render.narrow.draw("haunted_house", view).convert("RGB")
            floor["lit"] = True
            now = render.narrow.draw("haunted_house", view).convert("RGB")
            floor["lit"] = False
            changed = ImageChops.difference(was, now).getbbox()
            assert changed is not None
            assert box[0] <= changed[0] and box[1] <= changed[1], (action, box, changed)
            assert changed[2] <= box[2] and changed[3] <= box[3], (action, box, changed)
            checked += 1
    assert checked >= 4


def test_every_game_with_a_narrow_board_is_checked_here():
    assert set(NARROW) == set(BUTTONS) == set(LANDS)


@pytest.mark.parametrize("game_id", NARROW)
def test_a_narrow_board_reads_at_its_smallest_size_and_every_move_has_its_place(game_id):
    game = REGISTRY[game_id]
    kinds: set[str] = set()
    for n, (state, seat) in enumerate(_tables(game_id)):
        view = game.view(state, seat if game.hidden_information else None)
        legal = game.legal_actions(state, seat)
        regions = render.narrow.regions(game_id, view, legal)
        placed = [a for a in legal if a.split()[0] not in BUTTONS[game_id]]
        assert set(placed) <= set(regions), set(placed) - set(regions)
        kinds |= {a.split()[0] for a in regions}
        if n % 5:
            continue
        img = render.narrow.draw(game_id, view)
        assert img.width == render.narrow.WIDTH
        for action, (x0, y0, x1, y1) in regions.items():
            assert 0 <= x0 < x1 <= img.width and 0 <= y0 < y1 <= img.height, (action, img.size)
        assert smallest_drawn(game_id, view) >= render.narrow.SMALLEST
    assert kinds >= set(LANDS[game_id]), kinds  # the games met every kind tapped in place


@pytest.mark.parametrize("game_id", NARROW)
def test_a_piece_lands_in_the_region_tapped(game_id):
    game = REGISTRY[game_id]
    checked = 0
    for state, seat in _tables(game_id):
        legal = [a for a in game.legal_actions(state, seat) if a.split()[0] in LANDS[game_id]]
        if not legal:
            continue
        action = legal[0]
        viewer = seat if game.hidden_information else None
        before = game.view(state, viewer)
        box = render.narrow.regions(game_id, before, [action])[action]
        after, _ = game.apply(game.copy(state), seat, action)
        was = render.narrow.draw(game_id, before).convert("RGB").crop(box)
        now = render.narrow.draw(game_id, game.view(after, viewer)).convert("RGB").crop(box)
        assert ImageChops.difference(was, now).getbbox() is not None, action
        if game_id in ARRIVES:  # and the piece is now where the move was tapped
            assert ARRIVES[game_id](game.view(after, viewer), seat) == box, action
        checked += 1
        if checked >= 6:
            break
    assert checked >= 4
