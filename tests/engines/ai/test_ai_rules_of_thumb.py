"""The rules of thumb a game's AI plays by (engines/<game>/ai.py): seeded positions, the move
a good player makes there, and that the rule picks it. Strength itself is measured by
bench/ai.py (docs/measurements.md), not here."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

from engines.ai import LEVELS, choose
from engines.ai.search import tuned
from engines.castle_doors import ai as doors_ai
from engines.castle_doors import board as B
from engines.castle_doors.castle import passable
from engines.hidden_castle import ai as castle_ai
from tests.engines.castle_doors.test_castle_doors_helpers import GAME as DOORS
from tests.engines.castle_doors.test_castle_doors_helpers import castle, tile
from tests.engines.hidden_castle.test_hidden_castle_rules import G as HIDDEN
from tests.engines.hidden_castle.test_hidden_castle_rules import position, roll

TINY = replace(LEVELS["normal"], iterations=12, seconds=60.0, depth=3)


class Steady:
    """A generator that never asks the policy for one of its random moves."""

    def random(self) -> float:
        return 0.5


# ----- Escape from the Hidden Castle ------------------------------------------------------
def test_hidden_castle_hard_places_each_guest_where_the_phantom_needs_longest_to_reach_it():
    """The Phantom climbs out at the exit (space 1) and walks on from there, so the space
    just behind the exit (28) is the last it reaches, then 27, and so on. Hard places there
    at once, by rule (its search cannot see that far); normal still searches."""
    s = HIDDEN.setup(["Ann", "Bob", "Cat"], {})
    hard = replace(LEVELS["hard"], iterations=12)
    first = choose(HIDDEN, s, 0, hard, random.Random(1))
    assert (first.action, first.iterations) == ("place 28", 0)
    s, _ = HIDDEN.apply(s, 0, "place 28")
    s, _ = HIDDEN.apply(s, 1, "place 27")
    assert choose(HIDDEN, s, 2, hard, random.Random(1)).action == "place 26"
    assert choose(HIDDEN, s, 2, TINY, random.Random(1)).iterations > 0


def test_hidden_castle_rollout_places_as_hard_does_and_keeps_to_the_free_spaces():
    s = HIDDEN.setup(["Ann", "Bob", "Cat"], {})
    s, _ = HIDDEN.apply(s, 0, "place 28")
    legal = HIDDEN.legal_actions(s, 1)
    assert castle_ai.rollout(HIDDEN, s, 1, legal, Steady()) == "place 27"


def test_hidden_castle_rollout_moves_the_guest_that_ends_furthest_from_the_phantom():
    """Both guests are out of the Phantom's reach (it stands on 5, three spaces a roll):
    guest A on 22 is 17 spaces ahead of it, guest B on 12 only 7. With a 1 a good player
    moves A (18 ahead) and leaves B where it is, rather than walk B on to 8 ahead; no
    chamber is in reach of either."""
    s = position(3, {"a": ("gallery", 22), "b": ("gallery", 12)}, phantom=5)
    s, _ = roll(s, "1")
    legal = HIDDEN.legal_actions(s, 0)
    assert sorted(legal) == ["move a", "move b"]
    for seed in range(5):
        assert castle_ai.rollout(HIDDEN, s, 0, legal, random.Random(seed)) == "move a"


def test_hidden_castle_rollout_still_runs_from_the_phantom_first():
    """Guest B stands two spaces ahead of the Phantom (within its three): with a 5 it hides
    in chamber 11 (the roll fits exactly), before A, far ahead, takes its step."""
    s = position(3, {"a": ("gallery", 22), "b": ("gallery", 7)}, phantom=5)
    s, _ = roll(s, "5")
    legal = HIDDEN.legal_actions(s, 0)
    assert "hide b 11" in legal
    assert castle_ai.rollout(HIDDEN, s, 0, legal, Steady()) == "hide b 11"


# ----- Castle Doors -----------------------------------------------------------------------
BOB = ["key red", "key yellow", "skeleton"]


def hinder_position():
    """Ann (bottom) on b3, the open door b4 ahead of her; Bob (top, walking down) on c5,
    the open door c4 ahead of him, and not yet one step from his far row (row 1)."""
    colour_c4 = "blue"  # the helper colours by (column + row) % 4: c4 is (2 + 3) % 4
    s = castle(2, hands=[[f"key {colour_c4}", "hacksaw", "passage"], BOB])
    s.at = ["b3", "c5"]
    for cell in ("b3", "b4", "c5", "c4"):
        tile(s, cell)
    assert s.tiles["c4"]["colour"] == colour_c4
    return s


def test_castle_doors_rollout_shuts_the_door_just_ahead_of_the_opponent():
    """Nothing to stop and nothing to open on her own way: Ann spends her blue key on
    closing c4, the door Bob would step onto next, rather than throwing a card away."""
    s = hinder_position()
    legal = DOORS.legal_actions(s, 0)
    assert "play key blue" in legal
    assert doors_ai.rollout(DOORS, s, 0, legal, Steady()) == "play key blue"
    s, _ = DOORS.apply(s, 0, "play key blue")
    legal = DOORS.legal_actions(s, 0)
    assert doors_ai.rollout(DOORS, s, 0, legal, Steady()) == "target c4"


def test_castle_doors_rollout_steps_aside_onto_the_open_lane():
    """Ann on b3 faces the closed b4; c3 beside her opens a lane of open doors up to her
    far row (c4 to c8). A good player steps right onto it, not waits for a key."""
    s = castle(2, at=["b3", "e8"], phase="move")
    for cell in ("b3", "c3", "c4", "c5", "c6", "c7", "c8", "e8"):
        tile(s, cell)
    legal = DOORS.legal_actions(s, 0)
    assert "move up" not in legal and "move right" in legal
    for seed in range(5):
        assert doors_ai.rollout(DOORS, s, 0, legal, Steady()) == "move right", seed


def test_a_hint_made_by_the_placement_rule_says_the_rule_not_the_only_move():
    """Tried at a keyboard: the placement hint said "It is the only move worth making" with
    28 spaces free. A move made by rule names its rule instead."""
    import pickle  # (the advice comes back from a worker process)

    from bot.service.learning.hints import reason
    from engines.ai import advise
    from languages import say

    s = HIDDEN.setup(["Ann", "Bob", "Cat"], {})
    advice = pickle.loads(pickle.dumps(advise(HIDDEN.id, HIDDEN.dump(s), 0, "hard", 1, 0.01)))
    said = say(reason(HIDDEN, s, advice), "en")
    assert said.startswith("Hint: ") and "space 28" in said
    assert "the Phantom needs longest to reach" in said
    assert "only move" not in said
    assert "Phantom" in say(reason(HIDDEN, s, advice), "de")


def _ways_by_names(s, seat: int) -> dict[str, float]:
    """The same costs as the AI's shortest ways, relaxed cell by name until nothing changes
    (a different method: every step and every open passage looked at again each round)."""
    g = doors_ai.grid(s.width, s.height)
    costs = dict(zip(g.cells, doors_ai.costs(s, g), strict=True))
    far = B.far_row(s.edges[seat], s.width, s.height)
    best = {c: (0.0 if c in far else math.inf) for c in costs}
    ways = [(a, b) for a in costs for d in B.STEPS if (b := B.step(a, d, s.width, s.height))]
    ways += [
        way for a, b in s.passages if passable(s, a) and passable(s, b) for way in ((a, b), (b, a))
    ]
    changed = True
    while changed:
        changed = False
        for here, onto in ways:  # from `here`, step onto `onto`, then go on from there
            if best[onto] + costs[onto] < best[here]:
                best[here] = best[onto] + costs[onto]
                changed = True
    return best


@pytest.mark.parametrize("players", [2, 3, 4])
def test_castle_doors_shortest_ways_agree_with_a_plain_relaxation(players):
    """The AI works out the ways to the far row on numbered cells, for speed; over seeded
    castles of every size, with doors open, shut, barred, padlocked and crossed by passages,
    every cell's cost is what a plain relaxation by cell names gives."""
    rng = random.Random(players)
    for _ in range(30):
        s = castle(players)
        for cell, t in s.tiles.items():
            roll = rng.random()
            if roll < 0.5:
                tile(s, cell, rng.choice(["open door", "extra key", "barred door"]))
            elif roll < 0.6:
                tile(s, cell, lock=True)
            t["sawn"] = t["kind"] == "barred door" and rng.random() < 0.5
        cells = sorted(s.tiles)
        s.passages = [
            [a, b] for a in rng.sample(cells, 4) if (b := B.step(a, "up-right", s.width, s.height))
        ]
        s.at = [rng.choice([None, *cells]) for _ in range(players)]
        for seat in range(players):
            field = doors_ai.to_far_row(s, seat)
            expected = _ways_by_names(s, seat)
            got = {c: field[i] for i, c in enumerate(doors_ai.grid(s.width, s.height).cells)}
            assert got == pytest.approx(expected), seat


