"""Tutorials: each game taught by doing, in about five minutes (`/escape learn GAME`).

A lesson is a real game of the real engine, played from a position it builds itself, with
the dice and cards forced: it names the goal, then has the learner make every kind of move
the game has, once each, with one or two short lines before each move. Between the
learner's moves the other seat plays scripted moves and chance gives scripted outcomes
(`Step.then`), so every position a lesson shows is one the rules allow and the lesson
plays the same every time. The learner always sits in seat 0.

A lesson keeps no state of its own: the position before step k is the opening with the
first k steps' moves applied (`position`), so a learner who leaves resumes at the step
they reached, from its number alone.
"""

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


def lessons() -> dict[str, Lesson]:
    """Every game's lesson, by game id (imported here: each lesson imports its game)."""
    from engines.tutorials import castle_doors, dark_castle, ghosts18, haunted_house, hidden_castle

    return {
        lesson.game: lesson
        for lesson in (
            ghosts18.LESSON,
            castle_doors.LESSON,
            hidden_castle.LESSON,
            haunted_house.LESSON,
            dark_castle.LESSON,
        )
    }
