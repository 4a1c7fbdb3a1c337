"""18 Ghosts as shown by `/escape rules ghosts18`: our wording, with every house decision."""

RULES_TEXT = """\
18 GHOSTS — two players, nine ghosts each (three red, three blue, three yellow).
Player A's ghosts are round, Player B's are square.

GOAL: be the first with a red, a blue and a yellow ghost of your own outside the castle.
Short variant (option variant=short): any three of your ghosts outside win.

BOARD: 5x5 chambers, columns a-e, rows 1-5 (row 1 at the top). Each chamber has a red,
blue or yellow carpet, except the four mirror chambers (b2, d2, b4, d4) and the three
portal chambers: red at c1, yellow at e3, blue at c5. Portal chambers never hold a ghost.
Every portal starts with its open side facing the outer wall.

SET-UP: A places one ghost, B places two, then one each in turn until all 18 are in.
A ghost goes on an empty chamber whose carpet matches its colour: `place b3`.

YOUR TURN (A starts), one of:
  move c3 up      step one chamber up/down/left/right; carpet colour does not matter.
  jump b2 d4      from a mirror chamber to another empty mirror chamber.
  fight           a step into a chamber holding a ghost of another colour (yours too).
                  Red beats blue, blue beats yellow, yellow beats red. The winner stays
                  in that chamber, the loser goes to the dungeon. Same colours never fight.
  release red     take one of your ghosts from the dungeon and hand it to your opponent,
                  who places it on an empty carpet of its colour. Not possible when no
                  such chamber is empty.

PORTALS: whenever a ghost is beaten, the portal of its colour turns 90 degrees clockwise
(up, right, down, left). A ghost of a portal's colour standing in the chamber that the
open side faces escapes at once, whoever's turn it is, and is out for good.

HOUSE DECISIONS (the rulebook is silent):
- Several ghosts escaping at the same moment leave in the order red, blue, yellow; the
  game ends with the first escape that completes a player's set.
- A player who has no possible action passes (`pass`).
- After a release, the opponent's placement ends the releaser's turn; the opponent then
  plays their own turn.
"""
