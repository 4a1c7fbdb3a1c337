"""Turning and completing chapter cards (rulebook, "Turning Chapter Cards" and "Completing
Chapters"): the cards are data, a small script of steps (`cards.STEP_KINDS`), and this is
their interpreter.

A card's script runs on a stack of frames until a decision or a chance is needed: a frame
`seq` walks a list of steps; the other frames (a test being attempted, a group test, a queue
of plague rolls) are run by whoever registered them. Each script verb (`do`) is looked up in
the verbs the packs register; the core's simple ones are here, tests in `trials.py` and
combat in `combat.py`.
"""

from __future__ import annotations

from engines.contract import Seat
from engines.dark_castle import cards, castle, effects, explain, items, party, words
from engines.dark_castle.rules import ChanceStep, Position, Step, uniform
from engines.dark_castle.state import CASTLE_CHAPTERS, DarkCastleState, Pending
from engines.text import Msg, joined, msg, plural


def step_at(card_id: str, path: list) -> dict:
    return cards.steps_at(cards.ALL_CARDS[card_id], path)


def push(s: DarkCastleState, card_id: str, path: list, ctx: int) -> None:
    """Run the steps at `path` next; `ctx` is who "it" is in them."""
    s.frames.append({"k": "seq", "card": card_id, "path": path, "pc": 0, "ctx": ctx})


def open_card(t: Position, card_id: str) -> None:
    """Turn a card face up: read its scene aloud, say what it asks, start its script."""
    s = t.s
    card = cards.ALL_CARDS[card_id]
    s.card = card_id
    s.frames = []
    t.say(msg("{title}: {text}", title=card["title"], text=card["text"]), kind="scene")
    asks = explain.card_asks(card, len(s.chars))
    if asks:
        t.say(msg("It asks: {asks}", asks=joined(asks, " ")), kind="asks")
    push(s, card_id, ["steps"], s.turner)


def run(t: Position) -> None:
    """Carry out steps until a decision or a chance is needed, or the game ends."""
    s = t.s
    while s.pending is None and not s.outcome:
        if not s.frames:
            card_done(t)
            continue
        frame = s.frames[-1]
        if frame["k"] != "seq":
            t.rules.frames[frame["k"]](t, frame)
            continue
        steps = cards.steps_at(cards.ALL_CARDS[frame["card"]], frame["path"])
        if frame["pc"] >= len(steps):
            s.frames.pop()
            continue
        frame["pc"] += 1
        path = [*frame["path"], frame["pc"] - 1]
        run_step(t, steps[frame["pc"] - 1], frame["card"], path, frame["ctx"])


def run_step(t: Position, step: dict, card: str, path: list, ctx: int) -> None:
    kind = step["do"]
    if step.get("text") and kind != "choose":
        t.say(words.card(step["text"]))
    verb = t.rules.card_steps.get(kind)
    if verb is not None:  # `narrate` is its text alone
        verb(t, step, card, path, ctx)


def card_done(t: Position) -> None:
    """A boss beaten is the escape; a chapter completed leads to the space between chapters."""
    s = t.s
    card = cards.ALL_CARDS[s.card]
    if card["kind"] == "boss":
        s.outcome = "won"
        t.say(msg("The boss falls. The gate groans open: you escape the Dark Castle!"))
        t.rules.ended(t)
        return
    if card["kind"] == "chapter":
        left = CASTLE_CHAPTERS - len(s.used)
        t.say(
            plural(
                "Chapter complete. {count} chapter remains before the boss.",
                "Chapter complete. {count} chapters remain before the boss.",
                left,
            )
        )
    s.pending = Pending("between")


def targets(s: DarkCastleState, who: str, ctx: int) -> list[int]:
    """Whom a step aims at: YOU (the turner), the others, "it" (the character this branch is
    about), the weakest or strongest, or everyone. -2 stands for a companion who has left."""
    every = list(range(len(s.chars)))
    if who == "you":
        return [s.turner] if s.turner >= 0 else [] if s.turner == -2 else every
    if who == "others":
        return [k for k in every if k != s.turner]
    if who == "it":
        return [ctx] if ctx >= 0 else [] if ctx == -2 else [0]
    if who == "weakest":
        return [min(every, key=lambda k: (s.chars[k].hp, k))]
    if who == "strongest":
        return [max(every, key=lambda k: (s.chars[k].hp, -k))]
    return every


# ----- the core script verbs ---------------------------------------------------------
def damage(t: Position, step: dict, card: str, path: list, ctx: int) -> None:
    s = t.s
    for k in targets(s, step.get("who", "you"), ctx):
        extra = 1 if step.get("cultist") and party.marked(s, k) else 0  # Marked for Death
        effects.hurt(t, k, step["n"] + extra)
    effects.check_death(t)


def heal(t: Position, step: dict, card: str, path: list, ctx: int) -> None:
    for k in targets(t.s, step.get("who", "you"), ctx):
        gained = effects.heal(t, k, step["n"])
        t.say(msg("{name} gains {n} HP.", name=party.name(t.s, k), n=gained))


def draw(t: Position, step: dict, card: str, path: list, ctx: int) -> None:
    effects.draw(t, len(t.s.chars) if step["n"] == "per_player" else step["n"])


def lose_item(t: Position, step: dict, card: str, path: list, ctx: int) -> None:
    """One item by its holder's choice, everything carried, or one the group picks."""
    s = t.s
    who = step.get("who", "you")
    if who == "party":
        holders = [k for k, c in enumerate(s.chars) if c.items]
        if holders:  # the group decides whose item goes
            s.pending = Pending("discard", char=holders[0], party=True)
        return
    for k in targets(s, who, ctx):
        char = s.chars[k]
        if not char.items:
            continue
        if step.get("what") == "all":
            names = joined([explain.item_name(i) for i in char.items])
            char.items = []
            t.say(
                msg("{name} loses everything carried: {items}.", name=party.name(s, k), items=names)
            )
        else:
            s.pending = Pending("discard", char=k)
            return


