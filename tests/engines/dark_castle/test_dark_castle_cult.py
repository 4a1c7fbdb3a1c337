"""Adventure Pack 1, Cult of the Death Knight (rulebook: "Adventure Pack 1"): curses in the item
deck, who draws each card, Marked for Death and the cult die, the pack on its own or mixed."""

from __future__ import annotations

from engines import CHANCE
from engines.dark_castle import cards, castle
from engines.dark_castle.state import Pending
from engines.text import english
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

CULT = {"cult": "on"}


def cult_room(monkeypatch, *steps, **kwargs):
    return room_with(CULT, monkeypatch, *steps, **kwargs)


def test_the_pack_holds_15_numbered_chapters_its_boss_and_5_curses():
    """Pack 1, Setting Up: "the 15 chapter cards contained in this pack", "The Death Knight
    boss card", "the 5 curse cards"; one of them is Marked for Death."""
    chapters = cards.in_sets(cards.CHAPTERS, ["cult"])
    assert sorted(cards.CHAPTERS[c]["n"] for c in chapters) == list(range(1, 16))
    assert cards.in_sets(cards.BOSSES, ["cult"]) == ["b_deathknight"]
    curses = [i for i in cards.in_sets(cards.ITEMS, ["cult"]) if cards.is_curse(i)]
    assert len(curses) == 5 and "marked" in curses
    assert all(cards.check_item(cards.ITEMS[i]) == [] for i in curses)


def test_curses_are_shuffled_into_the_item_deck_only_when_the_pack_is_on():
    """Pack 1: "Shuffle the item card deck, including the 5 curse cards"."""
    assert not [i for i in castle.deck(started()) if cards.is_curse(i)]
    assert len([i for i in castle.deck(started(options=CULT)) if cards.is_curse(i)]) == 5


def test_the_pack_on_its_own_shuffled_with_its_own_boss():
    """Pack 1, Setting Up: "Shuffle the 15 chapter cards contained in this pack ... Place The
    Death Knight boss card face-down underneath the castle deck"."""
    s = started(options={"cult": "on", "castle": "pack"})
    s = act(s, "turn smith")
    assert sorted(o for o, _ in G.chance_outcomes(s)) == cards.in_sets(cards.CHAPTERS, ["cult"])
    s = G.load({**G.dump(s), "used": cards.in_sets(cards.CHAPTERS, ["cult"])[:15], "pending": None})
    s = G.load({**G.dump(s), "pending": {"kind": "between"}})
    s = act(s, "turn smith")
    assert G.chance_outcomes(s) == [("b_deathknight", 1.0)]


def test_the_pack_in_number_order():
    """Pack 2 and 3, Setting Up: "we recommend playing with the chapter cards in number order
    - right out of the box" (we offer it for every pack)."""
    s = started(options={"cult": "on", "castle": "pack-numbered"})
    s = act(s, "turn smith")
    assert G.chance_outcomes(s) == [("dk_procession", 1.0)]
    assert "number order" in G.view(s, None)["castle"]


def test_everything_mixed():
    """Pack 1: "Alternatively you can mix the contents of Cult of the Death Knight into the
    contents of Escape the Dark Castle and follow the standard setup"."""
    s = act(started(options=CULT), "turn smith")
    outcomes = {o for o, _ in G.chance_outcomes(s)}
    assert outcomes == set(cards.in_sets(cards.CHAPTERS, ["core", "cult"]))
    s = G.load({**G.dump(s), "used": sorted(outcomes)[:15], "pending": {"kind": "between"}})
    s = act(s, "turn smith")
    assert "b_deathknight" in {o for o, _ in G.chance_outcomes(s)} and len(G.chance_outcomes(s)) > 1


def test_the_group_names_who_draws_each_item_card(monkeypatch):
    """Pack 1, Drawing Item Cards: "When drawing item cards you must now choose which player
    will draw each one ... If a normal item is drawn, it goes to the item pool as usual"."""
    s = cult_room(monkeypatch, {"do": "draw", "n": 2})
    assert s.pending == Pending("drawer", n=2) and G.to_act(s) == [0, 1]
    assert set(G.legal_actions(s, 1)) == {"draw smith", "draw tailor"}
    s = act(s, "draw tailor", 1)
    s = chance(s, "salve")
    assert s.pool == ["salve"] and s.pending == Pending("drawer", n=1)
    s = act(s, "draw smith")
    s = chance(s, "brittle")
    assert s.pool == ["salve"] and char(s, "smith").curses == ["brittle"]
    assert s.pending == Pending("share")


