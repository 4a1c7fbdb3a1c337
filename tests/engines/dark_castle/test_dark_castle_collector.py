"""The Collector's Box (rulebook: "Collector's Box"): character flaws, start cards drawn at
random, more bosses, and the epilogues read at the end. (Death dice and the Living Stone are
not built yet.)"""

from __future__ import annotations

import render
from engines import CHANCE
from engines.dark_castle import cards
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
)

BOX = {"collector": "on"}


def dealt(players=2, options=None):
    """A new game with the flaws dealt onto the six core prisoners in a fixed order."""
    s = G.setup([f"P{i + 1}" for i in range(players)], options or BOX)
    order = ["reckless", "glutton", "coward", "liar", "brute", "schemer"]
    for flaw in order:
        s = chance(s, flaw)
    return s


def test_flaws_are_dealt_onto_the_characters_before_choosing():
    """Collector's Box, Character Flaw Cards: "Shuffle the flaw cards and deal one, face up,
    onto each character card. From the combinations created, each player should choose one
    character ... taking their card, character die, and flaw card"."""
    s = G.setup(["A", "B"], BOX)
    assert G.to_act(s) == [CHANCE] and len(G.chance_outcomes(s)) == len(cards.FLAWS)
    s = dealt()
    assert s.pending == Pending("pick")
    assert s.flaws == {
        "abbot": "reckless",
        "cook": "glutton",
        "miller": "coward",
        "smith": "liar",
        "tailor": "brute",
        "tanner": "schemer",
    }
    view = G.view(s, None)
    assert view["flaws"]["smith"]["name"] == "Liar"
    assert render.board_png("dark_castle", view).startswith(b"\x89PNG")
    s = act(act(s, "pick smith", 0), "pick cook", 1)
    assert char(s, "smith").flaw == "liar" and char(s, "cook").flaw == "glutton"


def test_a_flaw_is_used_once_and_never_traded(monkeypatch):
    """Collector's Box: "a special ability to draw upon once during the quest"; "flaws cannot
    be transferred between players"."""
    s = act(act(dealt(), "pick smith", 0), "pick cook", 1)
    s = chance(s, "s_cell")
    s = set_char(s, "cook", hp=10)
    legal = G.legal_actions(s, 1)
    assert "use glutton" in legal and not [a for a in legal if a.startswith("drop glutton")]
    assert "use glutton smith" not in legal
    s = act(s, "use glutton", 1)
    assert char(s, "cook").hp == 14 and char(s, "cook").flaw_used
    assert "use glutton" not in G.legal_actions(s, 1)
    assert G.view(s, None)["chars"][1]["flaw"]["used"] is True


def test_a_flaw_rerolls_a_failed_test(monkeypatch):
    add_card(
        monkeypatch,
        {
            "do": "test",
            "who": "you",
            "trait": "w",
            "attempts": 1,
            "fail": [{"do": "damage", "who": "you", "n": 3}],
        },
    )
    s = act(act(dealt(), "pick smith", 0), "pick cook", 1)
    s = open_card(chance(s, "s_cell"), "t_room")
    s = chance(s, "m")
    assert G.legal_actions(s, 0) == ["pass", "use liar"]
    s = chance(act(s, "use liar"), "ww")
    assert char(s, "smith").hp == 18 and char(s, "smith").flaw_used


def test_a_flaw_strikes_in_combat(monkeypatch):
    add_card(monkeypatch, combat("mmc", 2))
    s = act(act(dealt(), "pick tailor", 0), "pick smith", 1)
    s = open_card(chance(s, "s_cell"), "t_room", who="tailor")
    s = chance(act(s, "fight"), "w", "w")
    assert "use brute" in G.legal_actions(s, 0)
    s = act(s, "use brute", 0)
    assert s.combat.row == ["m", "c"]


def test_start_cards_and_bosses_of_the_box_join_the_draw():
    """Collector's Box, New Start Cards: "shuffle your start cards together and select one at
    random"; New Boss Cards: "Shuffle all your boss cards together during setup"."""
    s = act(act(dealt(), "pick smith", 0), "pick cook", 1)
    starts = {o for o, _ in G.chance_outcomes(s)}
    assert starts == set(cards.in_sets(cards.STARTS, ["core", "collector"])) and len(starts) == 5
    s = chance(s, "s_cell")
    s = G.load({**G.dump(s), "used": sorted(cards.CHAPTERS)[:15], "pending": {"kind": "between"}})
    s = act(s, "turn smith")
    bosses = {o for o, _ in G.chance_outcomes(s)}
    assert {"b_hangman", "b_mirrorqueen"} <= bosses and "b_deathknight" not in bosses


def test_the_epilogue_is_read_at_the_end(monkeypatch):
    """Collector's Box, Epilogue Cards: "When the game ends, turn over the corresponding card
    and read it aloud"."""
    add_card(monkeypatch, {"do": "damage", "who": "you", "n": 30})
    s = act(act(dealt(), "pick smith", 0), "pick cook", 1)
    s = open_card(chance(s, "s_cell"), "t_room")
    assert s.outcome == "lost"
    view = G.view(s, None)
    assert view["epilogue"] == cards.EPILOGUES["collector"]["lost"]
    assert ("Epilogue: " + view["epilogue"]) in list(map(english, s.log))
    assert view["epilogue"] in render.describe("dark_castle", view)
    assert render.board_png("dark_castle", view).startswith(b"\x89PNG")


def test_flaws_and_the_box_content_parse():
    """Content check: nine flaws (one for each prisoner of every pack), using item effects."""
    assert len(cards.FLAWS) >= 9
    for flaw in cards.FLAWS.values():
        assert flaw["effects"] and all(e["k"] in cards.ITEM_EFFECTS for e in flaw["effects"])
        assert flaw["text"].startswith("Once a game")
    assert set(cards.EPILOGUES["collector"]) == {"won", "lost"}
