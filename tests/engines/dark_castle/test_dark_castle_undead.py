"""Adventure Pack 2, Scourge of the Undead Queen (rulebook: "Adventure Pack 2"): companions
from event cards in the item deck, the Ritual Chalice and the Spell Book, the pack on its own
or mixed."""

from __future__ import annotations

from engines import CHANCE
from engines.dark_castle import cards, castle
from engines.dark_castle.state import Pending
from engines.text import english
from tests.engines.dark_castle.test_dark_castle_helpers import (
    G,
    act,
    add_card,
    chance,
    char,
    combat,
    edit,
    open_card,
    room_with,
    set_char,
    started,
)

UNDEAD = {"undead": "on"}
TEST_W = {
    "do": "test",
    "who": "you",
    "trait": "w",
    "attempts": 1,
    "fail": [{"do": "damage", "who": "you", "n": 1}],
}


def undead_room(monkeypatch, *steps, options=None, **kwargs):
    return room_with(options or UNDEAD, monkeypatch, *steps, **kwargs)


def with_companion(s, comp_id, **fields):
    """A companion already in play (as its event card would have put it)."""
    comp = cards.COMPANIONS[comp_id]
    data = G.dump(s)
    data["chars"].append(
        {
            "who": comp_id,
            "seat": -1,
            "hp": comp["hp"],
            "items": [],
            "roll": "",
            "spent": [],
            "curses": [],
            "plague": 0,
            "stored": [],
            **fields,
        }
    )
    return G.load(data)


def companion_room(monkeypatch, comp_id, *steps, comp=None, who="smith", options=None, **chars):
    """A test room opened after a companion joined (it joins between chapters)."""
    add_card(monkeypatch, *steps)
    s = started(chars.pop("picks", ("smith", "tailor")), options=options or UNDEAD)
    for name, fields in chars.items():
        s = set_char(s, name, **fields)
    s = with_companion(s, comp_id, **(comp or {}))
    return open_card(s, "t_room", who=who)


# ----- the pack ---------------------------------------------------------------------------
def test_the_pack_holds_15_numbered_chapters_its_boss_companions_and_relics():
    """Pack 2, Setting Up: "Take the 15 chapter cards contained in this pack", "The Undead
    Queen boss card", "the 3 companion event cards and the two new items cards"."""
    chapters = cards.in_sets(cards.CHAPTERS, ["undead"])
    assert sorted(cards.CHAPTERS[c]["n"] for c in chapters) == list(range(1, 16))
    assert cards.in_sets(cards.BOSSES, ["undead"]) == ["b_undeadqueen"]
    items = cards.in_sets(cards.ITEMS, ["undead"])
    assert len([i for i in items if cards.is_companion_card(i)]) == 3
    assert {"chalice", "spellbook"} <= set(items) and len(items) == 5
    assert len(cards.COMPANIONS) == 3 and all(
        cards.check_companion(c) == [] for c in cards.COMPANIONS.values()
    )


def test_the_cards_join_the_item_deck_only_when_the_pack_is_on():
    """Pack 2: "Shuffle the item card deck, including the 3 companion event cards and the two
    new items cards"."""
    assert not {"ev_hound", "chalice", "spellbook"} & set(castle.deck(started()))
    assert {"ev_hound", "ev_novice", "ev_gravehand", "chalice", "spellbook"} <= set(
        castle.deck(started(options=UNDEAD))
    )


def test_companions_are_never_offered_as_prisoners():
    s = G.setup(["A"], UNDEAD)
    assert not [a for a in G.legal_actions(s, 0) if a.split()[1] in cards.COMPANIONS]


def test_the_pack_on_its_own_in_number_order_with_its_boss():
    """Pack 2, Setting Up: "we recommend playing with the chapter cards in number order" and
    "Place The Undead Queen boss card face-down underneath the castle deck"."""
    s = started(options={"undead": "on", "castle": "pack-numbered"})
    s = act(s, "turn smith")
    assert G.chance_outcomes(s) == [("uq_ossuary", 1.0)]
    s = G.load({**G.dump(s), "used": cards.in_sets(cards.CHAPTERS, ["undead"]), "pending": None})
    s = G.load({**G.dump(s), "pending": {"kind": "between"}})
    s = act(s, "turn smith")
    assert G.chance_outcomes(s) == [("b_undeadqueen", 1.0)]


