"""Dark Castle taught by doing, solo with two prisoners: the prisoners picked, a page
turned, a chapter's roll (one prisoner sent), an item taken, a fight with a row of dice
hit away and an item used in it, and the loot shared (rules: SET-UP, TURNING CHAPTERS,
COMBAT, ITEMS)."""

from __future__ import annotations

from engines.contract import CHANCE, Game
from engines.dark_castle.game import DarkCastleState
from engines.text import msg
from engines.tutorials.lesson import Lesson, Step


def opening(game: Game, learner: str) -> DarkCastleState:
    return game.setup([learner], {})


def chance(*outcomes: str) -> tuple:
    return tuple((CHANCE, o) for o in outcomes)


LESSON = Lesson(
    game="dark_castle",
    goal=(
        msg(
            "Dark Castle: prisoners escape together through a castle of chapters, or not at all. Alone, you play two prisoners."
        ),
        msg(
            "The goal: get through 15 chapters and then the boss with every prisoner alive. If anyone reaches 0 HP, everyone loses."
        ),
    ),
    opening=opening,
    steps=(
        Step(
            say=(
                msg(
                    "Each prisoner has a die of three traits: Might, Cunning and Wisdom. A face with two symbols is a double: it counts twice, and in a fight it blocks."
                ),
                msg("Pick the Smith, strong in Might."),
            ),
            move="pick smith",
            wrong=msg("For this lesson, pick the Smith first."),
        ),
        Step(
            say=(msg("Now your second prisoner: the Tailor, strong in Cunning."),),
            move="pick tailor",
            wrong=msg("For this lesson, your second prisoner is the Tailor."),
            then=chance("s_cell"),
            after=msg("A start card opens the game: the cell door gives way."),
        ),
        Step(
            say=(
                msg(
                    "The castle is a book of chapters. Between chapters you decide who turns the next page: what the chapter does to YOU hits that prisoner."
                ),
                msg("Let the Smith turn the page."),
            ),
            move="turn smith",
            wrong=msg("This time, the Smith turns the page."),
            then=chance("riddle_door"),
        ),
        Step(
            say=(
                msg(
                    "A chapter may test a trait: the prisoner rolls their die, and it must show that trait. This one wants Wisdom from one of you, in two attempts."
                ),
                msg("Send the Tailor."),
            ),
            move="send tailor",
            wrong=msg("Send the Tailor to answer the door."),
            then=chance("c", "ww", "axe"),
            after=msg(
                "The first roll fails, the second shows a Wisdom double: success, and the door gives you an item."
            ),
        ),
        Step(
            say=(
                msg(
                    "Items go on the table and the party shares them: each prisoner has two hands. The Throwing Axe strikes a Might die away in a fight."
                ),
                msg("Give it to the Smith."),
            ),
            move="take axe smith",
            wrong=msg("The Smith takes the Throwing Axe."),
        ),
        Step(
            say=(msg("That is all the items: done ends the chapter."),),
            move="done",
            wrong=msg("Nothing more to share out: done."),
        ),
        Step(
            say=(msg("The next page: let the Tailor turn it."),),
            move="turn tailor",
            wrong=msg("This time, the Tailor turns the page."),
            then=chance("turnkey", "mc"),
            after=msg(
                "A fight: the Turnkey's row of dice is Might, Might, and one rolled die per prisoner: Might and Cunning."
            ),
        ),
        Step(
            say=(
                msg(
                    "Each round, one prisoner may rest (1 HP back, no attack) or everyone fights; then every fighter's die is rolled."
                ),
                msg("Fight with both."),
            ),
            move="fight",
            wrong=msg("Nobody rests this round: fight."),
            then=chance("mm", "cc"),
            after=msg("The Smith rolls a Might double, the Tailor a Cunning double."),
        ),
        Step(
            say=(
                msg(
                    "You resolve the attacks one by one: each symbol that matches a die of the row takes that die away; a double takes up to two, and blocks the enemy's strike."
                ),
                msg("The Smith hits first."),
            ),
            move="hit smith",
            wrong=msg("Let the Smith hit first: two Might dice go."),
        ),
        Step(
            say=(
                msg(
                    "One Might die is left, and the Tailor's Cunning cannot touch it. Use the Throwing Axe."
                ),
            ),
            move="use axe",
            wrong=msg("Use the Throwing Axe on the last Might die."),
            then=chance("salve"),
            after=msg(
                "The Tailor hits the Cunning die and the row is empty: the Turnkey is beaten, and leaves an item."
            ),
        ),
        Step(
            say=(msg("A Bone Salve heals 4 HP. Give it to the Tailor."),),
            move="take salve tailor",
            wrong=msg("The Tailor takes the Bone Salve."),
        ),
        Step(
            say=(msg("Done, and the chapter is over."),),
            move="done",
            wrong=msg("Done ends the chapter."),
        ),
    ),
    closing=msg(
        "That is how Dark Castle goes: turn a page, meet what it holds with rolls, fights and items, and keep everyone alive to the boss."
    ),
)
