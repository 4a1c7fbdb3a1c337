"""Dark Castle chapters say what they ask, and the fixes of the play audit (issue 16, item 6)."""

from __future__ import annotations

import render
from engines.dark_castle import cards, explain
from engines.dark_castle.state import Pending
from engines.text import english
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


def room(monkeypatch, *steps, picks=("smith", "tailor"), who="smith", items=None, hp=None):
    add_card(monkeypatch, *steps)
    s = started(picks)
    for name, held in (items or {}).items():
        s = set_char(s, name, items=held)
    for name, points in (hp or {}).items():
        s = set_char(s, name, hp=points)
    return open_card(s, "t_room", who=who)


SEND = {
    "do": "test",
    "who": "chosen",
    "trait": "w",
    "attempts": 2,
    "double": True,
    "fail": [{"do": "damage", "who": "all", "n": 1}],
}


def test_a_test_says_trait_attempts_double_who_and_cost(monkeypatch):
    """Rulebook, Turning Chapter Cards: "follow the instructions to complete the chapter"; the
    group decides who goes, so it must see the trait, attempts, double and cost first."""
    s = room(monkeypatch, SEND)
    view = G.view(s, None)
    asked = view["asking"]
    for words in (
        "One prisoner you send",
        "a Wisdom double",
        "in 2 attempts",
        "failing: everyone loses 1 HP",
    ):
        assert words in asked, asked
    assert asked in view["prompt"]
    assert view["card"]["asks"] == [asked + "."]
    assert "It asks: One prisoner you send" in " ".join(map(english, s.log))
    alt = render.describe("dark_castle", view)
    assert "a Wisdom double" in alt and "in 2 attempts" in alt


def test_the_failing_roll_says_why(monkeypatch):
    """The roll result line names what was needed and the attempts left."""
    s = room(monkeypatch, SEND)
    s = act(s, "send tailor")
    s = chance(s, "w")
    assert english(s.log[-1]).endswith("fails: a double was needed (1 attempt left).")
    assert "(Tailor): 1 attempt left" in G.view(s, None)["asking"]
    s = chance(s, "m")
    assert "fails: a Wisdom double was needed." in " ".join(map(english, s.log))


def test_choice_buttons_say_what_they_cost_or_test(monkeypatch):
    """A choice's button says what it will cost or test."""
    step = {
        "do": "choose",
        "options": [
            {
                "label": "Force it",
                "steps": [
                    {
                        "do": "test",
                        "who": "you",
                        "trait": "m",
                        "attempts": 1,
                        "fail": [{"do": "damage", "who": "you", "n": 2}],
                    }
                ],
            },
            {"label": "Go round", "steps": [{"do": "damage", "who": "all", "n": 1}]},
        ],
    }
    s = room(monkeypatch, step)
    assert G.describe(s, "choose 1") == (
        "Force it (YOU roll for Might in one attempt; failing: YOU lose 2 HP)"
    )
    assert G.describe(s, "choose 2") == "Go round (everyone loses 1 HP)"
    assert render.board_png("dark_castle", G.view(s, None)).startswith(b"\x89PNG")


def test_well_of_whispers_wants_an_item_that_you_carry():
    """Audit: the Well of Whispers must not reward a sacrifice nobody made."""
    s = open_card(started(), "wishing_well")
    assert G.legal_actions(s, 0) == ["choose 2"]
    assert G.view(s, None)["options"][0]["open"] is False
    s = set_char(started(), "smith", items=["bell"], hp=10)
    s = open_card(s, "wishing_well")
    s = act(s, "choose 1")
    s = act(s, "discard bell")
    assert char(s, "smith").hp == 13 and char(s, "smith").items == []


def test_armour_softens_a_piercing_blow(monkeypatch):
    """Audit: armour that softens enemy attacks softens a piercing blow too (Brigandine:
    "you take 1 less damage from enemy attacks")."""
    step = combat("mmm", 3, 0, {"k": "pierce", "n": 2}, {"k": "no_rest"})
    s = room(monkeypatch, step, items={"smith": ["brigandine"]})
    s = act(chance(s, "mm", "c"), "hit smith")  # the Smith's double blocks; the Tailor misses
    assert char(s, "smith").hp == 17  # pierce 2, armour 1
    assert char(s, "tailor").hp == 15


