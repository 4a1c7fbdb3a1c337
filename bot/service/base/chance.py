"""The session's seeded generator for chance nodes.

A counter-based generator (SplitMix64 of seed + position) so that restoring it after a
restart is O(1) from two stored integers, and the sequence is the same on every Python
version (docs/engine-contract.md, rule 5).
"""

from __future__ import annotations

import hashlib
import math

from engines.playout import pick_chance

_MASK = (1 << 64) - 1


def uniform(seed: int, position: int) -> float:
    """A float in [0, 1) for this seed and position."""
    z = (seed + (position + 1) * 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    z ^= z >> 31
    return (z >> 11) / float(1 << 53)


def draw(outcomes: list[tuple[str, float]], seed: int, position: int) -> str:
    return pick_chance(outcomes, uniform(seed, position))


def _name_hash(key: str, outcome: str) -> int:
    """A stable 64-bit number for a deck's card (the same on every run and Python)."""
    digest = hashlib.blake2b(f"{key}\x00{outcome}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def draw_keyed(outcomes: list[tuple[str, float]], seed: int, key: str) -> str:
    """A draw from deck `key` dealt from the seed: each card gets its own race time from
    the seed and its name (an exponential clock at its probability's rate) and the first
    card still in the deck wins. So one seed orders the whole deck once: a draw from any
    part of it takes the first of that order, however many other draws came before (the
    same chance as `draw` for each single draw)."""
    best, best_time = outcomes[-1][0], math.inf
    for outcome, p in outcomes:
        if p <= 0:
            continue
        u = uniform(seed ^ _name_hash(key, outcome), 0)
        at = -math.log1p(-u) / p
        if at < best_time:
            best, best_time = outcome, at
    return best
