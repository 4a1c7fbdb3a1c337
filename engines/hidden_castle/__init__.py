"""Escape from the Hidden Castle (and the original Midnight Party): 2 to 8 players."""

from engines.hidden_castle.game import HiddenCastle

GAME = HiddenCastle()
