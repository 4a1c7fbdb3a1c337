"""Dark Castle chapter vocabulary (every step kind) and the item rules."""

from __future__ import annotations

import pytest

from engines import CHANCE, IllegalAction
from engines.dark_castle import cards, castle
from engines.dark_castle.state import Pending
from engines.text import english
from tests.engines.dark_castle.test_dark_castle_helpers import (
    G,
    act,
    add_card,
    chance,
    char,
    edit,
    open_card,
    set_char,
    started,
)


def room(monkeypatch, *steps, picks=("smith", "tailor"), players=None, who="smith", items=None):
    add_card(monkeypatch, *steps)
    s = started(picks, players=players)
    for name, held in (items or {}).items():
        s = set_char(s, name, items=held)
    return open_card(s, "t_room", who=who)


def test_damage_and_healing_never_above_the_start(monkeypatch):
    """Rulebook: "characters will gain and lose HP but can never exceed their starting HP"."""
    s = room(
        monkeypatch,
        {"do": "damage", "who": "others", "n": 4},
        {"do": "heal", "who": "all", "n": 2},
        picks=("smith", "tailor", "abbot"),
    )
    assert [c.hp for c in s.chars] == [14, 12, 12]
    assert s.pending == Pending("between")


def test_draw_items_then_share_them_out(monkeypatch):
    """Rulebook, Drawing Items: "first draw and place them face-up where all players can see,
    then decide as a group how the items will be distributed"."""
    s = room(monkeypatch, {"do": "draw", "n": 2})
    s = chance(s, "salve")
    assert "salve" not in [o for o, _ in G.chance_outcomes(s)]
    s = chance(s, "warhammer")
    assert s.pending == Pending("share") and s.pool == ["salve", "warhammer"]
    assert G.to_act(s) == [0, 1]
    assert {"take salve smith", "take warhammer tailor", "done"} <= set(G.legal_actions(s, 1))
    s = act(s, "take warhammer smith", 1)
    assert "take salve smith" not in G.legal_actions(s, 0)  # a two-handed item fills both hands
    s = act(s, "done")
    assert s.pool == []
    # Rulebook, Trading Items: "Unwanted items are left behind and should be placed face-up
    # in a discard pile beside the item deck": the salve does not go back into the deck.
    deck = castle.deck(s)
    assert (
        "salve" not in deck
        and "warhammer" not in deck
        and len(deck) == len(cards.in_sets(cards.ITEMS, ["core"])) - 2
    )


def test_an_empty_item_deck_is_the_discard_pile_shuffled(monkeypatch):
    """House rule (the rulebook is silent): when the item deck runs out, the discard pile is
    shuffled into a new deck; items carried or on the table stay where they are."""
    s = room(monkeypatch, {"do": "draw", "n": 1})
    everything = cards.in_sets(cards.ITEMS, ["core"])
    s = edit(s, dealt=everything)
    s = set_char(s, "smith", items=["salve"])
    assert {o for o, _ in G.chance_outcomes(s)} == set(everything) - {"salve"}
    s = chance(s, "axe")
    assert sorted(s.dealt) == ["axe", "salve"] and s.pool == ["axe"]
    assert "the discard pile is shuffled anew" in " ".join(map(english, s.log))
    assert "bell" in castle.deck(s) and "axe" not in castle.deck(s)


def test_draw_per_player_in_solo_is_per_character(monkeypatch):
    """Rulebook, Solo Play: "When instructed to draw cards ... 'per player', in a solo game
    this should be read as 'per character'"."""
    s = room(monkeypatch, {"do": "draw", "n": "per_player"}, players=1)
    assert s.pending == Pending("item", n=2)


