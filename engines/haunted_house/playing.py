"""A turn's action played: a room (then more rooms of the floor, or `done`), a ghost, a cat,
a special card, or the first step of a light or a discard, chosen card by card (`with ...`,
then `done`, or `cancel`)."""

from __future__ import annotations

from engines.contract import Event, Seat
from engines.haunted_house import cards as C
from engines.haunted_house import haunting as GH
from engines.haunted_house import house as H
from engines.haunted_house import turns as T
from engines.haunted_house.house import (
    HauntedState,
    bulbs,
    haunt_floor,
    minus,
    next_floor,
    parse_seat,
)


def turn(s: HauntedState, seat: Seat, action: str) -> list[Event]:
    verb, *args = action.split()
    name = s.names[seat]
    n = len(s.names)
    if verb == "play":
        return play_room(s, seat, args[0])
    if verb == "ghost":
        target = parse_seat(args[0], n)
        H.take(s, seat, "ghost")
        return GH.ghost_arrives(s, target, seat, f"{name} plays a ghost")
    if verb == "cat":
        H.take(s, seat, "cat")
        events = [Event(f"{name} places a cat on floor {args[0]}.", kind="cat")]
        events += GH.cat_arrives(s, seat, int(args[0]))
        return events + T.end_turn(s)
    if verb in ("light", "discard"):
        s.step = {"act": verb, "chosen": []}
        if verb == "light":
            s.step["floor"] = int(args[0])
            return [Event(f"{name} chooses cards to light floor {args[0]}.", kind="step")]
        return [Event(f"{name} chooses cards to discard.", kind="step")]
    if verb == "pass":
        return [Event(f"{name} has no card and passes."), *T.end_turn(s)]
    return special(s, seat, verb, args)


def special(s: HauntedState, seat: Seat, verb: str, args: list[str]) -> list[Event]:
    name = s.names[seat]
    n = len(s.names)
    H.take(s, seat, verb)
    H.to_discard(s, verb)
    house = s.houses[seat]
    if verb == "hole":
        src, f, dst = parse_seat(args[0], n), int(args[1]), parse_seat(args[2], n)
        s.houses[src][f - 1].ghosts -= 1
        whose = "their own" if src == seat else f"{s.names[src]}'s"
        return GH.ghost_arrives(
            s, dst, seat, f"{name} opens a time space hole: the ghost on {whose} floor {f}"
        )
    if verb == "bulb":
        house[int(args[0]) - 1].lit = True
        events = [Event(f"{name} screws in a light bulb: floor {args[0]} is lit.", kind="light")]
    elif verb == "food":
        owner, f, g = parse_seat(args[0], n), int(args[1]), int(args[2])
        s.houses[owner][f - 1].cats -= 1
        events = [
            Event(
                f"{name} lures {s.names[owner]}'s cat from floor {f} with cat food "
                f"to their own floor {g}.",
                kind="cat",
            )
        ]
        events += GH.cat_arrives(s, seat, g)
    elif verb == "elevator":
        f, g = int(args[0]), int(args[1])
        house[f - 1].cats -= 1
        events = [Event(f"{name} takes the elevator: a cat moves from floor {f} to {g}.")]
        events += GH.cat_arrives(s, seat, g)
    else:  # lightning
        target = parse_seat(args[0], n)
        f = haunt_floor(s.houses[target])
        floor = s.houses[target][f - 1]
        floor.lit = False
        events = [
            Event(f"Lightning! {s.names[target]}'s light on floor {f} goes out.", kind="dark")
        ]
        if floor.ghosts:  # a ghost on a floor now dark takes it at once
            events += GH.floor_lost(s, target, f, "the ghost now haunts a dark floor")
    return events + T.end_turn(s)


def play_room(s: HauntedState, seat: Seat, kind: str) -> list[Event]:
    floor = next_floor(s.houses[seat])
    H.take(s, seat, kind)
    s.houses[seat][floor - 1].rooms.append(kind)
    what = "a room wild card" if kind == "wild" else "a room"
    events = [Event(f"{s.names[seat]} explores {what} on floor {floor}.", kind="room")]
    # The run ends only by the mover's `done` (the timer's default), even with no room
    # left to play: ending it by itself would tell everyone the hand holds no such room.
    s.step = {"act": "rooms"}
    return events


def continue_step(s: HauntedState, seat: Seat, action: str) -> list[Event]:
    step = s.step
    name = s.names[seat]
    verb, *args = action.split()
    if verb == "cancel":
        s.step = None
        return [Event(f"{name} changes their mind.", kind="step")]
    if step["act"] == "rooms":  # `play ...` or `done`
        if verb == "play":
            return play_room(s, seat, args[0])
        return T.end_turn(s)
    if verb == "with":
        step["chosen"].append(args[0])
        events = [Event(f"You pick your {C.NAMES[args[0]]}.", to=seat, kind="step")]
        rest = minus(s.hands[seat], step["chosen"])
        if (step["act"] == "light" and len(step["chosen"]) == 3) or not rest:
            return events + finish_step(s, seat)  # nothing more to choose
        return events
    return finish_step(s, seat)  # done


def finish_step(s: HauntedState, seat: Seat) -> list[Event]:
    step = s.step
    chosen = step["chosen"]
    name = s.names[seat]
    for card in chosen:
        H.take(s, seat, card)
        H.to_discard(s, card)
    if step["act"] == "light":
        floor = step["floor"]
        s.houses[seat][floor - 1].lit = True
        shown = ", ".join(C.NAMES[c] for c in chosen)
        events = [
            Event(
                f"{name} discards {shown} ({bulbs(chosen)} bulbs) and lights floor {floor}.",
                kind="light",
            )
        ]
    else:
        k = len(chosen)
        s.draws.append([seat, len(s.hands[seat]) + k])  # draw as many as discarded
        events = [
            Event(f"{name} discards {k} card{'s' if k > 1 else ''} face down to draw again."),
            Event(f"You discard {', '.join(C.NAMES[c] for c in chosen)}.", to=seat),
        ]
    return events + T.end_turn(s)
