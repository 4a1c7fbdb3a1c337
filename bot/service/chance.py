"""The session's seeded generator for chance nodes.

A counter-based generator (SplitMix64 of seed + position) so that restoring it after a
restart is O(1) from two stored integers, and the sequence is the same on every Python
version (docs/engine-contract.md, rule 5).
"""

from __future__ import annotations

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
