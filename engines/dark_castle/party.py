"""The party's character sheets, read: who is who, what they may carry, which die they roll.

Pure reads of `DarkCastleState.chars`, shared by the core rules and every pack. A sheet holds
what the packs write on it too (curses, plague, a flaw, a companion's card), so the questions
about it are answered here once: a companion's HP cap (Pack 2), Marked for Death and the cult
die (Pack 1), the tools a character may use (items and a Collector's Box flaw).
"""

from __future__ import annotations

from functools import lru_cache

from engines.dark_castle import cards
from engines.dark_castle.state import DarkCastleState
from engines.text import Msg, in_context, msg


def index(s: DarkCastleState, who: str) -> int:
    """The character playing `who` (a trade, `smith`, or a companion's id)."""
    return next(k for k, c in enumerate(s.chars) if c.who == who)


def mine(s: DarkCastleState, seat: int) -> list[int]:
    """The characters a seat acts for: its own, and a companion (anyone's)."""
    return [k for k, c in enumerate(s.chars) if c.seat in (seat, -1)]


def name(s: DarkCastleState, k: int) -> Msg:
    """How the log names character k: "Ann (Smith)", or the title alone in solo play and for
    a companion."""
    char = s.chars[k]
    if not char.who:
        return Msg("?")
    sheet = cards.CHARACTERS[char.who]
    if len(s.names) == 1 or char.seat < 0 or "short" not in sheet:
        return sheet["title"]
    return _named(s.names[char.seat], char.who)


@lru_cache(maxsize=256)
def _named(player: str, who: str) -> Msg:
    """ "Ann (Smith)": made once (the log names characters on nearly every move)."""
    return msg("{player} ({character})", player=player, character=cards.CHARACTERS[who]["short"])


# What a button calls a companion after "the" (their ids; the cards' titles say more).
COMPANION_SHORT = {
    "novice": in_context("companion", "Novice"),
    "gravehand": in_context("companion", "Gravehand"),
    "hound": in_context("companion", "Hound"),
}


def short(who: str) -> Msg:
    """A character's short name, as after "the" on a button: "Cook", "Novice"."""
    sheet = cards.CHARACTERS.get(who, {})
    return sheet.get("short") or COMPANION_SHORT.get(who) or Msg(who.title())


def title(who: str) -> Msg:
    """A character's card title by its id ("The Smith"); an unknown id as it is."""
    sheet = cards.CHARACTERS.get(who)
    return sheet["title"] if sheet else Msg(who)


# ----- companions (Pack 2: Scourge of the Undead Queen) -------------------------------
def companion(s: DarkCastleState, k: int) -> dict | None:
    """The companion card of character k, or None for a prisoner."""
    if 0 <= k < len(s.chars):
        return cards.COMPANIONS.get(s.chars[k].who)
    return None


def companion_index(s: DarkCastleState) -> int | None:
    return next((k for k in range(len(s.chars)) if companion(s, k)), None)


def prisoner_count(s: DarkCastleState) -> int:
    return sum(1 for k in range(len(s.chars)) if not companion(s, k))


def cap(s: DarkCastleState, k: int) -> int:
    """The most HP character k may have: a companion's own start, else the party's."""
    comp = companion(s, k)
    return comp["hp"] if comp else s.hp_start


def immune(s: DarkCastleState, k: int) -> bool:
    """A spirit companion: no damage touches it."""
    comp = companion(s, k)
    return bool(comp and comp.get("immune"))


# ----- curses (Pack 1: Cult of the Death Knight) --------------------------------------
def curses(s: DarkCastleState, k: int) -> list[dict]:
    return [cards.ITEMS[i]["curse"] for i in s.chars[k].curses]


def marked(s: DarkCastleState, k: int) -> bool:
    held = s.chars[k].curses
    return bool(held) and any(cards.ITEMS[i]["curse"].get("marked") for i in held)


def cult_die(s: DarkCastleState, k: int) -> bool:
    """Marked for Death below half the starting HP: the cult die replaces the character's."""
    return s.chars[k].hp * 2 < s.hp_start and marked(s, k)


def blocks_with_double(s: DarkCastleState, k: int) -> bool:
    """A double blocks, unless a curse says this character's doubles do not."""
    return not any(c.get("noblock") for c in curses(s, k))


# ----- what a character carries and may use -------------------------------------------
def tools(s: DarkCastleState, k: int) -> list[str]:
    """What character k may use: carried items, and an unused flaw (one use a game)."""
    char = s.chars[k]
    flaw = [char.flaw] if char.flaw and not char.flaw_used else []
    return char.items + flaw


def fits(s: DarkCastleState, k: int, item: str) -> bool:
    """Two hands a character; a companion carries nothing, or one ordinary one-handed item."""
    char = s.chars[k]
    if char.seat == -1:
        return companion_fits(s, k, item)
    used = sum(cards.ITEMS[i]["hands"] for i in char.items)
    return used + cards.ITEMS[item]["hands"] <= 2


def companion_fits(s: DarkCastleState, k: int, item: str) -> bool:
    """Pack 2: a companion carries nothing, except one who may carry one ordinary one-handed
    item (not a relic, not the knapsack)."""
    comp = companion(s, k)
    card = cards.ITEMS[item]
    relics = {"chalice", "spellbook", "stone", "knapsack"}
    plain = not relics & {e["k"] for e in card.get("effects", [])}
    return bool(comp.get("carries") and not s.chars[k].items and card["hands"] == 1 and plain)


def tags(s: DarkCastleState) -> set[str]:
    """The item tags the party carries (a chapter's option may need a rope, a light...)."""
    return {t for c in s.chars for i in c.items for t in cards.ITEMS[i].get("tags", [])}


def holder(s: DarkCastleState, item_id: str) -> int:
    """Who carries the item."""
    return next(k for k, c in enumerate(s.chars) if item_id in c.items)


def wounded(s: DarkCastleState) -> bool:
    return any(c.hp < cap(s, j) for j, c in enumerate(s.chars))
