"""Hints that see the next turn (engines/ai/threats.py): a hint never suggests a move after
which the opponent wins or scores at once where another move stops it, and its reason
names the threat. Seeded positions where a one-move threat exists, in 18 Ghosts and
Castle Doors; the search's budget is tiny, so the check one turn deep does the work."""

from __future__ import annotations

import inspect
import random
import sys

import pytest

from engines import CHANCE, REGISTRY
from engines.ai import advise, choose, decide
from engines.ai.threats import SLACK, WIN, exposure, guard
from engines.castle_doors import GAME as DOORS
from engines.playout import play
from tests.engines.castle_doors.test_castle_doors_helpers import castle, tile

GHOSTS = REGISTRY["ghosts18"]
TINY = 0.01  # of the hard level's budget: a search this small misses a lot


def ghosts(board: dict, **changes):
    """An 18 Ghosts position after set-up, Ann (seat 0) to move."""
    s = GHOSTS.setup(["Ann", "Bot"], {})
    s.placed = 18
    s.unplaced = [{c: 0 for c in ("red", "blue", "yellow")} for _ in range(2)]
    s.board = {cell: list(g) for cell, g in board.items()}
    for name, value in changes.items():
        setattr(s, name, value)
    return s


def red_threat():
    """Bot's red ghost on c3 steps up to c2, which the red portal (turned down) faces: with
    a blue and a yellow ghost out already, that wins. Only Ann's yellow ghost on b2 can
    stop it, by standing on c2 (a red ghost attacking a yellow one loses)."""
    return ghosts(
        {
            "c3": [1, "red"],
            "b2": [0, "yellow"],
            "e5": [0, "red"],
            "a1": [0, "blue"],
            "e1": [1, "blue"],
            "a5": [1, "yellow"],
            "d4": [0, "blue"],
        },
        portals={"red": "down", "yellow": "right", "blue": "down"},
        escaped=[{"red": 0, "blue": 0, "yellow": 0}, {"red": 0, "blue": 1, "yellow": 1}],
    )


def test_ghosts_the_one_move_that_stops_an_escape_is_the_hint_and_its_reason_names_it():
    s = red_threat()
    stops = [a for a in GHOSTS.legal_actions(s, 0) if exposure(GHOSTS, s, 0, a)[0] == 0]
    assert stops == ["move b2 right"]
    for seed in range(3):
        advice = advise("ghosts18", GHOSTS.dump(s), 0, "hard", seed, TINY)
        assert advice.action == "move b2 right"
        assert advice.answered is not None and advice.answered.seat == 1
        assert (
            str(advice.answered.text) == "Bot's red ghost on c3 can step to c2 and escape next turn"
        )


def test_ghosts_when_the_guard_overrides_the_moves_that_stop_it_are_searched_again():
    """Two moves stop the red ghost here (either yellow ghost stands on c2). Where the
    search preferred a move that leaves the escape open, the hint's move comes from a
    search of the stopping moves alone, not from the first search's leftovers."""
    s = ghosts(
        {
            "c3": [1, "red"],
            "b2": [0, "yellow"],
            "d2": [0, "yellow"],
            "e5": [0, "red"],
            "a1": [0, "blue"],
            "e1": [1, "blue"],
            "a5": [1, "yellow"],
            "d4": [0, "blue"],
        },
        portals={"red": "down", "yellow": "right", "blue": "down"},
        escaped=[{"red": 0, "blue": 0, "yellow": 0}, {"red": 0, "blue": 1, "yellow": 1}],
    )
    stops = {"move b2 right", "move d2 left"}
    assert stops == {a for a in GHOSTS.legal_actions(s, 0) if exposure(GHOSTS, s, 0, a)[0] == 0}
    overridden = 0
    for seed in range(4):
        first = decide("ghosts18", GHOSTS.dump(s), 0, "hard", seed, TINY)
        advice = advise("ghosts18", GHOSTS.dump(s), 0, "hard", seed, TINY)
        assert advice.action in stops
        if first.action not in stops:
            overridden += 1
            assert {a for a, _, _ in advice.decision.ranked} == stops
            assert advice.decision.ranked[0][0] == advice.action
    assert overridden, "no seed had the search prefer an open move: the test checks nothing"


def test_a_search_among_some_moves_plays_and_ranks_only_those():
    s = red_threat()
    among = {"move e5 left", "move a1 down"}
    decision = choose(GHOSTS, s, 0, "normal", random.Random(3), among=among)
    assert decision.action in among
    assert {a for a, _, _ in decision.ranked} == among


