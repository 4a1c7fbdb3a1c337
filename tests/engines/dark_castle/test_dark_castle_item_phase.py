"""Dark Castle's item phase cannot go on for ever: the rule that an item put down stays
down for its dropper (our decision, rules text ITEMS, rules version 5), the AI never undoing
a move of the phase, and the two crashes found while a bot party played whole castles."""

from __future__ import annotations

import random

import pytest

from engines import CHANCE, IllegalAction
from engines.ai import decide
from engines.ai.search import sample
from engines.dark_castle import ai, death_dice, phase
from engines.dark_castle.state import Pending
from tests.engines.dark_castle.test_dark_castle_helpers import (
    G,
    act,
    chance,
    char,
    combat,
    edit,
    room_with,
    set_char,
    started,
)


# ----- the rule ----------------------------------------------------------------------------
def test_an_item_put_down_cannot_be_taken_back_by_its_dropper_in_that_phase():
    """Our decision (the rulebook's "Trading Items" is silent on taking an item back): a
    prisoner who puts an item down cannot take it back until the next chapter; another
    prisoner may take it, so trading still works."""
    s = set_char(started(), "smith", items=["salve"])
    s = act(s, "drop salve", 0)
    assert "take salve smith" not in G.legal_actions(s, 0)
    with pytest.raises(IllegalAction) as refused:
        G.apply(s, 0, "take salve smith")
    assert "cannot take it back" in str(refused.value.msg)
    assert "take salve tailor" in G.legal_actions(s, 1)  # a trade still goes through
    s = act(s, "take salve tailor", 1)
    assert char(s, "tailor").items == ["salve"]
    s = act(s, "drop salve", 1)  # and the tailor may put it down in turn
    assert not [a for a in G.legal_actions(s, 0) if a.startswith("take salve")]


def test_the_rule_ends_with_the_phase(monkeypatch):
    s = room_with({}, monkeypatch, {"do": "draw", "n": 1}, smith={"items": ["axe"]})
    s = chance(s, "salve")
    assert s.pending.kind == "share"
    s = act(s, "drop axe", 0)
    assert "take axe smith" not in G.legal_actions(s, 0)  # the share phase keeps it too
    s = act(s, "take salve smith", 0)
    s = act(s, "done")
    assert s.pending == Pending("between")  # a new phase: nothing remembered
    s = act(s, "drop salve", 0)
    assert "take salve tailor" in G.legal_actions(s, 1)


def test_a_ritual_called_off_keeps_the_phase_record():
    s = set_char(started(options={"undead": "on"}), "smith", items=["chalice", "axe"], hp=5)
    s = act(s, "drop axe", 0)
    s = act(act(s, "rite smith"), "stop")
    assert s.pending.kind == "between" and "take axe smith" not in G.legal_actions(s, 0)


def take_drop_only(legal: list[str], rng: random.Random) -> str | None:
    """The most stubborn trader: never ends the phase while any take or drop is left."""
    moves = [a for a in legal if a.split()[0] in ("take", "drop")]
    return moves[int(rng.random() * len(moves))] if moves else None


@pytest.mark.parametrize("seed", range(6))
def test_a_party_that_only_takes_and_drops_runs_out_of_moves(seed):
    """Without the rule, take and drop alone could go on for ever; with it, every item
    changes hands at most once per prisoner in a phase."""
    s = started(("smith", "tailor", "abbot"))
    s = set_char(s, "smith", items=["salve", "axe"])
    s = set_char(s, "tailor", items=["rope"])
    s = edit(s, pool=["bell", "lantern"])
    rng = random.Random(seed)
    for step in range(200):
        seat = step % 3
        move = take_drop_only(G.legal_actions(s, seat), rng)
        if move is None:
            break
        s, _ = G.apply(s, seat, move)
    else:
        pytest.fail("the take/drop moves never ran out")
    assert s.pending.kind == "between"
    assert step <= 5 * 3 * 2  # five items, three prisoners, a take and a drop each


