"""The state of a Dark Castle game, as saved: one plain JSON-ready dataclass.

Its fields and the shape of `pending` are the saved-game format (`dump`/`load`): a rule may
add a key, never rename one, so games saved by earlier versions still load.
"""

from __future__ import annotations

from dataclasses import dataclass, field

CASTLE_CHAPTERS = 15
LOG_LINES = 8
CASTLES = ("mixed", "pack", "pack-numbered")


def start_hp(players: int) -> int:
    """1 or 2 players: 18 HP each; 3 players: 14; 4 players: 12."""
    return {1: 18, 2: 18, 3: 14, 4: 12}[players]


def new_character(who: str, seat: int, hp: int) -> dict:
    """A character sheet: a prisoner (seat >= 0) or a companion (seat -1, anyone acts for it)."""
    return {
        "who": who,
        "seat": seat,
        "hp": hp,
        "items": [],
        "roll": "",
        "spent": [],
        "curses": [],
        "plague": 0,
        "stored": [],
    }


@dataclass
class DarkCastleState:
    names: list[str]
    hp_start: int = 18
    chars: list[dict] = field(default_factory=list)  # who, seat, hp, items, roll, spent
    start: str = ""
    used: list[str] = field(default_factory=list)  # chapters turned, in order
    card: str = ""  # the card in play (start, chapter or boss)
    turner: int = -1  # index of the character who turned it
    frames: list[dict] = field(default_factory=list)  # the interpreter's stack
    pending: dict = field(default_factory=lambda: {"kind": "pick"})
    combat: dict | None = None
    pool: list[str] = field(default_factory=list)  # items on the table
    dealt: list[str] = field(default_factory=list)  # items out of the deck since its shuffle
    outcome: str = ""  # "", "won", "lost"
    last: str = ""
    log: list[str] = field(default_factory=list)
    opts: dict = field(default_factory=dict)  # the game's options (supplements, castle)
    tainted: list[str] = field(default_factory=list)  # items on the table from a carrier
    flaws: dict = field(default_factory=dict)  # character -> flaw dealt onto it (collector)
