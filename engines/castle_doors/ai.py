"""How the AI judges a Castle Doors position it has not played to the end (engines/ai).

The race is everything: each character's rows still to cross, against every rival's.
Cards in hand help a little (more ways to open the way).
"""

from __future__ import annotations

import math

from engines.castle_doors import board as B
from engines.castle_doors.game import CastleDoors, CastleState


def rows_to_go(s: CastleState, seat: int) -> int:
    deep = B.rows_deep(s.edges[seat], s.width, s.height)
    cell = s.at[seat]
    if cell is None:
        return deep
    x, y = B.xy(cell)
    edge = s.edges[seat]
    depth = {"bottom": y, "top": s.height - 1 - y, "left": x, "right": s.width - 1 - x}[edge]
    return deep - 1 - depth


def evaluate(game: CastleDoors, s: CastleState) -> list[float]:
    n = len(s.names)
    strength = [-rows_to_go(s, p) + 0.1 * len(s.hands[p]) - 0.6 * s.netted[p] for p in range(n)]
    out = []
    for p in range(n):
        duels = [1 / (1 + math.exp(-0.9 * (strength[p] - strength[o]))) for o in range(n) if o != p]
        out.append(sum(duels) / len(duels))
    return out