def test_everything_mixed():
    """Pack 2: "you can mix together everything in your Escape the Dark Castle collection"."""
    opts = {"undead": "on", "cult": "on", "plague": "on"}
    s = act(started(options=opts), "turn smith")
    sets = {cards.CHAPTERS[o]["set"] for o, _ in G.chance_outcomes(s)}
    assert sets == {"core", "cult", "plague", "undead"}


# ----- companions enter -----------------------------------------------------------------
def test_a_companion_enters_when_its_event_card_is_drawn(monkeypatch):
    """Pack 2, Event Cards: "Companions enter play when their corresponding event cards are
    drawn from the item deck ... put the corresponding companion card into play along with
    their unique character die"."""
    s = undead_room(monkeypatch, {"do": "draw", "n": 1})
    s = chance(s, "ev_hound")
    hound = char(s, "hound")
    assert hound.hp == 6 and hound.seat == -1 and len(s.chars) == 3
    assert s.pending == Pending("between") and s.pool == []  # the event card was the draw
    view = G.view(s, None)["chars"][2]
    assert view["companion"] and view["hp_max"] == 6 and view["faces"].count("x") == 1
    assert view["player"] == "any player"


def test_a_second_companion_card_is_discarded_and_replaced(monkeypatch):
    """Pack 2: "If a companion is already in play and you draw a new companion event card,
    discard it and draw another item card to replace it"."""
    s = companion_room(monkeypatch, "hound", {"do": "draw", "n": 1})
    s = chance(s, "ev_novice")
    assert [c.who for c in s.chars] == ["smith", "tailor", "hound"]
    assert s.pending == Pending("item", n=1)  # the replacement
    s = chance(s, "salve")
    assert s.pool == ["salve"] and "ev_novice" not in castle.deck(s)


def test_of_several_companion_cards_drawn_at_once_only_the_first_applies(monkeypatch):
    """Pack 2: "When drawing multiple item cards, if you draw two or more companion cards apply
    only the first and discard the others, drawing replacements for them"."""
    s = undead_room(monkeypatch, {"do": "draw", "n": 2})
    s = chance(s, "ev_gravehand", "ev_novice", "salve")
    assert [c.who for c in s.chars] == ["smith", "tailor", "gravehand"]
    assert s.pool == ["salve"] and s.pending == Pending("share")


# ----- companions as players --------------------------------------------------------------
def test_companions_count_as_players_for_each_player_effects(monkeypatch):
    """Pack 2, Companions as 'Players': "'each player must roll might in one attempt', or 'each
    player gains 1HP', or 'draw an item card per player' - this would include companions"."""
    steps = [
        {"do": "damage", "who": "all", "n": 2},
        {"do": "heal", "who": "all", "n": 1},
        {"do": "test", "who": "each", "trait": "m", "attempts": 1},
        {"do": "draw", "n": "per_player"},
    ]
    s = companion_room(monkeypatch, "gravehand", *steps)
    assert [c.hp for c in s.chars] == [17, 17, 7]
    s = chance(s, "m", "m")  # the Smith and the Tailor
    assert s.pending == Pending("roll", char=2, why="test")  # the Gravehand tests too
    s = chance(s, "m")
    assert s.pending == Pending("item", n=3)


def test_companions_are_left_out_of_the_dice_per_player_where_the_card_marks_it(monkeypatch):
    """Pack 2, Exception: "Where this symbol is used, when rolling a chapter die 'per player' to
    set up combat you must exclude companions from the player count"."""
    marked = dict(combat("m", 1, 1), prisoners_only=True)
    s = companion_room(monkeypatch, "hound", marked)
    assert s.pending == Pending("dice", n=2)
    s = companion_room(monkeypatch, "hound", combat("m", 1, 1))
    assert s.pending == Pending("dice", n=3)
    assert "companions not counted" in " ".join(
        G.view(companion_room(monkeypatch, "hound", marked), None)["card"]["asks"]
    )


def test_a_companion_leads_into_a_chapter_and_is_you(monkeypatch):
    """Pack 2: "Companions can lead into chapters, becoming the subject of you effects"."""
    s = companion_room(monkeypatch, "hound", {"do": "damage", "who": "you", "n": 2}, who="hound")
    assert char(s, "hound").hp == 4 and char(s, "smith").hp == 18


