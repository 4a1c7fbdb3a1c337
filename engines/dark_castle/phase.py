"""What has happened so far in one item phase (between chapters, or while new items are
shared out): kept in the phase's `pending` step, so it ends with the phase.

One rule reads it (rules text, ITEMS; rules version 5): a prisoner who puts an item down
cannot take that same item back before the phase ends; another prisoner may take it. So
an item changes hands at most once per prisoner in a phase, and the party cannot shuffle
items for ever. The other records (taken, stowed, taken out, rituals called off) are facts
of the phase that let a player's helper (the AI, `engines/dark_castle/ai.py`) tell a move
that would only undo one made earlier in the phase.
"""

from __future__ import annotations

from engines.dark_castle import cards
from engines.dark_castle.state import DarkCastleState, Pending
from engines.dark_castle.words import card
from engines.text import Msg, msg

DROPPED = "dropped"  # "item who": put down by that prisoner (the rule)
TAKEN = "taken"  # "item who": taken from the table by that character
STOWED = "stowed"  # item put into a knapsack
UNSTOWED = "unstowed"  # item taken out of a knapsack
CALLED_OFF = "called_off"  # the recipient of a blood ritual called off


def note(s: DarkCastleState, record: str, *words: str) -> None:
    """Remember a move of this phase (nothing is kept outside an item phase)."""
    if s.pending is not None:
        s.pending.records.setdefault(record, []).append(" ".join(words))


def noted(s: DarkCastleState, record: str, *words: str) -> bool:
    return s.pending is not None and " ".join(words) in s.pending.records.get(record, ())


def may_take(s: DarkCastleState, item: str, who: str) -> bool:
    """The rule: not an item this character put down in this phase."""
    return not noted(s, DROPPED, item, who)


def carried_over(old: Pending | None, new: Pending) -> Pending:
    """The records of the phase `old`, kept in `new` when a step within the phase (a blood
    ritual called off or drunk) hands back to it."""
    if old:
        for record in (DROPPED, TAKEN, STOWED, UNSTOWED, CALLED_OFF):
            if record in old.records:
                new.records[record] = list(old.records[record])
    return new


def refusal(item: str, who: str) -> Msg:
    """Why a take is refused under the rule."""
    sheet = cards.CHARACTERS.get(who)
    return msg(
        "{prisoner} put {item} down in this item phase and cannot take it back until the "
        "next chapter; another prisoner may take it.",
        prisoner=sheet["title"] if sheet else who,
        item=card(cards.ITEMS[item]["name"]) if item in cards.ITEMS else item,
    )
