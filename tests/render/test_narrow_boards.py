"""The boards drawn for a phone (render/narrow), checked along seeded random games of each
game that has one: the picture is `narrow.WIDTH` wide, no word on it is drawn under
`narrow.SMALLEST` pixels, every legal move but those of the kinds that have no place (which
stay buttons) has its tap region on the picture, and where a move puts a piece somewhere
the pixels of its region change when it is made (the region is where the thing is drawn)."""

from __future__ import annotations

import pytest
from PIL import ImageChops

import render
from engines import REGISTRY
from tests.render.narrow_checks import BUTTONS, smallest_drawn
from tests.render.walks import decisions

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
    "dark_castle": (),
}


def _tables(game_id: str):
    game = REGISTRY[game_id]
    variants = game.options["variant"].choices if "variant" in game.options else ("",)
    for variant in variants:
        options = {"variant": variant} if variant else {}
        for players in sorted({game.min_players, min(game.max_players, 4)}):
            for seed in (1, 2):
                yield from decisions(
                    game_id, [f"P{i + 1}" for i in range(max(players, 1))], seed, options
                )


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


def _dark_castle_touch(view: dict, action: str) -> bool:
    """Change in the view what `action` acts on (a prisoner's hit points, an option's words,
    an item on the table, the enemy's name): False if it names nothing to change."""
    verb, *args = action.split()
    chars = {char.get("who"): char for char in view["chars"]}
    if verb in ("hit", "rest", "turn", "send", "rite", "give", "draw"):
        chars[args[0]]["hp"] -= 1
    elif verb == "use" and len(args) > 1:
        chars[args[1]]["hp"] -= 1
    elif verb in ("use", "drop", "stow", "unstow", "discard"):
        held = [c for c in view["chars"] if any(i["id"] == args[0] for i in c["items"])]
        if not held:
            return False
        held[0]["hp"] -= 1
    elif verb == "choose":
        option = next(o for o in view["options"] if str(o["n"]) == args[0])
        option["label"] = "Xx " + str(option["label"])
    elif verb == "take":
        item = next(i for i in view["pool"] if i["id"] == args[0])
        item["name"] = "Xx " + str(item["name"])
    elif verb == "fight":
        view["combat"]["name"] = "Xx " + str(view["combat"]["name"])
    elif verb == "crush":
        row = view["combat"]["row"]
        row[row.index(args[0])] = "s" if args[0] != "s" else "m"
    else:
        return False
    return True


@pytest.mark.parametrize("language", ["en", "de"])
def test_dark_castle_moves_act_where_they_are_tapped(language):
    """Each move with a place: what it acts on, changed in the view, changes the picture
    inside its region and nowhere else; in a longer language too (regions are not told the
    language, so what a move acts on must not move with it)."""
    import copy

    game = REGISTRY["dark_castle"]
    kinds: set[str] = set()
    for n, (state, seat) in enumerate(_tables("dark_castle")):
        if n % 3:
            continue
        view = game.view(state, None)
        regions = render.narrow.regions("dark_castle", view, game.legal_actions(state, seat))
        was = render.narrow.draw("dark_castle", view, language).convert("RGB")
        for action, box in regions.items():
            touched = copy.deepcopy(view)
            if not _dark_castle_touch(touched, action):
                continue
            now = render.narrow.draw("dark_castle", touched, language).convert("RGB")
            if now.size != was.size:
                continue  # (a longer word that wrapped: the foot moved)
            changed = ImageChops.difference(was, now).getbbox()
            assert changed is not None, action
            assert box[0] <= changed[0] and box[1] <= changed[1], (action, box, changed)
            assert changed[2] <= box[2] and changed[3] <= box[3], (action, box, changed)
            kinds.add(action.split()[0])
    assert kinds >= {"hit", "turn", "choose", "fight", "take"}, kinds


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
        language = ("en", "de", "es", "ru")[n // 5 % 4]  # every word in each language too
        assert smallest_drawn(game_id, view, language) >= render.narrow.SMALLEST, language
    assert kinds >= set(LANDS[game_id]), kinds  # the games met every kind tapped in place


@pytest.mark.parametrize("game_id", [game for game in NARROW if LANDS[game]])
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
