"""How the castle's rules are put together: step handlers, packs, and the table a move is
played on.

- A `Step` handles one kind of pending step (`state.pending.kind`), as boardgame.io's
  stages do: what it asks (`prompt`), who acts (`to_act`), its legal moves, the timer's
  `default`, its move labels (`describe`) and what each move does (`apply`). A chance step
  lists its outcomes instead and `resolve`s the one drawn.
- A `Pack` is one plug-in of rules: the core game, or a supplement. Each registers the same
  things the same way: its cards (`content/<name>.json`: chapters, boss, items, characters,
  put in play by `castle.py` when its option is on), its dice, its steps, the chapter-script
  verbs and interpreter frames it adds, the kinds of item-deck card it brings, moves between
  chapters, and a few named moments where its rules join the core's (a chapter turned, a
  death check).
- `Rules` composes the packs into one table of steps and one list per moment;
  `engines/dark_castle/game.py` composes all of them (an option only decides whether a pack's
  cards and rules come up, as the rulebooks mix everything together).
- A `Position` is a state under those rules with the events of the move being applied; every
  rule function takes one, so a pack calls the core's public effects (`effects.py`) and never
  a private method of anything.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, NamedTuple

from engines.contract import CHANCE, Event, Seat
from engines.dark_castle.state import DarkCastleState, Pending
from engines.text import Msg, msg


class Position:
    """A state under the composed rules, and the events of the move applied to it so far."""

    __slots__ = ("ev", "rules", "s")

    def __init__(self, rules: Rules, s: DarkCastleState) -> None:
        self.rules = rules
        self.s = s
        self.ev: list[Event] = []

    def say(self, text: Msg, kind: str = "info") -> None:
        self.ev.append(Event(text, kind=kind))

    @property
    def step(self) -> Step | None:
        """The handler of the pending step (None once nothing is pending)."""
        return self.rules.step(self.s)

    def everyone(self) -> list[Seat]:
        return list(range(len(self.s.names)))


class Step:
    """One kind of pending step. The defaults: every seat acts (a group decision, the first
    valid action counts), nothing is legal, nothing is asked, no default move."""

    kind: ClassVar[str] = ""
    labels: ClassVar[tuple[str, ...]] = ()  # the verbs whose moves `describe` labels

    def to_act(self, t: Position) -> list[Seat]:
        return list(range(len(t.s.names)))

    def legal(self, t: Position, seat: Seat) -> list[str]:
        return []

    def apply(self, t: Position, seat: Seat, action: str) -> None:
        raise NotImplementedError(self.kind)

    def outcomes(self, t: Position) -> list[tuple[str, float]]:
        return []

    def prompt(self, t: Position) -> Msg | str:
        return ""

    def default(self, t: Position, seat: Seat, legal: list[str]) -> str | None:
        """What a timer applies; `legal` is the seat's legal moves."""
        return None

    def describe(self, t: Position, action: str) -> Msg | None:
        """The label of a move whose verb is in `labels` (None: no label of its own)."""
        return None

    def show(self, t: Position, view: dict) -> None:
        """Add what this step shows to the view (a choice's options, a ritual's pledges)."""

    def use_effect(self, t: Position, k: int, effect: dict) -> bool:
        """What an item's effect does when used during this step, beyond healing and curing
        (a re-roll in a test, a strike in combat). True: the use ends here."""
        return False


class ChanceStep(Step):
    """A chance node: the dice or cards decide; the pending step is cleared, then the drawn
    outcome `resolve`d against it."""

    def to_act(self, t: Position) -> list[Seat]:
        return [CHANCE]

    def prompt(self, t: Position) -> Msg:
        return msg("The dice roll...")

    def apply(self, t: Position, seat: Seat, action: str) -> None:
        p = t.s.pending
        t.s.pending = None
        self.resolve(t, p, action)

    def resolve(self, t: Position, p: Pending, outcome: str) -> None:
        raise NotImplementedError(self.kind)


def uniform(kinds: list[str]) -> list[tuple[str, float]]:
    return [(k, 1 / len(kinds)) for k in kinds]


class Drawn(NamedTuple):
    """What drawing a special item-deck card asks next: replacement cards to draw, and a step
    its drawer must take once the draw is settled (a plague roll)."""

    again: int = 0
    then: Pending | None = None


class Camp:
    """Moves a pack adds between chapters (the knapsack, the blood ritual): each character's
    own moves, the party's, what they do and their labels (its `verbs`)."""

    verbs: ClassVar[tuple[str, ...]] = ()

    def moves(self, t: Position, k: int) -> list[str]:
        return []

    def party_moves(self, t: Position, seat: Seat) -> list[str]:
        return []

    def apply(self, t: Position, verb: str, args: list[str]) -> None:
        raise NotImplementedError(verb)

    def describe(self, t: Position, action: str) -> Msg | None:
        return None


CardStep = Callable[[Position, dict, str, list, int], None]  # step, card, path, "it"
Frame = Callable[[Position, dict], None]  # an interpreter frame other than a card's steps
ItemCard = Callable[[Position, int, str], Drawn]  # drawer, card
Hook = Callable[[Position], None]


