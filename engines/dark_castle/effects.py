"""The public effects interface: what any card, item, combat or pack does to the party.

Every rule that hurts, heals, checks for a death, passes plague, draws item cards or asks for
a die roll calls these, so each effect has one owner, and the packs' moments (a companion
leaving at 0 HP, the Collector's epilogue, the Spell Book replacing a roll) join in here.
"""

from __future__ import annotations

from engines.dark_castle import cards, castle, explain, party
from engines.dark_castle.rules import Position
from engines.dark_castle.state import Pending
from engines.dark_castle.words import listed
from engines.text import joined, msg


def hurt(t: Position, k: int, n: int) -> None:
    """Character k loses n HP (never below 0; the death check is the caller's, once all the
    blows of a moment have landed)."""
    s = t.s
    if n <= 0:
        return
    if party.immune(s, k):
        t.say(msg("{name} is untouched: no blow can harm a spirit.", name=party.name(s, k)))
        return
    char = s.chars[k]
    before = party.cult_die(s, k)
    char.hp = max(0, char.hp - n)
    t.say(
        msg("{name} loses {n} HP ({hp} left).", name=party.name(s, k), n=n, hp=char.hp),
        kind="damage",
    )
    if char.hp > 0 and not before and party.cult_die(s, k):
        t.say(
            msg(
                "{name} falls below half health and yields to the cult: the cult die replaces theirs.",
                name=party.name(s, k),
            )
        )


def heal(t: Position, k: int, n: int) -> int:
    """Never above the start (a companion's own); returns the HP gained. A marked prisoner
    back at half health takes their own die back: the cult die is worked out from HP."""
    char = t.s.chars[k]
    before = char.hp
    char.hp = min(party.cap(t.s, k), char.hp + n)
    return char.hp - before


def check_death(t: Position) -> None:
    """Anyone at 0 HP ends the escape (after the packs' own look: a companion leaves)."""
    s = t.s
    t.rules.before_death_check(t)
    dead = [k for k, c in enumerate(s.chars) if c.hp <= 0]
    if dead and not s.outcome:
        s.outcome = "lost"
        s.pending = None
        who = listed([party.name(s, k) for k in dead])
        t.say(msg("{who} dies. The castle keeps its prisoners: the escape has failed.", who=who))
        t.rules.ended(t)


def gain_plague(t: Position, k: int, n: int, rolled: bool = False) -> None:
    """Pack 3: plague only grows by rolls and cards; each threshold reached costs HP at once,
    even mid-combat. Companions roll for plague, to no effect."""
    s = t.s
    char = s.chars[k]
    if party.companion(s, k):
        t.say(
            msg("{name} shrugs off the plague: a companion is unaffected.", name=party.name(s, k))
        )
        return
    before = char.plague
    char.plague = before + n
    said = dict(name=party.name(s, k), n=n, plague=char.plague)
    if rolled:
        t.say(msg("{name} rolls {n} on the plague die ({plague} plague).", **said), kind="plague")
    else:
        t.say(msg("{name} gains {n} plague ({plague} plague).", **said), kind="plague")
    for threshold, loss in cards.PLAGUE_THRESHOLDS:
        if before < threshold <= char.plague:
            t.say(
                msg(
                    "{name} reaches plague {threshold}.", name=party.name(s, k), threshold=threshold
                )
            )
            hurt(t, k, loss)
    check_death(t)


def cure(t: Position, k: int, n: int) -> None:
    char = t.s.chars[k]
    lost = min(n, char.plague)
    char.plague -= lost
    if lost:
        t.say(
            msg(
                "{name} loses {n} plague ({plague} left).",
                name=party.name(t.s, k),
                n=lost,
                plague=char.plague,
            )
        )


def draw(t: Position, n: int, tainted: bool = False) -> None:
    """Draw n item cards (tainted: the loot of a carrier, passing plague when taken). Where
    curses or plague cards lurk in the deck, the group first names who draws each."""
    s = t.s
    if n > 0 and castle.deck(s):
        kind = "drawer" if castle.curses_in_play(s) else "item"
        s.pending = Pending(kind, n=n)
        if tainted:
            s.pending.tainted = True


def discard_pool(t: Position) -> None:
    """Items nobody took are left behind when the party moves on."""
    s = t.s
    if s.pool:
        t.say(msg("Left behind: {items}.", items=joined([explain.item_name(i) for i in s.pool])))
        s.pool = []
    s.tainted = []


def spend_tag(t: Position, tag: str) -> None:
    """Use up one item with the tag; where the party has several, it chooses which."""
    s = t.s
    found = [
        (k, item)
        for k, c in enumerate(s.chars)
        for item in c.items
        if tag in cards.ITEMS[item].get("tags", [])
    ]
    if len(found) > 1:
        s.pending = Pending("discard", char=found[0][0], party=True, tag=tag)
        return
    for k, item in found:
        s.chars[k].items.remove(item)
        t.say(msg("{name} gives up {item}.", name=party.name(s, k), item=explain.the(item)))


def roll(t: Position, k: int, why: str) -> Pending:
    """The pending roll of character k's die for a test, a group test or combat, unless a
    pack offers something else first (the Spell Book: cast instead)."""
    return t.rules.roll(t, k, why) or Pending("roll", char=k, why=why)
