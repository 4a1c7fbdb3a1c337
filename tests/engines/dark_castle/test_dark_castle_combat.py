"""Dark Castle combat: rows, rounds, resting, doubles, blocking, defeat, items, specials."""

from __future__ import annotations

import pytest

from engines import CHANCE, IllegalAction
from engines.dark_castle.combat import LONG_FIGHT
from engines.dark_castle.state import Pending
from tests.engines.dark_castle.test_dark_castle_helpers import (
    G,
    act,
    add_card,
    chance,
    char,
    combat,
    open_card,
    set_char,
    started,
)


def fight(monkeypatch, step, picks=("smith", "tailor"), players=None, who="smith", items=None):
    add_card(monkeypatch, step)
    s = started(picks, players=players)
    for name, held in (items or {}).items():
        s = set_char(s, name, items=held)
    return open_card(s, "t_room", who=who)


def test_row_is_printed_symbols_plus_one_chapter_die_per_player(monkeypatch):
    """Rulebook, Combat: "roll a chapter die for each player in the game and place those dice
    beneath the chapter card in addition to any others shown"."""
    s = fight(monkeypatch, combat("m", 2, 1), picks=("smith", "tailor", "abbot"))
    assert s.pending == Pending("dice", n=3)
    outcomes = dict(G.chance_outcomes(s))
    assert abs(outcomes["mmm"] - 1 / 27) < 1e-12 and abs(outcomes["mcw"] - 6 / 27) < 1e-12
    s = chance(s, "ccw")
    assert s.combat.row == ["m", "c", "c", "w"]


def test_solo_rolls_one_chapter_die_per_character(monkeypatch):
    """Rulebook, Solo Play: "anything 'per player', in a solo game this should be read as
    'per character'"."""
    s = fight(monkeypatch, combat("m", 2, 1), players=1)
    assert s.pending == Pending("dice", n=2)


def test_doubles_hit_twice_and_block_and_the_enemy_strikes_back(monkeypatch):
    """Rulebook: "doubles count as two hits of the trait shown, so two dice may be removed"
    and "Every character who did not block takes damage ... Characters who rolled a DOUBLE
    have BLOCKED"."""
    s = fight(monkeypatch, combat("mmw", 3))
    s = act(s, "fight")
    s = chance(s, "mm", "m")  # the Smith rolls a Might double, the Tailor a single Might
    assert sorted(G.legal_actions(s, 0)) == ["hit smith", "hit tailor"]
    s = act(s, "hit smith")
    assert s.combat is not None and s.combat.row == ["w"]
    # The Tailor's Might finds no die left; the last attack resolved itself.
    assert char(s, "smith").hp == 18 and char(s, "tailor").hp == 15
    assert s.pending == Pending("rest") and s.combat.round == 2


def test_attacks_resolve_one_at_a_time_in_the_chosen_order(monkeypatch):
    """Rulebook: "in any order the players choose, resolve these attacks one at a time"."""
    s = fight(monkeypatch, combat("mww", 2))
    s = act(s, "fight")
    s = chance(s, "m", "w")
    s, events = G.apply(s, 1, "hit tailor")
    texts = [e.text for e in events if e.kind == "attack"]
    assert texts == ["P2 (Tailor) hits Wisdom.", "P1 (Smith) hits Might."]
    assert s.combat.row == ["w"]


def test_victory_when_the_row_is_empty_no_final_attack_and_one_item(monkeypatch):
    """Rulebook: "if all chapter dice have been removed the enemy is immediately defeated and
    it does not make a final attack" and "draw one item card (regardless of the number of
    players)"."""
    s = fight(monkeypatch, combat("mc", 5), picks=("smith", "tailor", "abbot", "miller"))
    s = act(s, "fight")
    s = chance(s, "m", "c", "w", "m")
    s = act(s, "hit smith")
    s = act(s, "hit tailor")
    assert s.combat is None
    assert [c.hp for c in s.chars] == [12] * 4
    assert s.pending == Pending("item", n=1)
    s = chance(s, "salve")
    assert s.pending == Pending("share") and s.pool == ["salve"]


