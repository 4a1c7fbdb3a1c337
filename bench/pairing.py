"""`python -m bench.pairing`: the time to pair one round of a tournament.

A Swiss field of 1,000 players (target: under 1 s a round) and 64 tables of 4 and of 8
players grouped by standing, played over several rounds with seeded random results, so
each round is paired with the history of the rounds before (who met, byes, points).
Measurements on whatever machine runs it, not test assertions.
"""

from __future__ import annotations

import itertools
import random
import statistics
import sys
import time

from bot.service.community.tournaments.pairing import Entrant, group_tables, pair_swiss


def play(players: int, rounds: int, size: int, seed: int = 1) -> tuple[list[float], int]:
    """Seconds to pair each round, and the meetings repeated over the whole event."""
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(players)]
    points = dict.fromkeys(ids, 0.0)
    met: dict[str, set[str]] = {p: set() for p in ids}
    byes = dict.fromkeys(ids, 0)
    firsts = dict.fromkeys(ids, 0)
    times, repeats = [], 0
    for _ in range(rounds):
        order = sorted(ids, key=lambda p: (-points[p], int(p[1:])))
        field = [
            Entrant(p, points[p], n, frozenset(met[p]), byes[p], firsts[p])
            for n, p in enumerate(order)
        ]
        started = time.perf_counter()
        paired = pair_swiss(field) if size == 2 else group_tables(field, size, 2)
        times.append(time.perf_counter() - started)
        for p in paired.byes:
            byes[p] += 1
            points[p] += 1
        for table in paired.tables:
            firsts[table[0]] += 1
            for a, b in itertools.combinations(table, 2):
                repeats += b in met[a]
                met[a].add(b)
                met[b].add(a)
            ranked = rng.sample(table, len(table))
            for place, p in enumerate(ranked):
                points[p] += (len(table) - 1 - place) / (len(table) - 1)
    return times, repeats


def main(argv: list[str]) -> None:
    rounds = int(argv[0]) if argv else 7
    for label, players, size in (
        ("Swiss, 1,000 players", 1000, 2),
        ("64 tables of 4 (256 players)", 256, 4),
        ("64 tables of 8 (512 players)", 512, 8),
    ):
        times, repeats = play(players, rounds, size)
        print(
            f"{label}: {rounds} rounds, pairing a round took median {statistics.median(times):.3f} s, "
            f"slowest {max(times):.3f} s; meetings repeated: {repeats}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
