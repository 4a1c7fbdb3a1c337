"""Pure game rules, one package a game, all speaking `engines.contract`.

Every subpackage that defines `GAME` (a `Game` instance) is registered, so adding
a game needs no edit here.
"""

import importlib
import os
import pkgutil

from engines.contract import (
    CHANCE,
    BadOption,
    Event,
    Game,
    IllegalAction,
    Option,
    Result,
    Seat,
)
from engines.text import Msg, Text, msg, plural


def _discover(only: str = "") -> dict[str, Game]:
    """Every game package, or only those named in `only` (ESCAPE_GAMES, comma-separated)."""
    wanted = {name.strip() for name in only.split(",") if name.strip()}
    games: dict[str, Game] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.ispkg or (wanted and info.name not in wanted):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            games[game.id] = game
    return games


REGISTRY: dict[str, Game] = _discover(os.environ.get("ESCAPE_GAMES", ""))

__all__ = [
    "CHANCE",
    "REGISTRY",
    "BadOption",
    "Event",
    "Game",
    "IllegalAction",
    "Msg",
    "Option",
    "Result",
    "Seat",
    "Text",
    "msg",
    "plural",
]