def test_any_player_acts_for_the_companion(monkeypatch):
    """Pack 2, Companions: "they can be controlled by any player"."""
    test = dict(TEST_W, who="each")
    s = companion_room(monkeypatch, "gravehand", test, comp={"items": ["rabbitfoot"]})
    s = chance(s, "w", "w", "m")  # the Gravehand fails, and has an item to re-roll
    assert s.pending == Pending("react", char=2) and G.to_act(s) == [0, 1]
    assert "use rabbitfoot" in G.legal_actions(s, 1)


def test_companions_can_be_named_to_draw_and_curses_and_plague_do_not_touch_them(monkeypatch):
    """Pack 2: "Companions can be nominated to draw item cards ... can therefore be cursed,
    made to roll for PLAGUE etc - even if doing so will not affect them"."""
    opts = {"undead": "on", "cult": "on", "plague": "on"}
    s = companion_room(monkeypatch, "hound", {"do": "draw", "n": 2}, options=opts)
    assert "draw hound" in G.legal_actions(s, 0)
    s = chance(act(s, "draw hound"), "brittle")
    assert char(s, "hound").curses == [] and char(s, "hound").hp == 6
    s = chance(act(s, "draw hound"), "fester")
    assert G.dump(s)["pending"] == {"kind": "plague", "char": 2, "after": None}
    s = chance(s, "3")
    assert char(s, "hound").plague == 0 and char(s, "hound").hp == 6


# ----- companions fight -------------------------------------------------------------------
def test_a_companion_fights_takes_damage_and_rests_up_to_its_start(monkeypatch):
    """Pack 2: "Companions take damage in combat as normal" and "can rest in combat to restore
    1HP as normal ... A companion cannot exceed their starting HP"."""
    s = companion_room(monkeypatch, "hound", combat("mmm", 2))
    s = act(s, "fight")
    s = chance(s, "c", "c", "c")
    s = act(act(s, "hit smith"), "hit tailor")
    assert char(s, "hound").hp == 4 and char(s, "smith").hp == 16
    assert "rest hound" in G.legal_actions(s, 0)
    s = act(s, "rest hound")
    assert char(s, "hound").hp == 5
    s = chance(s, "c", "c")
    s = act(s, "hit smith")
    s = act(s, "rest hound")
    s = chance(s, "c", "c")
    s = act(s, "hit smith")
    s = act(s, "rest hound")
    assert char(s, "hound").hp == 6  # never above its own start


def test_the_spirit_is_immune_to_damage_and_gains_nothing_by_resting(monkeypatch):
    """Pack 2: "The Spirit of the First Prisoner, who may fight and be attacked but who is
    immune to damage" and "can REST but does not benefit from doing so" (our Grey Novice)."""
    s = companion_room(
        monkeypatch, "novice", combat("mmm", 2), {"do": "damage", "who": "all", "n": 3}
    )
    s = act(s, "fight")
    s = chance(s, "c", "c", "c")
    s = act(act(s, "hit smith"), "hit tailor")
    assert char(s, "novice").hp == 5 and "untouched" in " ".join(map(english, s.log))
    s = act(s, "rest novice")
    assert char(s, "novice").hp == 5


def test_companions_carry_no_items_but_the_gravehand_carries_one(monkeypatch):
    """Pack 2: "Companions cannot carry items for you (with the exception of The Witch Hunter
    - see companion card)": our Gravehand carries one ordinary one-handed item."""
    s = companion_room(monkeypatch, "hound", {"do": "draw", "n": 1})
    s = chance(s, "salve")
    assert "take salve hound" not in G.legal_actions(s, 0)
    s = companion_room(monkeypatch, "gravehand", {"do": "draw", "n": 2})
    s = chance(s, "salve", "warhammer")
    legal = G.legal_actions(s, 0)
    assert "take salve gravehand" in legal and "take warhammer gravehand" not in legal
    s = act(s, "take salve gravehand")
    assert char(s, "gravehand").items == ["salve"]
    s = edit(s, pool=["bread", "chalice"])
    assert not [a for a in G.legal_actions(s, 0) if a.endswith(" gravehand")]


def test_a_special_in_a_chapter_combat_triggers_its_ability(monkeypatch):
    """Pack 2, Special Abilities: "When the character rolls the special symbol side of their
    die during combat, read the special ability aloud and apply the effect"."""
    s = companion_room(monkeypatch, "gravehand", combat("mmcw", 2))
    s = act(s, "fight")
    s = chance(s, "c", "c", "x")
    s = act(s, "hit gravehand")  # Dirty Fighting: one die of each trait
    assert s.combat.row == ["m"]
    s = companion_room(monkeypatch, "novice", combat("mmm", 2))
    s = act(s, "fight")
    s = chance(s, "c", "c", "x")
    s = act(act(s, "hit novice"), "hit smith")  # Grave Chill: everyone blocks
    assert char(s, "smith").hp == 18 and char(s, "tailor").hp == 18


