"""How the AI judges a Dark Castle position it has not played to the end (engines/ai).

The party plays as one: the escape is lost when any prisoner dies, so the weakest
prisoner's health counts most, then how far through the castle the party has come. Every
seat gets the same value: each bot plays for the party.
"""

from __future__ import annotations

from engines.dark_castle.game import CASTLE_CHAPTERS, DarkCastle, DarkCastleState


def evaluate(game: DarkCastle, s: DarkCastleState) -> list[float]:
    if not all(c["who"] for c in s.chars):
        return [0.5] * len(s.names)
    # A companion (Pack 2) may fall without losing the game: only prisoners count here.
    prisoners = [c for c in s.chars if c["seat"] >= 0]
    weakest = min(c["hp"] for c in prisoners) / s.hp_start
    average = sum(c["hp"] for c in prisoners) / (s.hp_start * len(prisoners))
    progress = len(s.used) / (CASTLE_CHAPTERS + 1)
    items = sum(len(c["items"]) for c in prisoners) / (2 * len(prisoners))
    value = 0.45 * weakest + 0.2 * average + 0.3 * progress + 0.05 * items
    return [value] * len(s.names)