def _manhattan(a: str, b: str) -> int:
    (ax, ay), (bx, by) = B.xy(a), B.xy(b)
    return abs(ax - bx) + abs(ay - by)


def padlock_position():
    """Ann (bottom) on b3 holds a padlock, Bob (top) on d6: the padlock may go on any door
    nobody stands on, some forty of them."""
    s = castle(2, hands=[["padlock", "key green", "passage"], BOB])
    s.at = ["b3", "d6"]
    for cell in ("b3", "d6"):
        tile(s, cell)
    s, _ = DOORS.apply(s, 0, "play padlock")
    return s


def test_castle_doors_focus_keeps_the_targets_within_two_steps_of_a_character():
    s = padlock_position()
    legal = DOORS.legal_actions(s, 0)
    kept = doors_ai.focus(DOORS, s, 0, legal)
    targets = [a for a in legal if a.startswith("target ")]
    far = {
        a
        for a in targets
        if min(_manhattan(a.removeprefix("target "), c) for c in s.at) > doors_ai.REACH
    }
    assert len(targets) > 30 and far
    assert set(kept) == set(legal) - far
    assert "target b5" in kept and "target e1" not in kept


def test_castle_doors_focus_counts_the_first_row_for_a_character_still_outside():
    """Bob outside at the top edge: his first row (row 8) and the two rows below it count."""
    s = padlock_position()
    s.at = ["b3", None]
    kept = doors_ai.focus(DOORS, s, 0, DOORS.legal_actions(s, 0))
    assert {"target a8", "target e8", "target c6"} <= set(kept)
    assert "target c5" not in kept


