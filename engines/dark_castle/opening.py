"""Setting up (rulebook, "Choose Characters", "Set Health Points"): each player picks a
prisoner (a solo player two), everyone starts on the party size's HP, and the start card is
turned."""

from __future__ import annotations

from engines.contract import Seat
from engines.dark_castle import cards, castle, chapters, party
from engines.dark_castle.rules import ChanceStep, Position, Step, uniform
from engines.dark_castle.state import Pending
from engines.dark_castle.words import listed
from engines.text import Msg, msg


class Pick(Step):
    kind = "pick"
    labels = ("pick",)

    def to_act(self, t: Position) -> list[Seat]:
        return sorted({c.seat for c in t.s.chars if not c.who})

    def legal(self, t: Position, seat: Seat) -> list[str]:
        taken = {c.who for c in t.s.chars}
        return [f"pick {w}" for w in castle.prisoners(t.s) if w not in taken]

    def apply(self, t: Position, seat: Seat, action: str) -> None:
        s = t.s
        who = action.split()[1]
        k = next(k for k, c in enumerate(s.chars) if c.seat == seat and not c.who)
        s.chars[k].who = who
        if who in s.flaws:  # the flaw dealt onto this character (Collector's Box)
            s.chars[k].flaw = s.flaws[who]
        t.say(
            msg(
                "{player} will escape as {character}.",
                player=s.names[seat],
                character=party.title(who),
            )
        )
        if all(c.who for c in s.chars):
            for c in s.chars:
                c.hp = s.hp_start
            s.pending = Pending("start")

    def prompt(self, t: Position) -> Msg:
        names = castle.prisoners(t.s)
        return msg("Choose your prisoners: pick {prisoners}.", prisoners=listed(names, "or"))

    def describe(self, t: Position, action: str) -> str | None:
        verb, *args = action.split()
        if verb == "pick" and args:
            return msg("Pick: {character}", character=party.title(args[0]))
        return None


class Start(ChanceStep):
    """The start card on top of the castle deck (the Collector's Box shuffles in its own)."""

    kind = "start"

    def outcomes(self, t: Position) -> list[tuple[str, float]]:
        sets = ["core", "collector"][: 1 + castle.collector(t.s)]
        return uniform(cards.in_sets(cards.STARTS, sets))

    def resolve(self, t: Position, p: Pending, outcome: str) -> None:
        t.s.start = outcome
        chapters.open_card(t, outcome)
