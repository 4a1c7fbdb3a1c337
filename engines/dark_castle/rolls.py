"""A character's die roll: which die, and where the face goes (a test, a group test, an
attack). A character rolls their own die (`cards.CHARACTERS`), unless a pack hands them
another (Pack 1: the cult die, whose black faces are named "black <trait>")."""

from __future__ import annotations

from engines.dark_castle import cards, combat, explain, party, trials
from engines.dark_castle.rules import ChanceStep, Position
from engines.dark_castle.state import Pending
from engines.text import msg


class Roll(ChanceStep):
    kind = "roll"

    def outcomes(self, t: Position) -> list[tuple[str, float]]:
        k = t.s.pending.char
        faces = t.rules.die(t, k) or cards.CHARACTERS[t.s.chars[k].who]["faces"]
        return cards.die_outcomes(list(faces))

    def resolve(self, t: Position, p: Pending, outcome: str) -> None:
        s = t.s
        k = p.char
        black = outcome.startswith("black ")
        face = outcome.removeprefix("black ")
        s.chars[k].roll = face
        said = dict(name=party.name(s, k), faces=explain.faces(face))
        if party.cult_die(s, k) and black:
            t.say(msg("{name} rolls {faces} on the cult die, a black face.", **said), kind="roll")
        elif party.cult_die(s, k):
            t.say(msg("{name} rolls {faces} on the cult die.", **said), kind="roll")
        else:
            t.say(msg("{name} rolls {faces}.", **said), kind="roll")
        if p.why == "combat":
            combat.rolled(t, k, face, black)
        elif p.why == "gtest":
            trials.group_rolled(t, face)
        else:
            trials.attempted(t, k)
