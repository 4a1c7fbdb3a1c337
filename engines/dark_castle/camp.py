"""The item phase (rulebook, "Trading Items"): items change hands only after a chapter is
completed (`between`) or while new items are being shared out (`share`).

In either phase anyone may `take` an item from the table into free hands, `drop` one of
their own onto the table (left behind when the party moves on), or `use` one. Between
chapters the party then decides who turns the next chapter (`turn`), and the packs add their
own moves (the knapsack, the blood ritual: `rules.Camp`). Everything a move in this phase
does is in `take`, `drop` and `turn` below; what is offered is `item_moves`.
"""

from __future__ import annotations

from engines.contract import Seat
from engines.dark_castle import effects, explain, items, party, phase
from engines.dark_castle.rules import Position, Step
from engines.dark_castle.state import CASTLE_CHAPTERS, Pending
from engines.text import Msg, joined, msg


def item_moves(t: Position, seat: Seat, camp_moves: bool) -> list[str]:
    """Takes from the table into any free hands; drops and uses of the seat's own
    characters (and each pack's moves for them, between chapters)."""
    s = t.s
    out = []
    for item in s.pool:
        out += [
            f"take {item} {c.who}"
            for k, c in enumerate(s.chars)
            if party.fits(s, k, item) and phase.may_take(s, item, c.who)
        ]
    for k in party.mine(s, seat):
        out += [f"drop {i}" for i in s.chars[k].items]
        out += items.uses(t, k, "camp")
        if camp_moves:
            for camp in t.rules.camps:
                out += camp.moves(t, k)
    return out


def take(t: Position, item: str, who: str) -> None:
    s = t.s
    k = party.index(s, who)
    s.pool.remove(item)
    s.chars[k].items.append(item)
    t.say(msg("{name} takes {item}.", name=party.name(s, k), item=explain.the(item)))
    phase.note(s, phase.TAKEN, item, who)
    t.rules.taken(t, k, item)


def drop(t: Position, item: str) -> None:
    s = t.s
    k = party.holder(s, item)
    s.chars[k].items.remove(item)
    dropped = [item]
    t.rules.dropped(t, k, dropped)
    s.pool += dropped
    for each in dropped:
        phase.note(s, phase.DROPPED, each, s.chars[k].who)
    names = joined([explain.item_name(i) for i in dropped])
    t.say(msg("{name} puts down: {items}.", name=party.name(s, k), items=names))


def turn(t: Position, who: str) -> None:
    """The party's choice of who turns the next card: YOU effects of that card hit them.
    What was left on the table stays behind; items used "once a chapter" are ready again."""
    s = t.s
    k = party.index(s, who)
    effects.discard_pool(t)
    for c in s.chars:
        c.spent = []
        c.roll = ""
    s.turner = k
    s.pending = Pending("boss" if len(s.used) >= CASTLE_CHAPTERS else "chapter")
    t.say(msg("{name} turns the next page of the castle...", name=party.name(s, k)))
    t.rules.turned(t)
    effects.check_death(t)


def apply_item_move(t: Position, verb: str, args: list[str]) -> bool:
    """Take, drop or use; False for any other move."""
    if verb == "take":
        take(t, args[0], args[1])
    elif verb == "drop":
        drop(t, args[0])
    elif verb == "use":
        items.use_action(t, args)
    else:
        return False
    return True


class Between(Step):
    """Between chapters: trade, use items, then decide who turns the next chapter."""

    kind = "between"
    labels = ("turn",)

    def legal(self, t: Position, seat: Seat) -> list[str]:
        out = [f"turn {c.who}" for c in t.s.chars] + item_moves(t, seat, camp_moves=True)
        for camp in t.rules.camps:
            out += camp.party_moves(t, seat)
        return out

    def apply(self, t: Position, seat: Seat, action: str) -> None:
        verb, *args = action.split()
        if verb == "turn":
            turn(t, args[0])
        elif not apply_item_move(t, verb, args):
            next(c for c in t.rules.camps if verb in c.verbs).apply(t, verb, args)

    def prompt(self, t: Position) -> Msg:
        if len(t.s.used) >= CASTLE_CHAPTERS:
            return msg("Trade items if you like, then decide who turns the boss: turn <prisoner>.")
        return msg(
            "Trade items if you like, then decide who turns the next chapter: turn <prisoner>."
        )

    def default(self, t: Position, seat: Seat, legal: list[str]) -> str | None:
        """Let the healthiest turn."""
        return f"turn {items.healthiest(t)}"

    def describe(self, t: Position, action: str) -> str | None:
        verb, *args = action.split()
        if verb == "turn" and args:
            return msg("Turn: {character}", character=party.title(args[0]))
        return None


class Share(Step):
    """New items on the table: share them out, then `done` (the rest are left behind)."""

    kind = "share"

    def legal(self, t: Position, seat: Seat) -> list[str]:
        return [*item_moves(t, seat, camp_moves=False), "done"]  # "done" comes last

    def apply(self, t: Position, seat: Seat, action: str) -> None:
        verb, *args = action.split()
        if not apply_item_move(t, verb, args):  # done
            effects.discard_pool(t)
            t.s.pending = None

    def prompt(self, t: Position) -> Msg:
        return msg("Share out the items on the table (take <item> <prisoner>), then done.")

    def default(self, t: Position, seat: Seat, legal: list[str]) -> str | None:
        return "done" if "done" in legal else None
