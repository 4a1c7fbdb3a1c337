"""The search AI over the engine contract (engines/ai): legal, seeded, honest, and it takes
a win it can see. Budgets are tiny; strength is measured by bench/ai.py, not here."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engines import CHANCE, REGISTRY
from engines.ai import LEVELS, choose, decide
from engines.ai.search import heuristics, random_rollout, rewards, tuned
from engines.playout import pick_chance, play

TINY = replace(LEVELS["normal"], iterations=12, seconds=60.0, depth=3)
TINIER = replace(TINY, iterations=4, depth=2)


def decision_points(game, players, seed, every=7, limit=6):
    """States where a seat with a real choice is to act, from a random playout."""
    run = play(game, players, {}, seed, max_steps=300, keep_states=True)
    out = []
    for state in run.states[::every]:
        acting = game.to_act(state)
        if acting and acting != [CHANCE] and len(game.legal_actions(state, acting[0])) > 1:
            out.append((state, acting[0]))
    return out[:limit]


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_bot_plays_a_whole_game_legally_against_random(game_id):
    game = REGISTRY[game_id]
    players = max(2, game.min_players)
    rng = random.Random(4)
    state = game.setup([f"P{i}" for i in range(players)], {})
    for _ in range(3000):
        acting = game.to_act(state)
        if not acting:
            break
        if acting == [CHANCE]:
            state, _ = game.apply(
                state, CHANCE, pick_chance(game.chance_outcomes(state), rng.random())
            )
            continue
        seat = acting[0]
        legal = game.legal_actions(state, seat)
        if seat == 0:
            action = choose(game, state, seat, TINIER, random.Random(rng.random())).action
            assert action in legal
        else:
            action = legal[int(rng.random() * len(legal))]
        state, _ = game.apply(state, seat, action)
    assert game.result(state) is not None, "the game ends"


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_the_same_seed_gives_the_same_choice(game_id):
    game = REGISTRY[game_id]
    for state, seat in decision_points(game, 2 if game.min_players <= 2 else game.min_players, 1):
        dumped = game.dump(state)
        first = choose(game, state, seat, TINY, random.Random(8)).action
        assert choose(game, state, seat, TINY, random.Random(8)).action == first
        assert decide(game_id, dumped, seat, "normal", 8, 0.05).action in game.legal_actions(
            state, seat
        )
        assert game.dump(state) == dumped, "choosing never changes the state"


@pytest.mark.parametrize("game_id", ["haunted_house", "castle_doors"])
def test_honest_play_what_the_seat_cannot_see_does_not_change_its_choice(game_id):
    """Change only what the bot's seat cannot see (other hands, the deck's make-up): the
    choice is the same, so the bot never peeks."""
    game = REGISTRY[game_id]
    checked = 0
    for seed in range(3):
        for state, seat in decision_points(game, 3, seed, every=5):
            for k in range(3):
                other = game.redraw(state, seat, random.Random(100 + k))
                if game.dump(other) == game.dump(state):
                    continue
                assert game.view(other, seat) == game.view(state, seat)
                a = choose(game, state, seat, TINIER, random.Random(seed)).action
                b = choose(game, other, seat, TINIER, random.Random(seed)).action
                assert a == b
                checked += 1
    assert checked >= 10


def test_ghosts18_the_bot_takes_the_escape_that_wins():
    """Rulebook, "Escaping": a ghost in the chamber its portal faces escapes; one of each
    colour outside wins. Seat 0 has red and blue out and a yellow ghost one step away."""
    game = REGISTRY["ghosts18"]
    state = play(game, 2, {}, seed=3, max_steps=18).states[-1]  # set-up done
    data = game.dump(state)
    data["board"] = {"d2": [0, "yellow"], "a1": [1, "red"], "a5": [1, "blue"], "e5": [0, "red"]}
    data["portals"] = {"red": "up", "yellow": "left", "blue": "down"}  # yellow faces d3
    data["escaped"] = [{"red": 1, "blue": 1, "yellow": 0}, {"red": 0, "blue": 0, "yellow": 0}]
    data["turn"] = 0
    state = game.load(data)
    assert "move d2 down" in game.legal_actions(state, 0)
    assert choose(game, state, 0, TINY, random.Random(1)).action == "move d2 down"


def test_dark_castle_the_party_shares_one_result():
    """Co-operative: every seat is scored by whether the party escaped."""
    game = REGISTRY["dark_castle"]
    for seed in range(6):
        run = play(game, 3, {}, seed, max_steps=3000)
        if run.finished:
            values = rewards(game, run.states[-1], 3)
            assert len(set(values)) == 1 and values[0] in (0.0, 1.0)


def test_haunted_house_a_choice_of_cards_begun_is_finished_not_cancelled():
    """Hard level once started and cancelled a discard for ever (bench.ai: a game of
    hundreds of moves): the search never plays the `cancel` that only undoes the start."""
    game = REGISTRY["haunted_house"]
    state = game.setup(["A", "B"], {})
    rng = random.Random(2)
    for _ in range(400):
        acting = game.to_act(state)
        if acting == [CHANCE]:
            state, _ = game.apply(
                state, CHANCE, pick_chance(game.chance_outcomes(state), rng.random())
            )
            continue
        if "discard" in game.legal_actions(state, acting[0]):
            break
        legal = game.legal_actions(state, acting[0])
        state, _ = game.apply(state, acting[0], legal[int(rng.random() * len(legal))])
    seat = game.to_act(state)[0]
    state, _ = game.apply(state, seat, "discard")
    assert "cancel" in game.legal_actions(state, seat)
    for k in range(4):
        chosen = choose(
            game, state, seat, replace(LEVELS["hard"], iterations=200), random.Random(k)
        )
        assert chosen.action != "cancel"


POLICIES = sorted(g for g in REGISTRY if hasattr(heuristics(REGISTRY[g]), "rollout"))


def test_the_games_with_a_rollout_policy():
    assert POLICIES == [
        "castle_doors",
        "ghosts18",
        "haunted_house",
        "hidden_castle",
    ]  # Dark Castle rolls out at random


@pytest.mark.parametrize("game_id", POLICIES)
def test_a_games_rollout_policy_plays_only_legal_moves_to_the_end(game_id):
    """The rollouts of a game's own policy (its `ai.rollout`) must stay legal, or a search
    would explore positions no game can reach."""
    game = REGISTRY[game_id]
    module = heuristics(game)
    rng = random.Random(7)
    for seed in range(3):
        state = game.setup([f"P{i}" for i in range(max(2, game.min_players))], {})
        for _ in range(3000):
            acting = game.to_act(state)
            if not acting:
                break
            if acting == [CHANCE]:
                outcome = pick_chance(game.chance_outcomes(state), rng.random())
                state, _ = game.apply(state, CHANCE, outcome)
                continue
            legal = game.legal_actions(state, acting[0])
            action = module.rollout(game, state, acting[0], legal, rng)
            assert action in legal, (seed, action, legal)
            state, _ = game.apply(state, acting[0], action)
        assert game.result(state) is not None, f"seed {seed}: the game ends"


def test_haunted_house_only_hard_plays_the_rollout_policy(monkeypatch):
    """bench.ai: in Haunted House the policy set hard apart from normal only as hard's own
    (its `TUNING`); normal's rollouts stay random."""
    game = REGISTRY["haunted_house"]
    module = heuristics(game)
    calls = []

    def counted(*args):
        calls.append(1)
        return random_rollout(*args)

    monkeypatch.setattr(module, "rollout", counted)
    state, seat = decision_points(game, 2, 3, every=3)[0]
    choose(game, state, seat, replace(LEVELS["normal"], iterations=30), random.Random(0))
    assert calls == []
    choose(game, state, seat, replace(LEVELS["hard"], iterations=30), random.Random(0))
    assert calls


