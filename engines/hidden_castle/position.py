"""A Hidden Castle position (the state) and what can be read off it: who stands where, where
a guest can go with a roll, why a chamber refuses it, and the ranking. Shared by the rules
(game.py), what the game tells (telling.py) and the AI (ai.py), so that none of them reaches
into another."""

from __future__ import annotations

from dataclasses import dataclass, field

from engines.contract import Seat
from engines.hidden_castle import board
from engines.hidden_castle.board import CHAMBER, GALLERY, STAIRS
from engines.text import Msg, msg


@dataclass
class HiddenCastleState:
    names: list[str]
    variant: str = board.STANDARD
    owner: list[int] = field(default_factory=list)  # guest i (letter i) belongs to seat owner[i]
    where: list[str] = field(default_factory=list)  # box, gallery, chamber or stairs
    pos: list[int] = field(default_factory=list)  # gallery space, chamber doorway or step index
    queue: list[int] = field(default_factory=list)  # guests still to be placed, in order
    phase: str = "place"  # place, roll, move, over
    turn: Seat = 0
    roll: str = ""  # the number being played in phase "move"
    climbed: int = 0  # staircase spaces the Phantom has climbed; board.CLIMB once in the Gallery
    phantom: int = 0  # the Phantom's Gallery space, 0 while it is on the staircase
    clock: int = 0  # index into board.CLOCKS (standard game)
    scores: list[int] = field(default_factory=list)
    round: int = 1  # Midnight Party round
    turns: int = 0
    trail: list[int] = field(default_factory=list)  # Gallery spaces crossed by the last move
    mover: str = ""  # "phantom" or the letter of the guest that made the last move
    last_roll: str | dict = ""  # who rolled what, last (a message, as JSON)
    last_move: str | dict = ""  # the last move of a guest or of the Phantom
    last: str | dict = ""


@dataclass(frozen=True)
class Plan:
    """Where a guest would go with the roll: a Gallery space or a chamber."""

    guest: int
    chamber: int  # doorway number, 0 for a Gallery move
    space: int  # the Gallery space it ends on (the doorway when entering a chamber)
    trail: tuple[int, ...]


def is_midnight(s: HiddenCastleState) -> bool:
    return s.variant == board.MIDNIGHT


def speed(s: HiddenCastleState) -> int:
    if is_midnight(s):
        return board.midnight_speed(len(s.names))
    return board.SPEEDS[min(s.clock, len(board.SPEEDS) - 1)]


def in_gallery(s: HiddenCastleState) -> bool:
    return s.climbed >= board.CLIMB


def guests_at(s: HiddenCastleState, where: str, pos: int) -> list[int]:
    return [g for g in range(len(s.owner)) if s.where[g] == where and s.pos[g] == pos]


def guests_of(s: HiddenCastleState, seat: Seat, where: str) -> list[int]:
    return [g for g in range(len(s.owner)) if s.owner[g] == seat and s.where[g] == where]


def guest_name(s: HiddenCastleState, g: int) -> Msg:
    return msg("{name}'s guest {letter}", name=s.names[s.owner[g]], letter=board.label(g).upper())


def place_of(s: HiddenCastleState, g: int) -> Msg:
    if s.where[g] == GALLERY:
        return msg("space {n}", n=s.pos[g])
    if s.where[g] == CHAMBER:
        return msg("chamber {n}", n=s.pos[g])
    if s.where[g] == STAIRS:
        return msg("step {value}", value=board.coat_text(board.STEPS[s.variant][s.pos[g]]))
    return msg("the box")


def empty_spaces(s: HiddenCastleState) -> list[int]:
    taken = {s.pos[g] for g in range(len(s.owner)) if s.where[g] == GALLERY}
    return [n for n in range(1, board.SPACES + 1) if n not in taken and n != s.phantom]


def may_stay(s: HiddenCastleState, seat: Seat) -> bool:
    """Midnight Party: with only one guest left in the Gallery you may choose not to move."""
    return is_midnight(s) and len(guests_of(s, seat, GALLERY)) == 1