# ----- the AI never undoes a move of the phase ---------------------------------------------
def test_the_ai_leaves_out_a_drop_of_what_was_just_taken_and_a_knapsack_undo():
    s = started(options={"plague": "on"})
    s = set_char(s, "smith", items=["knapsack"])
    s = edit(s, pool=["salve"])
    s = act(s, "take salve smith", 0)
    legal = G.legal_actions(s, 0)
    assert "drop salve" in legal and "drop salve" not in ai.useful(G, s, 0, legal)
    s = act(s, "stow salve", 0)
    legal = G.legal_actions(s, 0)
    assert "unstow salve" in legal and "unstow salve" not in ai.useful(G, s, 0, legal)
    assert "turn smith" in ai.useful(G, s, 0, legal)


@pytest.mark.parametrize("seed", range(4))
def test_bots_in_an_item_phase_move_on(seed):
    """A phase with items to trade: the bots' choices end it, never returning the party to a
    position it had in the phase."""
    s = started(("smith", "tailor"))
    s = set_char(s, "smith", items=["salve", "axe"])
    s = edit(s, pool=["bell", "rope", "lantern"])
    seen = []
    for _ in range(40):
        if s.pending.kind != "between":
            break
        position = (sorted(s.pool), [sorted(c.items) for c in s.chars])
        assert position not in seen
        seen.append(position)
        seat = G.to_act(s)[0]
        s, _ = G.apply(s, seat, decide(G.id, G.dump(s), seat, "normal", seed, 0.02).action)
    assert s.pending.kind != "between"


# ----- whole castles -----------------------------------------------------------------------
PARTY_TABLES = [
    {},
    {"cult": "on", "castle": "pack"},
    {"plague": "on", "castle": "pack"},
    {"undead": "on", "castle": "pack"},
    {"collector": "on", "castle": "pack"},
    {"cult": "on", "plague": "on", "undead": "on", "collector": "on"},
]


@pytest.mark.parametrize("size", [1, 2, 3, 4])
@pytest.mark.parametrize("options", PARTY_TABLES, ids=lambda o: "-".join(o) or "core")
def test_a_party_of_bots_finishes_a_castle(options, size):
    """Every seat played by the AI (tiny budget): the castle ends in an escape or a death,
    well within the issue's bound of 2,000 steps."""
    rng = random.Random(size)
    s = G.setup([f"P{i}" for i in range(size)], options)
    for _ in range(2000):
        acting = G.to_act(s)
        if not acting:
            break
        if acting == [CHANCE]:
            s, _ = G.apply(s, CHANCE, sample(G.chance_outcomes(s), rng))
            continue
        seat = acting[0]
        decision = decide(G.id, G.dump(s), seat, "normal", int(rng.random() * 2**31), 0.01)
        s, _ = G.apply(s, seat, decision.action)
    else:
        pytest.fail(f"no end after 2,000 steps: {s.pending}")
    assert s.outcome in ("won", "lost")


# ----- crashes found on the way ------------------------------------------------------------
def test_a_bone_bolt_strikes_a_death_face_when_no_trait_is_left(monkeypatch):
    """Our spell text: "two dice of the row are struck away (the most common trait first)":
    a row of shields and splits loses those instead of crashing."""
    s = room_with({"undead": "on"}, monkeypatch, combat("m", 2), smith={"items": ["spellbook"]})
    s = act(s, "fight")
    s = edit(s, combat={**s.combat.to_json(), "row": ["mc", death_dice.SHIELD, death_dice.SHIELD]})
    s = chance(act(s, "cast bolt"), "success")
    assert s.combat.row == [
        death_dice.SHIELD
    ]  # a shield (most common), then the split (tie: row order)


def test_the_knapsack_works_in_either_hand():
    """Pack 3, Knapsack: its owner stows items whatever order the hands hold them in."""
    s = set_char(started(options={"plague": "on"}), "smith", items=["salve", "knapsack"])
    assert "stow salve" in G.legal_actions(s, 0)


def test_the_phase_record_is_kept_in_the_saved_state():
    s = set_char(started(), "smith", items=["salve"])
    s = G.load(G.dump(act(s, "drop salve", 0)))
    assert phase.noted(s, phase.DROPPED, "salve", "smith")
