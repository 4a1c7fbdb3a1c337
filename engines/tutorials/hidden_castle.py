"""Escape from the Hidden Castle taught by doing (the standard game, two players): a guest
placed, moves by the die, the Phantom climbing out and catching a guest, a guest hidden in
a chamber, the -3 chamber on an exact roll, a rival booted out, and a captured guest
leaving the dungeon (rules: SET-UP, YOUR TURN, CAPTURES, CHAMBERS, LEAVING THE DUNGEON)."""

from __future__ import annotations

from engines.contract import CHANCE, Game
from engines.hidden_castle.position import HiddenCastleState
from engines.text import msg
from engines.tutorials.lesson import Lesson, Step

# where set-up put each guest (yours are A to F, the Tutor's G to L); F and L are placed
# in the lesson, in that order
SPACES = {"a": 1, "g": 7, "b": 5, "h": 13, "c": 8, "i": 16, "d": 12, "j": 22, "e": 14, "k": 24}


def opening(game: Game, learner: str) -> HiddenCastleState:
    state = game.setup([learner, "Tutor"], {})
    for letter in SPACES:  # the placing order: A, G, B, H, ... (yours and the Tutor's in turn)
        state, _ = game.apply(state, game.to_act(state)[0], f"place {SPACES[letter]}")
    return state


def roll(*outcomes: str) -> tuple:
    return tuple((CHANCE, o) for o in outcomes)


LESSON = Lesson(
    game="hidden_castle",
    goal=(
        msg(
            "Escape from the Hidden Castle: your guests walk the Gallery, a loop of 28 spaces, while the Phantom climbs out of its dungeon to catch them."
        ),
        msg(
            "Every guest caught adds points to your score; when the clock reaches 5:00, the LOWEST score wins. You have guests A to F, the Tutor G to L."
        ),
    ),
    opening=opening,
    steps=(
        Step(
            say=(
                msg(
                    "Set-up: taking turns, each player puts a guest on an empty Gallery space. Your last guest, F, is still to be placed."
                ),
                msg("Place it on space 2."),
            ),
            move="place 2",
            wrong=msg("For this lesson, guest F goes on space 2."),
            then=((1, "place 27"), *roll("4")),
            after=msg(
                "The Tutor places its last guest on space 27. Your turn: the die is rolled for you, and shows 4."
            ),
        ),
        Step(
            say=(
                msg(
                    "A number moves ONE of your guests that many spaces clockwise. You must move every turn."
                ),
                msg("Move guest B four spaces, from 5 to 9."),
            ),
            move="move b",
            wrong=msg("Move guest B this turn."),
            then=roll("phantom", "2"),
            after=msg(
                "The Tutor rolls the Phantom (two faces of six): no guest moves, the Phantom climbs three steps of its staircase. You roll 2."
            ),
        ),
        Step(
            say=(msg("Move guest C two spaces, from 8 to 10."),),
            move="move c",
            wrong=msg("Move guest C this turn."),
            then=(*roll("phantom", "phantom", "1"), (1, "move g"), *roll("5")),
            after=msg(
                "The Tutor rolls the Phantom, and so do you: it climbs out at the exit, space 1, and catches your guest A there. A goes onto the highest free step, +10, and your score rises by 10. The clock strikes 12:00. The Tutor rolls 1; you roll 5."
            ),
        ),
        Step(
            say=(
                msg(
                    "Now that the Phantom walks the Gallery, the nine chambers are open, each behind its doorway space. A guest in a chamber is safe."
                ),
                msg(
                    "Hide guest D in chamber 15: entering counts as one space, and a roll larger than needed is fine."
                ),
            ),
            move="hide d 15",
            wrong=msg("This turn, hide guest D in chamber 15."),
            then=(*roll("4"), (1, "hide i 18"), *roll("5")),
            after=msg("The Tutor hides guest I in chamber 18. You roll 5."),
        ),
        Step(
            say=(
                msg(
                    "Chambers 6 and 9 carry a -3 coat of arms: entering one takes 3 off your score, but only with an exact roll."
                ),
                msg(
                    "Guest F on space 2 is four spaces from doorway 6, and entering is the fifth: your 5 is exact. Hide it there."
                ),
            ),
            move="hide f 6",
            wrong=msg("This turn, hide guest F in chamber 6, the -3 chamber: your 5 is exact."),
            then=(*roll("1"), (1, "move j"), *roll("5")),
            after=msg("The Tutor moves guest J one space. You roll 5."),
        ),
        Step(
            say=(
                msg(
                    "A chamber holding another player's guest can be entered with an exact roll: that guest is booted out onto the doorway, in the Phantom's way."
                ),
                msg(
                    "Guest E on space 14 is four spaces from doorway 18, where the Tutor's guest I hides; entering makes five, exactly your roll. Boot it out."
                ),
            ),
            move="hide e 18",
            wrong=msg("This turn, move guest E into chamber 18 and boot the Tutor's guest out."),
            then=(*roll("2"), (1, "move i"), *roll("4")),
            after=msg("The Tutor moves guest I on, away from the Phantom. You roll 4."),
        ),
        Step(
            say=(
                msg(
                    "A captured guest may leave the dungeon: the exit is the first space of its move. Your guest on the highest step must go first."
                ),
                msg("Bring guest A back into the Gallery."),
            ),
            move="move a",
            wrong=msg("This turn, bring guest A off the staircase."),
        ),
    ),
    closing=msg(
        "That is every move of the Hidden Castle: placing, moving, hiding, the -3 chambers, booting and leaving the dungeon. The Phantom speeds up as the clock strikes; keep your guests out of its reach."
    ),
)
