"""Castle Doors taught by doing, over six turns from the middle of a race: a key opens the
door ahead, a hacksaw cuts bars, a padlock and a net hold the Tutor back (who answers with
a skeleton key), a secret passage leads across a corner, a card is discarded, and the far
row is reached (rules: YOUR TURN, DOORS, THE CARDS)."""

from __future__ import annotations

from engines.castle_doors import board
from engines.castle_doors.castle import CastleState
from engines.contract import CHANCE, Game
from engines.text import msg
from engines.tutorials.lesson import Lesson, Step

OPEN = {  # the doors found open earlier: cell -> kind (you came up column b, the Tutor down d)
    "b1": "open door",
    "b2": "open door",
    "b3": "open door",
    "b4": "open door",
    "b6": "barred door",
    "a6": "barred door",
    "c7": "open door",
    "c8": "open door",
    "d8": "open door",
    "d7": "open door",
    "d6": "open door",
    "d5": "open door",
}
HANDS = (["hacksaw", "key blue", "padlock"], ["key blue", "key green", "skeleton"])


def opening(game: Game, learner: str) -> CastleState:
    """Two players: you at the bottom edge on b4, the Tutor (top edge) on d7; the castle's
    colours in diagonal stripes; your turn begins with a net drawn."""
    s = game.setup([learner, "Tutor"], {})
    for cell, t in s.tiles.items():
        x, y = board.xy(cell)
        t["colour"] = board.COLOURS[(x + y) % 4]
        if cell in OPEN:
            t.update(kind=OPEN[cell], open=True)
    s.hands = [sorted(h) for h in HANDS]
    for hand in s.hands:
        for card in hand:
            s.deck[card] -= 1
    s.at = ["b4", "d7"]
    s.phase, s.turn, s.turns = "draw", 0, 8
    state, _ = game.apply(s, CHANCE, "net")
    return state


def tutor(draw: str, *moves: str, yours: str) -> tuple:
    """The Tutor's turn (the card it draws, its moves), then the card you draw."""
    return ((CHANCE, draw), *((1, m) for m in moves), (CHANCE, yours))


LESSON = Lesson(
    game="castle_doors",
    goal=(
        msg(
            "Castle Doors: a race across a castle of doors. You start at the bottom edge, the Tutor at the top."
        ),
        msg(
            "The goal: be the first to step onto an open door in the far row (for you, row 8). You are on b4; the Tutor on d7 races down to row 1."
        ),
    ),
    opening=opening,
    steps=(
        Step(
            say=(
                msg(
                    "A turn: you draw up to four cards, play one, then move one step. The door ahead of you, b5, is closed, and it is blue."
                ),
                msg("Play your blue key."),
            ),
            move="play key blue",
            wrong=msg(
                "A key opens a door of its own colour: play your blue key, for the blue door b5."
            ),
        ),
        Step(
            say=(msg("Now choose the door: b5, just above you."),),
            move="target b5",
            wrong=msg("Open b5, the door just ahead of you."),
            then=((CHANCE, "open door"),),
            after=msg(
                "A closed door shows what it hides the first time it opens: b5 is an open door."
            ),
        ),
        Step(
            say=(msg("After your card, you move one step onto a free open door."),),
            move="move up",
            wrong=msg("Step up onto the door you just opened."),
            then=tutor("key red", "discard key blue", "move down", yours="passage"),
            after=msg("The Tutor draws, throws a card away and steps down to d6."),
        ),
        Step(
            say=(
                msg(
                    "Above you b6 is open, but it is a barred door: nobody can cross bars. A hacksaw cuts them for good."
                ),
                msg("Play your hacksaw."),
            ),
            move="play hacksaw",
            wrong=msg("This turn, play the hacksaw: the bars of b6 are in your way."),
        ),
        Step(
            say=(msg("Saw the bars of b6."),),
            move="target b6",
            wrong=msg("Saw the bars of b6, the door ahead of you."),
        ),
        Step(
            say=(msg("A sawn barred door is an open door for good. Step up."),),
            move="move up",
            wrong=msg("Step up onto b6."),
            then=tutor("key yellow", "discard key green", "stay", yours="key red"),
            after=msg("The Tutor stays on d6: the open door d5 lies ahead of it."),
        ),
        Step(
            say=(
                msg(
                    "The door above you is closed and you hold no key for it, but you can slow the Tutor down. A padlock goes on any door: nobody may cross it until a skeleton key takes it off."
                ),
                msg("Play your padlock."),
            ),
            move="play padlock",
            wrong=msg("This turn, play the padlock, to lock the Tutor's way."),
        ),
        Step(
            say=(msg("Padlock d5, the door just ahead of the Tutor."),),
            move="target d5",
            wrong=msg("Padlock d5, the Tutor's next step."),
        ),
        Step(
            say=(msg("You have nowhere useful to go this turn: stay where you are."),),
            move="stay",
            wrong=msg("Stay on b6 this turn."),
            then=tutor("key red", "play skeleton", "target d5", "move down", yours="key yellow"),
            after=msg(
                "The Tutor plays a skeleton key: the padlock is off, and it steps down to d5."
            ),
        ),
        Step(
            say=(
                msg(
                    "A net thrown over an opponent in the castle holds them: on their next two turns they draw and play, but do not move."
                ),
                msg("Play your net."),
            ),
            move="play net",
            wrong=msg("This turn, play the net on the Tutor."),
        ),
        Step(
            say=(msg("Throw it over the Tutor on d5."),),
            move="target d5",
            wrong=msg("The net goes on the Tutor, on d5."),
        ),
        Step(
            say=(msg("Stay where you are once more."),),
            move="stay",
            wrong=msg("Stay on b6 this turn."),
            then=tutor("key green", "discard key yellow", yours="skeleton"),
            after=msg("The Tutor is caught in the net and cannot move."),
        ),
        Step(
            say=(
                msg(
                    "A secret passage joins two tiles across a corner, for everyone, for the rest of the game; you may step along it while both its doors are open. c7 is open, up and right of you."
                ),
                msg("Play your secret passage."),
            ),
            move="play passage",
            wrong=msg("This turn, play the secret passage."),
        ),
        Step(
            say=(msg("Its first end: b6, where you stand."),),
            move="target b6",
            wrong=msg("Start the passage on b6, where you stand."),
        ),
        Step(
            say=(msg("Its other end: c7, up and to the right."),),
            move="target c7",
            wrong=msg("End the passage on c7, the open door up and to the right."),
        ),
        Step(
            say=(msg("Now step along it, diagonally."),),
            move="move up-right",
            wrong=msg("Step up and right along the passage, to c7."),
            then=tutor("hacksaw", "discard key red", yours="key green"),
            after=msg("The net comes off the Tutor after this turn."),
        ),
        Step(
            say=(
                msg(
                    "c8, above you, is an open door of your far row. You need no card this turn, so throw one away for nothing."
                ),
                msg("Discard your green key."),
            ),
            move="discard key green",
            wrong=msg("This turn, discard your green key: no card is needed."),
        ),
        Step(
            say=(msg("Step onto the far row."),),
            move="move up",
            wrong=msg("Step up onto c8, in your far row."),
        ),
    ),
    closing=msg(
        "You crossed the castle and won. That is every card of Castle Doors but the extra key and extra turn tiles, which you find by stepping onto them."
    ),
)
