"""Haunted House taught by doing (two players, special cards in): rooms played onto the
first floor, a ghost sent to the Tutor's dark floor, a cat answering the Tutor's ghost out
of turn, a special card (the light bulb), and a light turned on with cards (rules: YOUR
TURN, GHOSTS, SPECIAL CARDS, END OF TURN)."""

from __future__ import annotations

from engines.contract import CHANCE, Game
from engines.haunted_house.house import HauntedState
from engines.text import command, msg
from engines.tutorials.lesson import Lesson, Step

YOURS = ("room1b3", "room1b2", "room2b1")
TUTORS = ("room1b1", "room1b1", "cat")


def opening(game: Game, learner: str) -> HauntedState:
    state = game.setup([learner, "Tutor"], {"specials": "on"})
    for card in (*YOURS, *TUTORS):  # three cards each, you first
        state, _ = game.apply(state, CHANCE, card)
    return state


def draw(*cards: str) -> tuple:
    return tuple((CHANCE, c) for c in cards)


LESSON = Lesson(
    game="haunted_house",
    goal=(
        msg(
            "Haunted House: you and the Tutor each own a haunted house of three floors, two rooms a floor, all dark. You are p1, the Tutor p2."
        ),
        msg(
            "The goal: explore all six rooms of your house, then get out; the first to escape wins. Each turn you do ONE thing, then draw back up to three cards."
        ),
    ),
    opening=opening,
    steps=(
        Step(
            say=(
                msg(
                    "Rooms go on your lowest floor that is not full, floor 1 first; you may play several in one turn."
                ),
                msg("Play your first-floor room with 3 bulbs."),
            ),
            move="play room1b3",
            wrong=msg("Start with a room: your first-floor room with 3 bulbs."),
        ),
        Step(
            say=(msg("Keep going: play your other first-floor room."),),
            move="play room1b2",
            wrong=msg("Play your other first-floor room, the one with 2 bulbs."),
        ),
        Step(
            say=(
                msg(
                    "Floor 1 is full. Keep your second-floor room for later: end the run of rooms with done, and you draw back up to three."
                ),
            ),
            move="done",
            wrong=msg("End your run of rooms now: done."),
            then=(*draw("ghost", "cat"), (1, "play room1b1"), (1, "done"), *draw("ghost")),
            after=msg("The Tutor plays a first-floor room."),
        ),
        Step(
            say=(
                msg(
                    "A ghost goes to an opponent's highest floor with a room. On a dark floor it takes the floor's rooms with it, unless a cat chases it off."
                ),
                msg("Send your ghost to the Tutor, p2."),
            ),
            move="ghost p2",
            wrong=msg("This turn, send your ghost to the Tutor: ghost p2."),
            then=((1, "pass"), *draw("bulb"), (1, "ghost p1")),
            after=msg(
                "The Tutor has no cat to answer with: the ghost takes its room. Now the Tutor sends a ghost to your floor 1."
            ),
        ),
        Step(
            say=(
                msg(
                    "A ghost coming at you can be answered at once, out of turn, with a cat from your hand: both are discarded and your rooms stay."
                ),
                msg("Answer with your cat."),
            ),
            move="cat",
            wrong=msg("Answer the ghost with your cat, or your first floor's rooms are lost."),
            then=draw("room2b2"),
            after=msg("The cat chases the ghost away. The Tutor draws."),
        ),
        Step(
            say=(
                msg(
                    "Lit floors are safer: a ghost on a lit floor only stays, and it takes a second one to empty it. Special cards bend the rules: the light bulb lights a floor for free."
                ),
                msg("Light your floor 1 with the light bulb."),
            ),
            move="bulb 1",
            wrong=msg("This turn, play the light bulb on floor 1."),
            then=(*draw("room2b3", "room3b2"), (1, "play room1b1"), (1, "done"), *draw("room1b1")),
            after=msg("The Tutor plays a first-floor room again."),
        ),
        Step(
            say=(
                msg(
                    "A light can also be turned on with cards: two or three with at least 5 bulbs in all. The floors below must be fully explored; yours is."
                ),
                msg("Light floor 2."),
            ),
            move="light 2",
            wrong=msg("This turn, light floor 2 with cards."),
        ),
        Step(
            say=(msg("Pick the cards: first your second-floor room with 3 bulbs."),),
            move="with room2b3",
            wrong=msg("Pick your second-floor room with 3 bulbs first."),
        ),
        Step(
            say=(msg("Then your third-floor room with 2 bulbs: 5 bulbs in all."),),
            move="with room3b2",
            wrong=msg("Pick your third-floor room with 2 bulbs: with it you have 5 bulbs."),
        ),
        Step(
            say=(msg("Five bulbs: done, and the light goes on."),),
            move="done",
            wrong=msg("You have 5 bulbs: done."),
        ),
    ),
    closing=msg(
        "That is every kind of move in Haunted House: rooms, ghosts, cats in and out of turn, lights and special cards (the others are in {rules_haunted_house}). Explore all six rooms and escape before the ghosts catch up.",
        rules_haunted_house=command("rules", "haunted_house"),
    ),
)
