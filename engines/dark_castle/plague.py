"""Blight of the Plague Lord (rulebook: "Adventure Pack 3"): plague, carriers and the
knapsack. Read against the rulebook:

- Plague cards lurk in the item deck (the group names who draws each card): one hits its
  drawer (HP, plague, a roll for plague), then is discarded.
- Roll for plague: the plague die (`cards.PLAGUE_DIE`, never re-rolled), its number added to
  the roller's plague; each threshold reached costs HP at once (`effects.gain_plague`).
  Chapters roll for it or give it (script verbs `plague`, `cure`).
- Carriers: a fighter hit by a carrier gains 1 plague, unless they blocked or wear a mask
  (`combat.defend`); a clean character taking an item from a carrier (the loot of a carrier,
  or a carrier's dropped item) rolls for plague.
- The knapsack holds two more items, out of reach during a chapter: between chapters its
  owner stows (`stow <item>`) and takes out (`unstow <item>`) items. Its contents go with it.
- Three prisoners with split doubles join the characters on offer (`cards.CHARACTERS`).
"""

from __future__ import annotations

from engines.dark_castle import cards, chapters, effects, explain, party, phase, words
from engines.dark_castle.rules import Camp, ChanceStep, Drawn, Pack, Position
from engines.dark_castle.state import Pending
from engines.text import Msg, joined, msg


def draw_plague_card(t: Position, k: int, card_id: str) -> Drawn:
    """A plague card hits whoever drew it, then is discarded; it may make them roll."""
    s = t.s
    card = cards.ITEMS[card_id]
    effect = card["plague"]
    t.say(
        msg(
            "Plague! {name} draws {card}: {text}",
            name=party.name(s, k),
            card=words.card(card["name"]),
            text=words.card(card["text"]),
        ),
        kind="plague",
    )
    roll = Drawn(then=Pending("plague", char=k))
    if party.companion(s, k):  # it still rolls if the card says so, to no effect
        t.say(msg("It has no hold on {name}: a companion is unaffected.", name=party.name(s, k)))
        return roll if effect.get("roll") else Drawn()
    if effect.get("hurt"):
        effects.hurt(t, k, effect["hurt"])
        effects.check_death(t)
    if effect.get("gain") and not s.outcome:
        effects.gain_plague(t, k, effect["gain"])
    return roll if effect.get("roll") and not s.outcome else Drawn()


# ----- the script verbs: roll for plague, gain or lose it ---------------------------------
def plague(t: Position, step: dict, card: str, path: list, ctx: int) -> None:
    targets = chapters.targets(t.s, step.get("who", "you"), ctx)
    if "n" in step:
        for k in targets:
            effects.gain_plague(t, k, step["n"])
    else:  # each target rolls in turn
        t.s.frames.append({"k": "proll", "card": card, "path": path, "ctx": ctx, "queue": targets})


def cure(t: Position, step: dict, card: str, path: list, ctx: int) -> None:
    for k in chapters.targets(t.s, step.get("who", "you"), ctx):
        effects.cure(t, k, step.get("n", 1))


def rolls_frame(t: Position, frame: dict) -> None:
    """A chapter's queue of plague rolls: the next roller, until nobody is left."""
    if frame["queue"]:
        t.s.pending = Pending("plague", char=frame["queue"][0], frame=True)
    else:
        t.s.frames.pop()


class PlagueRoll(ChanceStep):
    """The plague die, for a chapter's queue or a card or a carrier's item; then whatever
    was pending before goes on."""

    kind = "plague"

    def outcomes(self, t: Position) -> list[tuple[str, float]]:
        return cards.die_outcomes(t.rules.dice["plague"])

    def resolve(self, t: Position, p: Pending, outcome: str) -> None:
        if p.frame:
            t.s.frames[-1]["queue"].pop(0)
        effects.gain_plague(t, p.char, int(outcome), rolled=True)
        if not t.s.outcome:
            t.s.pending = p.after


# ----- carriers' items ----------------------------------------------------------------
def taken(t: Position, k: int, item: str) -> None:
    """An item from a carrier: a clean taker rolls for plague."""
    s = t.s
    if item in s.tainted:
        s.tainted.remove(item)
        if not s.chars[k].plague:
            t.say(msg("It came from a carrier: {name} rolls for plague.", name=party.name(s, k)))
            s.pending = Pending("plague", char=k, after=s.pending)


def dropped(t: Position, k: int, items: list[str]) -> None:
    """A knapsack put down takes its contents with it; a carrier's items carry plague."""
    char = t.s.chars[k]
    if cards.has_effect(items[0], "knapsack"):
        items += char.stored
        char.stored = []
    if char.plague:
        t.s.tainted += items


# ----- the knapsack -------------------------------------------------------------------
class Knapsack(Camp):
    """Between chapters the knapsack's owner rearranges it: `stow` an item from the hands,
    `unstow` one back into free hands."""

    verbs = ("stow", "unstow")

    def moves(self, t: Position, k: int) -> list[str]:
        char = t.s.chars[k]
        sack = next(filter(None, (cards.has_effect(i, "knapsack") for i in char.items)), None)
        if not sack:
            return []
        stored = char.stored
        out = []
        if len(stored) < sack.get("n", 2):
            out += [f"stow {i}" for i in char.items if not cards.has_effect(i, "knapsack")]
        out += [f"unstow {i}" for i in stored if party.fits(t.s, k, i)]
        return out

    def apply(self, t: Position, verb: str, args: list[str]) -> None:
        s = t.s
        item = args[0]
        if verb == "stow":
            k = party.holder(s, item)
            s.chars[k].items.remove(item)
            s.chars[k].stored.append(item)
            t.say(msg("{name} stows {item}.", name=party.name(s, k), item=explain.the(item)))
            phase.note(s, phase.STOWED, item)
        else:
            k = next(k for k, c in enumerate(s.chars) if item in c.stored)
            s.chars[k].stored.remove(item)
            s.chars[k].items.append(item)
            t.say(msg("{name} takes out {item}.", name=party.name(s, k), item=explain.the(item)))
            phase.note(s, phase.UNSTOWED, item)

    def describe(self, t: Position, action: str) -> Msg | None:
        verb, *args = action.split()
        if verb in self.verbs and args and args[0] in cards.ITEMS:
            if verb == "stow":
                return msg("Put {item} into the knapsack", item=explain.the(args[0]))
            return msg("Put {item} out of the knapsack", item=explain.the(args[0]))
        return None


def check_knapsacks(t: Position) -> None:
    """Items stored in a knapsack that has gone (lost, discarded) go with it."""
    for k, char in enumerate(t.s.chars):
        if char.stored and not any(cards.has_effect(i, "knapsack") for i in char.items):
            names = joined([explain.item_name(i) for i in char.stored])
            char.stored = []
            t.say(
                msg(
                    "With the knapsack {name} loses: {items}.", name=party.name(t.s, k), items=names
                )
            )


PACK = Pack(
    name="plague",
    steps=(PlagueRoll(),),
    card_steps={"plague": plague, "cure": cure},
    frames={"proll": rolls_frame},
    item_cards={"plague": draw_plague_card},
    dice={"plague": cards.PLAGUE_DIE},
    camp=Knapsack(),
    on_take=taken,
    on_drop=dropped,
    after_action=check_knapsacks,
)
