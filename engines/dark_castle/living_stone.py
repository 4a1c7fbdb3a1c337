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

from engines.contract import Seat
from engines.dark_castle import cards, combat, death_dice, effects, party
from engines.dark_castle.rules import ChanceStep, Position, Step
from engines.dark_castle.state import Pending
from engines.text import Msg, msg

STONE = "stone"  # the item's id
STONE_DIE = ["crush", "crush", "shelter", "mend", "sleep", "bite"]
FACE_TEXT = {
    "crush": msg("crush: a die of your choice leaves the row"),
    "shelter": msg("shelter: its holder blocks this round"),
    "mend": msg("mend: its holder gains 2 HP"),
    "sleep": msg("sleep: nothing happens"),
    "bite": msg("bite: its holder loses 1 HP"),
}


def crush(t: Position, face: str) -> None:
    t.s.combat.row.remove(face)
    t.say(msg("The stone crushes a {die} die out of the row.", die=death_dice.face_name(face)))
    t.s.pending = Pending("attack")
    combat.after_attack(t)


class StoneRoll(ChanceStep):
    """The stone's die, rolled for its holder in combat (`use stone`, an item's `stone`
    effect); then the attacks go on, or the party first picks the die to crush."""

    kind = "stone"

    def outcomes(self, t: Position) -> list[tuple[str, float]]:
        return cards.die_outcomes(t.rules.dice["stone"])

    def resolve(self, t: Position, p: Pending, outcome: str) -> None:
        s = t.s
        k = p.char
        cb = s.combat
        cb.stone = outcome
        t.say(
            msg(
                "The Living Stone wakes in {name}'s hand: {face}.",
                name=party.name(s, k),
                face=FACE_TEXT[outcome],
            ),
            kind="stone",
        )
        s.pending = Pending("attack")
        if outcome == "crush":
            if len(set(cb.row)) > 1:
                s.pending = Pending("crush", char=k)
                return
            crush(t, cb.row[0])
            return
        if outcome == "shelter" and k not in cb.blocked:
            cb.blocked.append(k)
        elif outcome == "mend":
            effects.heal(t, k, 2)
        elif outcome == "bite":
            effects.hurt(t, k, 1)
            effects.check_death(t)
            if s.outcome:
                return
        combat.after_attack(t)


class Crush(Step):
    """The stone crushes a die of the party's choice: `crush <face>` for each kind of die in
    the row, a death die's shield or split face included."""

    kind = "crush"
    labels = ("crush",)

    def legal(self, t: Position, seat: Seat) -> list[str]:
        return [f"crush {face}" for face in dict.fromkeys(t.s.combat.row)]

    def apply(self, t: Position, seat: Seat, action: str) -> None:
        crush(t, action.split()[1])

    def prompt(self, t: Position) -> Msg:
        return msg("The Living Stone crushes a die of your choice: crush <die>.")

    def default(self, t: Position, seat: Seat, legal: list[str]) -> str | None:
        return legal[0]

    def describe(self, t: Position, action: str) -> str | None:
        verb, *args = action.split()
        if verb == "crush" and args:
            return msg("Crush a {die} die", die=death_dice.face_name(args[0]))
        return None
