"""The state of a Dark Castle game and its saved form (`saved`/`restored`).

Its fields, the character sheets (`Character`), the step the game waits on (`Pending`)
and the fight in progress (`Combat`) are the saved-game format: a rule may add a key,
never rename one, so games saved by earlier versions still load, and dump back to the same
JSON, key for key (tests/engines/dark_castle/test_dark_castle_saved.py loads games stored before these
were typed, and the fixture's maker, run again, writes the same bytes).

The pending step is one class for every kind, not a class per kind: the kinds share their
few fields (a character, a count, a card and the path to its step), each kind's behaviour
already has its one class (a `rules.Step`, found by `kind`), and one declared field order
is what keeps the saved JSON the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Literal

CASTLE_CHAPTERS = 15
LOG_LINES = 8
CASTLES = ("mixed", "pack", "pack-numbered")


def start_hp(players: int) -> int:
    """1 or 2 players: 18 HP each; 3 players: 14; 4 players: 12."""
    return {1: 18, 2: 18, 3: 14, 4: 12}[players]


@dataclass
class Character:
    """A character sheet: a prisoner, played from a seat (`seat` >= 0), or a companion (Pack 2,
    `seat` -1: anyone acts for it). Saved as a JSON object with these keys in this order;
    `flaw` only once one is dealt onto it and `flaw_used` only once used (Collector's Box).
    A save from before the packs lacks `curses`, `plague` and `stored`: read as none."""

    who: str  # a trade (`smith`) or a companion's id; "" until the prisoner is picked
    seat: int
    hp: int
    items: list[str] = field(default_factory=list)  # carried, in hand
    roll: str = ""  # the face rolled this chapter or combat round, "" when none
    spent: list[str] = field(default_factory=list)  # "once a chapter" items used this chapter
    curses: list[str] = field(default_factory=list)  # curse cards held (Pack 1)
    plague: int = 0  # plague points (Pack 3)
    stored: list[str] = field(default_factory=list)  # items in the knapsack (Pack 3)
    flaw: str | None = None  # the flaw dealt onto this character (Collector's Box)
    flaw_used: bool = False

    def to_json(self) -> dict:
        data = dict(vars(self))
        if self.flaw is None:
            del data["flaw"]
        if not self.flaw_used:
            del data["flaw_used"]
        return data

    @classmethod
    def from_json(cls, data: dict) -> Character:
        return cls(**data)


# The kinds of pending step, each handled by one `rules.Step` of the core or a pack.
Kind = Literal[
    "pick",
    "deal",
    "start",
    "chapter",
    "boss",
    "between",
    "share",
    "item",
    "drawer",
    "discard",
    "choose",
    "gamble",
    "send",
    "roll",
    "react",
    "cast",
    "spell",
    "dice",
    "death",
    "rest",
    "attack",
    "stone",
    "crush",
    "plague",
    "chalice",
]


@dataclass
class Pending:
    """The step the game waits on: its `kind` picks the `rules.Step` that handles it, and a
    step uses a few of the other fields. Saved as a JSON object: `kind`, then the fields
    the step set, in this order (`why` saved as "for"), then the item phase's records
    (`phase.py`) in the order they were first noted."""

    kind: Kind
    n: int | None = None  # dice to roll or item cards to draw
    by: int | None = None  # the character named to draw (item, after drawer)
    char: int | None = None  # the character who rolls, reacts, discards, casts...
    why: str | None = None  # what a roll is for: "test", "gtest" or "combat"
    spell: str | None = None  # the spell being cast (spell)
    card: str | None = None  # the card and the path to its step (send, choose, gamble)
    path: list | None = None
    ctx: int | None = None  # who "it" is in the card's steps
    frame: bool = False  # plague: a group's roll, read from the frame
    to: int | None = None  # chalice: who the blood ritual is for
    gifts: dict[str, int] | None = None  # chalice: donor (as text) -> HP pledged
    party: bool = False  # discard: anyone of the party may discard
    tag: str | None = None  # discard: the tag of the item used up
    tainted: bool = False  # item, drawer: a carrier's loot (Pack 3)
    then: str | None = None  # dice: "round" when the dice start a new round
    after: Pending | None = None  # plague: the step it interrupted, resumed after it
    records: dict[str, list[str]] = field(default_factory=dict)  # phase.note

    def to_json(self) -> dict:
        data: dict = {"kind": self.kind}
        for f in fields(self)[1:-2]:
            value = getattr(self, f.name)
            if value is not None and value is not False:
                data["for" if f.name == "why" else f.name] = value
        if self.kind == "plague" and not self.frame:  # saved even when nothing was pending
            data["after"] = self.after.to_json() if self.after else None
        return data | self.records

    @classmethod
    def from_json(cls, data: dict) -> Pending:
        known = {f.name for f in fields(cls)} - {"kind", "records", "after"}
        out = cls(data["kind"])
        for key, value in data.items():
            name = "why" if key == "for" else key
            if name in known:
                setattr(out, name, value)
            elif key == "after":
                out.after = None if value is None else cls.from_json(value)
            elif key != "kind":
                out.records[key] = value
        return out


@dataclass
class Combat:
    """A fight in progress, saved as a JSON object with these keys in this order (`death`
    and `stone` only once rolled). Who fights, rests, rolls or is hit is named by an index
    into `DarkCastleState.chars` (a character, not a player's seat)."""

    name: str
    row: list[str]  # the enemy's dice still to hit, sorted (`death_dice.row_key`)
    attack: int
    specials: list[dict]  # the enemy's combat specials (`cards.SPECIALS`)
    loot: bool  # an item is drawn after a won fight
    phase: int  # this fight's place among the card's combat steps, from 1
    phases: int
    round: int = 0
    rester: int = -1  # the character resting this round, or -1
    fighters: list[int] = field(default_factory=list)
    queue: list[int] = field(default_factory=list)  # who rolls next, in order
    rolls: dict[str, str] = field(default_factory=dict)  # character (as text) -> face
    done: list[int] = field(default_factory=list)  # who attacked this round
    blocked: list[int] = field(default_factory=list)
    wounded: list[int] = field(default_factory=list)
    cultist: bool = False
    carrier: bool = False
    turned: list[int] = field(default_factory=list)  # marked prisoners sitting this fight out
    grown: int = 0  # dice the enemy regrew
    text: str = ""
    death: list[str] | None = None  # death dice rolled into the row (the Collector's Box)
    stone: str | None = None  # the Living Stone's last face

    def to_json(self) -> dict:
        data = dict(vars(self))
        for key in ("death", "stone"):
            if data[key] is None:
                del data[key]
        return data


@dataclass
class DarkCastleState:
    names: list[str]
    hp_start: int = 18
    chars: list[Character] = field(default_factory=list)  # prisoners, then companions
    start: str = ""
    used: list[str] = field(default_factory=list)  # chapters turned, in order
    card: str = ""  # the card in play (start, chapter or boss)
    turner: int = -1  # index of the character who turned it
    frames: list[dict] = field(default_factory=list)  # the interpreter's stack
    pending: Pending | None = field(default_factory=lambda: Pending("pick"))
    combat: Combat | None = None
    pool: list[str] = field(default_factory=list)  # items on the table
    dealt: list[str] = field(default_factory=list)  # items out of the deck since its shuffle
    outcome: str = ""  # "", "won", "lost"
    last: str = ""
    log: list[str] = field(default_factory=list)
    opts: dict = field(default_factory=dict)  # the game's options (supplements, castle)
    tainted: list[str] = field(default_factory=list)  # items on the table from a carrier
    flaws: dict = field(default_factory=dict)  # character -> flaw dealt onto it (collector)


def saved(s: DarkCastleState) -> dict:
    """The state as the saved-game format has it (JSON-ready, keys in their saved order)."""
    data = dict(vars(s))
    data["chars"] = [c.to_json() for c in s.chars]
    data["pending"] = s.pending.to_json() if s.pending else None
    if s.combat is not None:
        data["combat"] = s.combat.to_json()
    return data


def restored(data: dict) -> DarkCastleState:
    """A saved state back (this release's or an earlier one's)."""
    data = dict(data)
    data["chars"] = [Character.from_json(c) for c in data.get("chars", [])]
    if data.get("pending") is not None:
        data["pending"] = Pending.from_json(data["pending"])
    if data.get("combat") is not None:
        data["combat"] = Combat(**data["combat"])
    return DarkCastleState(**data)
