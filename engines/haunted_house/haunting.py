"""Ghosts and cats (rulebook: a ghost goes to an opponent's highest floor with a room; a
cat there, or one played from the target's hand, cancels it; on a dark floor, or as the
second ghost on a lit one, it takes the floor and its rooms)."""

from __future__ import annotations

from engines.contract import Event, Seat
from engines.haunted_house import house, turns
from engines.haunted_house.house import DEFEND, ESCAPE, HauntedState, haunt_floor
from engines.reactions import Window, top
from engines.text import Msg, msg, plural


def ghost_arrives(s: HauntedState, target: Seat, attacker: Seat, how: Msg) -> list[Event]:
    """A ghost reaches `target`'s highest floor with a room: a cat there cancels it,
    else the target may answer with a cat from hand (a reaction window)."""
    floor = haunt_floor(s.houses[target])
    here = s.houses[target][floor - 1]
    who = s.names[target]
    if here.cats:
        here.cats -= 1
        house.to_discard(s, "cat")
        house.to_discard(s, "ghost")
        text = msg(
            "{how} on {who}'s floor {floor}; the cat there chases it off (both discarded).",
            how=how,
            who=who,
            floor=floor,
        )
        return [Event(text, kind="ghost"), *after_ghost(s)]
    s.windows.append(
        Window(
            kind=DEFEND,
            seats=[target],
            answers=["cat"],
            data={"attacker": attacker, "target": target, "floor": floor},
        )
    )
    said = msg(
        "{how} on {who}'s floor {floor}. {who} may answer with a cat.",
        how=how,
        who=who,
        floor=floor,
    )
    return [Event(said, kind="ghost")]


def ghost_lands(s: HauntedState, target: Seat, floor: int) -> list[Event]:
    here = s.houses[target][floor - 1]
    here.ghosts += 1
    if not here.lit:
        return floor_lost(s, target, floor, msg("the floor is dark"))
    if here.ghosts >= 2:
        events = floor_lost(s, target, floor, msg("a second ghost on a lit floor"))
        here.lit = False
        return events
    text = msg(
        "The ghost haunts {name}'s lit floor {floor}; the rooms hold for now.",
        name=s.names[target],
        floor=floor,
    )
    return [Event(text, kind="ghost")]


def floor_lost(s: HauntedState, target: Seat, floor: int, why: Msg) -> list[Event]:
    here = s.houses[target][floor - 1]
    rooms = len(here.rooms)
    for card in here.rooms:
        house.to_discard(s, card)
    house.to_discard(s, "ghost", here.ghosts)
    here.rooms, here.ghosts = [], 0
    text = plural(
        "{name} loses floor {floor} ({why}): {count} room and the ghosts are discarded.",
        "{name} loses floor {floor} ({why}): {count} rooms and the ghosts are discarded.",
        rooms,
        name=s.names[target],
        floor=floor,
        why=why,
    )
    return [Event(text, kind="haunt")]


def cat_arrives(s: HauntedState, seat: Seat, floor: int) -> list[Event]:
    here = s.houses[seat][floor - 1]
    if here.ghosts:
        here.ghosts -= 1
        house.to_discard(s, "ghost")
        house.to_discard(s, "cat")
        return [
            Event(
                msg("The cat chases the ghost off floor {floor}; both are discarded.", floor=floor)
            )
        ]
    here.cats += 1
    return []


def react(s: HauntedState, seat: Seat, action: str) -> list[Event]:
    window = s.windows[-1]
    answered = window.respond(seat, action)
    name = s.names[seat]
    if window.kind == DEFEND:
        s.windows.pop()
        floor = window.data["floor"]
        if answered:
            house.take(s, seat, "cat")
            house.to_discard(s, "cat")
            house.to_discard(s, "ghost")
            events = [
                Event(
                    msg(
                        "{name} answers with a cat: the ghost is cancelled (both discarded).",
                        name=name,
                    ),
                    kind="cat",
                )
            ]
        else:
            events = ghost_lands(s, seat, floor)
        return events + after_ghost(s)
    escaper = window.data["escaper"]
    if answered:
        house.take(s, seat, "ghost")
        how = msg("{name} plays a ghost to stop the escape", name=name)
        return ghost_arrives(s, escaper, seat, how)
    said = msg("{name} lets {other} go.", name=name, other=s.names[escaper])
    return [Event(said, kind="pass"), *turns.escape_goes_on(s)]


def after_ghost(s: HauntedState) -> list[Event]:
    """A ghost is settled: an escape goes on (or is stopped), or the turn ends."""
    window = top(s.windows)
    if window is not None and window.kind == ESCAPE:
        return turns.escape_goes_on(s)
    return turns.end_turn(s)
