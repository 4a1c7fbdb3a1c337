"""Dark Castle content: every card parses, every reference exists, the castle has its size."""

from __future__ import annotations

import re

import pytest

from engines import REGISTRY
from engines.dark_castle import cards
from engines.dark_castle.game import CASTLE_CHAPTERS

G = REGISTRY["dark_castle"]


def test_core_box_size():
    """Our core box (docs/games.md, Dark Castle): at least 45 chapters, 3 bosses, 35 items, 6 characters."""
    assert len(cards.in_sets(cards.CHAPTERS, ["core"])) >= 45
    assert len(cards.in_sets(cards.BOSSES, ["core"])) >= 3
    assert len(cards.in_sets(cards.ITEMS, ["core"])) >= 35
    assert len([c for c in cards.CHARACTERS.values() if c["set"] == "core"]) == 6
    assert len(cards.STARTS) >= 1
    assert len(cards.CHAPTERS) >= CASTLE_CHAPTERS


@pytest.mark.parametrize("card_id", sorted(cards.ALL_CARDS))
def test_every_card_parses(card_id):
    """Every chapter, start and boss card uses only the step vocabulary and known tags."""
    assert cards.check_card(cards.ALL_CARDS[card_id]) == []


@pytest.mark.parametrize("item_id", sorted(cards.ITEMS))
def test_every_item_parses(item_id):
    """Rulebook, Item Cards: "The text on each item card describes what it does"; some
    items are "two-handed"."""
    assert cards.check_item(cards.ITEMS[item_id]) == []
    handless = (
        cards.is_curse(item_id)
        or cards.is_plague_card(item_id)
        or cards.is_companion_card(item_id)
        or item_id == "knapsack"
    )
    assert cards.ITEMS[item_id]["hands"] in ((0,) if handless else (1, 2))


@pytest.mark.parametrize("comp_id", sorted(cards.COMPANIONS))
def test_every_companion_parses_and_has_its_event_card(comp_id):
    """Pack 2, Companions: "Companions each have a starting HP shown on their card", "a unique
    character die", "a unique characteristic" and "a unique special ability"; each enters by
    "their corresponding event cards"."""
    comp = cards.COMPANIONS[comp_id]
    assert cards.check_companion(comp) == []
    events = [i for i in cards.ITEMS if cards.ITEMS[i].get("companion") == comp_id]
    assert len(events) == 1 and cards.is_companion_card(events[0])
    assert (
        cards.CHARACTERS[comp_id]["companion"]
        and cards.CHARACTERS[comp_id]["faces"] == comp["faces"]
    )


def test_the_companion_checker_catches_broken_companions():
    bad = {
        "id": "x",
        "title": "X",
        "faces": ["m"] * 6,
        "hp": 0,
        "text": "",
        "trait": "",
        "special": {"k": "fly"},
    }
    problems = " ".join(cards.check_companion(bad))
    for word in ("one of them special", "unknown special", "HP from"):
        assert word in problems


def test_the_undead_pack_marks_some_combats_companions_not_counted():
    """Pack 2, Exception: the symbol that leaves companions out of the dice per player."""
    steps = [
        p
        for c in cards.in_sets(cards.ALL_CARDS, ["undead"])
        for p in cards.combat_steps(cards.ALL_CARDS[c])
    ]
    marked = [p for p in steps if p.get("prisoners_only")]
    assert marked and len(marked) < len(steps)


def test_every_needed_tag_is_carried_by_an_item():
    """Every item a chapter asks for (a key, a light, a rope...) exists in the item deck."""
    needed = set()
    for card in cards.ALL_CARDS.values():
        needed |= set(re.findall(r'"needs": "(\w+)"', str(card).replace("'", '"')))
    tags = {t for item in cards.ITEMS.values() for t in item.get("tags", [])}
    assert needed and needed <= tags


