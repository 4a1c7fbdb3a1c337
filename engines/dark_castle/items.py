"""Item cards (rulebook, "Item Cards"): drawing them, using them, discarding them.

Drawing: where curses or plague cards lurk in the deck (Packs 1 and 3) the group first names
who draws each card (`drawer`); a card of a kind a pack brings (a curse, a plague card, a
companion's event) does what that pack registered; any other item goes on the table to be
shared out (`camp.py`). Using: an item helps when it can (`usable`); healing and curing are
the same everywhere, every other effect is the business of the step being played (a re-roll
in a test, a strike in combat: `Step.use_effect`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engines.contract import Seat
from engines.dark_castle import cards, castle, effects, explain, party, words
from engines.dark_castle.rules import ChanceStep, Drawn, Position, Step, uniform
from engines.dark_castle.state import Pending
from engines.text import Msg, msg

Helps = Callable[[Position, int, dict], bool]  # does this effect help character k now?
VERBS = ("take", "drop", "use", "discard")  # the item moves, labelled alike in every step


def usable(t: Position, k: int, when: str, helps: Helps | None = None) -> list[str]:
    """Items (and an unused flaw) character k can use now: in camp (between chapters,
    sharing), while choosing, in a test or in combat. Healing and curing help anywhere but a
    test; any other effect only where `helps` says so."""
    s = t.s
    char = s.chars[k]
    out = []
    for item_id in party.tools(s, k):
        if item_id in char.spent:
            continue
        for effect in cards.TOOLS[item_id].get("effects", []):
            kind = effect["k"]
            if kind == "cure":
                ok = char.plague > 0 and when in ("camp", "combat", "choice")
            elif kind == "heal":
                # In camp the item can still change hands; elsewhere it heals its holder.
                who = range(len(s.chars)) if when == "camp" or effect.get("all") else [k]
                ok = any(s.chars[j].hp < party.cap(s, j) for j in who) and when in (
                    "camp",
                    "combat",
                    "choice",
                )
            else:
                ok = helps is not None and helps(t, k, effect)
            if ok:
                out.append(item_id)
                break
    return out


def uses(t: Position, k: int, when: str, helps: Helps | None = None) -> list[str]:
    """`use` actions of character k: a healing item names whom it heals when that is not
    its holder (in camp, where items may change hands anyway), and is offered only for
    someone it can heal."""
    s = t.s
    out = []
    for item_id in usable(t, k, when, helps):
        heal = cards.has_effect(item_id, "heal")
        cure = cards.has_effect(item_id, "cure") and s.chars[k].plague > 0
        if heal and not heal.get("all"):
            if s.chars[k].hp < party.cap(s, k) or cure:
                out.append(f"use {item_id}")
            if when == "camp" and item_id in s.chars[k].items:  # a flaw is not passed on
                out += [
                    f"use {item_id} {c.who}"
                    for j, c in enumerate(s.chars)
                    if j != k and c.hp < party.cap(s, j)
                ]
        else:
            out.append(f"use {item_id}")
    return out


def use_action(t: Position, args: list[str]) -> None:
    """`use <item>` or `use <item> <whom it heals>`."""
    use(t, args[0], target=party.index(t.s, args[1]) if len(args) > 1 else None)


def use(t: Position, item_id: str, target: int | None = None) -> None:
    """Use an item or a flaw: it is spent as its card says, heals or cures, and its other
    effects are what the pending step makes of them."""
    s = t.s
    k = next(k for k in range(len(s.chars)) if item_id in party.tools(s, k))
    item = cards.TOOLS[item_id]
    char = s.chars[k]
    said = dict(name=party.name(s, k), item=words.card(item["name"]))
    if item_id in cards.FLAWS:
        t.say(msg("{name} uses the flaw {item}.", **said))
    elif target is not None:
        t.say(msg("{name} uses the item {item} on {whom}.", whom=party.name(s, target), **said))
    else:
        t.say(msg("{name} uses the item {item}.", **said))
    step = t.step
    if item_id in cards.FLAWS:
        char.flaw_used = True
    elif item.get("uses") == "discard":
        char.items.remove(item_id)
    elif item.get("uses") == "chapter":
        char.spent.append(item_id)
    for effect in item.get("effects", []):
        kind = effect["k"]
        if kind == "heal":
            targets = (
                range(len(s.chars)) if effect.get("all") else [k if target is None else target]
            )
            for j in targets:
                gained = effects.heal(t, j, effect["n"])
                t.say(msg("{name} gains {n} HP.", name=party.name(s, j), n=gained))
            continue
        if kind == "cure":
            effects.cure(t, k if target is None else target, effect["n"])
            continue
        if step is not None and step.use_effect(t, k, effect):
            return


def describe(action: str) -> Msg | None:
    """The label of an item move in any step: take, drop, use or discard, with the card's
    text."""
    verb, *args = action.split()
    if verb in VERBS and args and args[0] in cards.TOOLS:
        item = cards.TOOLS[args[0]]
        said = dict(item=words.card(item["name"]), text=words.card(item["text"]))
        if len(args) > 1:
            whom = party.short(args[1])
            if verb == "use":
                return msg("Use {item} on the {whom}: {text}", whom=whom, **said)
            if verb == "take":
                return msg("Take {item} to the {whom}: {text}", whom=whom, **said)
        return {
            "take": lambda: msg("Take {item}: {text}", **said),
            "drop": lambda: msg("Drop {item}: {text}", **said),
            "use": lambda: msg("Use {item}: {text}", **said),
            "discard": lambda: msg("Discard {item}: {text}", **said),
        }[verb]()
    return None


def healthiest(t: Position) -> str:
    """Who a timer sends: the character with the most HP (the first of equals)."""
    best = max(range(len(t.s.chars)), key=lambda k: (t.s.chars[k].hp, -k))
    return t.s.chars[best].who


# ----- the steps: who draws, the card drawn, an item discarded ----------------------------
class Drawer(Step):
    """Packs 1 and 3: before each card is drawn the group names who draws it."""

    kind = "drawer"
    labels = ("draw",)

    def legal(self, t: Position, seat: Seat) -> list[str]:
        return [f"draw {c.who}" for c in t.s.chars]

    def apply(self, t: Position, seat: Seat, action: str) -> None:
        s, p = t.s, t.s.pending
        k = party.index(s, action.split()[1])
        s.pending = Pending("item", n=p.n, by=k)
        if p.tainted:
            s.pending.tainted = True
        t.say(msg("{name} draws the next item card.", name=party.name(s, k)))

    def prompt(self, t: Position) -> Msg:
        curses, plague = (t.s.opts.get(pack) == "on" for pack in ("cult", "plague"))
        n = t.s.pending.n
        if curses and plague:
            return msg(
                "Who draws the next item card ({n} to draw)? Curses and plague cards lurk in the deck: draw <prisoner>.",
                n=n,
            )
        if plague:
            return msg(
                "Who draws the next item card ({n} to draw)? Plague cards lurk in the deck: draw <prisoner>.",
                n=n,
            )
        return msg(
            "Who draws the next item card ({n} to draw)? Curses lurk in the deck: draw <prisoner>.",
            n=n,
        )

    def default(self, t: Position, seat: Seat, legal: list[str]) -> str | None:
        return f"draw {healthiest(t)}"

    def describe(self, t: Position, action: str) -> str | None:
        verb, *args = action.split()
        if verb == "draw" and args:
            return msg("Draw: {character}", character=party.title(args[0]))
        return None


class ItemDraw(ChanceStep):
    """One card off the item deck (the discard pile reshuffled once the deck is spent)."""

    kind = "item"

    def outcomes(self, t: Position) -> list[tuple[str, float]]:
        return uniform(castle.deck(t.s))

    def resolve(self, t: Position, p: Pending, outcome: str) -> None:
        s = t.s
        if outcome in s.dealt:  # the deck ran out: the discard pile became the deck
            s.dealt = sorted(castle.held(s))
            t.say(msg("The item deck is spent: the discard pile is shuffled anew."))
        s.dealt.append(outcome)
        special = t.rules.item_cards.get(cards.ITEMS[outcome].get("kind", ""))
        if special is not None:
            drawn = special(t, -1 if p.by is None else p.by, outcome)
        else:
            drawn = Drawn()
            s.pool.append(outcome)
            if p.tainted:
                s.tainted.append(outcome)
            t.say(msg("Item drawn: {item}.", item=explain.item_name(outcome)))
        if s.outcome:
            return
        more = p.n - 1 + drawn.again
        if more > 0 and castle.deck(s):
            effects.draw(t, more, tainted=p.tainted)
        elif s.pool:
            s.pending = Pending("share")
        if drawn.then is not None:
            s.pending = replace(drawn.then, after=s.pending)


class Discard(Step):
    """A card takes an item: its holder chooses which (or the group, from anyone's; or which
    of several items with the tag a choice uses up)."""

    kind = "discard"

    def to_act(self, t: Position) -> list[Seat]:
        p = t.s.pending
        if p.party:
            return t.everyone()
        seat = t.s.chars[p.char].seat
        return [seat] if seat >= 0 else t.everyone()  # a companion: anyone

    def legal(self, t: Position, seat: Seat) -> list[str]:
        s, p = t.s, t.s.pending
        holders = range(len(s.chars)) if p.party else [p.char]
        tag = p.tag
        return [
            f"discard {i}"
            for k in holders
            for i in s.chars[k].items
            if not tag or tag in cards.ITEMS[i].get("tags", [])
        ]

    def apply(self, t: Position, seat: Seat, action: str) -> None:
        s = t.s
        item = action.split()[1]
        k = party.holder(s, item)
        s.chars[k].items.remove(item)
        if s.pending.tag:
            t.say(msg("{name} gives up {item}.", name=party.name(s, k), item=explain.the(item)))
        else:
            t.say(msg("{name} loses {item}.", name=party.name(s, k), item=explain.the(item)))
        s.pending = None

    def prompt(self, t: Position) -> Msg:
        p = t.s.pending
        if p.tag:
            return msg("Which {tag} is used up? discard <item>.", tag=explain.tag(p.tag))
        return msg("{name} must discard an item: discard <item>.", name=party.name(t.s, p.char))