def test_two_hands_and_two_handed_items():
    """Rulebook, Carrying Items: "Each character can carry a maximum of two items" and
    "Some items are described as 'two-handed' which means a character cannot carry any
    other items at the same time"."""
    s = started()
    s = set_char(s, "smith", items=["axe"])
    s = set_char(s, "tailor", items=["crozier"])
    s = edit(s, pool=["salve"])
    legal = G.legal_actions(s, 1)
    assert "take salve smith" in legal and "take salve tailor" not in legal
    s = act(s, "drop crozier", 1)
    assert "take crozier smith" not in G.legal_actions(s, 0)
    s = act(s, "take salve tailor", 0)
    assert char(s, "tailor").items == ["salve"]


def test_trading_between_chapters_and_left_behind_items_are_discarded():
    """Rulebook, Trading Items: "only after a chapter has been completed, or whenever new
    item cards are being drawn" and "Unwanted items are left behind"."""
    s = started()
    s = set_char(s, "smith", items=["salve", "axe"])
    s = act(s, "drop axe", 0)
    s = act(s, "take axe tailor", 1)
    s = act(s, "drop salve", 0)
    s = act(s, "turn tailor")
    assert s.pool == [] and char(s, "tailor").items == ["axe"]
    assert char(s, "smith").items == []


def test_only_the_holder_drops_or_uses_an_item():
    """House decision: everyone shares out the table, but only a holder uses or drops."""
    s = started(("smith", "tailor"))
    s = set_char(s, "smith", items=["salve"], hp=10)
    assert "use salve" in G.legal_actions(s, 0) and "use salve" not in G.legal_actions(s, 1)
    with pytest.raises(IllegalAction):
        G.apply(s, 1, "drop salve")
    s = act(s, "use salve", 0)
    assert char(s, "smith").hp == 14 and char(s, "smith").items == []


def test_lose_item_of_your_choice_and_all_items(monkeypatch):
    """Vocabulary: a card takes an item of YOUR choice, or everything someone carries."""
    s = room(
        monkeypatch,
        {"do": "lose_item", "who": "you", "what": "choice"},
        {"do": "lose_item", "who": "others", "what": "all"},
        items={"smith": ["axe", "salve"], "tailor": ["rope"]},
    )
    assert s.pending == Pending("discard", char=0) and G.to_act(s) == [0]
    assert G.legal_actions(s, 0) == ["discard axe", "discard salve"]
    s = act(s, "discard salve")
    assert char(s, "smith").items == ["axe"] and char(s, "tailor").items == []


def test_party_loses_one_item_of_its_choice(monkeypatch):
    """Vocabulary: the party gives up one item; anyone may say which."""
    s = room(
        monkeypatch,
        {"do": "lose_item", "who": "party"},
        items={"smith": ["axe"], "tailor": ["rope"]},
    )
    assert G.to_act(s) == [0, 1]
    s = act(s, "discard rope", 0)
    assert char(s, "tailor").items == [] and char(s, "smith").items == ["axe"]


def test_trait_test_in_one_attempt(monkeypatch):
    """Rulebook, Tip: "When a chapter requires a player to roll a certain result 'in one
    attempt'"."""
    step = {
        "do": "test",
        "who": "you",
        "trait": "c",
        "attempts": 1,
        "pass": [{"do": "heal", "who": "you", "n": 1}],
        "fail": [{"do": "damage", "who": "it", "n": 3}],
    }
    s = room(monkeypatch, step)
    assert s.pending == Pending("roll", char=0, why="test")
    s = chance(s, "m")
    assert char(s, "smith").hp == 15 and s.pending == Pending("between")


def test_items_are_usable_within_one_attempt(monkeypatch):
    """Rulebook, Tip: "that single attempt includes the use of items if the player wishes.
    For example, a player could discard a Liquid Luck potion to re-roll"."""
    step = {
        "do": "test",
        "who": "you",
        "trait": "c",
        "attempts": 1,
        "fail": [{"do": "damage", "who": "it", "n": 3}],
    }
    s = room(monkeypatch, step, items={"smith": ["knucklebone", "mirror"]})
    s = chance(s, "m")
    assert s.pending == Pending("react", char=0)
    assert G.to_act(s) == [0] and set(G.legal_actions(s, 0)) == {
        "pass",
        "use knucklebone",
        "use mirror",
    }
    s = act(s, "use knucklebone")
    s = chance(s, "w")  # still failing: the same attempt goes on
    s = act(s, "use mirror")  # now it counts as a Cunning
    assert char(s, "smith").hp == 18 and s.pending == Pending("between")