def movable(s: HiddenCastleState, seat: Seat) -> list[int]:
    guests = guests_of(s, seat, GALLERY)
    if is_midnight(s):
        return guests  # chambers and the staircase hold their guests until the round ends
    guests += guests_of(s, seat, CHAMBER)
    stairs = guests_of(s, seat, STAIRS)
    if stairs:  # only from the highest step (the first filled)
        top = min(s.pos[g] for g in stairs)
        guests += [g for g in stairs if s.pos[g] == top]
    return sorted(guests)


def planned_moves(s: HiddenCastleState, seat: Seat) -> list[tuple[str, Plan]]:
    if s.phase != "move" or seat != s.turn:
        return []
    out = []
    for g in movable(s, seat):
        for plan in plans_for(s, g, int(s.roll)):
            letter = board.label(g)
            action = f"hide {letter} {plan.chamber}" if plan.chamber else f"move {letter}"
            out.append((action, plan))
    return out


def plan_of(s: HiddenCastleState, seat: Seat, action: str) -> Plan:
    """The plan of one checked action (as `planned_moves` words it), its guest's plans alone."""
    words = action.split()
    g = board.label_index(words[1])
    chamber = int(words[2]) if words[0] == "hide" else 0
    return next(p for p in plans_for(s, g, int(s.roll)) if p.chamber == chamber)


def plans_for(s: HiddenCastleState, g: int, roll: int) -> list[Plan]:
    """Every place guest g can reach with `roll`: its Gallery space, and chambers on the way.

    `stand` lists (spaces used, Gallery space) for each space the guest stands on:
    from the Gallery it starts where it is; out of a chamber the doorway is the first
    space; off the staircase the exit is the first space.
    """
    stand = stands(s, g, roll)
    plans = [Plan(g, 0, stand[-1][1], tuple(sp for k, sp in stand if k > 0))]
    if not in_gallery(s):
        return plans  # no chambers until the Phantom has left the dungeon
    for k, space in stand:
        if space not in board.DOORWAYS or k + 1 > roll:
            continue
        if s.where[g] == CHAMBER and space == s.pos[g]:
            continue  # the chamber it is leaving
        if may_enter(s, g, space, exact=k + 1 == roll):
            trail = tuple(sp for kk, sp in stand if 0 < kk <= k)
            plans.append(Plan(g, space, space, trail))
    return plans


def stands(s: HiddenCastleState, g: int, roll: int) -> list[tuple[int, int]]:
    if s.where[g] == GALLERY:
        return [(k, board.ahead(s.pos[g], k)) for k in range(roll + 1)]
    if s.where[g] == CHAMBER:
        return [(k, board.ahead(s.pos[g], k - 1)) for k in range(1, roll + 1)]
    return [(k, board.ahead(board.EXIT, k - 1)) for k in range(1, roll + 1)]


def may_enter(s: HiddenCastleState, g: int, room: int, exact: bool) -> bool:
    """`chamber_refusal` is None, found without wording the refusal (the search asks
    it for every guest of every position it looks at)."""
    for other in range(len(s.owner)):
        if s.where[other] == CHAMBER and s.pos[other] == room:
            if s.owner[other] == s.owner[g] or is_midnight(s) or not exact:
                return False
            break
    return exact or room not in board.EXACT[s.variant]


def chamber_refusal(s: HiddenCastleState, g: int, room: int, exact: bool) -> Msg | None:
    inside = guests_at(s, CHAMBER, room)
    if inside:
        if s.owner[inside[0]] == s.owner[g]:
            return msg("You may not enter a chamber that holds one of your own guests.")
        if is_midnight(s):
            return msg("In Midnight Party nobody can be booted out of a chamber.")
        if not exact:
            return msg("Booting a guest out of a chamber needs an exact roll.")
    if room in board.EXACT[s.variant] and not exact:
        coat = board.coat_text(board.COATS[s.variant][room])
        return msg("The {coat} chamber needs an exact roll.", coat=coat)
    return None


def scores_text(s: HiddenCastleState) -> str:
    """Names and numbers only: the same in every language."""
    return ", ".join(f"{n} {v}" for n, v in zip(s.names, s.scores, strict=True))


def ranking(s: HiddenCastleState) -> list[list[Seat]]:
    sign = -1 if is_midnight(s) else 1  # Midnight Party: highest wins
    values = sorted({sign * v for v in s.scores})
    return [[p for p in range(len(s.names)) if sign * s.scores[p] == v] for v in values]
