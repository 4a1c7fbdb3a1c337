"""What the player whose turn it is may do now, phase by phase, and why a move is refused."""

from __future__ import annotations

from engines.castle_doors import board, playing
from engines.castle_doors import castle as castle_state
from engines.castle_doors.castle import CastleState
from engines.castle_doors.words import COLOUR
from engines.contract import Seat
from engines.text import Msg, msg


def explain_illegal(s: CastleState, seat: Seat, action: str) -> Msg | None:
    words = action.split()
    if s.phase == "play" and len(words) >= 2 and words[0] in ("play", "discard"):
        card = " ".join(words[1:])
        if card not in board.CARDS:
            return msg(
                "There is no card {card}; cards: {cards}.",
                card=repr(card),
                cards=", ".join(board.CARDS),
            )
        if card not in s.hands[seat]:
            return msg("You have no {card} in your hand.", card=board.CARD_NAME[card])
        return msg(
            "Your {card} has nothing to act on now; you may discard it.", card=board.CARD_NAME[card]
        )
    if s.phase in ("target", "bonus") and words[:1] == ["target"] and len(words) == 2:
        cell = words[1]
        if cell not in s.tiles:
            return msg("There is no tile {cell}.", cell=cell)
        card = s.card if s.phase == "target" else "extra key"
        t = s.tiles[cell]
        if card.startswith("key ") and t["colour"] != card[4:]:
            return msg(
                "A {colour} key only works on {colour} doors; {cell} is {other}.",
                colour=COLOUR[card[4:]],
                cell=cell,
                other=COLOUR.get(t["colour"], t["colour"]),
            )
        if card.startswith("key ") or card in ("skeleton", "extra key"):
            if t["lock"] and card != "skeleton":
                return msg(
                    "{cell} is padlocked: only a skeleton key can take the padlock off.", cell=cell
                )
            if t["open"]:
                return castle_state.why_not_close(s, cell)
        if card == "padlock":
            if t["lock"]:
                return msg("{cell} already has a padlock; padlocks do not stack.", cell=cell)
            return msg("{cell} is occupied: a padlock cannot go under a character.", cell=cell)
        if card == "hacksaw":
            return msg("A hacksaw only cuts an open barred door that has no padlock.")
        if card == "net":
            return msg("A net goes on the tile of an opponent who is in the castle and not netted.")
        if card == "passage":
            return msg("A secret passage joins two diagonal tiles across a corner with no passage.")
    if s.phase == "move" and words[:1] == ["move"] and len(words) == 2:
        if s.netted[seat]:
            return msg("You are caught in a net and cannot move.")
        here = s.at[seat]
        if here is None:
            return msg(
                "You are outside the castle: enter it with `enter <tile of your first row>`."
            )
        if words[1] in board.DIAGONALS:
            return msg("Diagonal steps need a secret passage with both its doors open.")
        if words[1] in board.STEPS:
            cell = board.step(here, words[1], s.width, s.height)
            if cell is None:
                return msg(
                    "That step would leave the castle; `exit` steps off it "
                    "from the row along your own edge."
                )
            if cell in s.at:
                return msg("{cell} is occupied: only one character may stand on a tile.", cell=cell)
            t = s.tiles[cell]
            if t["lock"]:
                return msg("{cell} is padlocked.", cell=cell)
            if not t["open"]:
                return msg("The door of {cell} is closed.", cell=cell)
            return msg("{cell} is a barred door: a hacksaw opens it for good.", cell=cell)
    if s.phase == "move" and words == ["exit"]:
        if s.at[seat] is None:
            return msg("You are already outside the castle.")
        return msg("You can only step out of the castle from the row along your own edge.")
    if s.phase == "move" and words[:1] == ["enter"]:
        if s.at[seat] is not None:
            return msg("You are already in the castle.")
        return msg("You enter onto a free open door of the row along your own edge.")
    return None


def legal(s: CastleState, seat: Seat) -> list[str]:
    if s.phase == "play":
        cards = sorted(set(s.hands[seat]))
        plays = [f"play {c}" for c in cards if playing.has_target(s, c)]
        return plays + [f"discard {c}" for c in cards]
    if s.phase == "target":
        return [f"target {c}" for c in sorted(playing.targets(s, s.card))] + ["back"]
    if s.phase == "move":
        steps = [f"move {d}" for d in castle_state.steps(s, seat)]
        entries = [f"enter {c}" for c in castle_state.entries(s, seat)]
        row = board.first_row(s.edges[seat], s.width, s.height)
        leave = ["exit"] if s.at[seat] in row else []
        return steps + entries + leave + ["stay"]
    if s.phase == "bonus":
        return [f"target {c}" for c in sorted(castle_state.toggles(s, None))] + ["pass"]
    return []
