"""Who meets whom in a round: Swiss pairs for two-player games, tables grouped by standing
for games of three or more. Pure functions over the standings; no store, no clock.

**Pairs** are a maximum-weight matching (networkx's `max_weight_matching`, with maximum
cardinality first) over every pair that may meet: a repeated pairing costs more than all
other costs of a round together, so a repeat is chosen only when no pairing without one
exists; then players of equal points meet (the square of the points between them is the
next cost), and inside a score group the upper half meets the lower half (the Dutch
shape). A field larger than `BLOCK` is matched in consecutive blocks of the standings
(each block's unmatched players float down into the next); a block that cannot be paired
sends the whole round to one exact matching of the field. An odd field's bye goes to the
lowest-placed player who has had none (worth a win); a second bye to anyone is given only
when everybody has had one. Two players of whom one blocks the other (`Entrant.apart`) meet
only when no pairing keeps them apart: a block costs twice a repeat, at a pair or a table.

**Tables** (three or more players) are filled in standing order (players of equal points
together; sizes as even as the game's limits allow, larger tables first), then a local
search swaps players between tables while that lowers the cost: each pair of players who
met before first, then the points spread at a table. A matching library has no k-player
form; the search is deterministic and bounded.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

BLOCK = 24  # a field larger than this is matched block by block (an exact matching of
# 1,000 players' complete graph takes minutes in pure Python; of 24, milliseconds)
BYE = ""  # the bye's node in the matching


@dataclass(frozen=True)
class Entrant:
    """One player as pairing sees them: their place in the standings (0: first)."""

    id: str
    points: float
    rank: int
    met: frozenset[str] = frozenset()
    byes: int = 0
    firsts: int = 0  # two-player games they moved first in (who moves first alternates)
    apart: frozenset[str] = frozenset()  # who blocks them or whom they block: kept apart


@dataclass(frozen=True)
class Round:
    tables: list[list[str]]  # each table's players in seat order
    byes: list[str]


def _half_points(points: float) -> int:
    return round(points * 2)


class _Costs:
    """Integer weights for one round's matching (networkx compares them exactly)."""

    def __init__(self, field_: Sequence[Entrant]) -> None:
        n = len(field_)
        self.n = n
        top = max((_half_points(e.points) for e in field_), default=0)
        self.shape_most = n + 1  # the Dutch shape's cost never exceeds this for one pair
        self.score_unit = self.shape_most * (n + 1)  # one half-point of difference, squared
        self.edge_most = self.score_unit * (top + 1) ** 2 + self.shape_most + n
        self.repeat = self.edge_most * (n + 1)  # a repeat outweighs every other cost
        self.base = self.repeat * (n + 4)  # every edge positive
        groups: dict[int, int] = {}
        for e in field_:
            groups[_half_points(e.points)] = groups.get(_half_points(e.points), 0) + 1
        self.group = groups

    def pair(self, a: Entrant, b: Entrant) -> int:
        gap = _half_points(a.points) - _half_points(b.points)
        upper = a if a.rank < b.rank else b
        half = self.group.get(_half_points(upper.points), 2) // 2
        shape = abs(abs(a.rank - b.rank) - half)
        cost = self.score_unit * gap * gap + min(shape, self.shape_most)
        if b.id in a.met:
            cost += self.repeat
        if b.id in a.apart:
            cost += 2 * self.repeat
        return self.base - cost

    def bye(self, e: Entrant) -> int:
        points = _half_points(e.points)
        cost = self.score_unit * points * points + (self.n - 1 - e.rank)
        if e.byes:
            cost += self.repeat * e.byes
        return self.base - cost


def _matched(players: Sequence[Entrant], with_bye: bool, costs: _Costs) -> dict[str, str]:
    import networkx as nx  # only a pairing needs it: a tenth of a second off every start-up

    graph = nx.Graph()
    for i, a in enumerate(players):
        graph.add_node(a.id)
        for b in players[i + 1 :]:
            graph.add_edge(a.id, b.id, weight=costs.pair(a, b))
        if with_bye:
            graph.add_edge(a.id, BYE, weight=costs.bye(a))
    mates: dict[str, str] = {}
    for a, b in nx.max_weight_matching(graph, maxcardinality=True):
        mates[a], mates[b] = b, a
    return mates


def pair_swiss(field_: Sequence[Entrant]) -> Round:
    """One Swiss round of a two-player game over the players still in it."""
    ordered = sorted(field_, key=lambda e: e.rank)
    if len(ordered) < 2:
        return Round([], [e.id for e in ordered])
    costs = _Costs(ordered)
    by_id = {e.id: e for e in ordered}
    bye = None
    if len(ordered) % 2:
        fresh = [e for e in ordered if not e.byes] or ordered
        bye = min(fresh, key=lambda e: (_half_points(e.points), -e.rank)).id
    rest = [e for e in ordered if e.id != bye]
    pairs = _in_blocks(rest, costs) if len(rest) > BLOCK else None
    if pairs is None:
        mates = _matched(ordered, len(ordered) % 2 == 1, costs)
        bye = mates.get(BYE)
        pairs = _pairs_of(mates, by_id)
    return Round([_seated(by_id[a], by_id[b]) for a, b in pairs], [bye] if bye else [])


def _pairs_of(mates: dict[str, str], by_id: dict[str, Entrant]) -> list[tuple[str, str]]:
    pairs = []
    for a, b in mates.items():
        if BYE not in (a, b) and by_id[a].rank < by_id[b].rank:
            pairs.append((a, b))
    return sorted(pairs, key=lambda p: by_id[p[0]].rank)


