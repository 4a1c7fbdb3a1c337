"""`engines.contract.plain`, which three games dump their state with, gives what
dataclasses.asdict gave, as a copy: seeded playouts of each, states along the way. Those
games say so (`dump_is_a_copy`), and their `copy` loads the dump as it is; every game's
copy shares nothing with its state."""

from __future__ import annotations

import dataclasses

import pytest

from engines import REGISTRY
from engines.contract import plain
from engines.playout import play

GAMES = ["ghosts18", "haunted_house", "hidden_castle"]


def test_the_games_that_dump_a_copy_say_so() -> None:
    flagged = sorted(g for g, game in REGISTRY.items() if game.dump_is_a_copy)
    assert flagged == sorted([*GAMES, "dark_castle"])  # Dark Castle: plain(saved(state))


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_dump_is_asdict_and_a_copy(game_id: str, seed: int) -> None:
    game = REGISTRY[game_id]
    players = 3 if game.max_players > 2 else 2
    run = play(game, players, {}, seed=seed, max_steps=120, keep_states=True)
    for state in run.states[::7]:
        dumped = game.dump(state)
        assert dumped == dataclasses.asdict(state)
        assert game.dump(game.load(dumped)) == dumped
        before = dataclasses.asdict(state)
        _scribble(dumped)
        assert dataclasses.asdict(state) == before  # the dump shares nothing with the state


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_copy_shares_nothing_with_its_state(game_id: str) -> None:
    game = REGISTRY[game_id]
    players = max(game.min_players, 3 if game.max_players > 2 else game.max_players)
    run = play(game, players, {}, seed=4, max_steps=120, keep_states=True)
    for state in run.states[::9]:
        before = game.dump(state)
        copied = game.copy(state)
        assert game.dump(copied) == before
        _scribble(copied)
        assert game.dump(state) == before


def test_what_is_not_json_is_refused() -> None:
    with pytest.raises(TypeError, match="set is not a JSON value"):
        plain({"seen": {1, 2}})


def _scribble(value) -> None:
    """Change every list and dict in a dumped tree, or inside a state, in place."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            _scribble(getattr(value, field.name))
    elif isinstance(value, dict):
        for key in list(value):
            _scribble(value[key])
        value["scribbled"] = True
    elif isinstance(value, list):
        for item in value:
            _scribble(item)
        value.append("scribbled")
