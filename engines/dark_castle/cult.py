"""Cult of the Death Knight (rulebook: "Adventure Pack 1"): curses in the item deck, Marked
for Death and the cult die. Read against the rulebook:

- Curses lurk in the item deck, so the group names who draws each card (`items.Drawer`). A
  curse drawn affects its drawer: it sits beside their character (no hand), and stays unless
  its card says when it lifts (`cards.CURSE_KEYS`): at once, when its holder rests, or when
  the party wins a combat. A curse may hurt at once (`now`), drink HP whenever a chapter is
  turned (`drain`), add to every enemy blow (`frail`), or stop doubles from blocking
  (`noblock`; `party.blocks_with_double`). Companions may be cursed, to no effect.
- Marked for Death (`marked`): cultist enemies and cultist chapter damage hurt its holder 1 HP
  more (`combat.defend`, `chapters.damage`), the holder may not rest (`combat.resters`), and
  below half the starting HP the cult die replaces their own (`party.cult_die`). Its black
  faces join the enemy's row (`combat.rolled`); a prisoner on it rolls and resolves first.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.dark_castle import cards, effects, party, words
from engines.dark_castle.rules import Drawn, Pack, Position
from engines.text import msg


def draw_curse(t: Position, k: int, curse_id: str) -> Drawn:
    """A curse drawn by character k sits beside them (not an item, no hand) and stays
    unless the card says otherwise."""
    s = t.s
    card = cards.ITEMS[curse_id]
    curse = card["curse"]
    t.say(
        msg(
            "A curse! {name} draws {card}: {text}",
            name=party.name(s, k),
            card=words.card(card["name"]),
            text=words.card(card["text"]),
        ),
        kind="curse",
    )
    if party.companion(s, k):  # a companion may be cursed, to no effect
        t.say(msg("It has no hold on {name}: the curse is discarded.", name=party.name(s, k)))
        return Drawn()
    s.chars[k].curses.append(curse_id)
    if curse.get("now"):
        effects.hurt(t, k, curse["now"])
        effects.check_death(t)
    if curse.get("lift") == "now":
        s.chars[k].curses.remove(curse_id)
    if curse.get("marked") and party.cult_die(s, k):
        t.say(msg("{name} is below half health: the cult die takes over.", name=party.name(s, k)))
    return Drawn()


def lift(t: Position, when: str, who: Sequence[int]) -> None:
    """Curses that lift at this moment ("rest", "combat") leave their holders."""
    s = t.s
    for k in who:
        for curse_id in list(s.chars[k].curses):
            if cards.ITEMS[curse_id]["curse"].get("lift") == when:
                s.chars[k].curses.remove(curse_id)
                name = words.card(cards.ITEMS[curse_id]["name"])
                t.say(
                    msg("The curse {curse} lifts from {name}.", curse=name, name=party.name(s, k))
                )


def drain(t: Position) -> None:
    """Whenever a chapter is turned, a draining curse drinks from its holder."""
    s = t.s
    for j in range(len(s.chars)):
        n = sum(c.get("drain", 0) for c in party.curses(s, j))
        if n:
            t.say(msg("A curse drinks from {name}.", name=party.name(s, j)))
            effects.hurt(t, j, n)


def cult_die(t: Position, k: int) -> Sequence[str] | None:
    return t.rules.dice["cult"] if party.cult_die(t.s, k) else None


PACK = Pack(
    name="cult",
    item_cards={"curse": draw_curse},
    dice={"cult": cards.CULT_DIE},
    die=cult_die,
    on_turn=drain,
    on_rest=lambda t, k: lift(t, "rest", [k]),
    on_victory=lambda t: lift(t, "combat", range(len(t.s.chars))),
)
