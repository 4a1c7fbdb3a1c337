"""Death dice (rulebook: Collector's Box, "Death Dice", "Shields", "Split Doubles"): rolled
instead of chapter dice on marked combats, shields and split faces removed by results that
combine across prisoners in the same round, and the two chapters that never use them."""

from __future__ import annotations

import render
from engines import CHANCE
from engines.dark_castle import cards, castle, death_dice
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
    room_with,
    started,
)

BOX = {"collector": "on"}
FOUR = ("smith", "tailor", "abbot", "cook")


def death_combat(dice="", attack=2, per_player=1, *specials):
    step = combat(dice, attack, per_player, *specials)
    step["death"] = True
    return step


def fight(s, *rolls):
    """Start a round with nobody resting, force each fighter's roll in seat order, and resolve
    the round together (the flaws dealt by the box may still be used first)."""
    if s.pending.kind == "rest":
        s = act(s, "fight")
    s = chance(s, *rolls)
    if s.pending == Pending("attack"):
        s = act(s, "hit all")
    return s


def test_death_dice_are_rolled_instead_of_chapter_dice_where_marked(monkeypatch):
    """Death Dice: "roll them during combat setup instead of normal chapter dice whenever you
    see this symbol"; "After being rolled, death dice should be placed in the row of chapter
    dice"."""
    s = room_with(BOX, monkeypatch, death_combat("m"))
    assert s.pending == Pending("death", n=2) and G.to_act(s) == [CHANCE]
    outcomes = dict(G.chance_outcomes(s))
    assert "mc s" in outcomes and "m c" in outcomes and "mc cw" in outcomes
    assert abs(sum(outcomes.values()) - 1) < 1e-9 and abs(outcomes["s s"] - 1 / 36) < 1e-9
    s = chance(s, "mc s")
    assert s.combat.row == ["m", "mc", "s"] and s.combat.death == ["mc", "s"]
    view = G.view(s, None)
    assert view["combat"]["death"] == ["mc", "s"]
    assert "Shield" in render.describe("dark_castle", view)
    assert render.board_png("dark_castle", view).startswith(b"\x89PNG")


def test_without_the_collectors_box_a_marked_combat_rolls_chapter_dice(monkeypatch):
    """Death dice are a choice ("If you choose to play with death dice"): off with the box."""
    s = room_with({}, monkeypatch, death_combat("m"))
    assert s.pending == Pending("dice", n=2)


def test_the_two_excluded_chapters_use_normal_chapter_dice(monkeypatch):
    """Death Dice: "There are two chapters in the game in which death dice cannot be used. For
    these cards, use normal chapter dice instead". Ours are the Gargoyle and the Empty
    Harness, whose specials would contradict the pairing rules (the card says why)."""
    excluded = sorted(cid for cid, card in cards.ALL_CARDS.items() if card.get("no_death"))
    assert excluded == ["empty_harness", "gargoyle"]
    for cid in excluded:
        steps = cards.combat_steps(cards.ALL_CARDS[cid])
        assert steps and all(st.get("per_player") for st in steps)
        assert not any(death_dice.marked(cards.ALL_CARDS[cid], st) for st in steps)
    # Even a death mark on such a card is ignored: the excluded chapter rolls chapter dice.
    marked_anyway = {**cards.CHAPTERS["gargoyle"], "steps": [death_combat("mw")]}
    monkeypatch.setitem(cards.CHAPTERS, "gargoyle", marked_anyway)
    monkeypatch.setitem(cards.ALL_CARDS, "gargoyle", marked_anyway)
    s = room_with(BOX, monkeypatch, death_combat("m"))
    s = G.load({**G.dump(s), "combat": None, "frames": [], "pending": {"kind": "between"}})
    s = chance(act(s, "turn smith"), "gargoyle")
    assert s.pending == Pending("dice", n=2)


def test_a_double_of_any_type_removes_a_shield(monkeypatch):
    """Shields: "These can be removed by: 1) Rolling a DOUBLE (of any type)"."""
    s = room_with(BOX, monkeypatch, death_combat("w"))
    s = fight(chance(s, "w s"), "mm", "c")  # the Smith's Might double, the Tailor's Cunning
    # The Might double goes whole on the shield; both Wisdom dice stay and strike back.
    assert s.combat.row == ["w", "w"]
    assert "P1 (Smith) breaks a shield with a double" in " ".join(map(english, s.log))
    assert char(s, "smith").hp == 18 and char(s, "tailor").hp == 16  # the double blocked