def test_a_special_against_a_boss_only_blocks(monkeypatch):
    """Pack 2, Important note: "If a companion rolls a special during combat with a Boss, it
    counts only as a BLOCK. The special ability does not trigger"."""
    s = started(options=UNDEAD)
    s = with_companion(s, "gravehand")
    s = G.load({**G.dump(s), "used": cards.in_sets(cards.CHAPTERS, ["undead"])})
    s = chance(act(s, "turn smith"), "b_undeadqueen", "mm")  # 2 prisoners' dice: companions
    row = sorted(
        cards.combat_steps(cards.BOSSES["b_undeadqueen"])[0]["dice"] + "mm", key="mcw".index
    )
    assert s.combat.row == row  # two dice per player: the companion is not counted
    s = act(s, "fight") if s.pending.kind == "rest" else s
    s = chance(s, "c", "c", "x")
    s = act(act(s, "hit gravehand"), "hit smith")
    assert s.combat.row == row
    assert char(s, "gravehand").hp == 8 and char(s, "smith").hp == 18 - s.combat.attack


def test_a_special_outside_combat_counts_as_a_double_of_choice(monkeypatch):
    """Pack 2: "If a companion rolls a special outside of combat, it counts as a DOUBLE of your
    choice. The special ability does not trigger"."""
    test = {
        "do": "test",
        "who": "you",
        "trait": "c",
        "double": True,
        "attempts": 1,
        "fail": [{"do": "damage", "who": "you", "n": 3}],
    }
    s = companion_room(monkeypatch, "hound", test, who="hound")
    s = chance(s, "x")
    assert char(s, "hound").hp == 6 and "succeeds" in " ".join(map(english, s.log))


def test_at_zero_hp_a_companion_leaves_and_the_game_goes_on(monkeypatch):
    """Pack 2: "when a companion's HP reaches zero the game does not end - they simply leave
    your party and their card should be set aside"."""
    s = companion_room(
        monkeypatch, "gravehand", combat("mmm", 2), comp={"hp": 2, "items": ["skeletonkey"]}
    )
    s = act(s, "fight")
    s = chance(s, "c", "c", "c")
    s = act(act(s, "hit smith"), "hit tailor")
    assert [c.who for c in s.chars] == ["smith", "tailor"] and not s.outcome
    assert s.pending == Pending("rest") and s.combat.fighters == [0, 1]
    assert "skeletonkey" not in castle.held(s)  # the item went with her
    assert G.result(s) is None


def test_a_companion_who_leaves_as_you_leaves_no_you(monkeypatch):
    """Our decision: a YOU effect still to come after the companion who turned the card has
    left hits nobody."""
    steps = [
        {"do": "damage", "who": "you", "n": 9},
        {"do": "damage", "who": "you", "n": 2},
        {"do": "damage", "who": "all", "n": 1},
    ]
    s = companion_room(monkeypatch, "hound", *steps, who="hound")
    assert len(s.chars) == 2 and [c.hp for c in s.chars] == [17, 17]
    assert s.pending == Pending("between")


def test_the_hound_draws_one_more_item_after_a_won_combat(monkeypatch):
    """Our companion's characteristic: the Kennel Hound scavenges one more item card."""
    s = companion_room(monkeypatch, "hound", combat("m", 2))
    s = act(s, "fight")
    s = act(chance(s, "m", "c", "c"), "hit smith")
    assert s.pending == Pending("item", n=2)


