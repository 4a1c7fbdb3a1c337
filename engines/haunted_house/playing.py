"""A turn's action played: a room (then more rooms of the floor, or `done`), a ghost, a cat,
a special card, or the first step of a light or a discard, chosen card by card (`with ...`,
then `done`, or `cancel`)."""

from __future__ import annotations

from engines.contract import Event, Seat
from engines.haunted_house import haunting, turns
from engines.haunted_house.cards import NAMES
from engines.haunted_house.house import (
    HauntedState,
    bulbs,
    haunt_floor,
    minus,
    next_floor,
    parse_seat,
    take,
    to_discard,
)
from engines.text import joined, msg, plural


def turn(s: HauntedState, seat: Seat, action: str) -> list[Event]:
    verb, *args = action.split()
    name = s.names[seat]
    n = len(s.names)
    if verb == "play":
        return play_room(s, seat, args[0])
    if verb == "ghost":
        target = parse_seat(args[0], n)
        take(s, seat, "ghost")
        return haunting.ghost_arrives(s, target, seat, msg("{name} plays a ghost", name=name))
    if verb == "cat":
        take(s, seat, "cat")
        events = [
            Event(
                msg("{name} places a cat on floor {floor}.", name=name, floor=args[0]), kind="cat"
            )
        ]
        events += haunting.cat_arrives(s, seat, int(args[0]))
        return events + turns.end_turn(s)
    if verb in ("light", "discard"):
        s.step = {"act": verb, "chosen": []}
        if verb == "light":
            s.step["floor"] = int(args[0])
            said = msg("{name} chooses cards to light floor {floor}.", name=name, floor=args[0])
            return [Event(said, kind="step")]
        return [Event(msg("{name} chooses cards to discard.", name=name), kind="step")]
    if verb == "pass":
        return [Event(msg("{name} has no card and passes.", name=name)), *turns.end_turn(s)]
    return special(s, seat, verb, args)


def special(s: HauntedState, seat: Seat, verb: str, args: list[str]) -> list[Event]:
    name = s.names[seat]
    n = len(s.names)
    take(s, seat, verb)
    to_discard(s, verb)
    house = s.houses[seat]
    if verb == "hole":
        src, f, dst = parse_seat(args[0], n), int(args[1]), parse_seat(args[2], n)
        s.houses[src][f - 1].ghosts -= 1
        if src == seat:
            how = msg(
                "{name} opens a time space hole: the ghost on their own floor {floor}",
                name=name,
                floor=f,
            )
        else:
            how = msg(
                "{name} opens a time space hole: the ghost on {owner}'s floor {floor}",
                name=name,
                owner=s.names[src],
                floor=f,
            )
        return haunting.ghost_arrives(s, dst, seat, how)
    if verb == "bulb":
        house[int(args[0]) - 1].lit = True
        said = msg("{name} screws in a light bulb: floor {floor} is lit.", name=name, floor=args[0])
        events = [Event(said, kind="light")]
    elif verb == "food":
        owner, f, g = parse_seat(args[0], n), int(args[1]), int(args[2])
        s.houses[owner][f - 1].cats -= 1
        events = [
            Event(
                msg(
                    "{name} lures {owner}'s cat from floor {start} with cat food to their own floor {end}.",
                    name=name,
                    owner=s.names[owner],
                    start=f,
                    end=g,
                ),
                kind="cat",
            )
        ]
        events += haunting.cat_arrives(s, seat, g)
    elif verb == "elevator":
        f, g = int(args[0]), int(args[1])
        house[f - 1].cats -= 1
        events = [
            Event(
                msg(
                    "{name} takes the elevator: a cat moves from floor {start} to {end}.",
                    name=name,
                    start=f,
                    end=g,
                )
            )
        ]
        events += haunting.cat_arrives(s, seat, g)
    else:  # lightning
        target = parse_seat(args[0], n)
        f = haunt_floor(s.houses[target])
        floor = s.houses[target][f - 1]
        floor.lit = False
        events = [
            Event(
                msg(
                    "Lightning! {name}'s light on floor {floor} goes out.",
                    name=s.names[target],
                    floor=f,
                ),
                kind="dark",
            )
        ]
        if floor.ghosts:  # a ghost on a floor now dark takes it at once
            events += haunting.floor_lost(s, target, f, msg("the ghost now haunts a dark floor"))
    return events + turns.end_turn(s)


def play_room(s: HauntedState, seat: Seat, kind: str) -> list[Event]:
    floor = next_floor(s.houses[seat])
    take(s, seat, kind)
    s.houses[seat][floor - 1].rooms.append(kind)
    if kind == "wild":
        said = msg(
            "{name} explores a room wild card on floor {floor}.", name=s.names[seat], floor=floor
        )
    else:
        said = msg("{name} explores a room on floor {floor}.", name=s.names[seat], floor=floor)
    events = [Event(said, kind="room")]
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
        return [Event(msg("{name} changes their mind.", name=name), kind="step")]
    if step["act"] == "rooms":  # `play ...` or `done`
        if verb == "play":
            return play_room(s, seat, args[0])
        return turns.end_turn(s)
    if verb == "with":
        step["chosen"].append(args[0])
        events = [Event(msg("You pick your {card}.", card=NAMES[args[0]]), to=seat, kind="step")]
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
        take(s, seat, card)
        to_discard(s, card)
    if step["act"] == "light":
        floor = step["floor"]
        s.houses[seat][floor - 1].lit = True
        shown = joined([NAMES[c] for c in chosen])
        events = [
            Event(
                msg(
                    "{name} discards {cards} ({bulbs}) and lights floor {floor}.",
                    name=name,
                    cards=shown,
                    bulbs=plural("{count} bulb", "{count} bulbs", bulbs(chosen)),
                    floor=floor,
                ),
                kind="light",
            )
        ]
    else:
        k = len(chosen)
        s.draws.append([seat, len(s.hands[seat]) + k])  # draw as many as discarded
        events = [
            Event(
                plural(
                    "{name} discards {count} card face down to draw again.",
                    "{name} discards {count} cards face down to draw again.",
                    k,
                    name=name,
                )
            ),
            Event(msg("You discard {cards}.", cards=joined([NAMES[c] for c in chosen])), to=seat),
        ]
    return events + turns.end_turn(s)
