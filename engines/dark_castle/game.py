"""Dark Castle (its rulebook: docs/games.md): the game composed from its packs.

Characters are named by their trade (`smith`), items by a short id (`lantern`);
all seats act together on group decisions (the first valid action counts).
Actions:
  pick smith          choose your prisoner (solo: pick two)
  turn smith          the Smith turns the next chapter (YOU effects hit the Smith)
  take lantern cook   an item on the table goes to the Cook (hands permitting)
  drop lantern        put an item down on the table (left behind if nobody takes it)
  use salve           use an item now
  done                finish sharing the items on the table
  choose 2            take the second option of a chapter's choice
  send tailor         the Tailor attempts a test "one of you" must pass
  pass                accept a test roll as it is
  discard lantern     discard an item a card takes from you
  fight / rest cook   a combat round with nobody resting / with the Cook resting
  hit miller          resolve the Miller's attack next

Where the rules are, read against the rulebook:
  opening.py      choosing prisoners, the start card
  camp.py         the item phase: trading between chapters and sharing new items
  chapters.py     turning chapters; the card-script interpreter and its simple verbs
  trials.py       tests of a trait; rolls.py: a character's die roll
  items.py        drawing, using and discarding item cards
  combat.py       combat rounds, resting, attacks, specials
  effects.py      hurt, heal, death check, plague, draw: what any rule does to the party
  cult.py, plague.py, undead.py, collector.py: the four supplements, each a `rules.Pack`
Every pending step (`state.pending.kind`) is one `rules.Step` handler registered by one
pack; this class only dispatches the engine contract to them.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence

from engines.contract import Event, Game, Option, Result, Seat, plain
from engines.dark_castle import (
    cards,
    chapters,
    collector,
    core,
    cult,
    items,
    party,
    phase,
    plague,
    undead,
    views,
)
from engines.dark_castle.rules import Position, Rules
from engines.dark_castle.rules_text import RULES_TEXT
from engines.dark_castle.state import (
    CASTLE_CHAPTERS,
    CASTLES,
    LOG_LINES,
    Character,
    DarkCastleState,
    restored,
    saved,
    start_hp,
)
from engines.dark_castle.words import card, content_texts, listed
from engines.text import KEY, Msg, in_context, msg, to_json

__all__ = [
    "CASTLES",
    "CASTLE_CHAPTERS",
    "PACKS",
    "RULES",
    "DarkCastle",
    "DarkCastleState",
    "start_hp",
]

# The core game and the supplements, in the rulebook's order: all are always composed (an
# option decides whether a pack's cards come up), and each supplement is a game option.
PACKS = (core.PACK, cult.PACK, plague.PACK, undead.PACK, collector.PACK)
RULES = Rules(PACKS)
CASTLE_DECKS = ("start", "chapter", "boss")  # the chance steps that deal the castle itself


def _option(name: str) -> Option:
    title = cards.SUPPLEMENTS[name]["title"]
    return Option(("off", "on"), "off", f"{title}: its chapters, boss, cards and rules.")


def _one_after_another(lines: list) -> dict:
    """Several stored messages as one, said one after the other: the JSON of
    `engines.text.joined(lines, " ")`, made from lines already JSON (no English built twice:
    every move of a search comes through here)."""
    names = [f"p{i}" for i in range(len(lines))]
    text = " ".join("{" + name + "}" for name in names)
    return {KEY: text, "args": dict(zip(names, lines, strict=True)), "context": "list"}


# Moves no step labels: their names on a button.
BARE_LABELS = {
    "done": in_context("button", "Done"),
    "fight": in_context("button", "Fight"),
    "pass": in_context("button", "Pass"),
    "stop": in_context("button", "Stop"),
    "drink": in_context("button", "Drink"),
    "roll": in_context("button", "Roll"),
}


class DarkCastle(Game):
    id = "dark_castle"
    title = "Dark Castle"
    rules_version = 6  # 5: an item put down cannot be taken back by its dropper (phase.py);
    # 6: from a fight's 20th round the enemy strikes 1 harder each round (combat.py)
    min_players = 1
    max_players = 4
    options = {
        **{pack.name: _option(pack.name) for pack in PACKS if pack is not core.PACK},
        "castle": Option(
            CASTLES,
            "mixed",
            "mixed: the core chapters and every pack that is on, shuffled together; pack: "
            "only the chapters of the packs that are on, with their own boss (no pack on: "
            "the core castle); pack-numbered: the same in the packs' number order.",
        ),
    }
    cooperative = True
    summary = "Co-operative: 1-4 prisoners fight, bluff and bleed through 15 chapters and a boss."
    rules_text = RULES_TEXT

    # ----- set-up -----------------------------------------------------------------
    def new_state(self, names: Sequence[str], options: Mapping[str, str]) -> DarkCastleState:
        seats = [0, 0] if len(names) == 1 else list(range(len(names)))
        s = DarkCastleState(
            names=list(names),
            hp_start=start_hp(len(names)),
            chars=[Character("", seat, 0) for seat in seats],
            opts=dict(options),
        )
        RULES.set_up(Position(RULES, s))
        return s

    def conformance_options(self) -> list[dict[str, str]]:
        """The tables the conformance suite plays (engines/playout.py): every combination of
        the supplements in the mixed castle, and each pack alone and all of them together in
        a castle of their own, shuffled and numbered. A castle of two packs among several
        differs from these only in which chapters are drawn, so the full product (twice as
        many tables, each played at every party size) would test nothing more."""
        packs = [n for n, o in self.options.items() if o.choices == ("off", "on")]
        base = {n: o.default for n, o in self.options.items()}
        tables = []
        for values in itertools.product(("off", "on"), repeat=len(packs)):
            tables.append({**base, **dict(zip(packs, values, strict=True)), "castle": "mixed"})
        for castle in CASTLES[1:]:
            for on in [[p] for p in packs] + [packs]:
                tables.append({**base, **{p: "on" for p in on}, "castle": castle})
        return tables

    # ----- the contract, dispatched to the pending step's handler -------------------------
    def to_act(self, s: DarkCastleState) -> list[Seat]:
        if s.outcome or not s.pending:
            return []
        return RULES.steps[s.pending.kind].to_act(Position(RULES, s))

    def _legal(self, s: DarkCastleState, seat: Seat) -> list[str]:
        return RULES.steps[s.pending.kind].legal(Position(RULES, s), seat)

    def chance_outcomes(self, s: DarkCastleState) -> list[tuple[str, float]]:
        if not s.pending:
            return []
        return RULES.steps[s.pending.kind].outcomes(Position(RULES, s))

    def chance_key(self, s: DarkCastleState) -> str | None:
        """The castle: its start card, its chapter deck and its boss (the daily castle deals
        them from the day's seed, so every party meets the same castle in the same order)."""
        kind = s.pending.kind if s.pending else None
        return kind if kind in CASTLE_DECKS else None

    def _apply(
        self, s: DarkCastleState, seat: Seat, action: str, story: bool = True
    ) -> list[Event]:
        t = Position(RULES, s)
        RULES.steps[s.pending.kind].apply(t, seat, action)
        chapters.run(t)
        RULES.settled(t)
        public = [e.text for e in t.ev if e.to is None] if story else []
        if public:  # kept as messages (ids and arguments): a saved game reads in any language
            lines = [to_json(line) for line in public]
            s.log = (s.log + lines)[-LOG_LINES:]
            s.last = lines[0] if len(lines) == 1 else _one_after_another(lines)
        return t.ev

    def apply_in_place(self, s: DarkCastleState, seat: Seat, action: str) -> list[Event]:
        """For search: the rules without the story (`log`, `last`), which no searched
        position is ever shown with; keeping it as messages costs a search a fifth of its
        moves."""
        return self._apply(s, seat, action, story=False)

    def default_action(self, s: DarkCastleState, seat: Seat) -> str | None:
        """A timer keeps the castle moving: accept a roll, stop sharing, fight on, resolve the
        next attack, let the healthiest turn; a real choice is left to the players."""
        legal = self.legal_actions(s, seat)
        if not s.pending:
            return None
        return RULES.steps[s.pending.kind].default(Position(RULES, s), seat, legal)

    def label(self, s: DarkCastleState, action: str) -> Msg:
        """The item moves' labels hold in any step; any other move is labelled by the step
        (or the pack's camp moves) that owns its verb."""
        verb, *_ = action.split()
        label = items.describe(action) if verb in items.VERBS else None
        if label is None and verb in RULES.labellers:
            t = Position(RULES, s)
            for owner in RULES.labellers[verb]:
                label = owner.describe(t, action)
                if label:
                    break
        return label or BARE_LABELS.get(action) or Msg(action.capitalize())

    def prompt(self, s: DarkCastleState) -> Msg:
        """What the game asks now, in one line."""
        if s.outcome == "won":
            return msg("Escaped! The party is free.")
        if s.outcome == "lost":
            return msg("The escape has failed.")
        t = Position(RULES, s)
        step = t.step
        return step.prompt(t) if step else Msg("")

    def explain_illegal(self, s: DarkCastleState, seat: Seat, action: str) -> Msg | None:
        words = action.split()
        if not s.pending:
            return None
        if words[:1] == ["take"] and len(words) == 3 and not phase.may_take(s, *words[1:]):
            return phase.refusal(words[1], words[2])
        if words[:1] == ["take"] and len(words) == 3:
            return msg("That item is not on the table, or that prisoner's hands are full.")
        if words[:1] in (["use"], ["drop"]) and len(words) == 2 and words[1] in cards.ITEMS:
            return msg("You can only use or drop your own items, and only when they can help.")
        if words[:1] == ["rest"]:
            return msg("Only at the start of a combat round may one prisoner rest.")
        if words[:1] == ["give"]:
            return msg(
                "Each donor pledges once, for themself, keeping at least 1 HP, and no more in all than the recipient lacks."
            )
        if words[:1] == ["cast"]:
            return msg(
                "Only the Spell Book's holder casts, instead of a roll of their own die, a spell whose requirement is met now (see the rules)."
            )
        if words[:1] == ["rite"]:
            return msg(
                "The blood ritual needs the Ritual Chalice in someone's hands, between chapters, and a wounded recipient."
            )
        return None

    def texts(self) -> list[str | tuple[str, str]]:
        """The cards' texts (content/*.json) besides the title, rules and options: every
        title, scene, option label, item, flaw, companion and epilogue, and an item's name
        after "the" where the card's own begins with "The"."""
        out = super().texts()
        found = dict.fromkeys(
            text
            for path in sorted(cards.CONTENT.glob("*.json"))
            for text in content_texts(cards.read_content(path))
        )
        out += list(found)
        for tool in cards.TOOLS.values():
            if tool["name"].startswith("The "):
                out.append((tool["name"].removeprefix("The "), "after 'the'"))
        return out

    # ----- views, results ---------------------------------------------------------------
    def view(self, s: DarkCastleState, seat: Seat | None) -> dict:
        """Everything is public in this co-operative game (the decks are undrawn chance)."""
        ending = self.result(s).summary if s.outcome else Msg("")
        t = Position(RULES, s)
        return views.view(t, self.id, seat, self.to_act(s), self.prompt(s), ending)

    def result(self, s: DarkCastleState) -> Result | None:
        if not s.outcome:
            return None
        won = s.outcome == "won"
        seats = list(range(len(s.names)))
        if won:
            summary = msg("The prisoners escaped the Dark Castle together!")
        else:
            played = cards.ALL_CARDS.get(s.card, {})
            dead = [party.title(c.who) for c in s.chars if c.hp <= 0 and c.who]
            who = listed(dead) if dead else msg("one of them")
            if played.get("kind") != "boss":
                summary = msg(
                    "The prisoners did not escape: {who} died in chapter {n} of {total}, {card}.",
                    who=who,
                    n=len(s.used),
                    total=CASTLE_CHAPTERS,
                    card=card(played.get("title", "")),
                )
            else:
                summary = msg(
                    "The prisoners did not escape: {who} died in the final battle with {card}.",
                    who=who,
                    card=card(played["title"]),
                )
        return Result(ranking=[seats], scores={k: float(won) for k in seats}, summary=summary)

    def redraw(self, s: DarkCastleState, seat: Seat, rng: random.Random) -> DarkCastleState:
        """Nothing is hidden from any seat: undrawn chapters and item cards (the curses,
        plague cards and the Collector's start cards and bosses among them) are chance, and
        every card in play is face up: items in hands, in a knapsack or on the table, curses
        beside a prisoner, flaws dealt face up. A card a supplement kept face down would be
        dealt again here with `engines.hidden.redeal`, as Haunted House deals other hands."""
        return s

    dump_is_a_copy = True  # plain(...): new lists and dicts; `copy` loads the dump

    def dump(self, s: DarkCastleState) -> dict:
        """Every field is JSON already: copied by `plain`'s JSON round trip, many times
        faster than dataclasses.asdict (the conformance suite and the bench dump every state)."""
        return plain(saved(s))

    def load(self, data: dict) -> DarkCastleState:
        return restored(data)
