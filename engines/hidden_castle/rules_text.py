"""Escape from the Hidden Castle as shown by `/escape rules hidden_castle`: our wording,
with every house decision."""

RULES_TEXT = """\
ESCAPE FROM THE HIDDEN CASTLE - 2 to 8 players. Keep your guests away from the Phantom.
Every capture adds points to your score; the LOWEST score escapes the castle.

GUESTS: 2 players 6 each, 3 players 5, 4 players 4, 5 players 3, 6-8 players 2. Guests
are lettered across the table (the first player has A, B, ...) and drawn in their
player's colour and shape, so `move c` always means the same guest.

BOARD: the Gallery is a loop of 28 spaces walked clockwise. Space 1 is the exit from the
dungeon: the staircase in the middle ends there. Nine chambers open off the doorway spaces
3, 4, 6, 9, 11, 15, 18, 21 and 26 (a chamber is named by its doorway). Coats of arms:
chambers 6 and 9 are -3, chamber 26 is +1. The staircase has the steps +10 down to +3;
the Phantom starts on the door below +10.

SET-UP: scores start at 10 and the clock at 11:45. Taking turns, one guest at a time,
each player puts a guest on an empty Gallery space (`place 7`), never on the staircase.

YOUR TURN: the die is rolled for you: 1, 2, 4, 5, or the Phantom (two faces of six).
- A number: move ONE of your guests that many spaces clockwise (`move c`). Guests may
  share a space. Moving past the Phantom is safe; ending on its space gets you captured.
  You must move every turn.
- The Phantom: it moves as far as the clock says (3 at 11:45 and 12:00, then 4, 5, 6, 7),
  and you move no guest. It climbs the staircase one step a space, enters the Gallery at
  the exit and never goes back. In the Gallery it captures every guest on every space it
  passes or lands on.
CAPTURES: a captured guest goes onto the highest free step (the first one +10, then +9,
...) and its owner scores that many points. Guests caught together on one space share a
step. With every step taken, new captures go on +10.
THE CLOCK: when the Phantom first reaches the exit the clock moves to 12:00, and again one
clock each time it lands on or passes the exit.
CHAMBERS (`hide c 9`): open only once the Phantom is in the Gallery. Entering counts as one
space; a roll larger than needed is fine, the rest is lost. One guest a chamber; never
enter one holding your own guest. Entering a chamber with another player's guest needs
the exact roll and boots that guest out onto the doorway. The -3 chambers need the exact
roll and take 3 off your score (not below 0); the +1 chamber adds 1.
LEAVING THE DUNGEON: a captured guest may move off the staircase; the exit is the first
space of its move, whatever its step. Your guest on the highest step must go first. If all
your guests are in chambers or on the staircase you must still move one of them.
THE END: when the clock reaches 5:00 or a score reaches 46. Lowest score wins; ties share.

MIDNIGHT PARTY (option variant=midnight_party, the original game): the other board side.
Scores start at 0; three rounds; the HIGHEST score wins (closest to zero).
- The staircase steps are -10 up to -3, then the -2 landing; the Phantom starts on -10 and
  moves 3 spaces a roll (2 with 7 or 8 players) all game. No clock.
- Chambers 6 and 9 are +3 (exact roll), 21 and 26 are -1, the others are plain. Nobody can
  be booted, and a guest stays in its chamber, or on its step, until the round ends.
- With a single guest left in the Gallery you may choose not to move (`stay`). With no guest
  to move you still roll, and the Phantom moves if it comes up.
- A round ends when the Gallery is empty or every chamber is taken (the guests still in the
  Gallery then go to the -2 landing). Each guest scores: its step's value on the staircase,
  -1 or +3 in those chambers, 0 in a plain chamber.
- Next round: guests in chambers step out onto their doorways; captured guests come back
  onto any empty Gallery space, first the one on -10, then -9 and so on; on a shared step
  the player with the lower score places first. The Phantom goes back to -10.

HOUSE DECISIONS (where the rulebook is silent or unclear):
- The first seat places first and rolls first (the bot knows no ages); each player places
  their guests in letter order.
- The board is the original one described above (28 spaces, 9 doorways).
- The exit is Gallery space 1: guests may be placed on it, and the Phantom arriving there
  from the staircase captures whoever stands on it.
- The Phantom's distance is fixed when it is rolled; a clock moved during the move counts
  from the next roll.
- When the clock reaches 5:00 or a score reaches 46, the Phantom still finishes its move
  (every capture on the way counts), then the game ends.
- A guest may leave its chamber on any turn (standard game); the doorway is the first
  space of that move, and it may enter another chamber on the way but not the one it left.
- A guest leaving the dungeon may enter a chamber on the way, like any other move.
- Two of your guests on the same (highest) step: either may leave first.
- A guest that ends its move on the Phantom is captured, also when it leaves the dungeon;
  a guest booted onto a doorway where the Phantom stands is captured too.
- The -3 and +1 coats count every time a guest enters their chamber. A booted guest keeps
  the points its owner got for entering; the booting guest's owner scores the coat too.
- Midnight Party: its text does not say which chambers need an exact roll. The +3 chambers
  (6 and 9, where the other side has its -3) need one; the -1 and plain chambers do not.
- Midnight Party: the text says both "the player with the highest score wins" (with the
  example -9 beats -23) and, after round three, "the lowest score wins". We follow the
  example: the score closest to zero wins. "The lower score moves first" on a shared step
  means the score just totalled for the round that ended.
- Midnight Party: the Phantom climbs -10 to -3, then the -2 landing, then reaches the exit
  (nine spaces, as on the other side). Captures fill -10 to -3; with all eight taken they go
  on -10. The landing only receives the leftovers when the chambers are full. Chambers
  open each round only once the Phantom is in the Gallery.
- Midnight Party: a roll with nothing to move passes the turn at once. A round ends at the
  end of the turn that empties the Gallery or fills the last chamber; the next round
  starts with the next player in turn order. The Phantom goes back to -10 before the
  captured guests return, so every space without a guest is open to them. On a shared
  step with equal scores, seat order decides; one player's guests come back in letter
  order.
- A timer places a guest on the highest-numbered empty space; other turns wait for the
  player unless only one move is possible.
"""
