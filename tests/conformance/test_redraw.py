"""`Game.redraw` (engines/contract.py): hidden information dealt again, for every game.

For many reachable states and every seat: the redrawn state shows that seat exactly the
same view (and the same public view), keeps the game's cards and tiles, offers the seat
the same moves, depends on nothing the seat cannot see, and plays on without error.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engines import CHANCE, REGISTRY
from engines.playout import configurations, pick_chance, play

CONFIGS = [
    pytest.param(
        game_id, players, options, id=f"{game_id}-{players}p-" + "-".join(options.values())
    )
    for game_id, game in sorted(REGISTRY.items())
    for players, options in configurations(game)
]


def dumped(game, state) -> str:
    return json.dumps(game.dump(state), sort_keys=True)


def census(game, state) -> Counter:
    """Every card and tile of the state, wherever it lies: hands, piles, houses, the castle."""
    counts: Counter = Counter()

    def walk(key: str, value) -> None:
        if isinstance(value, dict):
            if key in ("deck", "discard") and all(isinstance(n, int) for n in value.values()):
                counts.update({f"card:{k}": n for k, n in value.items()})
                return
            for k, v in value.items():
                walk(k, v)
        elif isinstance(value, list):
            if key in ("hands", "rooms", "items", "pool"):
                for v in value:
                    if isinstance(v, str):
                        counts[f"card:{v}"] += 1
                    else:
                        walk(key, v)
                return
            for v in value:
                walk(key, v)
        elif key in ("kind", "colour") and isinstance(value, str):
            counts[f"{key}:{value}"] += 1

    walk("", game.dump(state))
    return counts


def sampled_states(game, players, options, seeds=range(3), per_run=14):
    for seed in seeds:
        run = play(game, players, options, seed, max_steps=400, keep_states=True)
        rng = random.Random(seed)
        yield from rng.sample(run.states, min(per_run, len(run.states)))


def play_on(game, state, rng: random.Random, steps: int = 40) -> None:
    for _ in range(steps):
        acting = game.to_act(state)
        if not acting:
            return
        if acting == [CHANCE]:
            seat, action = CHANCE, pick_chance(game.chance_outcomes(state), rng.random())
        else:
            seat = acting[int(rng.random() * len(acting))]
            legal = game.legal_actions(state, seat)
            action = legal[int(rng.random() * len(legal))]
        state, _ = game.apply(state, seat, action)


@pytest.mark.parametrize(("game_id", "players", "options"), CONFIGS)
def test_redraw_keeps_what_the_seat_sees(game_id, players, options):
    game = REGISTRY[game_id]
    changed = 0
    for n, state in enumerate(sampled_states(game, players, options)):
        before = dumped(game, state)
        acting = game.to_act(state)
        for seat in range(players):
            rng = random.Random(1000 * n + seat)
            redrawn = game.redraw(state, seat, rng)
            assert dumped(game, state) == before, "redraw never changes its input"
            assert game.view(redrawn, seat) == game.view(state, seat)
            assert game.view(redrawn, None) == game.view(state, None)
            assert census(game, redrawn) == census(game, state)
            assert game.to_act(redrawn) == acting
            assert game.chance_outcomes(redrawn) or acting != [CHANCE]
            if seat in acting:
                assert game.legal_actions(redrawn, seat) == game.legal_actions(state, seat)
            # Only the view counts: a state redrawn from a redrawn state, with the same
            # generator, is the same state (the seat's own secrets are all it keeps).
            again = game.redraw(redrawn, seat, random.Random(1000 * n + seat))
            assert dumped(game, again) == dumped(game, redrawn)
            assert game.dump(game.load(json.loads(dumped(game, redrawn)))) == game.dump(redrawn)
            changed += dumped(game, redrawn) != before
            play_on(game, redrawn, random.Random(n))
    if game_id in ("haunted_house", "castle_doors"):
        assert changed, "a game with secrets redraws something"
    else:
        assert not changed, "a game without secrets has nothing to redraw"


def test_redraw_deals_from_the_hidden_cards_only():
    """Haunted House: the seat's hand and every house stay; other hands change between draws."""
    game = REGISTRY["haunted_house"]
    run = play(game, 3, {"specials": "on"}, seed=4, max_steps=60)
    state = run.states[-1]
    hands = set()
    for k in range(20):
        redrawn = game.redraw(state, 0, random.Random(k))
        assert redrawn.hands[0] == state.hands[0]
        assert game.dump(redrawn)["houses"] == game.dump(state)["houses"]
        hands.add(tuple(redrawn.hands[1]))
    assert len(hands) > 1