def test_a_curse_sits_beside_the_character_not_in_a_hand(monkeypatch):
    """Pack 1: "Curses which affect a player directly should be placed beside the character
    card ... curses do not count as items and ... do not count towards the limit of 2 items"."""
    s = cult_room(monkeypatch, {"do": "draw", "n": 1}, tailor={"items": ["warhammer"]})
    s = chance(act(s, "draw tailor"), "leech")
    assert char(s, "tailor").items == ["warhammer"] and char(s, "tailor").curses == ["leech"]
    view = G.view(s, None)["chars"][1]
    assert view["curses"][0]["name"] == "The Leech Sigil" and len(view["items"]) == 1
    assert "leech" not in castle.deck(s)
    # "curses cannot be removed unless the curse card itself says otherwise": the Leech Sigil
    # drains at every chapter and goes only when the party wins a combat.
    s = act(s, "turn smith")
    assert char(s, "tailor").hp == 17 and char(s, "tailor").curses == ["leech"]


def test_a_curse_that_says_so_goes_at_once(monkeypatch):
    """Pack 1: curses stay "unless the curse card itself says otherwise" (the Grave Hex)."""
    s = cult_room(monkeypatch, {"do": "draw", "n": 1})
    s = chance(act(s, "draw smith"), "gravehex")
    assert char(s, "smith").hp == 16 and char(s, "smith").curses == []
    assert s.pending == Pending("between")  # nothing reached the table


def test_brittle_bones_hurts_more_until_its_holder_rests(monkeypatch):
    """Our curse Brittle Bones: +1 damage from enemy attacks, lifted by resting."""
    s = cult_room(monkeypatch, combat("mmm", 2), smith={"curses": ["brittle"]})
    s = act(s, "fight")
    s = act(chance(s, "c", "c"), "hit smith")
    assert char(s, "smith").hp == 15 and char(s, "tailor").hp == 16
    s = act(s, "rest smith")
    assert char(s, "smith").curses == [] and char(s, "smith").hp == 16


def test_marked_for_death_cultists_hurt_one_more(monkeypatch):
    """Pack 1, Marked for Death, Extra Damage: "Whenever a character marked for death takes
    damage from a cultist ... whether in combat or otherwise, they lose an additional 1HP"."""
    hit = {"do": "damage", "who": "all", "n": 2, "cultist": True}
    s = cult_room(monkeypatch, hit, smith={"curses": ["marked"]})
    assert char(s, "smith").hp == 15 and char(s, "tailor").hp == 16


def test_marked_for_death_in_combat_with_a_cultist(monkeypatch):
    step = dict(combat("mmm", 2), cultist=True)
    s = cult_room(monkeypatch, step, smith={"curses": ["marked"]})
    s = act(s, "fight")
    s = act(chance(s, "c", "c"), "hit smith")
    assert char(s, "smith").hp == 15 and char(s, "tailor").hp == 16


def test_marked_for_death_cannot_rest(monkeypatch):
    """Pack 1, Resting: "A character marked for death cannot REST"."""
    s = cult_room(monkeypatch, combat("mmm", 2), smith={"curses": ["marked"]})
    assert s.pending == Pending("rest")
    assert set(G.legal_actions(s, 0)) == {"fight", "rest tailor"}
    s = act(s, "fight")
    s = act(chance(s, "c", "c"), "hit smith")
    assert char(s, "smith").hp == 16  # not a cultist: no extra damage


