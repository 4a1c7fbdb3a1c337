"""A board drawn on a kept canvas (render/canvas.py, as a CPU worker keeps one for each
table, seat and language: render/work.py) is byte for byte the board drawn afresh, for
every game, seat and language over seeded playouts; and every part of a board's scene
paints only within its box, which is what the kept canvas relies on (render/scene.py)."""

from __future__ import annotations

import random

import pytest
from PIL import ImageChops

import render
from engines import CHANCE, REGISTRY
from engines.playout import configurations, pick_chance
from engines.text import to_json
from languages import available
from render import palette, work
from render.canvas import Canvas
from render.renderers import renderer
from render.scene import paint_part

NAMES = ["Ann", "Zoë 山田", "محمد", "Bob", "Eve"]  # other scripts, right to left
BOARDS = 24  # boards of each playout
SEEDS = (1, 2)


def _drawn_games() -> list[str]:
    found = []
    for game_id in sorted(REGISTRY):
        try:
            renderer(game_id)
        except KeyError:
            continue
        found.append(game_id)
    return found


def _configurations(game_id: str) -> list[tuple[int, dict]]:
    """The game at its fewest and its most players, and every value of every option at
    least once (the first configuration that has it)."""
    every = list(configurations(REGISTRY[game_id]))
    chosen = [every[0]]
    most = max(every, key=lambda c: c[0])
    if most != every[0]:
        chosen.append(most)
    for players, options in every:
        seen = {(k, v) for _, o in chosen for k, v in o.items()}
        if not set(options.items()) <= seen:
            chosen.append((players, options))
    return chosen


CASES = [
    pytest.param(
        game_id, players, options, id=f"{game_id}-{players}p-" + "-".join(options.values())
    )
    for game_id in _drawn_games()
    for players, options in _configurations(game_id)
]


def _boards(game_id: str, players: int, options: dict, seed: int):
    """(state, what the move said in public) of a seeded random game, one move a step."""
    game = REGISTRY[game_id]
    rng = random.Random(seed)
    state = game.setup(NAMES[:players], options)
    said: list = []
    for _ in range(300):
        acting = game.to_act(state)
        if not acting:
            return
        if acting == [CHANCE]:
            state, events = game.apply(
                state, CHANCE, pick_chance(game.chance_outcomes(state), rng.random())
            )
            said += [to_json(e.text) for e in events if e.to is None]
            continue
        yield state, said
        seat = acting[int(rng.random() * len(acting))]
        legal = game.legal_actions(state, seat)
        state, events = game.apply(state, seat, legal[int(rng.random() * len(legal))])
        said = [to_json(e.text) for e in events if e.to is None]
    yield state, said


def _seats_drawn(n: int, players: int) -> list[int]:
    """Every seat on every board at two players; past that two seats a board, in turn, so
    that each seat's canvas is kept across boards several moves apart (as a player who
    looks now and then sees them) and each seat is drawn on several boards."""
    if players <= 2:
        return list(range(players))
    return sorted({n % players, (n + players // 2) % players})


@pytest.mark.parametrize(("game_id", "players", "options"), CASES)
def test_a_kept_canvas_draws_every_board_as_a_fresh_one(game_id, players, options):
    """Each seat's canvas (None: the public board) in each language, kept from board to
    board: the public board in every language, each seat's own view (`_seats_drawn`) in
    English and the pseudo-language (the longest words); with the move's public lines under it on every
    other board (`recent`, two lines or more)."""
    game = REGISTRY[game_id]
    languages = available()
    drawn = 0
    for seed in SEEDS:
        kept: dict = {}
        for n, (state, said) in enumerate(_boards(game_id, players, options, seed)):
            if n >= BOARDS:
                break
            recent = said if n % 2 and len(said) >= 2 else None
            for seat in [None, *_seats_drawn(n, players)]:
                view = game.view(state, seat)
                for language in languages if seat is None else ("en", "qps"):
                    canvas = kept.setdefault((seat, language), Canvas())
                    render.paint_board(canvas, game_id, view, recent, language)
                    assert canvas.png() == render.board_png(game_id, view, recent, language), (
                        f"seed {seed}, board {n}, seat {seat}, {language}"
                    )
                    drawn += 1
    assert drawn > 100


@pytest.mark.parametrize("game_id", _drawn_games())
def test_every_part_paints_within_its_box(game_id):
    """Each part of a board's scene painted alone over two plain grounds changes no pixel
    outside its box (sampled boards of a seeded game, public and private, two languages),
    and its key says what it shows (plain arguments: render/scene.py)."""
    game = REGISTRY[game_id]
    players = max(2, game.min_players)
    checked = 0
    for n, (state, said) in enumerate(_boards(game_id, players, {}, 3)):
        if n % 7 or n > 60:
            continue
        for seat, language in ((None, "en"), (n % players, "qps")):
            scene = render.board_scene(game_id, game.view(state, seat), said or None, language)
            if scene is None:
                pytest.skip(f"{game_id} draws its board whole (no scene)")
            for part in scene.parts:
                assert part.plain, f"{part!r}: its key does not say what it shows"
                for ground in (palette.PAPER, palette.INK):
                    plain = palette.new_image(scene.size, ground)
                    img = plain.copy()
                    paint_part(palette.drawer(img), part)
                    changed = ImageChops.difference(img, plain).getbbox()
                    box = part.box
                    assert changed is None or (
                        changed[0] >= box[0]
                        and changed[1] >= box[1]
                        and changed[2] <= box[2]
                        and changed[3] <= box[3]
                    ), f"{part!r} painted {changed}, board {n}, seat {seat}, {language}"
                checked += 1
    assert checked


def test_a_workers_canvases_are_the_tables_seats_and_languages_apart():
    """render.work.board keeps one canvas for each table, seat and language: a seat's own
    view is never painted on the public board's canvas (nor the other way round), and every
    board it writes is the bytes a fresh one is."""
    game = REGISTRY["haunted_house"]
    kept = work.Canvases()
    old, work.CANVASES = work.CANVASES, kept
    try:
        for n, (state, _) in enumerate(_boards("haunted_house", 2, {}, 5)):
            if n == 6:
                break
            for seat in (None, 0, 1):
                view = game.view(state, seat)
                png = work.board("haunted_house", view, None, "en", "alt", (7, seat))[0]
                assert png == render.board_png("haunted_house", view)
        assert sorted(kept._canvases, key=str) == sorted(
            [((7, seat), "haunted_house", "en") for seat in (None, 0, 1)], key=str
        )
        assert kept.rows > kept.deflated_rows  # the kept boards were not deflated whole again
        work.board("haunted_house", game.view(state, None), None, "de", "alt", (7, None))
        assert len(kept) == 4  # another language, another canvas
    finally:
        work.CANVASES = old
