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

from engines.tutorials import castle_doors, dark_castle, ghosts18, haunted_house, hidden_castle
from engines.tutorials.lesson import Lesson, Scripted, Step, play_out, position

__all__ = ["Lesson", "Scripted", "Step", "lessons", "play_out", "position"]


def lessons() -> dict[str, Lesson]:
    """Every game's lesson, by game id."""
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