def test_ghosts_a_preferred_move_that_leaves_the_threat_is_replaced():
    """Whatever the search preferred (here: a move elsewhere), the guard takes the move
    that stops the escape and says what the preferred one left open."""
    s = red_threat()
    order = ["move e5 left", *(a for a in GHOSTS.legal_actions(s, 0) if a != "move e5 left")]
    guarded = guard(GHOSTS, s, 0, order, random.Random(1))
    assert guarded.action == "move b2 right" and guarded.checked
    assert guarded.answered.gain >= WIN


def test_ghosts_a_lost_fight_that_turns_a_portal_onto_an_opponent_is_not_the_hint():
    """The move of the complaint: a yellow ghost attacks a blue one and loses; the yellow
    portal turns down to face e4, where Bot's yellow ghost stands, which gets out at once
    (rules: PORTALS, a ghost escapes at once, whoever's turn it is). Only stepping the
    yellow ghost away from the blue one keeps Bot from it."""
    s = ghosts(
        {
            "a5": [0, "yellow"],
            "a4": [1, "blue"],
            "e4": [1, "yellow"],
            "c3": [0, "red"],
            "d1": [1, "red"],
            "a2": [0, "blue"],
        },
    )
    after, _ = GHOSTS.apply(s, 0, "move a5 up")
    assert after.escaped[1]["yellow"] == 1, "the lost fight lets Bot's yellow ghost out"
    order = ["move a5 up", *(a for a in GHOSTS.legal_actions(s, 0) if a != "move a5 up")]
    guarded = guard(GHOSTS, s, 0, order, random.Random(1))
    assert guarded.action == "move a5 right"
    assert str(guarded.answered.text) == "Bot's yellow ghost would escape at e4 at once"
    advice = advise("ghosts18", GHOSTS.dump(s), 0, "hard", 4, TINY)
    assert advice.action == "move a5 right"


def test_ghosts_nothing_to_stop_no_threat_named():
    s = ghosts({"a5": [0, "yellow"], "e1": [1, "red"], "c3": [0, "red"], "b4": [1, "blue"]})
    advice = advise("ghosts18", GHOSTS.dump(s), 0, "hard", 2, TINY)
    assert advice.answered is None and advice.open is None


def doors_threat(hand: list[str]):
    """Castle Doors, two players: Bob (top edge) stands on c2, one step from the open door
    of c1 in his far row; Ann (bottom) holds `hand`, a5 under her."""
    s = castle(2, hands=[hand, ["key red", "key blue", "skeleton"]], at=["a5", "c2"])
    for cell in ("c2", "c1", "a5", "a4", "b5"):
        tile(s, cell)
    return s


@pytest.mark.parametrize(
    ("hand", "play", "target"),
    [
        (["key green", "hacksaw", "passage"], "play key green", "target c1"),  # c1 is green
        (["padlock", "hacksaw", "passage"], "play padlock", "target c1"),
        (["net", "hacksaw", "passage"], "play net", "target c2"),
    ],
)
def test_doors_the_card_that_stops_a_step_to_the_far_row_is_the_hint(hand, play, target):
    s = doors_threat(hand)
    assert s.tiles["c1"]["colour"] == "green"
    advice = advise("castle_doors", DOORS.dump(s), 0, "hard", 3, TINY)
    assert advice.action == play
    assert str(advice.answered.text) == "Bob can step onto c1 and win next turn"
    s, _ = DOORS.apply(s, 0, play)
    advice = advise("castle_doors", DOORS.dump(s), 0, "hard", 3, TINY)
    assert advice.action == target
    if len(DOORS.legal_actions(s, 0)) > 2:  # (a net has one target, and `back`)
        assert str(advice.answered.text) == "Bob can step onto c1 and win next turn"


def test_doors_with_no_card_that_helps_the_hint_says_nothing_stops_it():
    s = doors_threat(["hacksaw", "passage", "key red"])
    advice = advise("castle_doors", DOORS.dump(s), 0, "hard", 3, TINY)
    assert advice.answered is None
    assert str(advice.open.text) == "Bob can step onto c1 and win next turn"


def test_over_seeded_ghost_games_a_hint_never_leaves_more_than_the_safest_move():
    """From random playouts, every position where some move leaves the opponent less than
    another: the hint is among the moves that leave the least."""
    checked = 0
    for seed in range(6):
        run = play(GHOSTS, 2, {}, seed, max_steps=400, keep_states=True)
        for state in run.states[::9]:
            acting = GHOSTS.to_act(state)
            if not acting or len(GHOSTS.legal_actions(state, acting[0])) < 2:
                continue
            seat = acting[0]
            losses = {
                a: exposure(GHOSTS, state, seat, a)[0] for a in GHOSTS.legal_actions(state, seat)
            }
            if max(losses.values()) - min(losses.values()) <= SLACK:
                continue
            advice = advise("ghosts18", GHOSTS.dump(state), seat, "hard", seed, TINY)
            assert losses[advice.action] <= min(losses.values()) + SLACK, (seed, advice)
            checked += 1
    assert checked >= 3