def choose(t: Position, step: dict, card: str, path: list, ctx: int) -> None:
    if step.get("text"):
        t.say(words.card(step["text"]))
    t.s.pending = Pending("choose", card=card, path=path, ctx=ctx)


def gamble(t: Position, step: dict, card: str, path: list, ctx: int) -> None:
    t.s.pending = Pending("gamble", n=1, card=card, path=path, ctx=ctx)


def if_item(t: Position, step: dict, card: str, path: list, ctx: int) -> None:
    branch = "then" if step["needs"] in party.tags(t.s) else "else"
    if branch in step:
        push(t.s, card, [*path, branch], ctx)
    if step.get("spend") and branch == "then":
        effects.spend_tag(t, step["needs"])


CARD_STEPS = {
    "damage": damage,
    "heal": heal,
    "draw": draw,
    "lose_item": lose_item,
    "choose": choose,
    "gamble": gamble,
    "if_item": if_item,
}


# ----- the steps: a choice, a gamble, the next chapter or the boss turned ---------------
def open_options(s: DarkCastleState, step: dict) -> list[int]:
    """The options the party may take: an item tag it carries, an item YOU carry."""
    tags = party.tags(s)
    you_carry = s.turner >= 0 and bool(s.chars[s.turner].items)
    return [
        i
        for i, o in enumerate(step["options"])
        if (not o.get("needs") or o["needs"] in tags)
        and (o.get("requires") != "you_item" or you_carry)
    ]


class Choose(Step):
    """A chapter's choice, decided together; items may be used while deciding."""

    kind = "choose"
    labels = ("choose",)

    def legal(self, t: Position, seat: Seat) -> list[str]:
        p = t.s.pending
        out = [f"choose {i + 1}" for i in open_options(t.s, step_at(p.card, p.path))]
        return out + [a for k in party.mine(t.s, seat) for a in items.uses(t, k, "choice")]

    def apply(self, t: Position, seat: Seat, action: str) -> None:
        verb, *args = action.split()
        if verb == "use":
            items.use_action(t, args)
            return
        s, p = t.s, t.s.pending
        step = step_at(p.card, p.path)
        option = step["options"][int(args[0]) - 1]
        t.say(msg("The party chooses: {option}.", option=words.card(option["label"])))
        s.pending = None
        push(s, p.card, [*p.path, "options", int(args[0]) - 1, "steps"], p.ctx)
        if option.get("spend"):
            effects.spend_tag(t, option["needs"])

    def prompt(self, t: Position) -> Msg:
        return msg("Decide together: choose <number>.")

    def describe(self, t: Position, action: str) -> Msg | None:
        verb, *args = action.split()
        p = t.s.pending
        if verb != "choose" or not p or p.kind != "choose":
            return None
        option = step_at(p.card, p.path)["options"][int(args[0]) - 1]
        return msg(
            "{label} ({cost})",
            label=words.card(option["label"]),
            cost=explain.option_cost(option, len(t.s.chars)),
        )

    def show(self, t: Position, view: dict) -> None:
        p = t.s.pending
        step = step_at(p.card, p.path)
        open_ = open_options(t.s, step)
        view["options"] = [
            {
                "n": i + 1,
                "label": words.card(o["label"]),
                "cost": explain.option_cost(o, len(t.s.chars)),
                "open": i in open_,
            }
            for i, o in enumerate(step["options"])
        ]


class Gamble(ChanceStep):
    """One chapter die decides which branch of the card runs."""

    kind = "gamble"

    def outcomes(self, t: Position) -> list[tuple[str, float]]:
        return cards.chapter_dice_outcomes(t.s.pending.n)

    def resolve(self, t: Position, p: Pending, outcome: str) -> None:
        t.say(msg("The chapter die shows {trait}.", trait=cards.TRAIT_NAMES[outcome]))
        push(t.s, p.card, [*p.path, outcome], p.ctx)


class NextChapter(ChanceStep):
    """The next chapter of the castle deck (shuffled, or a pack's number order)."""

    kind = "chapter"

    def outcomes(self, t: Position) -> list[tuple[str, float]]:
        s = t.s
        left = [c for c in cards.in_sets(cards.CHAPTERS, castle.chapter_sets(s)) if c not in s.used]
        if s.opts.get("castle") == "pack-numbered":
            sets = castle.chapter_sets(s)
            first = min(
                left,
                key=lambda c: (
                    sets.index(cards.CHAPTERS[c]["set"]),
                    cards.CHAPTERS[c].get("n", 0),
                    c,
                ),
            )
            return [(first, 1.0)]
        return uniform(left)

    def resolve(self, t: Position, p: Pending, outcome: str) -> None:
        t.s.used.append(outcome)
        open_card(t, outcome)


class Boss(ChanceStep):
    """The boss under the castle deck: a pack on its own brings its own; a mixed castle
    shuffles every boss in play (the Collector's Box adds more)."""

    kind = "boss"

    def outcomes(self, t: Position) -> list[tuple[str, float]]:
        s = t.s
        sets = castle.chapter_sets(s)
        if sets != ["core"] and "core" not in sets:
            return uniform(sorted(cards.SUPPLEMENTS[p]["boss"] for p in sets))
        extra = ["collector"] if castle.collector(s) else []
        return uniform(cards.in_sets(cards.BOSSES, sets + extra))

    def resolve(self, t: Position, p: Pending, outcome: str) -> None:
        open_card(t, outcome)
