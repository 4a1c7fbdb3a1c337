"""The Collector's Box (rulebook: "Collector's Box"), as a pack. Read against the rulebook:

- Character flaws: before the prisoners are chosen one flaw is dealt face up onto each
  character on offer (`deal`); a flaw goes with its character, used once like an item
  (`party.tools`), never traded.
- Death dice (`death_dice.py`): rolled instead of the per-player chapter dice at combats
  marked for them; their shields and split faces are removed by results combined.
- New start cards and more bosses are shuffled in (`opening.Start`, `chapters.Boss`, reading
  `castle.collector`); the epilogue card is read when the game ends.
- The Living Stone (`living_stone.py`): a relic in the item deck with its own die.
"""

from __future__ import annotations

from engines.dark_castle import cards, castle, combat, death_dice, living_stone, party, words
from engines.dark_castle.rules import ChanceStep, Pack, Position, uniform
from engines.dark_castle.state import Pending
from engines.text import Msg, joined, msg


class Deal(ChanceStep):
    """One flaw dealt onto the next character on offer; the prisoners are chosen after."""

    kind = "deal"

    def outcomes(self, t: Position) -> list[tuple[str, float]]:
        return uniform(sorted(set(cards.FLAWS) - set(t.s.flaws.values())))

    def resolve(self, t: Position, p: Pending, outcome: str) -> None:
        s = t.s
        on_offer = castle.prisoners(s)
        who = next(w for w in on_offer if w not in s.flaws)
        s.flaws[who] = outcome
        if all(w in s.flaws for w in on_offer):
            dealt = [
                msg(
                    "{character}: {flaw}",
                    character=party.title(w),
                    flaw=words.card(cards.FLAWS[f]["name"]),
                )
                for w, f in s.flaws.items()
            ]
            t.say(msg("Flaws are dealt: {flaws}.", flaws=joined(dealt, "; ")))
            s.pending = Pending("pick")
        else:
            s.pending = Pending("deal")

    def prompt(self, t: Position) -> Msg:
        return msg("The flaws are dealt onto the prisoners...")


class DeathDice(ChanceStep):
    """The death dice rolled into the enemy's row at combat set-up."""

    kind = "death"

    def outcomes(self, t: Position) -> list[tuple[str, float]]:
        return death_dice.outcomes(t.s.pending.n)

    def resolve(self, t: Position, p: Pending, outcome: str) -> None:
        death_dice.add_rolled(t, outcome)
        combat.ready(t)


def deal_flaws_first(t: Position) -> None:
    if castle.collector(t.s):
        t.s.pending = Pending("deal")


def combat_dice(t: Position, card: dict, step: dict) -> str | None:
    return "death" if castle.collector(t.s) and death_dice.marked(card, step) else None


def epilogue(t: Position) -> None:
    if castle.collector(t.s):
        text = words.card(cards.EPILOGUES["collector"][t.s.outcome])
        t.say(msg("Epilogue: {text}", text=text), kind="epilogue")


PACK = Pack(
    name="collector",
    steps=(Deal(), DeathDice(), living_stone.StoneRoll(), living_stone.Crush()),
    dice={"death": death_dice.DEATH_DIE, "stone": living_stone.STONE_DIE},
    on_setup=deal_flaws_first,
    combat_dice=combat_dice,
    on_end=epilogue,
)