def random_doors_threat(seed: int):
    """A seeded castle: colours, open doors and Ann's four cards at random; Bob one step
    from an open door of his far row (row 1), Ann somewhere in the castle."""
    rng = random.Random(seed)
    deck = [card for card, n in castle().deck.items() for _ in range(n)]
    hand = sorted(rng.sample(deck, 4))
    column = rng.choice("abcde")
    ann = rng.choice([f"{c}{r}" for c in "abcde" for r in range(3, 8)])
    s = castle(2, hands=[hand, ["key red", "key blue", "skeleton"]], at=[ann, f"{column}2"])
    colours = [c for c in ("red", "blue", "green", "yellow") for _ in range(10)]
    rng.shuffle(colours)
    for t, colour in zip(s.tiles.values(), colours, strict=True):
        t["colour"] = colour
    opened = {c: 0 for c in ("red", "blue", "green", "yellow")}
    cells = [ann, f"{column}2", f"{column}1", *(c for c in s.tiles if rng.random() < 0.4)]
    for cell in cells:
        colour = s.tiles[cell]["colour"]
        if not s.tiles[cell]["kind"] and opened[colour] < 6:  # six open doors a colour
            tile(s, cell)
            opened[colour] += 1
    return s


def test_over_seeded_castles_a_hint_never_leaves_bob_his_winning_step_if_a_card_stops_it():
    """The hint looks at castles Ann cannot tell from this one (the deck dealt again), so
    its reckoning of a bonus turn's draws may differ a little from the true castle's."""
    stopped = named = 0
    for seed in range(12):
        s = random_doors_threat(seed)
        if not all(s.tiles[c]["open"] for c in s.at):
            continue
        losses = {a: exposure(DOORS, s, 0, a)[0] for a in DOORS.legal_actions(s, 0)}
        advice = advise("castle_doors", DOORS.dump(s), 0, "hard", seed, TINY)
        assert losses[advice.action] <= min(losses.values()) + 1, (seed, advice)
        if min(losses.values()) == 0 < max(losses.values()):
            # named when the search preferred a move that leaves it, or most moves do
            if advice.answered is not None:
                assert "win next turn" in str(advice.answered.text)
                named += 1
            stopped += 1
        elif min(losses.values()) > 0:
            assert "win next turn" in str(advice.open.text)
    assert stopped >= 3 and named >= 1


def test_a_hint_at_every_turn_of_seeded_two_player_dark_castles_answers():
    """A two-player Dark Castle turn is a long chain of one prisoner's steps: the guard's
    look through it once recursed past Python's limit (28 of 36 hints crashed). Bounded by
    depth now, every hint answers."""
    game = REGISTRY["dark_castle"]
    asked = 0
    for seed in (0, 1):
        run = play(game, 2, {}, seed, max_steps=70, keep_states=True)
        for state in run.states:
            acting = game.to_act(state)
            if not acting or acting == [CHANCE] or len(game.legal_actions(state, acting[0])) < 2:
                continue
            advice = advise("dark_castle", game.dump(state), acting[0], "hard", seed, TINY)
            assert advice.action in game.legal_actions(state, acting[0])
            asked += 1
    assert asked >= 15


@pytest.mark.parametrize(
    "game_id, players",
    [(g.id, n) for g in REGISTRY.values() for n in range(g.min_players, g.max_players + 1)],
)
def test_the_guard_stays_within_a_bounded_stack_in_every_game_and_player_count(
    game_id, players, monkeypatch
):
    """Under a stack only a few hundred frames deeper than the caller's, the guard answers
    at positions through seeded games of every game and player count: its look is bounded
    by depth, not by the budget of states alone (a smaller budget keeps the test quick)."""
    monkeypatch.setattr("engines.ai.threats.BUDGET", 1_500)
    game = REGISTRY[game_id]
    run = play(game, players, {}, players, max_steps=400, keep_states=True)
    turns = [
        s
        for s in run.states
        if game.to_act(s)
        and game.to_act(s) != [CHANCE]
        and len(game.legal_actions(s, game.to_act(s)[0])) > 1
    ]
    here = len(inspect.stack(0))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(here + 300)
    try:
        for state in turns[:: max(1, len(turns) // 4)]:
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            guarded = guard(game, state, seat, legal, random.Random(players))
            assert guarded.action in legal
    finally:
        sys.setrecursionlimit(limit)