def test_only_items_that_can_help_the_attempt_are_offered(monkeypatch):
    """Rulebook, Using Items: "The text on each item card describes what it does": an item
    that turns the roll into a Might cannot save a Cunning test, so it is not offered."""
    step = {
        "do": "test",
        "who": "you",
        "trait": "c",
        "attempts": 1,
        "fail": [{"do": "damage", "who": "it", "n": 3}],
    }
    s = room(monkeypatch, step, items={"smith": ["gauntlet", "mirror"]})
    s = chance(s, "w")
    assert set(G.legal_actions(s, 0)) == {"pass", "use mirror"}
    with pytest.raises(IllegalAction):
        G.apply(s, 0, "use gauntlet")


def test_passing_a_failed_roll_accepts_it(monkeypatch):
    """Rulebook, Tip: items are used in the attempt "if the player wishes": `pass` keeps
    the item and takes the failure."""
    step = {
        "do": "test",
        "who": "you",
        "trait": "c",
        "attempts": 1,
        "fail": [{"do": "damage", "who": "it", "n": 3}],
    }
    s = room(monkeypatch, step, items={"smith": ["knucklebone"]})
    s = chance(s, "m")
    s = act(s, "pass")
    assert char(s, "smith").hp == 15 and char(s, "smith").items == ["knucklebone"]


def test_alias_items_help_tests(monkeypatch):
    """Item: lockpicks let a Might roll count as Cunning in a test."""
    step = {
        "do": "test",
        "who": "you",
        "trait": "c",
        "attempts": 1,
        "fail": [{"do": "damage", "who": "it", "n": 3}],
    }
    s = room(monkeypatch, step, items={"smith": ["lockpicks"]})
    s = chance(s, "mm")
    assert char(s, "smith").hp == 18


def test_several_attempts_and_doubles(monkeypatch):
    """Vocabulary: a test in N attempts (every failure costs, the last one too, then the
    fail branch); a test may need a double."""
    step = {
        "do": "test",
        "who": "you",
        "trait": "w",
        "double": True,
        "attempts": 3,
        "fail_each": [{"do": "damage", "who": "it", "n": 1}],
        "fail": [{"do": "damage", "who": "it", "n": 5}],
    }
    s = room(monkeypatch, step)
    s = chance(s, "w", "m", "w")
    assert char(s, "smith").hp == 10  # 1 for each of the three failures, then 5
    s = room(monkeypatch, step)
    s = chance(s, "m", "ww")
    assert char(s, "smith").hp == 17


def test_until_success_costs_each_failure(monkeypatch):
    """Vocabulary: keep trying until you succeed, paying for every failed attempt."""
    step = {
        "do": "test",
        "who": "each",
        "trait": "m",
        "attempts": 0,
        "fail_each": [{"do": "damage", "who": "it", "n": 1}],
    }
    s = room(monkeypatch, step)
    s = chance(s, "w", "c", "m")  # the Smith fails twice
    s = chance(s, "m")  # the Tailor succeeds at once
    assert char(s, "smith").hp == 16 and char(s, "tailor").hp == 18


def test_one_of_you_is_sent(monkeypatch):
    """Vocabulary: "one of you" - the group chooses who attempts."""
    step = {
        "do": "test",
        "who": "chosen",
        "trait": "c",
        "attempts": 1,
        "fail": [{"do": "damage", "who": "it", "n": 2}],
    }
    s = room(monkeypatch, step, picks=("smith", "tailor", "abbot"))
    assert G.to_act(s) == [0, 1, 2]
    s = act(s, "send abbot", 1)
    assert s.pending == Pending("roll", char=2, why="test")
    s = chance(s, "m")
    assert [c.hp for c in s.chars] == [14, 14, 12]


