"""18 Ghosts taught by doing: the last ghost placed, a step, a mirror jump, a fight won, an
escape, and a ghost released from the dungeon (rules: SET-UP, YOUR TURN, PORTALS)."""

from __future__ import annotations

from engines.contract import Game
from engines.ghosts18.game import Ghosts18State, placer
from engines.text import msg
from engines.tutorials.lesson import Lesson, Step

# who holds which carpet when set-up is over: every carpet is taken, the mirrors are free
YOURS = ("e1", "a3", "b5", "d3", "a4", "c2", "e2", "a1", "a5")  # a1, a5: in the lesson
TUTORS = ("b1", "c3", "e4", "d1", "b3", "d5", "a2", "c4", "e5")  # e5: in the lesson


def opening(game: Game, learner: str) -> Ghosts18State:
    """Set-up played for both but the last three ghosts (A places one, B two, then one
    each in turn: the 16th and 18th placements are A's, the 17th B's)."""
    state = game.setup([learner, "Tutor"], {})
    mine, theirs = list(YOURS[:-2]), list(TUTORS[:-1])
    for placed in range(15):
        seat = placer(placed)
        cell = (mine if seat == 0 else theirs).pop(0)
        state, _ = game.apply(state, seat, f"place {cell}")
    return state


LESSON = Lesson(
    game="ghosts18",
    goal=(
        msg(
            "18 Ghosts: you and the Tutor each haunt a castle with nine ghosts, three of each colour. Your ghosts are the round ones."
        ),
        msg(
            "The goal: be the first to get a red, a blue and a yellow ghost of your own out through the portals."
        ),
    ),
    opening=opening,
    steps=(
        Step(
            say=(
                msg(
                    "First the set-up: you and the Tutor put your ghosts on the chambers in turn, each on a carpet of its own colour. Only three ghosts are still to be placed: your blue one and your yellow one, and one of the Tutor's."
                ),
                msg("Place your blue ghost on the blue carpet a1."),
            ),
            move="place a1",
            wrong=msg("For this lesson, your blue ghost goes on the blue carpet a1."),
            then=((1, "place e5"), (0, "place a5")),
            after=msg(
                "The Tutor places their last ghost on e5, and your yellow one goes on a5, the last carpet."
            ),
        ),
        Step(
            say=(
                msg(
                    "Now you play. A turn is one step up, down, left or right. The grey chambers are mirrors and stand empty."
                ),
                msg("Step your yellow ghost from e2 left onto the mirror d2."),
            ),
            move="move e2 left",
            wrong=msg(
                "This step is a plain one, onto an empty chamber: your yellow ghost on e2 to the mirror d2."
            ),
            then=((1, "move b3 up"),),
            after=msg("The Tutor steps a blue ghost onto the mirror b2."),
        ),
        Step(
            say=(
                msg(
                    "From one mirror a ghost may jump to any other empty mirror, across the castle."
                ),
                msg("Jump your ghost from d2 to the mirror b4."),
            ),
            move="jump d2 b4",
            wrong=msg("This turn is a mirror jump: the ghost on d2 to the empty mirror b4."),
            then=((1, "jump b2 d2"),),
            after=msg("The Tutor jumps too, from b2 to d2."),
        ),
        Step(
            say=(
                msg(
                    "A step into a ghost of another colour is a fight: red beats blue, blue beats yellow, yellow beats red. The loser goes to the dungeon, and the portal of its colour turns a quarter clockwise."
                ),
                msg("Your yellow ghost on c2 beats the Tutor's red one below it: step c2 down."),
            ),
            move="move c2 down",
            wrong=msg(
                "This turn is a fight you win: your yellow ghost on c2 steps down onto the Tutor's red ghost on c3."
            ),
            then=((1, "move d5 up"),),
            after=msg(
                "The red portal now faces d1. The Tutor steps a blue ghost from d5 up onto d4."
            ),
        ),
        Step(
            say=(
                msg(
                    "A ghost standing in the chamber its own portal faces escapes at once. The red portal faces d1, where the Tutor's blue ghost stands."
                ),
                msg("Your red ghost on e1 beats it: step left onto d1, and out it goes."),
            ),
            move="move e1 left",
            wrong=msg(
                "This turn is an escape: your red ghost on e1 steps left onto d1, which the red portal faces."
            ),
            then=((1, "move b1 left"),),
            after=msg(
                "Your red ghost is out: one colour of three. The Tutor's red ghost beats your blue one on a1, which goes to the dungeon."
            ),
        ),
        Step(
            say=(
                msg(
                    "A ghost in the dungeon can come back: release it, and the Tutor chooses an empty carpet of its colour for it. That is your whole turn."
                ),
                msg("Release your blue ghost."),
            ),
            move="release blue",
            wrong=msg("This turn is a release: your blue ghost comes back from the dungeon."),
            then=((1, "place d1"),),
            after=msg("The Tutor places it on d1."),
        ),
    ),
    closing=msg(
        "That is every move of 18 Ghosts: placing, stepping, the mirror jump, fights, escapes and releases. Two more colours to get out, and a game is yours."
    ),
)