def test_rest_one_player_heals_and_sits_out(monkeypatch):
    """Rulebook, Resting: "one player can choose to rest ... does not roll to attack, does
    not take damage and cannot use items. Instead, that player gains 1HP"."""
    s = fight(monkeypatch, combat("www", 2), items={"tailor": ["axe"]})
    s = set_char(s, "tailor", hp=10)
    assert {"fight", "rest smith", "rest tailor"} == set(G.legal_actions(s, 0))
    s = act(s, "rest tailor")
    assert char(s, "tailor").hp == 11
    assert s.pending == Pending("roll", char=0, why="combat")
    s = chance(s, "m")  # only the Smith rolls; the last attack resolves itself
    assert s.combat.fighters == [0]
    assert char(s, "tailor").hp == 11 and char(s, "smith").hp == 16


def test_at_most_one_rests_and_at_least_one_fights(monkeypatch):
    """Rulebook: "one player can choose to rest" and "At least one player must fight in each
    round"."""
    s = fight(monkeypatch, combat("www", 2))
    s = act(s, "rest smith")
    assert "rest tailor" not in G.legal_actions(s, 0)
    assert G.to_act(s) == [CHANCE]
    assert len(s.combat.fighters) == 1


def test_resting_in_turns_across_rounds(monkeypatch):
    """Rulebook: "it is possible for multiple players to rest on different rounds of the same
    combat by taking it in turns"."""
    s = fight(monkeypatch, combat("wwww", 1))
    s = act(s, "rest smith")
    s = chance(s, "m")
    s = act(s, "rest tailor")
    assert s.combat.rester == 1 and s.combat.round == 2


def test_combat_items_strike_block_reroll_become(monkeypatch):
    """Rulebook: "Items can be used at any time unless the item card indicates otherwise";
    "pay attention to the items each character is carrying"."""
    s = fight(
        monkeypatch,
        combat("mcww", 4),
        items={"smith": ["axe", "buckler"], "tailor": ["rabbitfoot", "beads"]},
    )
    s = act(s, "fight")
    s = chance(s, "m", "m")
    legal = G.legal_actions(s, 0)
    assert {"use axe", "use buckler"} <= set(legal) and "use beads" not in legal
    s = act(s, "use axe", 0)
    assert s.combat.row == ["c", "w", "w"] and "axe" not in char(s, "smith").items
    s = act(s, "use buckler", 0)
    assert 0 in s.combat.blocked
    s = act(s, "use rabbitfoot", 1)
    s = chance(s, "ww")
    assert s.combat.rolls["1"] == "ww"
    s = act(s, "use beads", 1)  # counts as a single Wisdom now
    s = act(s, "hit tailor")  # the Smith's attack, with nothing left to use, resolves itself
    assert s.combat.row == ["c", "w"]
    assert char(s, "smith").hp == 18  # blocked by the buckler
    assert char(s, "tailor").hp == 14  # a single Wisdom does not block


def test_war_hammer_and_ward(monkeypatch):
    """Item cards as printed: a two-handed hammer makes a single Might hit twice; armour
    takes 1 off each enemy attack."""
    s = fight(
        monkeypatch, combat("mmc", 3), items={"smith": ["warhammer"], "tailor": ["brigandine"]}
    )
    s = act(s, "fight")
    s = chance(s, "m", "w")
    s = act(s, "hit smith")
    assert s.combat.row == ["c"]
    assert char(s, "smith").hp == 15 and char(s, "tailor").hp == 16


def test_healing_in_combat_heals_the_wounded_holder(monkeypatch):
    """Rulebook: "Items can be used at any time" but "cannot be traded ... during combat": a
    salve held by an unhurt fighter cannot reach a wounded friend, so it is not offered."""
    s = fight(monkeypatch, combat("mmcc", 3), items={"smith": ["salve"]})
    s = set_char(s, "tailor", hp=10)
    s = act(s, "fight")
    s = chance(s, "w", "w")
    assert "use salve" not in G.legal_actions(s, 0)
    s = set_char(s, "smith", hp=12)
    s = act(s, "use salve", 0)
    assert char(s, "smith").hp == 16 and char(s, "tailor").hp == 10


