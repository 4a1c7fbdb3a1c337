"""Haunted House as shown by `/escape rules haunted_house`: our wording, every house decision."""

RULES_TEXT = """\
HAUNTED HOUSE - 2 to 4 players. Each of you owns an identical haunted house: three floors
(1 at the bottom, 3 at the top) with a left and a right room each, and a light per floor,
all dark at the start. Explore all six rooms and get out: the first to escape wins.

CARDS (53): 12 first-floor rooms, 10 second-floor rooms, 10 third-floor rooms, 8 ghosts,
6 cats, and 7 specials: time space hole, light bulb, cat food, elevator, lightning and
2 room wild cards. Option specials=off leaves the 7 specials out (good for a first game).
Each card shows lightbulbs; the values we use (house decision, no public source prints them):
  first-floor rooms: 4 cards with 1 bulb, 4 with 2, 4 with 3   (room1b1, room1b2, room1b3)
  second-floor rooms: 4 with 1 bulb, 3 with 2, 3 with 3        (room2b1 .. room2b3)
  third-floor rooms: 4 with 1 bulb, 3 with 2, 3 with 3         (room3b1 .. room3b3)
  room wild card: 1 bulb. Ghosts, cats and the other specials: 0 bulbs.

START: the cards are shuffled and everyone gets 3. Seats are p1, p2, ... in turn order.

YOUR TURN: do ONE of these.
  1. Rooms: `play room1b2` puts a room on your lowest floor that is not full (fill floor 1,
     then 2, then 3). Keep going with more `play ...` in the same turn, then `done`.
     `play wild` plays a room wild card as a room of that same floor.
  2. Ghost: `ghost p2` sends a ghost to p2's highest floor that has a room. That floor may
     hold a cat but not a ghost.
  3. Cat: `cat 2` puts a cat on your floor 2 (it needs a room and no cat yet). On a floor
     with a ghost, cat and ghost are both discarded and the rooms stay.
  4. Light: `light 2`, then pick the cards with `with room3b3`, `with cat`, ... and `done`:
     2 or 3 cards with at least 5 bulbs in all (a 0-bulb card is fine as the third).
     The floors below must be fully explored; floor 1 can always be lit. `cancel` backs out.
  5. A special card (below).
  6. Discard: `discard`, then `with ...` for each card, `done`; you draw as many. Only the
     number of cards is shown to the others, never which ones.

GHOSTS: a cat already on the target floor chases the ghost away (both discarded).
Otherwise the owner may at once answer with a cat from hand (`cat`, or `pass`): both are
discarded. If nothing stops the ghost: on a dark floor, the ghost and all rooms of that floor
are discarded. On a lit floor the ghost stays; when a second ghost arrives there, the rooms
and both ghosts are discarded and the light goes out.

SPECIAL CARDS:
  hole p1 2 p3    Time space hole: the ghost on p1's floor 2 (any house, yours too) jumps to
                  p3's highest floor with a room and arrives there like a played ghost.
  bulb 2          Light bulb: light floor 2 of your house (the floors below fully explored).
  food p2 1 3     Cat food: the cat on p2's floor 1 comes to your floor 3.
  elevator 1 3    Elevator: your cat on floor 1 moves to your floor 3.
  lightning p2    Lightning: p2's light goes out on p2's highest floor with a room.
  wild            Room wild card: a room for whichever floor you are filling (see 1).

END OF TURN: draw back up to 3 cards. When the deck is empty, the discard pile is shuffled
into a new deck. If your house is fully explored (lights or not), you do not draw: you try
to ESCAPE. Each other player, in turn order, may play one ghost at your top floor (`ghost p1`,
or `pass`); in a 2-player game your opponent may play up to two, one after the other. You may
answer each with a cat from hand as usual. If a floor is lost, the escape is stopped:
everyone refills to 3, starting with you, and the player after you goes on. If nobody stops
you, you escape and win.

HOUSE DECISIONS (the rulebook leaves these open):
- Bulb values as listed above.
- Left and right rooms are the same: a room simply fills the next free space of its floor.
  A room card can only be played on the lowest floor that is not full, so a wild card always
  goes there too.
- A ghost may not be played onto a floor that already holds a ghost; only the time space hole
  can bring a second ghost to a lit floor. Its ghost must change place (not the same floor).
- The target of a ghost is always asked whether to answer with a cat, even with no cat in
  hand, so nobody learns what is in a hand. Likewise every other player is asked in turn
  during an escape. Passing in a 2-player escape ends your chance to play a second ghost.
- A ghost cancelled by a cat does not stop an escape; the escape is stopped only when a floor
  is lost. A ghost that stays on a lit top floor does not stop it either.
- A moved cat (cat food, elevator) lands like a played cat: on an explored floor with no cat;
  on a floor with a ghost, both are discarded.
- Lightning needs a lit light on that floor. If the floor holds a ghost, the ghost now haunts
  a dark floor: its rooms and the ghost are discarded at once.
- Light and light bulb only light a dark floor. Cards used to light a floor are shown.
- A run of rooms ends only with `done` (or the turn clock's default at the deadline), even
  when no more room can be played: ending it by itself would tell everyone that your
  hand holds no room for that floor.
- The table shows only how many cards are in each hand, the deck and the discard pile.
- With no card at all you `pass`. When both the deck and the discard pile are empty, hands
  stay short.
- The winner ranks first; everyone else shares second place. Scores are rooms on the table.
"""
