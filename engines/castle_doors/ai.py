"""How the AI judges a Castle Doors position it has not played to the end (engines/ai).

The race is everything: each character's rows still to cross, against every rival's.
Cards in hand help a little (more ways to open the way). For hints
(engines/ai/threats.py): `threats` reads off the board who can win on their next turn.
`useful` leaves out `back` (taking a chosen card back only undoes the choice).
"""

from __future__ import annotations

import math

from engines.ai.threats import WIN, Threat
from engines.castle_doors import board as B
from engines.castle_doors import castle as K
from engines.castle_doors.game import CastleDoors, CastleState
from engines.text import msg


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


def useful(game: CastleDoors, s: CastleState, seat: int, legal: list[str]) -> list[str]:
    """`back` only takes a chosen card back into the hand: searching it lets a search (and a
    hint's look one turn ahead) choose every card twice over."""
    return [a for a in legal if a != "back"] or legal


def threats(game: CastleDoors, s: CastleState, seat: int) -> list[Threat] | None:
    """Once `seat`'s turn is over: every opponent who, free of a net, stands one step from
    an open door of their far row (the board alone: a key they may hold is not guessed).
    None while it is still `seat`'s turn."""
    if s.phase == "over" or s.turn == seat:
        return None
    out = []
    for other in range(len(s.names)):
        if other == seat or s.netted[other]:
            continue
        far = B.far_row(s.edges[other], s.width, s.height)
        for cell in sorted(c for c in K.steps(s, other).values() if c in far):
            said = msg("{name} can step onto {cell} and win next turn", name=s.names[other], cell=cell)  # fmt: skip
            out.append(Threat(other, WIN, said))
    return out