def test_no_trading_during_combat(monkeypatch):
    """Rulebook: "Items cannot be traded during the events of a chapter or during combat"."""
    s = fight(monkeypatch, combat("mmc", 3), items={"smith": ["salve"]})
    legal = G.legal_actions(s, 0)
    assert not any(a.startswith(("take", "drop")) for a in legal)
    with pytest.raises(IllegalAction):
        G.apply(s, 0, "drop salve")


# ----- combat specials --------------------------------------------------------------------
def test_special_ambush_and_ambush_you(monkeypatch):
    """Rulebook, Combat Specials: "These often break the standard rules of combat"."""
    s = fight(monkeypatch, combat("m", 1, 0, {"k": "ambush", "n": 2}, {"k": "ambush_you", "n": 1}))
    assert char(s, "smith").hp == 15 and char(s, "tailor").hp == 16


def test_special_rage(monkeypatch):
    """Combat special: its attack grows each round it survives."""
    s = fight(monkeypatch, combat("ww", 1, 0, {"k": "rage"}))
    s = act(s, "fight")
    s = chance(s, "m", "m")
    s = act(s, "hit smith")
    assert s.combat.attack == 2 and char(s, "smith").hp == 17


def test_special_regrow(monkeypatch):
    """Combat special: each round it survives, chapter dice are rolled into its row, up to
    a number in all."""
    s = fight(monkeypatch, combat("ww", 1, 0, {"k": "regrow", "n": 1, "max": 1}))
    s = act(s, "fight")
    s = chance(s, "m", "m")
    s = act(s, "hit smith")
    assert s.pending == Pending("dice", n=1, then="round")
    s = chance(s, "c")
    assert s.combat.row == ["c", "w", "w"] and s.pending == Pending("rest")
    s = act(s, "fight")
    s = chance(s, "m", "m")
    s = act(s, "hit smith")
    assert s.pending == Pending("rest")  # it has grown all it may


def test_special_armoured(monkeypatch):
    """Combat special: a single of the armoured trait does not hit; a double does."""
    s = fight(monkeypatch, combat("mmm", 1, 0, {"k": "armoured", "trait": "m"}))
    s = act(s, "fight")
    s = chance(s, "m", "m")
    s = act(s, "hit smith")
    assert s.combat.row == ["m", "m", "m"]
    s = act(s, "fight")
    s = chance(s, "mm", "w")
    s = act(s, "hit smith")
    assert s.combat.row == ["m"]


def test_a_long_fight_grows_the_enemy_attack_from_its_twentieth_round(monkeypatch):
    """Rules text, LONG FIGHTS (our decision; the rulebook is silent): from the 20th round of
    one fight on, the enemy's attack grows by 1 at the start of every round; a double still
    blocks."""
    assert LONG_FIGHT == 20
    s = fight(
        monkeypatch,
        combat("mmm", 1, 0, {"k": "armoured", "trait": "m"}),
        picks=("tailor", "tanner"),
        who="tailor",
    )
    for _ in range(18):  # rounds 1-18: a single Might does not dent the armour; one rests,
        s = act(s, "rest tailor")  # the other blocks
        s = chance(s, "cc")
    assert s.combat.round == 19 and s.combat.attack == 1
    s = act(s, "fight")
    s = chance(s, "w", "c")  # round 19: both hit by 1
    s = act(s, "hit tailor")
    assert char(s, "tailor").hp == 17 and char(s, "tanner").hp == 17
    assert s.combat.round == 20 and s.combat.attack == 2
    s = act(s, "fight")
    s = chance(s, "cc", "w")  # round 20: the Tailor's double blocks, the Tanner loses 2
    s = act(s, "hit tailor")
    assert char(s, "tailor").hp == 17 and char(s, "tanner").hp == 15
    assert s.combat.attack == 3