def test_a_games_tuning_changes_its_named_levels_only():
    """`TUNING` spaces the ladder in one game (bench.ai): Haunted House's easy blunders half
    its moves, its normal rolls out at random; another game's levels stay as they are."""
    house = heuristics(REGISTRY["haunted_house"])
    assert tuned(LEVELS["easy"], house) == replace(LEVELS["easy"], blunder=0.5, tuned=True)
    assert tuned(LEVELS["normal"], house).heuristics is False
    assert tuned(LEVELS["hard"], house) == LEVELS["hard"]
    ghosts = heuristics(REGISTRY["ghosts18"])
    assert all(tuned(lv, ghosts) == lv for lv in LEVELS.values())


def test_a_level_is_tuned_once():
    """A tuned level handed back to `tuned` (to `choose`, say) keeps its budget: scaling it
    again by its share of the base budget once cut Castle Doors' hard from 1,100 to 807."""
    doors = heuristics(REGISTRY["castle_doors"])
    budget = doors.TUNING["hard"]["iterations"]
    scaled = replace(LEVELS["hard"], iterations=LEVELS["hard"].iterations // 10)
    for level, expected in ((LEVELS["hard"], budget), (scaled, round(budget / 10))):
        once = tuned(level, doors)
        assert once.iterations == expected
        assert tuned(once, doors) == once
