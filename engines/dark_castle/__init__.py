"""Dark Castle: a co-operative escape through 15 chapters and a boss."""

from engines.dark_castle.game import DarkCastle

GAME = DarkCastle()
