"""The shared conformance suite: every registered game, every player count, every option.

A game added to engines/ is checked here at once (docs/engine-contract.md, "What every game
shows in its tests").
"""

from __future__ import annotations

import json
import random

import pytest

from engines import CHANCE, REGISTRY, BadOption, IllegalAction
from engines.playout import configurations, play

CONFIGS = [
    pytest.param(
        game_id, players, options, id=f"{game_id}-{players}p-" + "-".join(options.values())
    )
    for game_id, game in sorted(REGISTRY.items())
    for players, options in configurations(game)
]
SEEDS = range(4)
JUNK = ["", "   ", "xyzzy", "pass pass", "move", "place z9", "🙂", "a" * 200, "DROP TABLE", "-1"]


def roundtrip(game, state):
    return game.load(json.loads(json.dumps(game.dump(state))))


def test_registry_has_games():
    assert "ghosts18" in REGISTRY
    for game_id, game in REGISTRY.items():
        assert game.id == game_id
        assert game.title and game.rules_text and game.summary
        assert 1 <= game.min_players <= game.max_players


@pytest.mark.parametrize(("game_id", "players", "options"), CONFIGS)
def test_random_playouts_follow_the_contract(game_id, players, options):
    game = REGISTRY[game_id]
    for seed in SEEDS:
        run = play(game, players, options, seed, max_steps=600, keep_states=True)
        for state in run.states:
            assert game.dump(roundtrip(game, state)) == game.dump(state)
            acting = game.to_act(state)
            if acting == [CHANCE]:
                outcomes = game.chance_outcomes(state)
                assert outcomes, "a chance node lists its outcomes"
                assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
                assert len({o for o, _ in outcomes}) == len(outcomes)
                continue
            for seat in acting:
                assert 0 <= seat < players
                legal = game.legal_actions(state, seat)
                assert legal, f"seat {seat} must act but has no legal action"
                assert len(set(legal)) == len(legal), "legal actions are unique"
                for action in legal:
                    assert action == " ".join(action.split()) and action == action.lower()
                    assert action.isascii() and len(action.encode()) <= 32, action
                    assert isinstance(game.describe(state, action), str)
                default = game.default_action(state, seat)
                assert default is None or default in legal
                if game.reaction_window(state):  # contract rule 4: a timer can close it
                    assert "pass" in legal and default == "pass", (seat, legal)
        final = run.states[-1]
        if run.finished:
            result = game.result(final)
            assert result is not None
            ranked = sorted(s for group in result.ranking for s in group)
            assert ranked == list(range(players))
            assert result.summary
        else:
            assert game.result(final) is None


@pytest.mark.parametrize(("game_id", "players", "options"), CONFIGS)
def test_replaying_the_log_gives_the_same_state(game_id, players, options):
    game = REGISTRY[game_id]
    run = play(game, players, options, seed=11, max_steps=600)
    state = game.setup(run.names, options)
    for seat, action in run.log:
        state, _ = game.apply(state, seat, action)
    assert game.dump(state) == game.dump(run.states[-1])


@pytest.mark.parametrize(("game_id", "players", "options"), CONFIGS)
def test_illegal_actions_are_refused_without_change(game_id, players, options):
    game = REGISTRY[game_id]
    run = play(game, players, options, seed=5, max_steps=300, keep_states=True)
    rng = random.Random(3)
    for state in rng.sample(run.states, min(25, len(run.states))):
        before = json.dumps(game.dump(state), sort_keys=True)
        acting = game.to_act(state)
        for seat in range(players):
            legal = set(game.legal_actions(state, seat))
            for junk in JUNK:
                if junk.strip().lower() in legal:
                    continue
                with pytest.raises(IllegalAction) as refused:
                    game.apply(state, seat, junk)
                assert str(refused.value), "a refusal says why"
            if seat not in acting:
                others = [a for s in acting if s != CHANCE for a in game.legal_actions(state, s)]
                for action in others[:5]:
                    if action not in legal:
                        with pytest.raises(IllegalAction):
                            game.apply(state, seat, action)
        if acting != [CHANCE]:
            with pytest.raises(IllegalAction):
                game.apply(state, CHANCE, "1")
        assert json.dumps(game.dump(state), sort_keys=True) == before


@pytest.mark.parametrize(("game_id", "players", "options"), CONFIGS)
def test_is_legal_agrees_with_legal_actions(game_id, players, options):
    """`is_legal` answers as `legal_actions` does, for every seat, on moves that were legal
    somewhere in the game (near misses: a taken cell, another seat's move) and on junk."""
    game = REGISTRY[game_id]
    for seed in (2, 9):
        run = play(game, players, options, seed, max_steps=300, keep_states=True)
        rng = random.Random(seed)
        played = sorted({action for seat, action in run.log if seat != CHANCE})
        junk = [j.strip().lower() for j in JUNK if j.strip()]
        for state in rng.sample(run.states, min(30, len(run.states))):
            everyone = [a for s in range(players) for a in game.legal_actions(state, s)]
            candidates = set(everyone + junk + rng.sample(played, min(40, len(played))))
            for seat in [CHANCE, *range(players)]:
                legal = set(game.legal_actions(state, seat))
                for action in sorted(candidates):
                    assert game.is_legal(state, seat, action) == (action in legal), (
                        seat,
                        action,
                    )


@pytest.mark.parametrize(("game_id", "players", "options"), CONFIGS)
def test_apply_never_mutates_its_input_and_views_are_json(game_id, players, options):
    game = REGISTRY[game_id]
    run = play(game, players, options, seed=7, max_steps=200)
    state = game.setup(run.names, options)
    for seat, action in run.log:
        before = json.dumps(game.dump(state), sort_keys=True)
        for viewer in [None, *range(players)]:
            view = game.view(state, viewer)
            assert json.loads(json.dumps(view)) == view
        new, events = game.apply(state, seat, action)
        assert json.dumps(game.dump(state), sort_keys=True) == before
        for event in events:
            assert isinstance(event.text, str) and event.text
            assert event.to is None or 0 <= event.to < players
        state = new


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_bad_options_and_player_counts_are_refused(game_id):
    game = REGISTRY[game_id]
    names = [f"P{i}" for i in range(game.min_players)]
    with pytest.raises(BadOption, match="option"):
        game.setup(names, {"no_such_option": "x"})
    for option in game.options:
        with pytest.raises(BadOption, match="choose one of"):
            game.setup(names, {option: "no-such-value"})
    with pytest.raises(BadOption):
        game.setup([f"P{i}" for i in range(game.max_players + 1)], {})
    if game.min_players > 1:
        with pytest.raises(BadOption):
            game.setup(["Solo"], {})


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_every_option_value_is_played_at_every_party_size(game_id):
    """The tables played above cover each value of each option at each party size, also
    where a game names its own tables (`conformance_options`, Dark Castle's packs)."""
    game = REGISTRY[game_id]
    tables = list(configurations(game))
    for name, option in game.options.items():
        for value in option.choices:
            sizes = {players for players, options in tables if options[name] == value}
            assert sizes == set(range(game.min_players, game.max_players + 1)), (name, value)
    assert len({(p, tuple(sorted(o.items()))) for p, o in tables}) == len(tables)