def test_healing_is_offered_only_to_someone_it_can_heal(monkeypatch):
    """Audit: a healing item is offered only to someone it can heal; between chapters it may
    heal another prisoner (items can change hands then anyway)."""
    s = started()
    s = set_char(s, "smith", items=["salve"])
    assert not [a for a in G.legal_actions(s, 0) if a.startswith("use")]
    s = set_char(s, "tailor", hp=10)
    assert [a for a in G.legal_actions(s, 0) if a.startswith("use")] == ["use salve tailor"]
    s = act(s, "use salve tailor", 0)
    assert char(s, "tailor").hp == 14 and char(s, "smith").items == []


def test_the_party_chooses_which_key_is_used_up(monkeypatch):
    """Audit: where a card uses up one of several keys, the party chooses which."""
    step = {
        "do": "choose",
        "options": [
            {
                "label": "Unlock it",
                "needs": "key",
                "spend": True,
                "steps": [{"do": "draw", "n": 1}],
            },
            {"label": "Leave", "steps": []},
        ],
    }
    s = room(monkeypatch, step, items={"smith": ["skeletonkey"], "tailor": ["lockpicks"]})
    s = act(s, "choose 1")
    assert s.pending.kind == "discard"
    assert set(G.legal_actions(s, 0)) == {"discard skeletonkey", "discard lockpicks"}
    assert "Which key" in G.view(s, None)["prompt"]
    s = act(s, "discard lockpicks", 0)
    assert char(s, "smith").items == ["skeletonkey"] and char(s, "tailor").items == []
    assert s.pending == Pending("item", n=1)  # then the option's steps go on


def test_one_key_is_used_up_without_asking(monkeypatch):
    step = {"do": "if_item", "needs": "key", "spend": True, "then": [{"do": "draw", "n": 1}]}
    s = room(monkeypatch, step, items={"tailor": ["skeletonkey"]})
    assert char(s, "tailor").items == [] and s.pending == Pending("item", n=1)


def test_items_can_be_used_while_a_choice_is_open(monkeypatch):
    """Rulebook, Using Items: "Items can be used at any time unless the item card indicates
    otherwise": a wounded prisoner may drink while the party decides."""
    step = {"do": "choose", "options": [{"label": "A", "steps": []}, {"label": "B", "steps": []}]}
    s = room(monkeypatch, step, items={"tailor": ["salve"]}, hp={"tailor": 9})
    assert "use salve" in G.legal_actions(s, 1)
    s = act(s, "use salve", 1)
    assert char(s, "tailor").hp == 13 and s.pending.kind == "choose"


def test_the_end_picture_shows_the_ending(monkeypatch):
    """The end picture shows the ending, not "the boss awaits"."""
    s = room(monkeypatch, {"do": "damage", "who": "you", "n": 30})
    view = G.view(s, None)
    assert view["ending"].startswith("The prisoners did not escape")
    alt = render.describe("dark_castle", view)
    assert view["ending"] in alt and "boss awaits" not in alt
    assert render.board_png("dark_castle", view).startswith(b"\x89PNG")


def test_one_chapter_is_singular():
    """Text: "1 chapter turned", never "1 chapters"."""
    s = open_card(started(), "rotten_stair")
    alt = render.describe("dark_castle", G.view(s, None))
    assert "1 chapter turned, 14 chapters left" in alt


def test_every_chapter_says_what_it_asks():
    """Content check: every chapter and start card that asks something has a plain account."""
    for card in {**cards.STARTS, **cards.CHAPTERS}.values():
        asks = explain.card_asks(card, 2)
        if any(step["do"] != "narrate" for step in card["steps"]):
            assert asks, card["id"]
        for line in asks:
            assert "{" not in line and line.endswith("."), (card["id"], line)
