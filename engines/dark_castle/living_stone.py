"""The Living Stone (the Collector's Box): a relic shuffled into the item deck, with its own
die set aside until called for.

Our card (the rulebook gives no text): a one-handed relic, used once a chapter in combat
(`use stone`) between the rolls and the attacks, like any combat item. Its holder rolls
the stone's die (our faces, `STONE_DIE`):
- crush (2 faces): remove a chapter die of your choice from the enemy's row, a death die's
  shield or split face included (the party picks: `crush s`, `crush mc`, `crush m`...);
- shelter: its holder blocks this round;
- mend: its holder gains 2 HP;
- sleep: nothing happens;
- bite: the stone drinks from its holder, who loses 1 HP.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.contract import Event
from engines.dark_castle import death_dice as DD

if TYPE_CHECKING:  # the engine passes itself in: no import cycle at run time
    from engines.dark_castle.game import DarkCastle, DarkCastleState

STONE = "stone"  # the item's id
STONE_DIE = ["crush", "crush", "shelter", "mend", "sleep", "bite"]
FACE_TEXT = {
    "crush": "crush: a die of your choice leaves the row",
    "shelter": "shelter: its holder blocks this round",
    "mend": "mend: its holder gains 2 HP",
    "sleep": "sleep: nothing happens",
    "bite": "bite: its holder loses 1 HP",
}


def crush_choices(s: DarkCastleState) -> list[str]:
    """`crush <face>` for each kind of die in the row."""
    return [f"crush {face}" for face in dict.fromkeys(s.combat["row"])]


def rolled(game: DarkCastle, s: DarkCastleState, k: int, face: str, ev: list[Event]) -> None:
    """Apply the stone's face for its holder k; then the attacks go on (or a die is chosen)."""
    cb = s.combat
    cb["stone"] = face
    ev.append(Event(f"The Living Stone wakes in {game._name(s, k)}'s hand: {FACE_TEXT[face]}.",
                    kind="stone"))  # fmt: skip
    s.pending = {"kind": "attack"}
    if face == "crush":
        if len(set(cb["row"])) > 1:
            s.pending = {"kind": "crush", "char": k}
            return
        crush(game, s, cb["row"][0], ev)
        return
    if face == "shelter" and k not in cb["blocked"]:
        cb["blocked"].append(k)
    elif face == "mend":
        game._heal(s, k, 2)
    elif face == "bite":
        game._hurt(s, k, 1, ev)
        game._check_death(s, ev)
        if s.outcome:
            return
    game._after_attack(s, ev)


def crush(game: DarkCastle, s: DarkCastleState, face: str, ev: list[Event]) -> None:
    s.combat["row"].remove(face)
    ev.append(Event(f"The stone crushes a {DD.face_name(face)} die out of the row."))
    s.pending = {"kind": "attack"}
    game._after_attack(s, ev)
