"""Dark Castle games stored by an earlier release still load and play on (issue 35, item
5): each state in fixtures/dark_castle_saved.json (every pack mix, mid-combat and in each
pending step) loads, dumps back to the same JSON, and offers the same moves as it did then,
step by step, reaching the same state."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import get_args

import pytest

from engines import CHANCE, REGISTRY
from engines.dark_castle.game import RULES
from engines.dark_castle.state import Kind
from engines.playout import pick_chance

SAVED = json.loads((Path(__file__).parent / "fixtures" / "dark_castle_saved.json").read_text())
GAME = REGISTRY["dark_castle"]
CASES = [
    pytest.param(entry, id=f"{entry['seed']}-{entry['players']}p-step{entry['step']}")
    for entry in SAVED["games"]
]


def test_the_saved_games_cover_combat_the_steps_and_every_sheet():
    states = [entry["state"] for entry in SAVED["games"]]
    kinds = {(s["pending"] or {}).get("kind") for s in states}
    assert len(kinds) >= 20 and any(s["combat"] for s in states)
    sheets = [c for s in states for c in s["chars"]]
    assert any(c["seat"] == -1 for c in sheets)  # a companion (Pack 2)
    assert any(c["curses"] for c in sheets) and any(c["plague"] for c in sheets)  # Packs 1, 3
    assert any(c["stored"] for c in sheets)  # the knapsack (Pack 3)
    assert any("flaw" in c for c in sheets) and any(c.get("flaw_used") for c in sheets)
    assert len({json.dumps(e["options"], sort_keys=True) for e in SAVED["games"]}) == len(
        GAME.conformance_options()
    )


@pytest.mark.parametrize("entry", CASES)
def test_a_saved_game_loads_dumps_the_same_and_plays_on(entry):
    stored = json.dumps(entry["state"])
    state = GAME.load(json.loads(stored))
    assert json.dumps(GAME.dump(state)) == stored
    rng = random.Random(1000 + entry["step"])
    for seat, action, offered in entry["then"]:
        acting = GAME.to_act(state)
        if acting == [CHANCE]:
            outcomes = GAME.chance_outcomes(state)
            assert [o for o, _ in outcomes] == offered
            assert (CHANCE, pick_chance(outcomes, rng.random())) == (seat, action)
        else:
            assert acting[int(rng.random() * len(acting))] == seat
            legal = GAME.legal_actions(state, seat)
            assert legal == offered
            assert legal[int(rng.random() * len(legal))] == action
        state, _ = GAME.apply(state, seat, action)
    reached = json.dumps(GAME.dump(state), sort_keys=True).encode()
    assert hashlib.sha256(reached).hexdigest() == entry["reached"]


def test_a_fight_saved_without_its_pack_keys_loads():
    """The rules read a fight's `turned`, `cultist` and `carrier` as empty or off where a save
    lacks them, and still do: such a save loads and offers the same moves (it dumps them
    back filled in)."""
    entry = next(e for e in SAVED["games"] if e["state"]["combat"] and e["then"])
    data = json.loads(json.dumps(entry["state"]))
    for key in ("turned", "cultist", "carrier"):
        del data["combat"][key]
    state = GAME.load(data)
    assert (state.combat.turned, state.combat.cultist, state.combat.carrier) == ([], False, False)
    seat, _, offered = entry["then"][0]
    if seat == CHANCE:
        assert [o for o, _ in GAME.chance_outcomes(state)] == offered
    else:
        assert GAME.legal_actions(state, seat) == offered


def test_a_sheet_saved_before_the_packs_loads():
    """A character sheet saved before the packs has no `curses`, `plague` or `stored`: the
    rules read them as none, and still do: such a save loads and offers the same moves (it
    dumps them back filled in)."""
    core = [e for e in SAVED["games"] if "on" not in e["options"].values()]
    entry = next(e for e in core if e["state"]["combat"] and e["then"])
    data = json.loads(json.dumps(entry["state"]))
    for sheet in data["chars"]:
        assert not sheet["curses"] and not sheet["plague"] and not sheet["stored"]
        del sheet["curses"], sheet["plague"], sheet["stored"]
    state = GAME.load(data)
    assert json.dumps(GAME.dump(state)) == json.dumps(entry["state"])
    seat, _, offered = entry["then"][0]
    if seat == CHANCE:
        assert [o for o, _ in GAME.chance_outcomes(state)] == offered
    else:
        assert GAME.legal_actions(state, seat) == offered


# Pending steps as the current release writes them, with the keys the saved games above do
# not show: a plague roll holding the step it interrupted (or nothing), a tainted draw, a
# party's discard of a tag, a round's regrown dice, a blood ritual with its phase records.
WRITTEN = [
    {"kind": "plague", "char": 1, "after": {"kind": "drawer", "n": 1}},
    {"kind": "plague", "char": 2, "after": None},
    {"kind": "plague", "char": 0, "after": {"kind": "between", "dropped": ["axe smith"]}},
    {"kind": "item", "n": 2, "by": 0, "tainted": True},
    {"kind": "drawer", "n": 1, "tainted": True},
    {"kind": "discard", "char": 0, "party": True, "tag": "light"},
    {"kind": "dice", "n": 2, "then": "round"},
    {"kind": "chalice", "to": 1, "gifts": {"0": 2}, "dropped": ["axe smith"], "called_off": []},
    {"kind": "between", "taken": ["rope smith"], "dropped": ["axe tailor"], "stowed": ["map"]},
]


@pytest.mark.parametrize("written", WRITTEN, ids=lambda w: w["kind"])
def test_a_pending_step_dumps_as_it_was_written(written):
    data = {**SAVED["games"][0]["state"], "pending": written}
    assert json.dumps(GAME.dump(GAME.load(json.loads(json.dumps(data))))) == json.dumps(data)


def test_every_step_kind_is_declared():
    """A pack's new kind of step is named in `state.Kind`, the saved form's list of them."""
    assert set(RULES.steps) == set(get_args(Kind))
