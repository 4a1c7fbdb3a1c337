"""What a lesson is (its steps, said before each move) and how the position before a step
is built: shared by every game's lesson (engines/tutorials/<game>.py) and the list of them
(engines/tutorials/__init__.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engines.contract import Game, Seat, State
from engines.text import Msg

Scripted = tuple[Seat, str]  # (a seat, or CHANCE for a forced roll or card; its action)


@dataclass(frozen=True)
class Step:
    """One move the learner makes: what is said before it, the move that does what the step
    teaches (the prompt names it), why any other move is not the lesson, and what follows
    it before the learner's next move."""

    say: tuple[Msg, ...]
    move: str
    wrong: Msg
    then: tuple[Scripted, ...] = ()
    after: Msg | None = None  # said once the move is made (what it did, in a word)


@dataclass(frozen=True)
class Lesson:
    game: str
    goal: tuple[Msg, ...]  # the theme and the goal, before the first step
    opening: Callable[[Game, str], State]  # the first position, chance forced
    steps: tuple[Step, ...]
    closing: Msg  # said at the end, before the offer of a real game
    tutor: str = "Tutor"  # the other seats' names (a bot's name, not translated)
    options: dict[str, str] = field(default_factory=dict)


def play_out(game: Game, state: State, scripted: Sequence[Scripted]) -> tuple[State, list]:
    """The scripted moves and outcomes applied in order (each checked like any move), and
    what they told the learner alone (a card drawn)."""
    told = []
    for seat, action in scripted:
        state, events = game.apply(state, seat, action)
        told += [e.text for e in events if e.to == 0]
    return state, told


def position(game: Game, lesson: Lesson, learner: str, step: int) -> State:
    """The position before step `step` (0: the opening): every earlier step's move made."""
    state = lesson.opening(game, learner)
    for done in lesson.steps[:step]:
        state, _ = game.apply(state, 0, done.move)
        state, _ = play_out(game, state, done.then)
    return state