def test_two_matching_singles_from_two_prisoners_remove_a_shield(monkeypatch):
    """Shields: "or 2) Two characters combining two matching SINGLES"."""
    s = room_with(BOX, monkeypatch, death_combat("c"))
    s = fight(chance(s, "s s"), "m", "m")
    assert s.combat.row == ["c", "s"]
    assert "combine Might and Might: a shield breaks" in " ".join(map(english, s.log))
    # Singles that do not match leave the shield standing; the Cunning one hits its die.
    s = fight(s, "w", "c")
    assert s.combat.row == ["s"]


def test_one_prisoner_cannot_pair_with_their_own_results(monkeypatch):
    """Shields: "Two characters combining": a prisoner's lone single never breaks a shield, and
    a split die needs two players ("two players combining their results")."""
    add_card(monkeypatch, death_combat("", per_player=1))
    s = started(("ratcatcher", "smith"), options={"collector": "on", "plague": "on"})
    s = chance(open_card(s, "t_room", who="ratcatcher"), "mc mc")
    # The Ratcatcher's split double (Might and Cunning) is one prisoner's: it removes no split
    # die alone, but the Smith's Might joins its Cunning to remove one.
    s = fight(s, "mc", "w")
    assert s.combat.row == ["mc", "mc"]
    assert char(s, "ratcatcher").hp == 18  # it still blocks
    s = fight(s, "mc", "m")
    assert s.combat.row == ["mc"]


def test_a_split_death_die_falls_to_two_players_combining(monkeypatch):
    """Split Doubles: "can be removed by two players combining their results in the same round
    to match the traits shown"."""
    s = room_with(BOX, monkeypatch, death_combat(""))
    s = fight(chance(s, "cw cw"), "c", "w")
    assert s.combat.row == ["cw"]
    assert "combine Cunning and Wisdom: the Cunning+Wisdom die falls" in " ".join(
        map(english, s.log)
    )


def test_results_split_and_combine_to_clear_a_whole_row(monkeypatch):
    """Split Doubles: "You can split and combine character dice results to remove multiple
    death dice ... all of the chapter dice (including the death dice) would be removed!"
    A 4-player round: doubles split across a shield, two split faces and a plain die."""
    s = room_with(BOX, monkeypatch, death_combat("w", 2, 0), picks=FOUR)
    s = G.load({**G.dump(s), "combat": {**G.dump(s)["combat"], "row": ["w", "mc", "cw", "s"]}})
    s = fight(s, "mm", "cc", "ww", "m")
    assert s.combat is None  # the enemy fell: every die, shield and splits included, is gone
    text = " ".join(map(english, s.log))
    assert "a shield breaks" in text and "the Might+Cunning die falls" in text


def test_with_an_item_to_use_the_party_resolves_together_with_hit_all(monkeypatch):
    """House rule (chat play has no turn order): while a shield or split face is in the row,
    the round's results are resolved together (`hit all`) once items have been used; with no
    item to use they resolve by themselves."""
    spent = {"flaw_used": True}
    s = room_with(
        BOX, monkeypatch, death_combat("m"), smith={"items": ["axe"], **spent}, tailor=spent
    )
    s = chance(act(chance(s, "mc s"), "fight"), "w", "c")
    legal = G.legal_actions(s, 0)
    assert (
        "hit all" in legal
        and "use axe" in legal
        and not [a for a in legal if a.startswith("hit smith")]
    )
    assert "hit all" in G.view(s, None)["prompt"]
    assert G.describe(s, "hit all") == death_dice.HIT_ALL_LABEL
    s = act(s, "use axe", 0)  # the Throwing Axe strikes the Might die: it does not touch shields
    # Nobody has an item left: the round resolves by itself (Wisdom and Cunning pair nothing).
    assert s.combat.row == ["mc", "s"] and char(s, "smith").hp == 16
    assert s.pending == Pending("rest")


def test_a_death_die_is_a_chapter_die_for_item_rules(monkeypatch):
    """Death Dice: "From that point on, they become 'chapter dice' for the purposes of all other
    game rules": a death die showing Might is struck by an item that removes a Might die."""
    s = room_with(BOX, monkeypatch, death_combat("", 2, 1), smith={"items": ["axe"]})
    s = chance(act(chance(s, "m s"), "fight"), "w", "c")
    assert s.combat.death == ["m", "s"] and s.combat.row == ["m", "s"]
    s = act(s, "use axe", 0)
    assert s.combat.row == ["s"]


