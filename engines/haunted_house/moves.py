"""What a haunted house player may do now: the six actions of a turn, the steps of a light
or a discard under way, and the answers a reaction window allows (a cat against a ghost, a
ghost against an escape); and why a move is refused."""

from __future__ import annotations

from engines.contract import Seat
from engines.haunted_house.cards import FLOORS, NAMES, ROOMS
from engines.haunted_house.house import (
    DEFEND,
    LIGHT_BULBS,
    HauntedState,
    bulbs,
    haunt_floor,
    light_sets_possible,
    may_light,
    minus,
    next_floor,
    parse_seat,
    seat_tag,
)
from engines.reactions import Window, top
from engines.text import Msg, msg


def answers(s: HauntedState, seat: Seat, window: Window) -> list[str]:
    hand = s.hands[seat]
    if window.kind == DEFEND:
        return ["cat"] if "cat" in hand else []
    escaper = window.data["escaper"]
    if "ghost" in hand and ghost_may_target(s, escaper):
        return [f"ghost {seat_tag(escaper)}"]
    return []


def room_plays(s: HauntedState, seat: Seat) -> list[str]:
    floor = next_floor(s.houses[seat])
    if floor is None:
        return []
    hand = s.hands[seat]
    plays = [f"play {k}" for k in dict.fromkeys(hand) if ROOMS.get(k) == floor]
    if "wild" in hand:
        plays.append("play wild")
    return plays


def ghost_may_target(s: HauntedState, target: Seat) -> bool:
    floor = haunt_floor(s.houses[target])
    return floor is not None and s.houses[target][floor - 1].ghosts == 0


def turn_actions(s: HauntedState, seat: Seat) -> list[str]:
    hand, house = s.hands[seat], s.houses[seat]
    n = len(s.names)
    opponents = [o for o in range(n) if o != seat]
    acts = room_plays(s, seat)
    if "ghost" in hand:
        acts += [f"ghost {seat_tag(o)}" for o in opponents if ghost_may_target(s, o)]
    explored = [f for f in FLOORS if house[f - 1].rooms]
    free = [f for f in explored if house[f - 1].cats == 0]  # explored floors with no cat
    if "cat" in hand:
        acts += [f"cat {f}" for f in free]
    if light_sets_possible([], hand):
        acts += [f"light {f}" for f in FLOORS if may_light(house, f)]
    if "hole" in hand:
        for src in range(n):
            for f in FLOORS:
                if s.houses[src][f - 1].ghosts == 0:
                    continue
                for dst in opponents:
                    to = haunt_floor(s.houses[dst])
                    if to is not None and (src, f) != (dst, to):
                        acts.append(f"hole {seat_tag(src)} {f} {seat_tag(dst)}")
    if "bulb" in hand:
        acts += [f"bulb {f}" for f in FLOORS if may_light(house, f)]
    if "food" in hand:
        acts += [
            f"food {seat_tag(o)} {f} {g}"
            for o in opponents
            for f in FLOORS
            if s.houses[o][f - 1].cats
            for g in free
        ]
    if "elevator" in hand:
        acts += [f"elevator {f} {g}" for f in FLOORS if house[f - 1].cats for g in free if g != f]
    if "lightning" in hand:
        for o in opponents:
            to = haunt_floor(s.houses[o])
            if to is not None and s.houses[o][to - 1].lit:
                acts.append(f"lightning {seat_tag(o)}")
    if hand:
        acts.append("discard")
    return acts


def step_actions(s: HauntedState, seat: Seat) -> list[str]:
    step = s.step
    if step["act"] == "rooms":
        return [*room_plays(s, seat), "done"]
    chosen = step["chosen"]
    rest = minus(s.hands[seat], chosen)
    if step["act"] == "light":
        acts = [
            f"with {k}"
            for k in dict.fromkeys(rest)
            if light_sets_possible([*chosen, k], minus(rest, [k]))
        ]
        if len(chosen) >= 2 and bulbs(chosen) >= LIGHT_BULBS:
            acts.append("done")
    else:  # discard
        acts = [f"with {k}" for k in dict.fromkeys(rest)]
        if chosen:
            acts.append("done")
    return [*acts, "cancel"]


def explain_illegal(s: HauntedState, seat: Seat, action: str) -> Msg | None:
    words = action.split()
    if top(s.windows) is not None or s.step is not None or not words:
        return None
    hand = s.hands[seat]
    verb = words[0]
    card = words[1] if verb == "play" and len(words) == 2 else verb
    if card in NAMES and card not in hand and verb not in ("light", "discard"):
        return msg("You have no {card} in your hand.", card=NAMES[card])
    if verb == "play" and card in ROOMS:
        floor = next_floor(s.houses[seat])
        if floor is None:
            return msg("Your house is fully explored already.")
        if ROOMS[card] < floor:
            return msg("Floor {floor} is fully explored already.", floor=ROOMS[card])
        return msg(
            "Fill the lower floors first: your next room goes on floor {floor}.", floor=floor
        )
    if verb == "ghost" and len(words) == 2:
        target = parse_seat(words[1], len(s.names))
        if target == seat:
            return msg("A ghost goes to an opponent's house, not yours.")
        if target is not None:
            if haunt_floor(s.houses[target]) is None:
                return msg("{name} has no room yet for a ghost to haunt.", name=s.names[target])
            return msg("{name}'s highest floor already has a ghost.", name=s.names[target])
    if verb == "light" and not light_sets_possible([], hand):
        return msg("A light needs 2 or 3 cards from your hand with at least 5 bulbs in all.")
    if verb in ("light", "bulb"):
        return msg("Light a dark floor whose lower floors are fully explored (floor 1 always).")
    if verb == "cat":
        return msg("A cat goes on one of your explored floors that has no cat yet.")
    return None