# ----- the Ritual Chalice -------------------------------------------------------------------
def test_the_blood_ritual_between_chapters(monkeypatch):
    """Pack 2, Ritual Chalice: "at the end of any chapter and before turning the next chapter
    card, any number of players can choose to perform the blood ritual ... Each donor must
    declare the amount of HP ... the recipient ... restoring HP equal to the total amount
    donated. Discard the chalice after use"."""
    s = undead_room(
        monkeypatch,
        {"do": "narrate"},
        picks=("smith", "tailor", "abbot"),
        smith={"items": ["chalice"], "hp": 3},
        tailor={"hp": 10},
        abbot={"hp": 14},
    )
    assert s.pending == Pending("between")
    assert {"rite smith", "rite tailor"} <= set(G.legal_actions(s, 0))
    assert "rite abbot" not in G.legal_actions(s, 0)  # not wounded
    s = act(s, "rite smith")
    assert G.view(s, None)["relics"]["ritual"] == {"to": "smith", "gifts": {}, "lacks": 11}
    # Each donor pledges for themself: the Tailor's seat may not pledge the Abbot's HP.
    assert not [a for a in G.legal_actions(s, 1) if a.startswith("give abbot")]
    legal = G.legal_actions(s, 1)
    assert "give tailor 9" in legal and "give tailor 10" not in legal  # keeps 1 HP
    s = act(s, "give tailor 8", 1)
    # Never more in all than the recipient lacks (11): the Abbot may give 3 at most.
    assert "give abbot 3" in G.legal_actions(s, 2) and "give abbot 4" not in G.legal_actions(s, 2)
    s = act(s, "give abbot 2", 2)
    assert "drink" in G.legal_actions(s, 0)
    s = act(s, "drink")
    assert [c.hp for c in s.chars] == [13, 2, 12]
    assert char(s, "smith").items == [] and s.pending == Pending("between")
    assert "chalice" not in castle.held(s)


def test_the_ritual_called_off_costs_nothing(monkeypatch):
    s = undead_room(monkeypatch, {"do": "narrate"}, smith={"items": ["chalice"], "hp": 5})
    s = act(act(s, "rite smith"), "give tailor 4", 1)
    s = act(s, "stop")
    assert [c.hp for c in s.chars] == [5, 18] and char(s, "smith").items == ["chalice"]


# ----- the Spell Book ----------------------------------------------------------------------
def test_the_spell_book_offers_a_spell_instead_of_the_roll(monkeypatch):
    """Pack 2, Spell Book: "whenever you would roll your character die you may attempt to cast a
    spell instead ... choose the spell ... making sure you meet the requirements, then roll the
    spell die once and apply the effect"."""
    s = undead_room(monkeypatch, TEST_W, smith={"items": ["spellbook"]})
    assert s.pending == Pending("cast", char=0, why="test") and G.to_act(s) == [0]
    assert set(G.legal_actions(s, 0)) == {"roll", "cast insight"}  # nobody is wounded
    s = act(s, "roll")
    assert s.pending == Pending("roll", char=0, why="test")
    s = undead_room(monkeypatch, TEST_W, smith={"items": ["spellbook"]})
    s = act(s, "cast insight")
    assert G.chance_outcomes(s) == cards.die_outcomes(cards.SPELL_DIE)
    s = chance(s, "success")
    assert char(s, "smith").hp == 18 and "succeeds" in " ".join(map(english, s.log))


def test_a_spell_that_does_not_help_the_test_fails_the_attempt(monkeypatch):
    s = undead_room(monkeypatch, TEST_W, smith={"items": ["spellbook"], "hp": 10})
    s = chance(act(s, "cast mend"), "success")
    assert [c.hp for c in s.chars] == [11, 18]  # healed 2, then failed the test: -1


def test_a_bolt_strikes_dice_from_the_row(monkeypatch):
    s = undead_room(monkeypatch, combat("mmcw", 2), smith={"items": ["spellbook"]})
    s = act(s, "fight")
    assert set(G.legal_actions(s, 0)) == {"roll", "cast bolt", "cast ward"}
    s = chance(act(s, "cast bolt"), "success")
    assert s.combat.row == ["c", "w"] and s.pending == Pending("roll", char=1, why="combat")
    s = chance(s, "c")
    assert s.combat.row == ["w"] and char(s, "smith").hp == 16  # no attack, no block


def test_the_spell_die_can_backfire_or_crumble(monkeypatch):
    """Pack 2: "if you cast the spell incorrectly you could injure yourself or a fellow
    prisoner, or cause the destruction of the spell book itself"."""
    s = undead_room(monkeypatch, TEST_W, smith={"items": ["spellbook"]}, tailor={"hp": 12})
    s = chance(act(s, "cast insight"), "recoil")
    assert char(s, "smith").hp == 18 - 2 - 1
    s = undead_room(monkeypatch, TEST_W, smith={"items": ["spellbook"]}, tailor={"hp": 12})
    s = chance(act(s, "cast insight"), "stray")
    assert char(s, "tailor").hp == 10 and char(s, "smith").hp == 17  # the only ally
    s = undead_room(monkeypatch, TEST_W, smith={"items": ["spellbook"]})
    s = chance(act(s, "cast insight"), "crumble")
    assert char(s, "smith").items == [] and "spellbook" not in castle.held(s)


