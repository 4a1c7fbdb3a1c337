"""A tournament's points and tie-breaks, from its tables' results: pure, no store.

- A game gives each player the share of their opponents they finished ahead of, a tie
  counting half: 1 for a win, 1/2 for a draw, 0 for a loss at a table of two; at a table
  of four, 1, 2/3, 1/3 and 0 by place. A bye is worth a win.
- A player who lost a game by time scores 0 for it, placed below everyone at that table
  (where a stand-in played on for them, whatever it reached).
- A table that did not end by its rules (aborted, ended for idleness) scores 0 for all
  and counts in no tie-break.
- **Buchholz**: the sum of the final points of every opponent met; at a table of n
  players each opponent counts 1/(n-1), so a round is worth one opponent whatever the
  table's size. A bye and a round not played add nothing.
- **Sonneborn-Berger**: the same sum, each opponent's points weighted by how the player
  did against them (1 finished ahead, 1/2 tied, 0 behind): the points of the players
  beaten plus half of those drawn, at a table of two.
- Standings order: points, then Buchholz, then Sonneborn-Berger, then the earlier
  sign-up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Played:
    """One table of a round as it ended: its players in seat order, their places (0:
    first; equal places tied), who lost on time. `counted`: it ended by its rules."""

    round: int
    players: tuple[str, ...]
    places: dict[str, int] = field(default_factory=dict)
    timed_out: frozenset[str] = frozenset()
    counted: bool = True


@dataclass(frozen=True)
class Line:
    id: str
    name: str
    points: float
    buchholz: float
    sonneborn: float
    played: int
    byes: int
    withdrawn: bool
    order: int  # sign-up order: the last tie-break


def places_of(played: Played) -> dict[str, int]:
    """Places with time losses moved below everyone else at the table."""
    if not played.timed_out:
        return dict(played.places)
    last = max(played.places.values(), default=0) + 1
    return {
        p: (last if p in played.timed_out else played.places.get(p, last)) for p in played.players
    }


def against(places: dict[str, int], a: str, b: str) -> float:
    """How `a` did against `b` at one table: 1 ahead, 1/2 tied, 0 behind."""
    if places[a] < places[b]:
        return 1.0
    return 0.5 if places[a] == places[b] else 0.0


def game_points(played: Played) -> dict[str, float]:
    if not played.counted or len(played.players) < 2:
        return {p: 0.0 for p in played.players}
    places = places_of(played)
    others = len(played.players) - 1
    return {
        a: sum(against(places, a, b) for b in played.players if b != a) / others
        for a in played.players
    }


def standings(
    players: Sequence[tuple[str, str, bool]],
    tables: Sequence[Played],
    byes: Sequence[tuple[int, str]],
) -> list[Line]:
    """`players`: (id, name, withdrawn) in sign-up order; the standings, best first."""
    points = {p: 0.0 for p, _, _ in players}
    counted = [t for t in tables if t.counted and len(t.players) > 1]
    played = {p: 0 for p in points}
    for t in tables:
        for p, got in game_points(t).items():
            if p in points:
                points[p] += got
                played[p] += 1
    bye_count = {p: 0 for p in points}
    for _, p in byes:
        if p in points:
            points[p] += 1.0
            bye_count[p] += 1
    buchholz = {p: 0.0 for p in points}
    sonneborn = {p: 0.0 for p in points}
    for t in counted:
        places = places_of(t)
        weight = 1 / (len(t.players) - 1)
        for a in t.players:
            for b in t.players:
                if a == b or a not in points or b not in points:
                    continue
                buchholz[a] += points[b] * weight
                sonneborn[a] += points[b] * weight * against(places, a, b)
    lines = [
        Line(
            p,
            name,
            round(points[p], 4),
            round(buchholz[p], 4),
            round(sonneborn[p], 4),
            played[p],
            bye_count[p],
            withdrawn,
            n,
        )
        for n, (p, name, withdrawn) in enumerate(players)
    ]
    return sorted(lines, key=lambda x: (-x.points, -x.buchholz, -x.sonneborn, x.order))


def shown(value: float) -> str:
    """1, 1½, 2⅓: points as a person reads them."""
    whole = int(value + 1e-9)
    rest = value - whole
    for part, sign in ((0.0, ""), (0.5, "½"), (1 / 3, "⅓"), (2 / 3, "⅔"), (0.25, "¼"), (0.75, "¾")):
        if abs(rest - part) < 1e-6:
            return f"{whole}{sign}" if whole or not sign else sign
    return f"{value:.2f}"