def test_group_test_adds_up_symbols(monkeypatch):
    """Vocabulary: everyone rolls once and the symbols of the trait are counted together."""
    step = {
        "do": "group_test",
        "trait": "m",
        "need": 1,
        "per_player": True,
        "fail": [{"do": "damage", "who": "all", "n": 2}],
    }
    s = room(monkeypatch, step)
    s = chance(s, "mm", "c")
    assert [c.hp for c in s.chars] == [18, 18]
    s = room(monkeypatch, step)
    s = chance(s, "m", "c")
    assert [c.hp for c in s.chars] == [16, 16]


def test_choices_some_needing_an_item(monkeypatch):
    """Rulebook: "You may be asked to make a choice"; an option may need an item and use it."""
    step = {
        "do": "choose",
        "options": [
            {
                "label": "Unlock it",
                "needs": "key",
                "spend": True,
                "steps": [{"do": "heal", "who": "all", "n": 3}],
            },
            {"label": "Kick it", "steps": [{"do": "damage", "who": "you", "n": 2}]},
        ],
    }
    s = room(monkeypatch, step)
    assert G.legal_actions(s, 0) == ["choose 2"]
    assert G.view(s, None)["options"][0] == {
        "n": 1,
        "label": "Unlock it",
        "cost": "uses up a key; everyone gains 3 HP",
        "open": False,
    }
    s = act(s, "choose 2")
    assert char(s, "smith").hp == 16
    s = set_char(started(), "tailor", items=["skeletonkey"], hp=10)
    s = open_card(s, "t_room")
    s = act(s, "choose 1", 1)
    assert char(s, "tailor").hp == 13 and char(s, "tailor").items == []


def test_gamble_on_a_chapter_die(monkeypatch):
    """Vocabulary: roll one chapter die and follow the branch of its face."""
    step = {
        "do": "gamble",
        "m": [{"do": "damage", "who": "you", "n": 1}],
        "c": [{"do": "damage", "who": "you", "n": 2}],
        "w": [],
    }
    s = room(monkeypatch, step)
    assert {o for o, _ in G.chance_outcomes(s)} == {"m", "c", "w"}
    s = chance(s, "c")
    assert char(s, "smith").hp == 16


def test_if_item(monkeypatch):
    """Vocabulary: a card reacts to an item the party carries."""
    step = {
        "do": "if_item",
        "needs": "light",
        "then": [],
        "else": [{"do": "damage", "who": "all", "n": 1}],
    }
    s = room(monkeypatch, step, items={"tailor": ["lantern"]})
    assert [c.hp for c in s.chars] == [18, 18]
    s = room(monkeypatch, step)
    assert [c.hp for c in s.chars] == [17, 17]


def test_narrate_and_step_text_reach_the_log(monkeypatch):
    """Rulebook: "Tip: Don't skip the italic text" - a card's own lines are told in chat."""
    s = room(monkeypatch, {"do": "narrate", "text": "A cold wind."})
    assert "A cold wind." in list(map(english, s.log))
    assert G.to_act(s) != [CHANCE]


def test_targets_weakest_and_strongest(monkeypatch):
    """Vocabulary: a card may single out the weakest or the strongest prisoner (ties: the
    first in seat order)."""
    s = room(
        monkeypatch,
        {"do": "damage", "who": "all", "n": 4},
        {"do": "damage", "who": "weakest", "n": 2},
        {"do": "heal", "who": "strongest", "n": 1},
        picks=("smith", "tailor", "abbot"),
    )
    assert [c.hp for c in s.chars] == [8, 11, 10]
