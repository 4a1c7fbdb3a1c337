"""Scourge of the Undead Queen (rulebook: "Adventure Pack 2"), as a pack: companions who join
from the item deck (`companions.py`) and two relics, the Ritual Chalice and the Spell Book
(`relics.py`). Its chapters, boss, event cards and relics are `content/undead.json`."""

from __future__ import annotations

from engines.dark_castle import cards, companions, relics
from engines.dark_castle.rules import Pack

PACK = Pack(
    name="undead",
    steps=(relics.Chalice(), relics.Cast(), relics.SpellRoll()),
    item_cards={"companion": companions.join},
    dice={"spell": cards.SPELL_DIE},
    camp=relics.Rite(),
    before_death_check=companions.leave,
    roll=relics.offer_spell,
    special_face=companions.special_face,
)
