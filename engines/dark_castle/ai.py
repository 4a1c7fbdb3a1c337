"""How the AI judges a Dark Castle position it has not played to the end (engines/ai).

The party plays as one: the escape is lost when any prisoner dies, so the weakest
prisoner's health counts most, then how far through the castle the party has come. Every
seat gets the same value: each bot plays for the party.

`useful` keeps the search from moves that only undo one made earlier in the item phase
(take then drop, stow then take out, a ritual begun again after it was called off): such a
move leaves the party where it was, and searching it again and again once let a bot party
shuffle items for ever.
"""

from __future__ import annotations

from engines.dark_castle import party, phase
from engines.dark_castle.game import CASTLE_CHAPTERS, DarkCastle, DarkCastleState

_UNDOES = {  # verb -> the record of the phase whose move it would undo
    "unstow": phase.STOWED,
    "stow": phase.UNSTOWED,
    "rite": phase.CALLED_OFF,
}


def evaluate(game: DarkCastle, s: DarkCastleState) -> list[float]:
    if not all(c.who for c in s.chars):
        return [0.5] * len(s.names)
    # A companion (Pack 2) may fall without losing the game: only prisoners count here.
    prisoners = [c for c in s.chars if c.seat >= 0]
    weakest = min(c.hp for c in prisoners) / s.hp_start
    average = sum(c.hp for c in prisoners) / (s.hp_start * len(prisoners))
    progress = len(s.used) / (CASTLE_CHAPTERS + 1)
    items = sum(len(c.items) for c in prisoners) / (2 * len(prisoners))
    value = 0.45 * weakest + 0.2 * average + 0.3 * progress + 0.05 * items
    return [value] * len(s.names)


def useful(game: DarkCastle, s: DarkCastleState, seat: int, legal: list[str]) -> list[str]:
    """The legal moves less those that undo a move of this item phase (all of them, if that
    left nothing)."""
    if not s.pending or not any(r in s.pending.records for r in (phase.TAKEN, *_UNDOES.values())):
        return legal
    keep = []
    for action in legal:
        verb, *args = action.split()
        if verb == "drop" and args:
            holder = s.chars[party.holder(s, args[0])].who
            if phase.noted(s, phase.TAKEN, args[0], holder):
                continue
        elif verb in _UNDOES and args and phase.noted(s, _UNDOES[verb], args[0]):
            continue
        keep.append(action)
    return keep or legal
