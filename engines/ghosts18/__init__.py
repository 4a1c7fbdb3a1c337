"""18 Ghosts: two players, portals that turn."""

from engines.ghosts18.game import Ghosts18

GAME = Ghosts18()