def test_checker_catches_broken_cards():
    """The content check itself must be able to fail."""
    bad = {
        "id": "bad",
        "title": "Bad",
        "text": "x",
        "steps": [
            {"do": "explode"},
            {"do": "combat", "name": "X", "dice": "mq", "attack": 0},
            {"do": "choose", "options": [{"label": "a", "needs": "unicorn", "steps": []}]},
            {"do": "test", "who": "you", "trait": "m", "double": True, "attempts": 0},
            {
                "do": "combat",
                "name": "Y",
                "dice": "cc",
                "attack": 1,
                "specials": [{"k": "armoured", "trait": "m"}],
            },
        ],
    }
    problems = " ".join(cards.check_card(bad))
    words = ("unknown step", "bad dice", "attack", "two options", "unicorn", "endless", "armour")
    for word in words:
        assert word in problems


def test_character_dice_match_the_published_trait_counts():
    """Rulebook: "The number beside each symbol shows how many times the symbol appears";
    Abbot 3/1/4, Cook 4/3/1, Miller 3/4/1, Smith 4/1/3, Tailor 1/4/3, Tanner 1/3/4, and
    "Two sides of each character's die are doubles"."""
    published = {
        "abbot": (3, 1, 4),
        "cook": (4, 3, 1),
        "miller": (3, 4, 1),
        "smith": (4, 1, 3),
        "tailor": (1, 4, 3),
        "tanner": (1, 3, 4),
    }
    for who, counts in published.items():
        faces = cards.CHARACTERS[who]["faces"]
        assert len(faces) == 6
        assert tuple(sum(f.count(t) for f in faces) for t in "mcw") == counts
        assert sum(1 for f in faces if len(f) == 2) == 2


def test_chapter_mix_and_scene_text():
    """Issue 7: roughly half combat, a quarter tests, a quarter choices and events (in the
    core castle; a pack has its own flavour); every chapter has one or two sentences of scene
    text of its own."""
    kinds = {"combat": 0, "test": 0, "other": 0}
    for card in cards.CHAPTERS.values():
        sentences = len(re.findall(r"[.!?](\s|$)", card["text"]))
        assert 1 <= sentences <= 3, card["id"]
        assert 40 <= len(card["text"]) <= 260, card["id"]
        if card["set"] != "core":
            continue
        first = card["steps"][0]["do"] if card["steps"] else "narrate"
        key = "combat" if first == "combat" else "test" if "test" in first else "other"
        kinds[key] += 1
    total = sum(kinds.values())
    assert 0.4 <= kinds["combat"] / total <= 0.6
    assert 0.15 <= kinds["test"] / total <= 0.35
    assert 0.15 <= kinds["other"] / total <= 0.35
    texts = [c["text"] for c in cards.ALL_CARDS.values()]
    assert len(set(texts)) == len(texts)


def test_bosses_have_several_phases_and_specials():
    """Rulebook: bosses are the last card; ours (docs/games.md, Dark Castle): several phases, each a
    row of symbols plus dice per player, a higher attack value, and a special."""
    chapter_attack = max(
        p["attack"] for c in cards.CHAPTERS.values() for p in cards.combat_steps(c)
    )
    for boss in cards.BOSSES.values():
        phases = cards.combat_steps(boss)
        assert len(phases) >= 3, boss["id"]
        assert all(not p.get("loot", True) for p in phases)
        assert all(p.get("specials") and p.get("per_player", 0) >= 1 for p in phases), boss["id"]
        assert max(p["attack"] for p in phases) > chapter_attack - 1, boss["id"]
        assert [p["attack"] for p in phases] == sorted(p["attack"] for p in phases)


def test_enemies_strike_with_varied_force():
    """Issue 7: "varied"; the chapters' enemies do not all hit alike."""
    attacks = {p["attack"] for c in cards.CHAPTERS.values() for p in cards.combat_steps(c)}
    assert len(attacks) >= 2


def test_longest_actions_fit_in_32_bytes():
    """Engine contract: actions are short ASCII strings of at most 32 bytes."""
    longest_item = max(cards.ITEMS, key=len)
    longest_char = max(cards.CHARACTERS, key=len)
    for action in (
        f"take {longest_item} {longest_char}",
        f"discard {longest_item}",
        f"rest {longest_char}",
        f"send {longest_char}",
        f"pick {longest_char}",
    ):
        assert len(action.encode()) <= 32
        assert action == action.lower() and action.isascii()
