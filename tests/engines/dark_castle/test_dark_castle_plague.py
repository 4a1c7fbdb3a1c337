"""Adventure Pack 3, Blight of the Plague Lord (rulebook: "Adventure Pack 3"): the plague die and
thresholds, carriers, plague cards, the split-double prisoners and the knapsack."""

from __future__ import annotations

from engines import CHANCE
from engines.dark_castle import cards
from engines.dark_castle.state import Pending
from tests.engines.dark_castle.test_dark_castle_helpers import (
    G,
    act,
    chance,
    char,
    combat,
    room_with,
    set_char,
    started,
)

PLAGUE = {"plague": "on"}


def plague_room(monkeypatch, *steps, **kwargs):
    return room_with(PLAGUE, monkeypatch, *steps, **kwargs)


def test_the_pack_holds_15_chapters_its_boss_4_plague_cards_and_4_items():
    """Pack 3, Setting Up: "Take the 15 chapter cards ... The Plague Lord boss card ... the 4
    plague cards and 4 new item cards"."""
    chapters = cards.in_sets(cards.CHAPTERS, ["plague"])
    assert sorted(cards.CHAPTERS[c]["n"] for c in chapters) == list(range(1, 16))
    assert cards.in_sets(cards.BOSSES, ["plague"]) == ["b_plaguelord"]
    pack = cards.in_sets(cards.ITEMS, ["plague"])
    assert len([i for i in pack if cards.is_plague_card(i)]) == 4
    assert len([i for i in pack if not cards.is_plague_card(i)]) == 4 and "knapsack" in pack
    assert cards.combat_steps(cards.BOSSES["b_plaguelord"])[0]["carrier"]  # a carrier boss


def test_rolling_for_plague_uses_the_plague_die_and_thresholds_cost_hp_at_once(monkeypatch):
    """Pack 3, Roll for Plague: "roll the PLAGUE die once and gain that amount"; Plague
    Thresholds: "Each time a player reaches a new PLAGUE threshold, they immediately lose the
    amount of HP shown" (ours: 3, 6, 9 cost 1, 2, 3)."""
    s = plague_room(monkeypatch, {"do": "plague", "who": "all"}, tailor={"plague": 2})
    assert G.to_act(s) == [CHANCE]
    assert dict(G.chance_outcomes(s)) == {"0": 2 / 6, "1": 2 / 6, "2": 1 / 6, "3": 1 / 6}
    s = chance(s, "3")  # the Smith: 0 -> 3, threshold 3
    assert char(s, "smith").plague == 3 and char(s, "smith").hp == 17
    s = chance(s, "3")  # the Tailor: 2 -> 5, past 3 (not yet 6)
    assert char(s, "tailor").plague == 5 and char(s, "tailor").hp == 17
    assert s.pending == Pending("between")
    s = set_char(s, "tailor", plague=5)
    view = G.view(s, None)["chars"][1]
    assert view["plague"] == 5 and view["next_threshold"] == [6, 2]


def test_two_thresholds_at_once_cost_both(monkeypatch):
    s = plague_room(monkeypatch, {"do": "plague", "who": "you", "n": 6})
    assert char(s, "smith").plague == 6 and char(s, "smith").hp == 15


def test_a_carrier_passes_plague_with_each_hit_taken_not_blocked_or_rested(monkeypatch):
    """Pack 3, Combat against a Carrier: "a player gains one PLAGUE each time they take damage
    from the carrier (regardless of the amount of damage taken) ... If a player rests or
    blocks ... they do not gain any PLAGUE from that carrier"."""
    step = dict(combat("mmm", 2, 0, {"k": "pierce", "n": 1}), carrier=True)
    s = plague_room(monkeypatch, step, picks=("smith", "tailor", "abbot"))
    s = act(s, "rest abbot")
    s = act(chance(s, "mm", "c"), "hit smith")  # the Smith blocks (pierced), the Tailor is hit
    assert char(s, "tailor").plague == 1 and char(s, "tailor").hp == 12
    assert char(s, "smith").plague == 0 and char(s, "smith").hp == 13
    assert char(s, "abbot").plague == 0


def test_plague_hp_loss_is_immediate_even_mid_combat(monkeypatch):
    """Pack 3: "any HP lost to PLAGUE takes place immediately - even mid-combat"."""
    step = dict(combat("mmm", 1), carrier=True)
    s = plague_room(monkeypatch, step, smith={"plague": 2}, tailor={"hp": 1})
    s = act(s, "rest tailor")
    s = chance(s, "c")
    assert char(s, "smith").plague == 3 and char(s, "smith").hp == 16  # 1 hit + 1 plague


def test_the_beaked_mask_keeps_carriers_off(monkeypatch):
    step = dict(combat("mmm", 1), carrier=True)
    s = plague_room(monkeypatch, step, tailor={"items": ["beakmask"]})
    s = act(s, "fight")
    s = act(chance(s, "c", "c"), "hit smith")
    assert char(s, "smith").plague == 1 and char(s, "tailor").plague == 0