def test_casting_is_not_offered_on_a_reroll_from_an_item(monkeypatch):
    s = undead_room(monkeypatch, TEST_W, smith={"items": ["spellbook", "rabbitfoot"]})
    s = chance(act(s, "roll"), "m")
    s = act(s, "use rabbitfoot")
    assert G.to_act(s) == [CHANCE]


# ----- the picture --------------------------------------------------------------------------
def test_the_picture_shows_the_companion_and_the_relics(monkeypatch):
    """Issue 16: every supplement mechanic "shown in the pictures (... the companion ...)":
    the companion's name, HP of its own start, die and special; the ritual under way."""
    import render

    s = companion_room(monkeypatch, "novice", combat("mmm", 2), comp={"hp": 5})
    s = chance(act(s, "fight"), "c", "c", "x")
    view = G.view(s, None)
    assert render.board_png("dark_castle", view).startswith(b"\x89PNG")
    text = render.describe("dark_castle", view)
    for words in ("The Grey Novice (any player): 5 of 5 HP", "the special face", "Grave Chill"):
        assert words in text
    s = undead_room(monkeypatch, {"do": "narrate"}, smith={"items": ["chalice"], "hp": 5})
    s = act(act(s, "rite smith"), "give tailor 4", 1)
    view = G.view(s, None)
    assert view["relics"]["chalice"] == "smith"
    assert render.board_png("dark_castle", view).startswith(b"\x89PNG")
    assert "Blood ritual for the Smith: pledged Tailor 4 HP." in render.describe(
        "dark_castle", view
    )


def test_a_refused_pledge_or_spell_says_what_is_allowed(monkeypatch):
    """Engine contract: an illegal action's message "says what is allowed instead"."""
    from engines import IllegalAction

    s = undead_room(monkeypatch, {"do": "narrate"}, smith={"items": ["chalice"], "hp": 5})
    s = act(s, "rite smith")
    for action, words in (("give tailor 18", "keeping at least 1 HP"), ("cast bolt", "Spell")):
        try:
            G.apply(s, 1, action)
        except IllegalAction as refusal:
            assert words in str(refusal)
        else:
            raise AssertionError(action)


def test_a_special_still_triggers_when_death_dice_combine_the_round(monkeypatch):
    """Pack 2's special ability with the Collector's Box death dice: the companion's special
    resolves first, then the other results combine against the shield."""
    options = {"undead": "on", "collector": "on"}
    step = dict(combat("w", 2, 1), death=True)
    s = companion_room(monkeypatch, "gravehand", step, options=options)
    assert s.pending == Pending("death", n=3)  # the companion counts: no marking here
    s = chance(s, "m c s")
    s = act(s, "fight")
    s = chance(s, "c", "c", "x")
    if s.pending == Pending("attack"):  # a flaw could be used first: resolve by hand
        s = act(s, "hit all")
    assert "Dirty Fighting" in " ".join(map(english, s.log))
    assert "w" not in (s.combat or {"row": []})["row"]


def test_no_ritual_is_offered_when_nobody_could_give(monkeypatch):
    """Our decision: donors keep at least 1 HP, so with nobody else above 1 HP there is no
    ritual to begin."""
    s = undead_room(
        monkeypatch, {"do": "narrate"}, smith={"items": ["chalice"], "hp": 5}, tailor={"hp": 1}
    )
    assert "rite smith" not in G.legal_actions(s, 0) and "rite tailor" in G.legal_actions(s, 0)


def test_the_picture_shows_the_spells_open_to_the_book_holder(monkeypatch):
    """The Spell Book's choice names the spells whose requirement is met, on the board too."""
    import render

    s = undead_room(monkeypatch, combat("mmc", 2), tailor={"items": ["spellbook"], "hp": 9})
    s = chance(act(s, "fight"), "c")
    view = G.view(s, None)
    assert [x.split(" (")[0] for x in view["relics"]["casting"]["spells"]] == [
        "Bone Bolt",
        "Veil of Ash",
        "Knit Flesh",
    ]
    assert render.board_png("dark_castle", view).startswith(b"\x89PNG")
    assert "The Tailor may cast instead of rolling: Bone Bolt" in render.describe(
        "dark_castle", view
    )