def test_castle_doors_focus_leaves_a_net_and_every_other_step_alone():
    s = castle(2, hands=[["net", "key green", "passage"], BOB], at=["a1", "e8"])
    for phase_actions in ((), ("play net",)):
        state = s
        for action in phase_actions:
            state, _ = DOORS.apply(state, 0, action)
        legal = DOORS.legal_actions(state, 0)
        assert doors_ai.focus(DOORS, state, 0, legal) == legal


def test_only_castle_doors_hard_searches_with_focus():
    assert tuned(LEVELS["hard"], doors_ai).focused
    assert not tuned(LEVELS["normal"], doors_ai).focused
    assert not tuned(LEVELS["easy"], doors_ai).focused


@pytest.mark.parametrize("focused", [True, False])
def test_a_focused_search_plays_only_what_the_game_keeps(focused):
    """Twelve iterations over some forty padlock targets: a focused search picks among the
    near ones every time; unfocused, the same seeds pick far ones too."""
    s = padlock_position()
    kept = set(doors_ai.focus(DOORS, s, 0, DOORS.legal_actions(s, 0)))
    level = replace(TINY, focused=focused)
    chosen = {choose(DOORS, s, 0, level, random.Random(seed)).action for seed in range(8)}
    assert (chosen <= kept) == focused, chosen


def test_a_focused_search_still_weighs_the_moves_a_hint_names():
    """A hint's second search names the moves that stop a threat (`among`): they are
    searched even where focus would leave them out."""
    s = padlock_position()
    named = {"target e1", "target a8"}
    assert not named & set(doors_ai.focus(DOORS, s, 0, DOORS.legal_actions(s, 0)))
    level = replace(TINY, focused=True)
    for seed in range(4):
        assert choose(DOORS, s, 0, level, random.Random(seed), among=named).action in named