def test_taking_a_carriers_loot_makes_a_clean_prisoner_roll(monkeypatch):
    """Pack 3, Taking items from Carriers: "If a player is free of PLAGUE and chooses to take
    an item from a carrier (... an item card drawn after surviving combat against a carrier
    ...) they must roll for PLAGUE. If a player is already infected ... does not affect them"."""
    step = dict(combat("m", 1), carrier=True)
    s = plague_room(monkeypatch, step, tailor={"plague": 1})
    s = act(s, "fight")
    s = act(chance(s, "m", "w"), "hit smith")  # the Smith's hit ends it
    s = act(s, "draw smith")
    s = chance(s, "salve")
    s = chance(act(s, "draw smith"), "bell") if s.pending.kind == "drawer" else s
    assert s.pool == ["salve"] and s.tainted == ["salve"]
    s = act(s, "take salve tailor")  # infected already: no roll
    assert s.pending.kind == "share"
    s = act(s, "drop salve", 1)  # from a carrier (the Tailor) to a clean prisoner
    s = act(s, "take salve smith")
    p = s.pending
    assert (p.kind, p.char, p.after.kind) == ("plague", 0, "share")
    s = chance(s, "1")
    assert char(s, "smith").plague == 1 and s.pending.kind == "share"


def test_a_plague_card_hits_whoever_drew_it(monkeypatch):
    """Pack 3, Drawing Item Cards: "If a plague card is drawn, apply its affect to the player
    who drew it"."""
    s = plague_room(monkeypatch, {"do": "draw", "n": 2})
    s = chance(act(s, "draw tailor"), "fester")  # roll for plague and lose 1 HP
    assert char(s, "tailor").hp == 17
    assert G.dump(s)["pending"] == {
        "kind": "plague",
        "char": 1,
        "after": {"kind": "drawer", "n": 1},
    }
    s = chance(s, "2")
    assert char(s, "tailor").plague == 2 and s.pending == Pending("drawer", n=1)
    s = chance(act(s, "draw smith"), "foulair")
    assert char(s, "smith").plague == 1 and s.pool == []


def test_the_split_double_prisoners(monkeypatch):
    """Pack 3, New Characters: "this result still counts as a DOUBLES and both traits should
    be applied"; "If a game effect causes DOUBLES to count as SINGLES, you may choose which of
    the two single traits to apply"."""
    assert {"ratcatcher", "herbalist", "gravedigger"} <= {
        a.split()[1] for a in G.legal_actions(G.setup(["A"], PLAGUE), 0)
    }
    assert "pick ratcatcher" not in G.legal_actions(G.setup(["A"], {}), 0)
    s = plague_room(monkeypatch, combat("mcw", 2), picks=("ratcatcher", "tailor"), who="ratcatcher")
    s = act(s, "fight")
    s = act(chance(s, "mc", "w"), "hit ratcatcher")
    assert s.combat is None  # Might and Cunning both hit, the Tailor's Wisdom the last
    s = plague_room(
        monkeypatch,
        combat("mcw", 2, 0, {"k": "doubles_single"}),
        picks=("ratcatcher", "tailor"),
        who="ratcatcher",
    )
    s = act(s, "fight")
    s = chance(s, "mc", "m")
    assert {"hit ratcatcher m", "hit ratcatcher c"} <= set(G.legal_actions(s, 0))
    s = act(s, "hit ratcatcher c")
    assert s.combat.row == ["w"] and 0 in s.combat.blocked  # it still blocks


def test_the_knapsack_stores_two_more_items_between_chapters(monkeypatch):
    """Pack 3, Knapsack: "The knapsack itself does not count towards this limit ... a player
    may store two additional items"; "Items stored in the knapsack cannot be accessed or used
    in any way during the events of a chapter"; rearranged "At the end of each chapter"."""
    s = started(options=PLAGUE)
    s = set_char(s, "smith", items=["knapsack", "salve", "axe"], hp=10)
    legal = set(G.legal_actions(s, 0))
    assert {"stow salve", "stow axe"} <= legal and "stow knapsack" not in legal
    s = act(s, "stow salve", 0)
    s = act(s, "stow axe", 0)
    assert char(s, "smith").stored == ["salve", "axe"]
    assert "use salve" not in G.legal_actions(s, 0)  # stored: not at the ready
    assert {"unstow salve", "unstow axe"} <= set(G.legal_actions(s, 0))
    assert G.view(s, None)["chars"][0]["stored"][0]["name"] == "Bone Salve"
    s = set_char(s, "smith", items=["knapsack", "warhammer"])
    assert not [a for a in G.legal_actions(s, 0) if a.startswith("unstow")]  # hands full
    s = act(s, "drop knapsack", 0)
    assert set(s.pool) == {"knapsack", "salve", "axe"} and char(s, "smith").stored == []


def test_the_knapsack_cannot_be_rearranged_during_a_chapter(monkeypatch):
    s = plague_room(
        monkeypatch,
        {"do": "draw", "n": 1},
        smith={"items": ["knapsack", "salve"], "stored": ["axe"], "hp": 10},
    )
    s = chance(act(s, "draw smith"), "bell")
    assert s.pending == Pending("share")
    assert not [a for a in G.legal_actions(s, 0) if "stow" in a]


def test_curing_lowers_plague(monkeypatch):
    s = plague_room(monkeypatch, {"do": "cure", "who": "all", "n": 2}, smith={"plague": 3})
    assert char(s, "smith").plague == 1 and char(s, "tailor").plague == 0
    s = set_char(s, "tailor", items=["vinegar"], plague=4)
    s = act(s, "use vinegar", 1)
    assert char(s, "tailor").plague == 2
