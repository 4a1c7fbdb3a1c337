"""Which cards are in this castle: the content sets the options put in play, the prisoners on
offer, and the item deck (rulebook, "Setting Up the Game" and each pack's "Create the
Castle"). Pure reads of the state; the chance steps that deal from them are in
`opening.py`, `chapters.py` and `items.py`."""

from __future__ import annotations

from engines.dark_castle import cards
from engines.dark_castle.state import DarkCastleState
from engines.text import Msg, joined, msg


def collector(s: DarkCastleState) -> bool:
    return s.opts.get("collector") == "on"


def supplements(s: DarkCastleState) -> list[str]:
    return [name for name in cards.SUPPLEMENTS if s.opts.get(name) == "on"]


def chapter_sets(s: DarkCastleState) -> list[str]:
    """Mixed: the core castle and every pack in play; a pack alone: only the packs."""
    packs = [x for x in supplements(s) if cards.SUPPLEMENTS[x].get("chapters", True)]
    if s.opts.get("castle", "mixed") != "mixed" and packs:
        return packs
    return ["core", *packs]


def item_sets(s: DarkCastleState) -> list[str]:
    return ["core", *supplements(s)]


def curses_in_play(s: DarkCastleState) -> bool:
    """Curses or plague cards lurk in the item deck: the group names who draws each."""
    return bool({"cult", "plague"} & set(supplements(s)))


def prisoners(s: DarkCastleState) -> list[str]:
    """The characters on offer: the core six, and the three of the plague pack."""
    sets = item_sets(s)
    return [
        w
        for w, c in cards.CHARACTERS.items()
        if c.get("set", "core") in sets and not c.get("companion")
    ]


def title(s: DarkCastleState) -> Msg:
    sets = chapter_sets(s)
    names = [cards.SUPPLEMENTS[x]["title"] for x in sets if x in cards.SUPPLEMENTS]
    if "core" in sets:
        return joined([msg("The Dark Castle"), *names], " + ")
    if s.opts.get("castle") == "pack-numbered":
        return msg("{castle} (in number order)", castle=joined(names, " + "))
    return joined(names, " + ")


def held(s: DarkCastleState) -> set[str]:
    """Cards out of the deck and not in the discard pile: carried, stored, cursing, on
    the table."""
    out = {i for c in s.chars for i in c.items + c.curses + c.stored}
    return out | set(s.pool)


def deck(s: DarkCastleState) -> list[str]:
    """The item deck: never dealt since its last shuffle; when it is empty, the discard
    pile (dealt, and neither carried nor on the table) is what gets shuffled next."""
    out = held(s)
    left = sorted(set(cards.in_sets(cards.ITEMS, item_sets(s))) - set(s.dealt) - out)
    return left or sorted(set(s.dealt) - out)
