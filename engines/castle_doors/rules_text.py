"""Castle Doors as shown by `/escape rules castle_doors`: our wording, with every house decision."""

RULES_TEXT = """\
CASTLE DOORS - 2 to 4 players race across a castle built of door tiles.

GOAL: be the first to step onto an open door in the far row, the row along the side
opposite your own. You win at once.

THE CASTLE: 40 door tiles, 10 of each colour (red R, blue B, green G, yellow Y). Each
colour has 6 open doors, 2 barred doors, 1 extra key tile and 1 extra turn tile. Tiles lie
closed side up, showing only their colour; what a door hides is found out the first time
it is opened. Two players: 5 columns x 8 rows, seated at the two short ends (bottom and
top). Three or four players: 6 x 6, one player a side (bottom, left, top, right). Tiles are
named like c4: column letter from the left, row number from the bottom.

CARDS: 54 - 28 keys (7 of each colour), 10 skeleton keys, 6 padlocks, 5 secret passages,
3 hacksaws, 2 nets. Everyone starts with 3 cards.

YOUR TURN (play goes clockwise: bottom, left, top, right):
  1. Draw up to 4 cards.
  2. Play exactly one card: `play key red`, then `target c4` (`back` picks another card);
     or throw one away for nothing: `discard net`.
  3. Move one tile up, down, left or right onto a free open door (`move up`), or `stay`.
     From outside, `enter c1` steps onto a free open door of the row along your edge;
     from that row, `exit` steps back out to your own edge.

DOORS: you stand only on open doors, one character a tile. Barred doors cannot be
crossed. Closed doors cannot be crossed.

THE CARDS:
- Key: opens or closes a door of its colour. A door with a character on it cannot be
  closed.
- Skeleton key: opens or closes a door of any colour, or takes a padlock off (both go to
  the discards). A door that was closed under the padlock stays closed.
- Padlock: goes on any door tile (open or closed, a passage end or a sawn barred door
  too), but not on an occupied tile or another padlock. Nobody may cross it, and it
  cannot be opened or closed, until a skeleton key removes it.
- Hacksaw: cuts an open barred door for good; it can never be closed again, but it
  can still be padlocked.
- Secret passage: joins two diagonal tiles for everyone, for the rest of the game. You
  may step along it (`move up-left` and so on) when both its doors are open.
- Net: thrown over an opponent standing in the castle. On their next two turns they draw
  and play but do not move; then the net goes to the discards.

BONUS TILES (only by stepping onto them, not by opening them; once per player per tile):
- Extra key: open or close one more door of any colour (`target c4`, or `pass`). It cannot
  remove a padlock and gives no extra move.
- Extra turn: take a whole extra turn (draw, play, move) straight away.

HOUSE DECISIONS (the rulebook is silent or loose):
- The castle's colours are dealt at random (the tiles are shuffled); with 3-4 players 36
  of the 40 tiles are used and the 4 left in the box stay unseen. What a closed tile
  hides is drawn when it is first opened, from the kinds of its colour not yet seen
  (the unused tiles count among them). A door closed again keeps the kind it showed.
- `exit` is a step off the castle: from a tile of the row along your own edge back to
  that edge (a move like any other), to enter again on a later turn.
- Stepping onto a bonus tile spends that player's bonus there, even if they skip the
  extra key.
- A net only goes on an opponent inside the castle who is not already netted. A netted
  player skips the move step by itself.
- A padlock may not go on a tile with a character on it.
- A hacksaw cannot be used on a padlocked barred door (take the padlock off first).
- Two secret passages may not cross the same corner.
- Closing a barred door that has not been sawn is allowed (it flips back over).
- Played and discarded cards are shown to everyone. A padlock and a net return to the
  discards when removed; passages and hacksaws stay on the castle.
- A barred door cut by a hacksaw counts as an open door, to cross and to win on. So do
  extra key and extra turn tiles once face up; stepping onto one in your far row wins at
  once, before any bonus.
- A hacksaw goes only on a barred door lying open (bars showing); a barred door that was
  closed again must be opened with a key first.
- Drawing up to 4 means one card a turn (you always end a turn holding 3).
- With three players the right-hand side of the castle has nobody.
- A net's two turns are the netted player's own turns, whoever else plays in between.
- When the draw pile is empty the discards are shuffled into a new draw pile.
- The first player is the bottom seat.
"""