def test_below_half_health_the_cult_die_is_rolled(monkeypatch):
    """Pack 1, Joining The Cult: "Whenever the marked character's health falls below half of
    its starting level (or if it is already below half ... when they draw this curse) ...
    take up the cult die instead"; at half or more, "retrieve their character die"."""
    s = cult_room(monkeypatch, {"do": "draw", "n": 1}, smith={"hp": 8})
    s = chance(act(s, "draw smith"), "marked")
    assert "cult die" in " ".join(map(english, s.log))
    view = G.view(s, None)["chars"][0]
    assert view["marked"] and view["cult_die"]
    s = set_char(s, "smith", hp=9)  # exactly half of 18: the own die again
    assert not G.view(s, None)["chars"][0]["cult_die"]


def test_the_cult_die_outside_combat_counts_as_rolled(monkeypatch):
    """Pack 1, The Cult Dice: "Outside of combat, resolve all results rolled on the cult die
    as normal, regardless of colour"."""
    test = {
        "do": "test",
        "who": "you",
        "trait": "c",
        "attempts": 1,
        "fail": [{"do": "damage", "who": "you", "n": 1}],
    }
    s = cult_room(monkeypatch, test, smith={"curses": ["marked"], "hp": 6})
    assert {o for o, _ in G.chance_outcomes(s)} == {"m", "c", "w", "ww", "black m", "black c"}
    s = chance(s, "black c")
    assert char(s, "smith").hp == 6 and "succeeds" in " ".join(map(english, s.log))


def test_a_white_cult_face_attacks_first_and_as_normal(monkeypatch):
    """Pack 1, Attacking: "Resolve their attack before any other character's attack. If the
    player marked for death rolls a white-sided result ... apply their attack as normal"."""
    s = cult_room(
        monkeypatch,
        combat("mcw", 2),
        picks=("smith", "tailor", "abbot"),
        smith={"curses": ["marked"], "hp": 5},
        tailor={"items": ["axe"]},
    )
    s = act(s, "fight")
    assert s.pending == Pending("roll", char=0, why="combat")  # the cult die first
    s = chance(s, "w", "m", "c")
    assert G.legal_actions(s, 0) == ["hit smith"]
    assert "hit abbot" not in G.legal_actions(s, 2)
    s = act(s, "hit smith")
    assert s.combat.row == ["m", "c"]


def test_a_black_cult_face_joins_the_enemy_row(monkeypatch):
    """Pack 1, Attacking: "if they roll a black-sided result during combat ... add the cult
    die, as rolled, to the row of chapter dice ... The character marked for death takes no
    further part in the combat, and takes no damage"."""
    s = cult_room(
        monkeypatch,
        combat("mm", 2),
        picks=("smith", "tailor", "abbot"),
        smith={"curses": ["marked"], "hp": 5},
    )
    s = act(s, "fight")
    s = chance(s, "black c")
    assert s.combat.row == ["m", "m", "c"] and s.combat.turned == [0]
    assert "joins the enemy's row" in " ".join(map(english, s.log))
    s = chance(s, "c", "w")  # the Tailor hits the cult die away; the Abbot misses
    s = act(s, "hit tailor")
    assert s.combat.row == ["m", "m"]
    assert char(s, "smith").hp == 5 and char(s, "abbot").hp == 12
    # The next round: the Smith still sits out, and may not rest either.
    assert set(G.legal_actions(s, 0)) == {"fight", "rest tailor", "rest abbot"}
    s = act(s, "fight")
    assert s.pending.char == 1 and 0 not in s.combat.fighters
    s = chance(s, "m", "mm")
    s = act(s, "hit tailor")  # the Abbot's double then finishes it
    assert s.combat is None and char(s, "smith").curses == ["marked"]
    assert s.pending == Pending("drawer", n=1)  # the loot: who draws it?


def test_the_death_knight_is_a_cultist_boss():
    """Pack 1: The Death Knight leads the cult: every phase is a cultist."""
    assert all(step.get("cultist") for step in cards.combat_steps(cards.BOSSES["b_deathknight"]))


def test_chance_never_offers_a_curse_to_nobody(monkeypatch):
    """The item draw with curses always knows who draws it."""
    s = cult_room(monkeypatch, {"do": "draw", "n": 1})
    assert G.to_act(s) != [CHANCE]
    s = act(s, "draw smith")
    assert G.to_act(s) == [CHANCE] and s.pending.by == 0