@dataclass(frozen=True)
class Pack:
    """One plug-in of rules. Moments (each optional):
    - on_setup: a new game's state is made (the Collector's Box deals flaws first);
    - on_turn: a chapter is about to be turned (its turner chosen);
    - on_take(t, k, item) / on_drop(t, k, dropped): items change hands in camp; `dropped` is
      the list put down, which the hook may extend;
    - after_action: every action is settled;
    - before_death_check: a death check is about to look for the dead;
    - on_end: the game has just ended (won or lost);
    - on_rest(t, k) / on_victory: a character rests a round / the party wins a combat;
    - roll(t, k, why): the pending step of k's die roll, if the pack replaces it;
    - die(t, k): the faces k rolls, if the pack replaces their die;
    - combat_dice(t, card, step): the kind of chance step that rolls the per-player dice;
    - special_face(t, k): k rolled the special face in combat."""

    name: str  # the option that turns it on ("core": always); its cards: content/<name>.json
    steps: tuple[Step, ...] = ()
    card_steps: Mapping[str, CardStep] = field(default_factory=dict)
    frames: Mapping[str, Frame] = field(default_factory=dict)
    item_cards: Mapping[str, ItemCard] = field(default_factory=dict)
    dice: Mapping[str, Sequence[str]] = field(default_factory=dict)
    camp: Camp | None = None
    on_setup: Hook | None = None
    on_turn: Hook | None = None
    on_take: Callable[[Position, int, str], None] | None = None
    on_drop: Callable[[Position, int, list[str]], None] | None = None
    after_action: Hook | None = None
    before_death_check: Hook | None = None
    on_end: Hook | None = None
    on_rest: Callable[[Position, int], None] | None = None
    on_victory: Hook | None = None
    roll: Callable[[Position, int, str], Pending | None] | None = None
    die: Callable[[Position, int], Sequence[str] | None] | None = None
    combat_dice: Callable[[Position, dict, dict], str | None] | None = None
    special_face: Callable[[Position, int], None] | None = None


MOMENTS = (
    "on_setup",
    "on_turn",
    "on_take",
    "on_drop",
    "after_action",
    "before_death_check",
    "on_end",
    "on_rest",
    "on_victory",
    "roll",
    "die",
    "combat_dice",
    "special_face",
)


class Rules:
    """The packs composed: one table of steps (a kind belongs to one pack), one table of
    chapter verbs, frames and item-card kinds, and each moment's hooks in pack order."""

    def __init__(self, packs: Sequence[Pack]) -> None:
        self.packs = tuple(packs)
        self.steps: dict[str, Step] = {}
        self.card_steps: dict[str, CardStep] = {}
        self.frames: dict[str, Frame] = {}
        self.item_cards: dict[str, ItemCard] = {}
        self.dice: dict[str, Sequence[str]] = {}
        for pack in self.packs:
            for step in pack.steps:
                _register(self.steps, step.kind, step, pack)
            for table, own in (
                (self.card_steps, pack.card_steps),
                (self.frames, pack.frames),
                (self.item_cards, pack.item_cards),
                (self.dice, pack.dice),
            ):
                for key, value in own.items():
                    _register(table, key, value, pack)
        self.camps = tuple(p.camp for p in self.packs if p.camp)
        # Who labels a move, by its verb: the step that owns the verb, or a pack's camp moves.
        self.labellers: dict[str, list[Step | Camp]] = {}
        for owner in [*self.steps.values(), *self.camps]:
            for verb in owner.labels if isinstance(owner, Step) else owner.verbs:
                self.labellers.setdefault(verb, []).append(owner)
        self.moments = {
            moment: [getattr(p, moment) for p in self.packs if getattr(p, moment)]
            for moment in MOMENTS
        }

    def step(self, s: DarkCastleState) -> Step | None:
        return self.steps[s.pending.kind] if s.pending else None

    # The moments, each calling its hooks in pack order (a plain loop: they run on every move).
    def set_up(self, t: Position) -> None:
        for hook in self.moments["on_setup"]:
            hook(t)

    def turned(self, t: Position) -> None:
        for hook in self.moments["on_turn"]:
            hook(t)

    def taken(self, t: Position, k: int, item: str) -> None:
        for hook in self.moments["on_take"]:
            hook(t, k, item)

    def dropped(self, t: Position, k: int, items: list[str]) -> None:
        for hook in self.moments["on_drop"]:
            hook(t, k, items)

    def settled(self, t: Position) -> None:
        for hook in self.moments["after_action"]:
            hook(t)

    def before_death_check(self, t: Position) -> None:
        for hook in self.moments["before_death_check"]:
            hook(t)

    def ended(self, t: Position) -> None:
        for hook in self.moments["on_end"]:
            hook(t)

    def rested(self, t: Position, k: int) -> None:
        for hook in self.moments["on_rest"]:
            hook(t, k)

    def won_combat(self, t: Position) -> None:
        for hook in self.moments["on_victory"]:
            hook(t)

    def roll(self, t: Position, k: int, why: str) -> Pending | None:
        """The first pack's replacement for k's roll, if any."""
        for hook in self.moments["roll"]:
            pending = hook(t, k, why)
            if pending:
                return pending
        return None

    def die(self, t: Position, k: int) -> Sequence[str] | None:
        """The first pack's replacement for k's die, if any."""
        for hook in self.moments["die"]:
            faces = hook(t, k)
            if faces:
                return faces
        return None

    def combat_dice(self, t: Position, card: dict, step: dict) -> str | None:
        for hook in self.moments["combat_dice"]:
            kind = hook(t, card, step)
            if kind:
                return kind
        return None

    def special_face(self, t: Position, k: int) -> None:
        for hook in self.moments["special_face"]:
            hook(t, k)


def _register(table: dict, key: str, value: object, pack: Pack) -> None:
    if key in table:
        raise ValueError(f"pack {pack.name!r} registers {key!r} a second time")
    table[key] = value