def test_no_fight_lasts_for_ever_even_one_nobody_can_win(monkeypatch):
    """Rules text, LONG FIGHTS: an armoured Might enemy against the Tailor and the Tanner
    (neither has a Might double) cannot be beaten; resting and blocking once kept it going
    for ever. Now the party falls, whatever it does."""
    s = fight(
        monkeypatch,
        combat("m", 1, 0, {"k": "armoured", "trait": "m"}),
        picks=("tailor", "tanner"),
        who="tailor",
    )
    faces = ["cc", "w", "c", "ww"]
    rounds = 0
    while s.combat is not None and not s.outcome:
        rounds += 1
        assert rounds < 80
        s = act(s, "rest tailor" if s.combat.round % 2 else "rest tanner")
        while G.to_act(s) == [CHANCE]:
            s = chance(s, faces[rounds % len(faces)])
        while s.pending and s.pending.kind == "attack":
            s = act(s, G.legal_actions(s, G.to_act(s)[0])[0])
    assert s.outcome == "lost" and s.combat.round >= LONG_FIGHT


def test_special_pierce_and_doubles_single(monkeypatch):
    """Combat specials: a blocker still loses HP; a double hits only once."""
    step = combat("mmw", 3, 0, {"k": "pierce", "n": 1}, {"k": "doubles_single"})
    s = fight(monkeypatch, step)
    s = act(s, "fight")
    s = chance(s, "mm", "c")
    s = act(s, "hit smith")
    assert s.combat.row == ["m", "w"]
    assert char(s, "smith").hp == 17 and char(s, "tailor").hp == 15


def test_special_focus_you(monkeypatch):
    """Combat special: it attacks only YOU (harder), and YOU may not rest."""
    s = fight(monkeypatch, combat("www", 2, 0, {"k": "focus_you", "n": 1}), who="tailor")
    assert "rest tailor" not in G.legal_actions(s, 0) and "rest smith" in G.legal_actions(s, 0)
    s = act(s, "fight")
    s = chance(s, "m", "m")
    s = act(s, "hit smith")
    assert char(s, "smith").hp == 18 and char(s, "tailor").hp == 15


def test_special_no_rest_and_no_items(monkeypatch):
    """Combat specials: nobody may rest; no items may be used."""
    s = fight(
        monkeypatch,
        combat("www", 1, 0, {"k": "no_rest"}, {"k": "no_items"}),
        items={"smith": ["axe"]},
    )
    assert s.pending.kind == "roll"  # no rest decision at all
    s = chance(s, "m", "m")
    assert "use axe" not in G.legal_actions(s, 0)


def test_special_flees(monkeypatch):
    """Combat special: after N rounds it flees and no item is won."""
    s = fight(monkeypatch, combat("www", 1, 0, {"k": "flees", "n": 1}))
    s = act(s, "fight")
    s = chance(s, "m", "m")
    s = act(s, "hit smith")
    assert s.combat is None and s.pending == Pending("between")


def test_special_venom(monkeypatch):
    """Combat special: after the fight, everyone it wounded loses more HP."""
    s = fight(monkeypatch, combat("mw", 2, 0, {"k": "venom", "n": 1}))
    s = act(s, "fight")
    s = chance(s, "m", "m")  # Smith hits, Tailor misses: both are struck
    s = act(s, "hit smith")
    s = act(s, "fight")
    s = chance(s, "ww", "m")
    s = act(s, "hit smith")
    assert s.combat is None
    assert char(s, "smith").hp == 15 and char(s, "tailor").hp == 15


def test_death_in_combat_loses_at_once(monkeypatch):
    """Rulebook: "if anyone dies along the way, the game ends immediately"."""
    s = fight(monkeypatch, combat("www", 5))
    s = set_char(s, "tailor", hp=4)
    s = act(s, "fight")
    s = chance(s, "m", "m")
    s = act(s, "hit smith")
    assert s.outcome == "lost" and G.to_act(s) == [] and s.combat is not None