def test_the_plan_prefers_breaking_shields_among_equal_counts():
    """Among allocations that remove as many dice, the harder dice go first: two Might singles
    break a shield rather than leave it beside an easy Might die."""

    from types import SimpleNamespace

    from engines.dark_castle.state import Character

    s = SimpleNamespace(
        combat=SimpleNamespace(row=["m", "s"], rolls={"0": "m", "1": "m"}),
        chars=[Character("smith", 0, 18), Character("tailor", 1, 18)],
    )
    best = death_dice.plan(s, [0, 1])
    assert best["pairs"] == [("s", (0, "m"), (1, "m"))] and best["hits"] == []


def test_death_dice_content_marks():
    """Content check: marked combats roll per-player dice; the faces are ours."""
    marked = [
        (cid, st)
        for cid, card in cards.ALL_CARDS.items()
        for st in cards.combat_steps(card)
        if death_dice.marked(card, st)
    ]
    assert len(marked) >= 12
    assert all(st.get("per_player") for _, st in marked)
    assert {cards.ALL_CARDS[cid]["set"] for cid, _ in marked} >= {"core", "cult", "plague"}
    assert sorted(death_dice.DEATH_DIE, key=death_dice.row_key) == ["m", "c", "w", "mc", "cw", "s"]
    assert all(len(o) <= 32 for o, _ in death_dice.outcomes(4))


# ----- the Living Stone -------------------------------------------------------------------
SPENT = {"flaw_used": True}


def stone_room(monkeypatch, step, rolls=("w", "c"), dice="mc s"):
    """A combat with the Smith holding the Living Stone, rolls made, attacks not resolved."""
    s = room_with(BOX, monkeypatch, step, smith={"items": ["stone"], **SPENT}, tailor=SPENT)
    if s.pending.kind == "death":
        s = chance(s, dice)
    return chance(act(s, "fight"), *rolls)


def test_the_living_stone_is_in_the_item_deck_with_the_box():
    """The Living Stone: "should be shuffled into the item deck during setup, and the die set
    aside until called for"."""
    s = started(options=BOX)
    assert "stone" in castle.deck(s) and "stone" not in castle.deck(started())
    assert (
        cards.ITEMS["stone"]["set"] == "collector" and cards.check_item(cards.ITEMS["stone"]) == []
    )


def test_the_stone_crushes_a_die_of_your_choice_even_a_death_die(monkeypatch):
    """Death Dice: "if the text of an item card read 'remove a chapter die of your choice' you
    could remove a death die": the stone's crush face takes the shield the party picks."""
    s = stone_room(monkeypatch, death_combat("m"))
    assert "use stone" in G.legal_actions(s, 0)
    s = act(s, "use stone", 0)
    assert s.pending == Pending("stone", char=0)
    assert dict(G.chance_outcomes(s))["crush"] == 2 / 6
    s = chance(s, "crush")
    assert G.legal_actions(s, 1) == ["crush m", "crush mc", "crush s"]
    assert G.describe(s, "crush s") == "Crush a Shield die"
    s = act(s, "crush s", 1)
    view = G.view(s, None)
    assert view["combat"]["stone"] == "crush" and "Living Stone" in render.describe(
        "dark_castle", view
    )
    assert render.board_png("dark_castle", view).startswith(b"\x89PNG")
    # Nothing else to use: the round resolved itself (Wisdom and Cunning pair nothing).
    assert s.combat.row == ["m", "mc"] and char(s, "smith").hp == 16
    assert "use stone" not in G.legal_actions(act(s, "fight"), 0)  # once a chapter


def test_the_stone_shelters_mends_and_bites(monkeypatch):
    """Our Living Stone die: shelter blocks its holder, mend heals 2, bite costs 1 HP."""
    for face, smith_hp in (("shelter", 18), ("mend", 12 + 2 - 2), ("bite", 12 - 1 - 2)):
        start = 18 if face == "shelter" else 12
        s = room_with(
            BOX,
            monkeypatch,
            combat("mmm", 2),
            smith={"items": ["stone"], "hp": start, **SPENT},
            tailor=SPENT,
        )
        s = chance(act(s, "fight"), "c", "c")
        s = chance(act(s, "use stone", 0), face)
        s = act(s, "hit smith", 0)  # the Tailor's attack then resolves by itself
        assert char(s, "smith").hp == smith_hp, face
        assert char(s, "tailor").hp == 16