def _in_blocks(rest: list[Entrant], costs: _Costs) -> list[tuple[str, str]] | None:
    """Consecutive blocks of the standings, each matched exactly; a block that can only
    be paired with a repeat takes in the next block and is matched again. None when even
    the rest of the field together cannot (the exact matching of the whole field decides)."""
    by_id = {e.id: e for e in rest}
    pairs: list[tuple[str, str]] = []
    floating: list[Entrant] = []
    start = 0
    while start < len(rest):
        end = start + BLOCK
        while True:
            block = floating + rest[start:end]
            mates = _matched(block, False, costs)
            found = _pairs_of(mates, by_id)
            if all(b not in by_id[a].met and b not in by_id[a].apart for a, b in found):
                break
            if end >= len(rest):
                return None
            end += BLOCK
        pairs += found
        floating = [e for e in block if e.id not in mates]
        start = end
    return None if floating else pairs


def _seated(a: Entrant, b: Entrant) -> list[str]:
    """Who moves first: the one who has moved first less often, else the higher placed."""
    first, second = (a, b) if (a.firsts, a.rank) <= (b.firsts, b.rank) else (b, a)
    return [first.id, second.id]


# ----- tables of three or more --------------------------------------------------------
def table_sizes(players: int, size: int, smallest: int) -> list[int]:
    """As even as can be, none above `size` nor below `smallest`, larger first; players
    left over (fewer than `smallest`) get byes: the sizes add up to what can be seated."""
    if players < smallest:
        return []
    tables = math.ceil(players / size)
    while tables > 1 and players // tables < smallest:
        tables -= 1
    seated = min(players, tables * size)
    base, extra = divmod(seated, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def group_tables(field_: Sequence[Entrant], size: int, smallest: int, rounds: int = 400) -> Round:
    """One round of tables of `size` (at least `smallest`) grouped by standing."""
    ordered = sorted(field_, key=lambda e: e.rank)
    sizes = table_sizes(len(ordered), size, smallest)
    seated = sum(sizes)
    byes = [e.id for e in ordered[seated:]]
    tables = _unrepeated(ordered[:seated], sizes)
    _improve(tables, rounds)
    return Round([[e.id for e in t] for t in tables], byes)


SEARCH_STEPS = 50_000  # a small field's search for tables without a repeat stops here


def _unrepeated(ordered: list[Entrant], sizes: list[int]) -> list[list[Entrant]]:
    """Tables filled in standing order, each with the best-placed players left who have
    not met anyone at it: a depth-first search (each table headed by the best player left)
    for a field of up to `BLOCK` * 2 players, within `SEARCH_STEPS`; a larger field, or a
    search that runs out, takes the next best player who has not met the table, else the
    next best (the local search then mends what it can)."""
    if len(ordered) <= 2 * BLOCK:
        found = _search(ordered, sizes)
        if found is not None:
            return found
    left = list(ordered)
    tables: list[list[Entrant]] = []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            pick = next(
                (e for e in left if not any(e.id in x.met or e.id in x.apart for x in table)),
                left[0],
            )
            left.remove(pick)
            table.append(pick)
        tables.append(table)
    return tables


def _search(ordered: list[Entrant], sizes: list[int]) -> list[list[Entrant]] | None:
    seated = [False] * len(ordered)
    tables: list[list[Entrant]] = []
    steps = 0

    def fill(t: int, table: list[Entrant]) -> bool:
        nonlocal steps
        if len(table) == sizes[t]:
            tables.append(list(table))
            if t + 1 == len(sizes) or fill(t + 1, []):
                return True
            tables.pop()
            return False
        for i, e in enumerate(ordered):
            if seated[i] or any(e.id in x.met or e.id in x.apart for x in table):
                continue
            steps += 1
            if steps > SEARCH_STEPS:
                return False
            seated[i] = True
            table.append(e)
            if fill(t, table):
                return True
            table.pop()
            seated[i] = False
            if not table:
                return False  # the best player left heads the table, or no table works
        return False

    return tables if fill(0, []) and steps <= SEARCH_STEPS else None


REPEATED = 1_000_000  # the cost of two players at one table who met before


def _table_cost(table: Sequence[Entrant]) -> int:
    repeats = sum(
        (b.id in a.met) + 2 * (b.id in a.apart) for i, a in enumerate(table) for b in table[i + 1 :]
    )
    points = [_half_points(e.points) for e in table]
    spread = max(points) - min(points)
    ranks = max(e.rank for e in table) - min(e.rank for e in table)
    return repeats * REPEATED + spread * spread * 100 + ranks


def _improve(tables: list[list[Entrant]], limit: int) -> None:
    """While a table seats two players who met before, swap one of its players with a
    player of another table (the nearest tables first) if that lowers the two tables'
    cost; first improvement, in standing order: deterministic, and it ends (the cost
    only falls)."""
    costs = [_table_cost(t) for t in tables]
    for _ in range(limit):
        better = False
        for i, a in enumerate(tables):
            if costs[i] < REPEATED:
                continue
            for j in sorted(range(len(tables)), key=lambda j: abs(j - i)):
                b = tables[j]
                if j == i:
                    continue
                for x in range(len(a)):
                    for y in range(len(b)):
                        a[x], b[y] = b[y], a[x]
                        ca, cb = _table_cost(a), _table_cost(b)
                        if ca + cb < costs[i] + costs[j]:
                            costs[i], costs[j], better = ca, cb, True
                        else:
                            a[x], b[y] = b[y], a[x]
        if not better:
            break
    for t in tables:
        t.sort(key=lambda e: e.rank)
