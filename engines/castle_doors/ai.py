"""How the AI judges and plays Castle Doors (engines/ai).

`evaluate`: the race is everything, so each character is worth the turns its way to the far
row still costs: the cheapest path through the castle as it lies (an open door one step, a
closed door a step and a key, a barred or padlocked one much more), less a net's lost
turns; a card in hand helps a little. Seats are compared pairwise.

`rollout`: a plain player's turn, for a finished game's review (engines/ai/review.py) and
the bench's plain player; no level plays it in its search (see TUNING): stop an opponent
one step from winning (net them, padlock or close their door), open the door ahead, saw
its bars, else shut (key or padlock) the open door just ahead of an opponent; step where
the way to the far row is cheapest (`to_far_row`, the evaluation's own measure),
otherwise something at random (one step in twenty).

`focus` (hard alone searches with it, TUNING): a card's targets within two steps of a
character (or of the first row, for one still outside). A key or a padlock may otherwise go
on any of twenty to forty doors: a turn had some 150 ways to be played (six cards, 22
targets, two steps, on average), so the search barely saw the opponent's answer; a door
further off seldom matters within the turns a search sees.

For hints (engines/ai/threats.py): `threats` reads off the board who can win on their next
turn. `useful` leaves out `back` (taking a chosen card back only undoes the choice).
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from functools import cache

from engines.ai.threats import WIN, Threat
from engines.castle_doors import board as geometry
from engines.castle_doors.castle import passable, steps
from engines.castle_doors.game import CastleDoors, CastleState
from engines.text import msg

# engines/ai: no level plays `rollout` here. Hard with it (550 iterations, all its time
# allowed) won 7 of 15 seeded matches against normal at a quarter of both budgets, and
# 1.5 of 5 at full budgets; with random rollouts and twice the iterations, in the same
# time (0.78 s CPU median on 17 seeded positions), 9 of 10 and 10.5 of 20
# (docs/measurements.md): no worse, still short of the 60% issue 39 asks for. Hard then
# searched only the targets near a character (`focus`), in about the same time: 82 of 100
# seeded matches against normal, 0.75 s CPU a search median (docs/measurements.md).
TUNING = {
    "normal": {"heuristics": False},
    "hard": {"iterations": 1100, "heuristics": False, "focused": True},
}
REACH = 2  # steps from a character within which `focus` keeps a card's targets

FORWARD = {"bottom": "up", "top": "down", "left": "right", "right": "left"}
UNKNOWN_BARRED = 2 / 10  # a closed door never opened hides bars this often


@dataclass(frozen=True)
class Grid:
    """A castle's cells by number, so the shortest ways are worked out on lists: the search
    asks for them thousands of times a move."""

    cells: tuple[str, ...]
    index: dict[str, int]
    near: tuple[tuple[int, ...], ...]  # each cell's orthogonal neighbours
    far: dict[str, tuple[int, ...]]  # edge -> the far row of a character starting there
    first: dict[str, tuple[int, ...]]  # edge -> the first row


@cache
def grid(width: int, height: int) -> Grid:
    cells = tuple(geometry.cells(width, height))
    index = {c: i for i, c in enumerate(cells)}
    near = tuple(
        tuple(index[n] for d in geometry.STEPS if (n := geometry.step(c, d, width, height)))
        for c in cells
    )
    rows = {
        edge: (geometry.far_row(edge, width, height), geometry.first_row(edge, width, height))
        for edge in FORWARD
    }
    return Grid(
        cells,
        index,
        near,
        {e: tuple(index[c] for c in far) for e, (far, _) in rows.items()},
        {e: tuple(index[c] for c in first) for e, (_, first) in rows.items()},
    )


def costs(s: CastleState, g: Grid) -> list[float]:
    """Turns it costs to step onto each cell: a step, plus the cards that must open it."""
    out = []
    at, tiles = s.at, s.tiles
    for cell in g.cells:
        t = tiles[cell]
        if t["lock"]:
            extra = 2.0
        elif t["kind"] == "barred door" and not t["sawn"]:
            extra = 3.0 if t["open"] else 3.5
        elif not t["open"]:
            extra = 0.7 + (UNKNOWN_BARRED * 3.0 if not t["kind"] else 0.0)
        else:
            extra = 0.0
        out.append(1.0 + extra + (0.5 if cell in at else 0.0))
    return out


def links(s: CastleState, g: Grid) -> dict[int, list[int]]:
    """The secret passages one may step along now (both doors open)."""
    out: dict[int, list[int]] = {}
    for a, b in s.passages:
        if passable(s, a) and passable(s, b):
            i, j = g.index[a], g.index[b]
            out.setdefault(i, []).append(j)
            out.setdefault(j, []).append(i)
    return out


def to_far_row(
    s: CastleState, seat: int, paid: list[float] | None = None, linked=None
) -> list[float]:
    """For every cell (by its number in `grid`), what reaching the far row of `seat` costs a
    character standing there (Dijkstra from that row back; a cell of the row itself costs
    nothing more)."""
    g = grid(s.width, s.height)
    paid = paid if paid is not None else costs(s, g)
    linked = linked if linked is not None else links(s, g)
    near = g.near
    far = g.far[s.edges[seat]]
    best = [math.inf] * len(g.cells)
    for i in far:
        best[i] = 0.0
    queue = [(0.0, i) for i in far]
    pop, push = heapq.heappop, heapq.heappush
    while queue:
        d, i = pop(queue)
        if d > best[i]:
            continue
        step = d + paid[i]  # reaching cell i from a neighbour costs stepping onto it
        for j in near[i]:
            if step < best[j]:
                best[j] = step
                push(queue, (step, j))
        if linked:
            for j in linked.get(i, ()):
                if step < best[j]:
                    best[j] = step
                    push(queue, (step, j))
    return best


def turns_to_go(s: CastleState, seat: int, paid=None, linked=None) -> float:
    g = grid(s.width, s.height)
    paid = paid if paid is not None else costs(s, g)
    field = to_far_row(s, seat, paid, linked)
    here = s.at[seat]
    if here is not None:
        return min(field[g.index[here]], 99.0)
    return min(min(field[i], 99.0) + paid[i] for i in g.first[s.edges[seat]])


def evaluate(game: CastleDoors, s: CastleState) -> list[float]:
    n = len(s.names)
    g = grid(s.width, s.height)
    paid, linked = costs(s, g), links(s, g)
    strength = [
        -turns_to_go(s, p, paid, linked) + 0.1 * len(s.hands[p]) - 0.8 * s.netted[p]
        for p in range(n)
    ]
    if s.phase not in ("over", "deal"):  # the player to move is half a turn ahead
        strength[s.turn] += 0.5
    out = []
    for p in range(n):
        duels = [1 / (1 + math.exp(-0.9 * (strength[p] - strength[o]))) for o in range(n) if o != p]
        out.append(sum(duels) / len(duels))
    return out


def useful(game: CastleDoors, s: CastleState, seat: int, legal: list[str]) -> list[str]:
    """`back` only takes a chosen card back into the hand: searching it lets a search (and a
    hint's look one turn ahead) choose every card twice over."""
    return [a for a in legal if a != "back"] or legal


@cache
def _around(width: int, height: int) -> tuple[frozenset[int], ...]:
    """For each cell (by number), the cells within `REACH` orthogonal steps of it."""
    near = grid(width, height).near
    out = []
    for i in range(len(near)):
        seen, edge = {i}, {i}
        for _ in range(REACH):
            edge = {j for k in edge for j in near[k]} - seen
            seen |= edge
        out.append(frozenset(seen))
    return tuple(out)


def focus(game: CastleDoors, s: CastleState, seat: int, legal: list[str]) -> list[str]:
    """In choosing a target: those within `REACH` of a character (a net's, or a passage's
    second end, all); every move elsewhere."""
    if s.phase not in ("target", "bonus") or s.card == "net" or s.first_end:
        return legal
    g = grid(s.width, s.height)
    around = _around(s.width, s.height)
    near: set[int] = set()
    for p, here in enumerate(s.at):
        if here is not None:
            near |= around[g.index[here]]
        else:
            for i in g.first[s.edges[p]]:
                near |= around[i]
    index = g.index
    kept = [
        a for a in legal if not a.startswith("target ") or index[a.removeprefix("target ")] in near
    ]
    return kept or legal


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
        far = geometry.far_row(s.edges[other], s.width, s.height)
        for cell in sorted(c for c in steps(s, other).values() if c in far):
            said = msg(
                "{name} can step onto {cell} and win next turn", name=s.names[other], cell=cell
            )
            out.append(Threat(other, WIN, said))
    return out


# ----- the rollout policy: a plain player -------------------------------------------------
def _ahead(s: CastleState, seat: int) -> str | None:
    here = s.at[seat]
    if here is None:
        return None
    return geometry.step(here, FORWARD[s.edges[seat]], s.width, s.height)


def _winning_doors(s: CastleState, seat: int) -> list[tuple[int, str]]:
    """(opponent, door) for each opponent free to step onto an open door of its far row."""
    out = []
    for other in range(len(s.names)):
        if other == seat or s.netted[other] or s.at[other] is None:
            continue
        far = geometry.far_row(s.edges[other], s.width, s.height)
        out += [(other, c) for c in steps(s, other).values() if c in far]
    return out


def _block(s: CastleState, seat: int, legal: list[str]) -> str | None:
    """In the play step: the card that stops an opponent's winning step."""
    for _, door in _winning_doors(s, seat):
        colour = s.tiles[door]["colour"]
        for action in ("play net", "play padlock", f"play key {colour}", "play skeleton"):
            if action in legal:
                return action
    return None


def _advance(s: CastleState, seat: int, legal: list[str]) -> str | None:
    """In the play step: the card that opens the way one step ahead."""
    ahead = _ahead(s, seat)
    cells = [ahead] if ahead else geometry.first_row(s.edges[seat], s.width, s.height)
    for cell in cells:
        if cell is None:
            continue
        t = s.tiles[cell]
        if t["lock"] and "play skeleton" in legal:
            return "play skeleton"
        if not t["open"] and not t["lock"] and t["kind"] != "barred door":
            for action in (f"play key {t['colour']}", "play skeleton"):
                if action in legal:
                    return action
        if t["open"] and t["kind"] == "barred door" and not t["sawn"] and "play hacksaw" in legal:
            return "play hacksaw"
    return None


def _target(s: CastleState, seat: int, legal: list[str]) -> str | None:
    """Where a card goes: on the opponent about to win, else one step ahead."""
    card = s.card or "extra key"
    for other, door in _winning_doors(s, seat):
        aim = s.at[other] if card == "net" else door
        if f"target {aim}" in legal:
            return f"target {aim}"
    if card in ("net", "padlock", "passage"):
        return None
    ahead = _ahead(s, seat)
    cells = [ahead] if ahead else geometry.first_row(s.edges[seat], s.width, s.height)
    for cell in cells:
        if cell and f"target {cell}" in legal and not s.tiles[cell]["open"]:
            return f"target {cell}"
    if card == "hacksaw" and ahead and f"target {ahead}" in legal:
        return f"target {ahead}"
    return None


def _in_the_way(s: CastleState, seat: int) -> list[str]:
    """The open doors an opponent would step onto next (one step ahead of them, or their
    first row while outside): shutting one costs them a key or more."""
    out = []
    for other in range(len(s.names)):
        if other == seat:
            continue
        ahead = _ahead(s, other)
        if ahead is not None:
            cells = [ahead]
        elif s.at[other] is None:
            cells = geometry.first_row(s.edges[other], s.width, s.height)
        else:
            cells = []
        out += [c for c in cells if s.tiles[c]["open"] and not s.tiles[c]["lock"] and c not in s.at]
    return out


def _hinder(s: CastleState, seat: int, legal: list[str]) -> str | None:
    """In the play step: a key or padlock that shuts the door ahead of an opponent."""
    for cell in _in_the_way(s, seat):
        for action in (f"play key {s.tiles[cell]['colour']}", "play padlock"):
            if action in legal:
                return action
    return None


def _step(s: CastleState, seat: int, legal: list[str], rng) -> str:
    """The move, enter, exit or stay that leaves the cheapest way to the far row."""
    field, index = to_far_row(s, seat), grid(s.width, s.height).index
    here, reach = s.at[seat], steps(s, seat)
    best, best_cost = legal[0], math.inf
    for action in legal:
        verb, _, where = action.partition(" ")
        cell = {"move": reach.get(where), "enter": where, "stay": here}.get(verb)
        cost_left = min(field[index[cell]], 99.0) if cell else 99.0
        cost_left += 0.01 * rng.random()  # equals apart
        if cost_left < best_cost:
            best, best_cost = action, cost_left
    return best


def rollout(game: CastleDoors, s: CastleState, seat: int, legal: list[str], rng) -> str:
    """A plain player's step: block, open the way, shut the opponent's, go the cheapest way."""
    if rng.random() < 0.05:
        return legal[int(rng.random() * len(legal))]
    phase = s.phase
    if phase == "play":
        chosen = _block(s, seat, legal) or _advance(s, seat, legal) or _hinder(s, seat, legal)
        if chosen:
            return chosen
        discards = [a for a in legal if a.startswith("discard ")]
        if discards and rng.random() < 0.6:
            return discards[int(rng.random() * len(discards))]
    elif phase in ("target", "bonus"):
        chosen = _target(s, seat, legal)
        if chosen:
            return chosen
        if phase == "target" and (s.card == "padlock" or s.card.startswith("key ")):
            for cell in _in_the_way(s, seat):
                if f"target {cell}" in legal:
                    return f"target {cell}"
        if phase == "bonus":
            return "pass"
    elif phase == "move":
        return _step(s, seat, legal, rng)
    return legal[int(rng.random() * len(legal))]
