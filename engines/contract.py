"""The one interface every game implements (docs/engine-contract.md).

The base class owns what all games share: option and player-count checks, the
turn check (is this seat allowed to act now?), the legality check against
`legal_actions`, the chance check against `chance_outcomes`, and copying the
state so `apply` never mutates its input. A game implements only its rules.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, ClassVar

from engines.text import Msg, Text, english, in_context, msg

Seat = int
CHANCE: Seat = -1
State = Any

MAX_ACTION_BYTES = 32


def plain(state: Any) -> Any:
    """A tree of dataclasses, lists and dicts of JSON values, copied as plain JSON values: what
    `dataclasses.asdict` gives for such a tree, by a JSON round trip at two to three times its
    speed (asdict deep-copies every leaf, and a game dumps its state on every move)."""
    return json.loads(json.dumps(state, default=_fields))


def _fields(value: Any) -> dict:
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in fields(value)}
    raise TypeError(f"{type(value).__name__} is not a JSON value")


class IllegalAction(ValueError):
    """An action the rules forbid now; the message (a `Msg`, or plain English) is shown to
    the player in their language, so it says what is allowed instead."""

    def __init__(self, message: Text) -> None:
        super().__init__(message)
        self.msg = message


class BadOption(ValueError):
    """A game option or player count that does not exist; the message names what does."""


@dataclass(frozen=True)
class Event:
    """One line of the game's log: a message (`Msg`, said in each reader's language, and
    English as a string) or plain English."""

    text: Text
    to: Seat | None = None
    kind: str = "info"


@dataclass(frozen=True)
class Result:
    ranking: list[list[Seat]]
    scores: dict[Seat, float]
    summary: Text


@dataclass(frozen=True)
class Option:
    choices: tuple[str, ...]
    default: str
    description: str
    labels: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.default not in self.choices:
            raise ValueError(f"default {self.default!r} not among {self.choices}")

    def label(self, value: str) -> Msg:
        """A choice as the reader reads it, in their language; what is typed (`variant=short`)
        stays the value itself, in every language."""
        return in_context("option value", self.labels.get(value, value))


class Game(ABC):
    id: ClassVar[str]
    title: ClassVar[str]
    rules_version: ClassVar[int] = 1
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[dict[str, Option]] = {}
    summary: ClassVar[str] = ""
    """One line for game lists."""
    rules_text: ClassVar[str] = ""
    """The rules as shown to players, including every decision the rulebook left open."""
    cooperative: ClassVar[bool] = False
    """The players win or lose together (their result ranks them as one group): such games
    count escapes and losses rather than ratings."""
    dump_is_a_copy: ClassVar[bool] = False
    """`dump` returns new plain values, sharing nothing with the state (`plain` makes such a
    dump), so `copy` loads it as it is; otherwise `copy` takes a JSON round trip of it."""
    hidden_information: ClassVar[bool] = False
    """Players see more than the table (hands, hidden cards): a player's view and moves are
    shown to that player alone. Declared once; the conformance suite checks it."""

    # ----- what a game implements -------------------------------------------------
    @abstractmethod
    def new_state(self, names: Sequence[str], options: Mapping[str, str]) -> State:
        """Build the first state; names and options are already checked."""

    @abstractmethod
    def to_act(self, state: State) -> list[Seat]: ...

    @abstractmethod
    def _legal(self, state: State, seat: Seat) -> list[str]:
        """Every action `seat` may take now; called only for a seat in `to_act`."""

    def _is_legal(self, state: State, seat: Seat, action: str) -> bool:
        """Whether `action` (canonical) is among `_legal`; a game that can answer without
        listing every move overrides it. Called only for a seat in `to_act`."""
        return action in self._legal(state, seat)

    def chance_outcomes(self, state: State) -> list[tuple[str, float]]:
        return []

    def chance_key(self, state: State) -> str | None:
        """The deck this chance node draws from, for a table that deals its decks from its
        seed (the daily castle): every draw of one key follows one order of that deck, the
        same for the same seed whatever else was rolled before. None: a plain draw (a die,
        or a game that never deals that way). The draw is still chance to every player and
        to the AI, which never sees the seed."""
        return None

    @abstractmethod
    def _apply(self, state: State, seat: Seat, action: str) -> list[Event]:
        """Apply a checked action to a private copy of the state, in place."""

    @abstractmethod
    def view(self, state: State, seat: Seat | None) -> dict: ...

    @abstractmethod
    def result(self, state: State) -> Result | None: ...

    @abstractmethod
    def dump(self, state: State) -> dict: ...

    @abstractmethod
    def load(self, data: dict) -> State: ...

    def default_action(self, state: State, seat: Seat) -> str | None:
        """What a timer applies: `pass` where offered, else None (let an AI choose)."""
        return "pass" if "pass" in self.legal_actions(state, seat) else None

    def reaction_window(self, state: State) -> bool:
        """True while the seats in `to_act` are answering someone else's move out of turn
        (a cat against a ghost): the turn clock gives them the short reaction time, and
        each of them may `pass`. A game with reaction windows says so here."""
        return False

    def redraw(self, state: State, seat: Seat, rng: random.Random) -> State:
        """A state `seat` cannot tell from this one: everything its view hides (other hands,
        the deck's make-up, face-down cards) dealt again at random from `rng`, everything it
        sees kept. The result depends only on `view(state, seat)` and `rng`, so a search AI
        that plays on redrawn states never peeks. Games without secrets return the state
        itself (undrawn cards and unturned tiles are chance nodes, not secrets)."""
        return state

    def rules_paragraphs(self) -> list[str]:
        """The rules text in paragraphs: each is a message of its own in the catalogues."""
        return [p.strip() for p in self.rules_text.split("\n\n") if p.strip()]

    def texts(self) -> list[str | tuple[str, str]]:
        """Every text this game keeps as data rather than as a message in code (its title,
        summary, rules, option descriptions; a game adds its cards), for the catalogues:
        a text, or (text, context)."""
        out: list[str | tuple[str, str]] = [self.title, *self.rules_paragraphs()]
        if self.summary:
            out.append(self.summary)
        for name, option in self.options.items():
            out += [option.description, (name, "option name")]
            out += [(option.labels.get(c, c), "option value") for c in option.choices]
        return out

    @staticmethod
    def option_name(name: str) -> Msg:
        """An option's name as the reader reads it (`variant` typed, "Variante" read)."""
        return in_context("option name", name)

    def label(self, state: State, action: str) -> Text:
        """An action as a button names it (a message, said in the reader's language)."""
        if type(self).describe is not Game.describe:  # a game that names it in English only
            return self.describe(state, action)
        return action

    def describe(self, state: State, action: str) -> str:
        """The label in English (a game gives `label`)."""
        return english(self.label(state, action))

    def explain_illegal(self, state: State, seat: Seat, action: str) -> str | None:
        """A game may say why a particular action is refused (e.g. "that ghost is not yours")."""
        return None

    # ----- what the base class owns -----------------------------------------------
    def setup(self, names: Sequence[str], options: Mapping[str, str] | None = None) -> State:
        names = list(names)
        if not self.min_players <= len(names) <= self.max_players:
            raise BadOption(
                msg(
                    "{game} needs {range} players, not {count}.",
                    game=msg(self.title),
                    range=self.player_range(),
                    count=len(names),
                )
            )
        return self.new_state(names, self.check_options(options or {}))

    def player_range(self) -> Text:
        if self.min_players == self.max_players:
            return str(self.min_players)
        return msg("{low} to {high}", low=self.min_players, high=self.max_players)

    def check_options(self, options: Mapping[str, str]) -> dict[str, str]:
        """Fill defaults and refuse unknown names or values, naming what exists."""
        checked = {name: opt.default for name, opt in self.options.items()}
        for name, value in options.items():
            if name not in self.options:
                known = ", ".join(sorted(self.options)) or msg("none")
                raise BadOption(
                    msg(
                        "{game} has no option {name}; its options: {known}.",
                        game=msg(self.title),
                        name=repr(name),
                        known=known,
                    )
                )
            choices = self.options[name].choices
            if value not in choices:
                raise BadOption(
                    msg(
                        "Option {name} cannot be {value}; choose one of: {choices}.",
                        name=name,
                        value=repr(value),
                        choices=", ".join(choices),
                    )
                )
            checked[name] = value
        return checked

    def legal_actions(self, state: State, seat: Seat) -> list[str]:
        if seat == CHANCE or seat not in self.to_act(state):
            return []
        return self._legal(state, seat)

    def is_legal(self, state: State, seat: Seat, action: str) -> bool:
        """Whether `seat` may take `action` (canonical) now: the same answer as
        `action in legal_actions(state, seat)`, without building the list where the game
        can answer directly."""
        if seat == CHANCE or seat not in self.to_act(state):
            return False
        return self._is_legal(state, seat, action)

    def apply(self, state: State, seat: Seat, action: str) -> tuple[State, list[Event]]:
        action = self.check(state, seat, action)
        new = self.copy(state)
        events = self._apply(new, seat, action)
        return new, events

    def apply_owned(
        self, state: State, seat: Seat, action: str, listed: Sequence[str] | None = None
    ) -> list[Event]:
        """`apply` on a state the caller owns and will not need as it was (the service's,
        loaded from the store for one request): checked the same, changed in place, no copy.
        `listed`: the seat's `legal_actions` on this very state, when the caller has just
        built them (a pressed button picks its move from them), so they are not built again."""
        return self._apply(state, seat, self.check(state, seat, action, listed))

    def check(
        self, state: State, seat: Seat, action: str, listed: Sequence[str] | None = None
    ) -> str:
        """The canonical action if `seat` may take it now; else `IllegalAction` saying why."""
        action = normalise_action(action)
        acting = self.to_act(state)
        if not acting:
            raise IllegalAction(msg("The game is over; no more moves."))
        if seat == CHANCE:
            outcomes = [o for o, _ in self.chance_outcomes(state)]
            if acting != [CHANCE]:
                raise IllegalAction(msg("No dice or cards are waiting to be drawn now."))
            if action not in outcomes:
                raise IllegalAction(
                    msg(
                        "{action} is not a possible outcome: {outcomes}.",
                        action=repr(action),
                        outcomes=", ".join(outcomes),
                    )
                )
        else:
            if acting == [CHANCE]:
                raise IllegalAction(msg("Wait: the dice or cards come first."))
            if seat not in acting:
                raise IllegalAction(self.not_your_turn(state, acting))
            if listed is not None:
                allowed = action in listed
            else:
                allowed = self._is_legal(state, seat, action)
            if not allowed:
                reason = self.explain_illegal(state, seat, action)
                raise IllegalAction(reason or refusal(action, self._legal(state, seat)))
        return action

    def apply_in_place(self, state: State, seat: Seat, action: str) -> list[Event]:
        """For search only: apply an action taken from `legal_actions` or `chance_outcomes`
        to a state the caller owns, without the checks and the copy of `apply`."""
        return self._apply(state, seat, action)

    def not_your_turn(self, state: State, acting: list[Seat]) -> Msg:
        names = self.seat_names(state)
        if names:
            who = ", ".join(names[s] for s in acting if 0 <= s < len(names))
            return msg("It is not your turn: waiting for {who}.", who=who)
        return msg("It is not your turn.")

    def seat_names(self, state: State) -> list[str]:
        view = self.view(state, None)
        names = view.get("names")
        return list(names) if isinstance(names, list) else []

    def copy(self, state: State) -> State:
        dumped = self.dump(state)
        return self.load(dumped if self.dump_is_a_copy else json.loads(json.dumps(dumped)))


def normalise_action(action: str) -> str:
    """Canonical form: lower case, single spaces, ASCII; junk stays junk and is refused later."""
    if not isinstance(action, str):
        raise IllegalAction(msg("An action is a short text, like `pass`."))
    text = " ".join(action.strip().lower().split())
    if not text:
        raise IllegalAction(msg("Empty action: choose one of the moves offered."))
    if len(text.encode("utf-8", "replace")) > MAX_ACTION_BYTES or not text.isascii():
        raise IllegalAction(
            msg("That is not a move of this game; choose one of the moves offered.")
        )
    return text


def refusal(action: str, legal: list[str]) -> Msg:
    if not legal:
        return msg(
            "{action} is not allowed now, and you have no move to make.", action=repr(action)
        )
    shown = ", ".join(legal[:8])
    if len(legal) > 8:
        return msg(
            "{action} is not allowed now. You may: {shown} (and {more} more).",
            action=repr(action),
            shown=shown,
            more=len(legal) - 8,
        )
    return msg("{action} is not allowed now. You may: {shown}.", action=repr(action), shown=shown)
