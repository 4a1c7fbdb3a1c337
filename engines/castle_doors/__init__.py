"""Castle Doors: two to four players race across a castle of doors with keys and padlocks."""

from engines.castle_doors.game import CastleDoors

GAME = CastleDoors()
