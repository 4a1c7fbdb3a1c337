"""Properties over every registered game, found by hypothesis rather than by our own seeds:
any text a chat user can type, at any reachable moment, is either a listed legal action or
refused with IllegalAction, and never changes the state or raises anything else.

Derandomized, so a run is as repeatable as the rest of the suite.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import CHANCE, REGISTRY, IllegalAction
from engines.playout import configurations, play

SETTINGS = settings(
    max_examples=40,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
# What a user may type: mostly short words of the games' own vocabulary, sometimes anything.
WORDS = st.sampled_from(
    [
        "place",
        "move",
        "play",
        "pass",
        "roll",
        "jump",
        "turn",
        "open",
        "close",
        "key",
        "skeleton",
        "padlock",
        "hacksaw",
        "net",
        "ghost",
        "cat",
        "light",
        "room",
        "discard",
        "draw",
        "fight",
        "rest",
        "block",
        "use",
        "trade",
        "take",
        "drop",
        "guest",
        "0",
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "a1",
        "b2",
        "c3",
        "e5",
        "up",
        "down",
        "left",
        "right",
        "phantom",
        "yes",
        "no",
        "all",
    ]
)
TYPED = st.one_of(
    st.lists(WORDS, min_size=1, max_size=4).map(" ".join),
    st.text(max_size=40),
)


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
@SETTINGS
@given(data=st.data(), typed=TYPED)
def test_anything_typed_is_legal_or_refused_without_change(game_id, data, typed):
    game = REGISTRY[game_id]
    players, options = data.draw(st.sampled_from(list(configurations(game))), label="table")
    seed = data.draw(st.integers(0, 10_000), label="seed")
    steps = data.draw(st.integers(0, 150), label="steps")
    state = play(game, players, options, seed, max_steps=steps).states[-1]
    listed = sorted(
        {a for s in game.to_act(state) if s != CHANCE for a in game.legal_actions(state, s)}
    )
    if listed and data.draw(st.booleans(), label="use a listed action"):
        typed = data.draw(st.sampled_from(listed), label="listed")  # right words, maybe wrong seat
    before = json.dumps(game.dump(state), sort_keys=True)
    for seat in [CHANCE, *range(players)]:
        if seat == CHANCE:
            allowed = (
                {o for o, _ in game.chance_outcomes(state)}
                if game.to_act(state) == [CHANCE]
                else set()
            )
        else:
            allowed = set(game.legal_actions(state, seat))
        if typed in allowed:
            game.apply(state, seat, typed)  # a listed action is accepted
        else:
            with pytest.raises(IllegalAction):
                game.apply(state, seat, typed)
        assert json.dumps(game.dump(state), sort_keys=True) == before
