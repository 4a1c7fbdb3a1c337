"""Reaction windows: out-of-turn answers, written once for every game (docs/engine-contract.md, rule 4).

A reaction window is a question put to some seats outside the normal turn order:
"do you answer this?". It lists the seats who may respond, in the order they are
asked, the answers it allows (as action verbs, the first word of an action), and
who has passed. Every seat it asks may always `pass`, so a timer can close it.

Two ways of asking:
- ordered (the default): one seat at a time, in the listed order; `to_act` is that seat.
- together (`ordered=False`): every seat still asked at once; the first answer counts.

A seat may give up to `limit` answers before its part of the window ends (a 2-player
game may allow two answers, say). Passing ends that seat's part at once. What an
answer *does* is the game's business; the window only keeps track of who may still
speak. `data` carries the game's own JSON payload (who triggered the window, and so on).

The window is a plain dataclass of JSON values: `asdict(window)` and
`Window.from_dict(...)` round-trip it, so a game can keep a stack of them in its state.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from engines.contract import Seat

PASS = "pass"


@dataclass
class Window:
    kind: str
    """What the window is about, named by the game (shown in views, used to dispatch)."""
    seats: list[Seat]
    """The seats who may respond, in the order they are asked."""
    answers: list[str]
    """The answer verbs the window allows besides `pass` (the first word of an action)."""
    limit: int = 1
    """How many answers each seat may give before its part of the window ends."""
    ordered: bool = True
    """True: one seat at a time, in order. False: every seat still asked, at once."""
    given: list[int] = field(default_factory=list)
    """Answers given so far, one count per entry of `seats`."""
    passed: list[Seat] = field(default_factory=list)
    """Seats who passed, in the order they did."""
    data: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(set(self.seats)) != len(self.seats):
            raise ValueError(f"a seat is asked twice: {self.seats}")
        if self.limit < 1:
            raise ValueError("a window allows at least one answer a seat")
        if PASS in self.answers:
            raise ValueError("`pass` is always offered; do not list it as an answer")
        if not self.given:
            self.given = [0] * len(self.seats)
        if len(self.given) != len(self.seats):
            raise ValueError("`given` needs one count per seat")

    # ----- who may speak -----------------------------------------------------------
    def is_done(self, seat: Seat) -> bool:
        """True once `seat` has passed or used all its answers (or was never asked)."""
        if seat not in self.seats:
            return True
        return seat in self.passed or self.given[self.seats.index(seat)] >= self.limit

    def waiting(self) -> list[Seat]:
        """Seats still to be asked, in order."""
        return [seat for seat in self.seats if not self.is_done(seat)]

    @property
    def responder(self) -> Seat | None:
        """The seat asked now in an ordered window (the first still waiting), or None."""
        waiting = self.waiting()
        return waiting[0] if waiting else None

    @property
    def is_open(self) -> bool:
        return bool(self.waiting())

    def to_act(self) -> list[Seat]:
        """The seats who may act now: the responder, or every seat still asked."""
        waiting = self.waiting()
        if self.ordered:
            return waiting[:1]
        return waiting

    def may_act(self, seat: Seat) -> bool:
        return seat in self.to_act()

    def offers(self, seat: Seat, candidates: Iterable[str] = ()) -> list[str]:
        """What `seat` may do now: the candidates whose verb the window allows, then `pass`.

        The game passes every answer it finds possible (the window cannot know what is
        in a hand); anything not allowed by the window is left out. A seat that may not
        act now is offered nothing.
        """
        if not self.may_act(seat):
            return []
        allowed = [a for a in candidates if a.split(" ", 1)[0] in self.answers]
        return [*dict.fromkeys(allowed), PASS]

    # ----- recording what happened -------------------------------------------------
    def answer(self, seat: Seat, action: str) -> None:
        """Record an answer (not a pass) by `seat`."""
        if not self.may_act(seat):
            raise ValueError(f"seat {seat} may not answer now")
        if action.split(" ", 1)[0] not in self.answers:
            raise ValueError(f"{action!r} is not an answer this window allows")
        self.given[self.seats.index(seat)] += 1

    def pass_turn(self, seat: Seat) -> None:
        """Record that `seat` passes: its part of the window ends."""
        if not self.may_act(seat):
            raise ValueError(f"seat {seat} may not pass now")
        self.passed.append(seat)

    def respond(self, seat: Seat, action: str) -> bool:
        """Record `action` by `seat`; True when it was an answer, False for a pass."""
        if action == PASS:
            self.pass_turn(seat)
            return False
        self.answer(seat, action)
        return True

    def close(self) -> None:
        """End the window early (the game decided the question is settled)."""
        for seat in self.waiting():
            self.passed.append(seat)

    # ----- JSON -----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Window:
        return cls(**data)


def ordered_after(seat: Seat, players: int) -> list[Seat]:
    """Every other seat in turn order, starting with the one after `seat`."""
    return [(seat + k) % players for k in range(1, players)]


def top(stack: list[Window]) -> Window | None:
    """The window being answered in a stack of nested windows (the last one opened)."""
    return stack[-1] if stack else None
