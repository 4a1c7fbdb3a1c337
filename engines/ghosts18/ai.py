"""How the AI judges an 18 Ghosts position it has not played to the end (engines/ai).

What wins is escaped ghosts of the colours still missing, so a player is worth: the
colours (or, in the short game, the ghosts) already out, plus for each colour still
needed how close their nearest ghost of it stands to the chamber its portal faces, plus a
little for every ghost still on the board. The rollout prefers a move that lets a ghost
escape or wins a fight. For hints (engines/ai/threats.py): a player's `gain` is the
ghosts out that count towards winning, and `threat_text` says which ghost gets out where.
"""

from __future__ import annotations

import math

from engines.ghosts18.board import BEATS, COLOURS, COLUMNS, PORTAL_CELL, ROWS, faced_cell, neighbour
from engines.ghosts18.game import TOTAL_GHOSTS, Ghosts18, Ghosts18State
from engines.ghosts18.words import COLOUR
from engines.text import Msg, msg


def _xy(cell: str) -> tuple[int, int]:
    return COLUMNS.index(cell[0]), ROWS.index(cell[1])


def _distance(a: str, b: str) -> int:
    (ax, ay), (bx, by) = _xy(a), _xy(b)
    return abs(ax - bx) + abs(ay - by)


def worth(s: Ghosts18State, seat: int) -> float:
    out = s.escaped[seat]
    needed = [c for c in COLOURS if out[c] == 0]
    value = (min(3, sum(out.values())) if s.short else 3 - len(needed)) * 3.0
    for colour in COLOURS if s.short else needed:
        goal = faced_cell(colour, s.portals[colour])
        cells = [c for c, (o, k) in s.board.items() if o == seat and k == colour]
        if not cells:
            continue
        if goal is None:  # facing the wall: it turns when a ghost of its colour is beaten
            near = min(_distance(c, PORTAL_CELL[colour]) for c in cells) + 1
        else:
            near = min(_distance(c, goal) for c in cells)
        value += 1.2 / (1 + near)
    value += 0.08 * sum(1 for o, _ in s.board.values() if o == seat)
    return value


def evaluate(game: Ghosts18, s: Ghosts18State) -> list[float]:
    if s.placed < TOTAL_GHOSTS:
        return [0.5, 0.5]
    edge = 1 / (1 + math.exp(-0.8 * (worth(s, 0) - worth(s, 1))))
    return [edge, 1 - edge]


def rollout(game: Ghosts18, s: Ghosts18State, seat: int, legal: list[str], rng) -> str:
    """Half the time, a move that wins a fight or reaches the chamber a portal faces."""
    if rng.random() < 0.5:
        faced = {faced_cell(c, s.portals[c]): c for c in COLOURS}
        good = []
        for action in legal:
            words = action.split()
            if words[0] != "move":
                continue
            target = neighbour(words[1], words[2])
            colour = s.board[words[1]][1]
            other = s.board.get(target)
            if faced.get(target) == colour or (other and BEATS[colour] == other[1]):
                good.append(action)
        if good:
            return good[int(rng.random() * len(good))]
    return legal[int(rng.random() * len(legal))]


def gain(game: Ghosts18, s: Ghosts18State, seat: int) -> float:
    """Ghosts out that count: any in the short game, a colour's first otherwise."""
    out = s.escaped[seat]
    return float(sum(out.values()) if s.short else sum(1 for c in COLOURS if out[c]))


def threat_text(
    game: Ghosts18, before: Ghosts18State, after: Ghosts18State, seat: int, at_once: bool
) -> Msg:
    """Which of `seat`'s ghosts gets out, from where (as it stands in `before`)."""
    name = before.names[seat]
    colour = next((c for c in COLOURS if after.escaped[seat][c] > before.escaped[seat][c]), "red")
    cell = faced_cell(colour, after.portals[colour]) or PORTAL_CELL[colour]
    said = dict(name=name, colour=COLOUR[colour], cell=cell)
    if at_once:
        return msg("{name}'s {colour} ghost would escape at {cell} at once", **said)
    if before.board.get(cell) == [seat, colour]:
        return msg("{name}'s {colour} ghost on {cell} escapes next turn", **said)
    start = next(
        (
            c
            for c, ghost in sorted(before.board.items())
            if ghost == [seat, colour] and _distance(c, cell) == 1
        ),
        None,
    )
    if start is None:
        return msg("{name}'s {colour} ghost can escape at {cell} next turn", **said)
    return msg(
        "{name}'s {colour} ghost on {start} can step to {cell} and escape next turn",
        start=start,
        **said,
    )
