"""How the AI judges a Hidden Castle position it has not played to the end (engines/ai).

Each player's score as it will stand (the standard game's lowest wins; Midnight Party
counts chambers and steps at the round's end, highest wins), less the danger of guests
standing in the Gallery just ahead of the Phantom. Seats are then compared pairwise.
"""

from __future__ import annotations

import math

from engines.hidden_castle import board as B
from engines.hidden_castle.game import CHAMBER, GALLERY, STAIRS, HiddenCastle, HiddenCastleState

SEARCH_SCALE = 0.7


def danger(game: HiddenCastle, s: HiddenCastleState, g: int) -> float:
    """About how likely the Phantom is to catch guest g before it moves again."""
    if s.where[g] != GALLERY:
        return 0.0
    reach = game.speed(s)
    if s.phantom:
        ahead = (s.pos[g] - s.phantom) % B.SPACES
    else:  # still climbing: it comes out at the exit
        ahead = B.CLIMB - s.climbed + (s.pos[g] - B.EXIT) % B.SPACES
    if ahead == 0 or ahead > 2 * reach:
        return 0.0
    return 0.5 if ahead <= reach else 0.2


def standing(game: HiddenCastle, s: HiddenCastleState, seat: int) -> float:
    """Higher is better, in points."""
    midnight = s.variant == B.MIDNIGHT
    steps = B.STEPS[s.variant]
    score = float(s.scores[seat])
    risk = 0.0
    for g in range(len(s.owner)):
        if s.owner[g] != seat:
            continue
        risk += danger(game, s, g) * 7
        if midnight:
            if s.where[g] == CHAMBER:
                score += B.COATS[s.variant].get(s.pos[g], 0)
            elif s.where[g] == STAIRS:
                score += steps[s.pos[g]]
    return (score if midnight else -score) - risk


def evaluate(game: HiddenCastle, s: HiddenCastleState) -> list[float]:
    n = len(s.names)
    value = [standing(game, s, p) for p in range(n)]
    out = []
    for p in range(n):
        duels = [1 / (1 + math.exp(-0.25 * (value[p] - value[o]))) for o in range(n) if o != p]
        out.append(sum(duels) / len(duels))
    return out
