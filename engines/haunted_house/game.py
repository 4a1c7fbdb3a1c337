"""The haunted house card game (shared/rules/haunted-house.txt), readable against the rulebook.

Seats are p1..p4 in actions. A turn is ONE of these (the rulebook's six actions):
  play room1b2      a room card on your lowest unfinished floor; then more rooms or `done`
  play wild         a room wild card, as a room of that floor
  ghost p2          a ghost on p2's highest floor with a room
  cat 2             a cat on your own explored floor 2
  light 2           light floor 2: then `with room3b3`, `with cat` ... `done` (or `cancel`)
  hole p1 2 p3      time space hole: p1's ghost on floor 2 goes to p3's highest room floor
  bulb 2            light bulb: light floor 2 for free
  food p2 1 3       cat food: p2's cat on floor 1 comes to your floor 3
  elevator 1 3      move your cat from floor 1 to floor 3
  lightning p2      turn off p2's light on p2's highest floor with a room
  discard           then `with ghost`, ... `done` (or `cancel`): discard, draw as many
  pass              only with an empty hand
Out of turn (reaction windows, engines/reactions.py), always with `pass`:
  cat               the ghost's target cancels it with a cat from hand
  ghost p1          stop p1's escape with a ghost from hand
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field

from engines import hidden
from engines.contract import CHANCE, Event, Game, Option, Result, Seat
from engines.haunted_house import cards as C
from engines.haunted_house.rules_text import RULES_TEXT
from engines.reactions import PASS, Window, ordered_after, top

HAND = 3
LIGHT_BULBS = 5  # bulbs needed to turn on a light, with 2 or 3 cards
DEFEND, ESCAPE = "defend", "escape"


@dataclass
class Floor:
    rooms: list[str] = field(default_factory=list)  # the room cards on it, face up
    lit: bool = False
    ghosts: int = 0
    cats: int = 0


def _new_house() -> list[Floor]:
    return [Floor() for _ in C.FLOORS]


@dataclass
class HauntedState:
    names: list[str]
    specials: bool = True
    hands: list[list[str]] = field(default_factory=list)  # kept in cards.ORDER
    houses: list[list[Floor]] = field(default_factory=list)  # floors 1..3 at index 0..2
    deck: dict[str, int] = field(default_factory=dict)  # kind -> count; its order is chance
    discard: dict[str, int] = field(default_factory=dict)
    turn: Seat = 0
    step: dict | None = None  # the active player's unfinished multi-step action
    windows: list[Window] = field(default_factory=list)  # nested reaction windows, last on top
    draws: list[list[int]] = field(default_factory=list)  # [seat, hand size to reach], in order
    winner: Seat | None = None
    turns: int = 0
    last: str = ""


# ----- small facts about a house --------------------------------------------------------
def next_floor(house: list[Floor]) -> int | None:
    """The floor a room card goes on: the lowest one not yet fully explored."""
    for f in C.FLOORS:
        if len(house[f - 1].rooms) < C.SLOTS:
            return f
    return None


def haunt_floor(house: list[Floor]) -> int | None:
    """The floor a ghost targets: the highest floor with a room card, or None."""
    for f in reversed(C.FLOORS):
        if house[f - 1].rooms:
            return f
    return None


def complete(house: list[Floor]) -> bool:
    return next_floor(house) is None


def may_light(house: list[Floor], floor: int) -> bool:
    """A dark floor whose lower floors are all fully explored (the first floor always)."""
    below = all(len(house[g - 1].rooms) == C.SLOTS for g in C.FLOORS if g < floor)
    return not house[floor - 1].lit and below


def bulbs(cards: Sequence[str]) -> int:
    return sum(C.BULBS[c] for c in cards)


def light_sets_possible(chosen: list[str], rest: list[str]) -> bool:
    """Can `chosen` plus some of `rest` make 2 or 3 cards with at least 5 bulbs?"""
    for extra in range(0, 4 - len(chosen)):
        if len(chosen) + extra < 2:
            continue
        for more in itertools.combinations(rest, extra):
            if bulbs(chosen) + bulbs(more) >= LIGHT_BULBS:
                return True
    return False


def minus(cards: list[str], taken: list[str]) -> list[str]:
    rest = list(cards)
    for card in taken:
        rest.remove(card)
    return rest


def seat_tag(seat: Seat) -> str:
    return f"p{seat + 1}"


def parse_seat(tag: str, players: int) -> Seat | None:
    if len(tag) == 2 and tag[0] == "p" and tag[1].isdigit() and 1 <= int(tag[1]) <= players:
        return int(tag[1]) - 1
    return None


def parse_floor(word: str) -> int | None:
    return int(word) if word in ("1", "2", "3") else None


class HauntedHouse(Game):
    id = "haunted_house"
    title = "Haunted House"
    hidden_information = True  # each hand is its owner's alone
    rules_version = 1
    min_players = 2
    max_players = 4
    options = {
        "specials": Option(
            choices=("on", "off"),
            default="on",
            description="on: the 7 special cards are in the deck; "
            "off: 46 basic cards only, for a first game",
        )
    }
    summary = "Explore your haunted house floor by floor; ghosts, cats and lights; first out wins."
    rules_text = RULES_TEXT

    # ----- set-up -------------------------------------------------------------------
    def new_state(self, names: Sequence[str], options: Mapping[str, str]) -> HauntedState:
        specials = options["specials"] == "on"
        n = len(names)
        return HauntedState(
            names=list(names),
            specials=specials,
            hands=[[] for _ in range(n)],
            houses=[_new_house() for _ in range(n)],
            deck=C.full_deck(specials),
            draws=[[seat, HAND] for seat in range(n)],  # deal 3 to each, first player first
        )

    # ----- who acts -----------------------------------------------------------------
    def reaction_window(self, s: HauntedState) -> bool:
        return top(s.windows) is not None

    def to_act(self, s: HauntedState) -> list[Seat]:
        if s.winner is not None:
            return []
        if s.draws:
            return [CHANCE]
        window = top(s.windows)
        if window is not None:
            return window.to_act()
        return [s.turn]

    def chance_outcomes(self, s: HauntedState) -> list[tuple[str, float]]:
        if s.winner is not None or not s.draws:
            return []
        total = sum(s.deck.values())
        return [(k, s.deck[k] / total) for k in C.ORDER if s.deck.get(k, 0) > 0]

    # ----- what is legal ------------------------------------------------------------
    def _legal(self, s: HauntedState, seat: Seat) -> list[str]:
        window = top(s.windows)
        if window is not None:
            return window.offers(seat, self._answers(s, seat, window))
        if s.step is not None:
            return self._step_actions(s, seat)
        return self._turn_actions(s, seat) or [PASS]

    def _answers(self, s: HauntedState, seat: Seat, window: Window) -> list[str]:
        hand = s.hands[seat]
        if window.kind == DEFEND:
            return ["cat"] if "cat" in hand else []
        escaper = window.data["escaper"]
        if "ghost" in hand and self._ghost_may_target(s, escaper):
            return [f"ghost {seat_tag(escaper)}"]
        return []

    def _room_plays(self, s: HauntedState, seat: Seat) -> list[str]:
        floor = next_floor(s.houses[seat])
        if floor is None:
            return []
        hand = s.hands[seat]
        plays = [f"play {k}" for k in dict.fromkeys(hand) if C.ROOMS.get(k) == floor]
        if "wild" in hand:
            plays.append("play wild")
        return plays

    def _ghost_may_target(self, s: HauntedState, target: Seat) -> bool:
        floor = haunt_floor(s.houses[target])
        return floor is not None and s.houses[target][floor - 1].ghosts == 0

    def _turn_actions(self, s: HauntedState, seat: Seat) -> list[str]:
        hand, house = s.hands[seat], s.houses[seat]
        n = len(s.names)
        opponents = [o for o in range(n) if o != seat]
        acts = self._room_plays(s, seat)
        if "ghost" in hand:
            acts += [f"ghost {seat_tag(o)}" for o in opponents if self._ghost_may_target(s, o)]
        explored = [f for f in C.FLOORS if house[f - 1].rooms]
        free = [f for f in explored if house[f - 1].cats == 0]  # explored floors with no cat
        if "cat" in hand:
            acts += [f"cat {f}" for f in free]
        if light_sets_possible([], hand):
            acts += [f"light {f}" for f in C.FLOORS if may_light(house, f)]
        if "hole" in hand:
            for src in range(n):
                for f in C.FLOORS:
                    if s.houses[src][f - 1].ghosts == 0:
                        continue
                    for dst in opponents:
                        to = haunt_floor(s.houses[dst])
                        if to is not None and (src, f) != (dst, to):
                            acts.append(f"hole {seat_tag(src)} {f} {seat_tag(dst)}")
        if "bulb" in hand:
            acts += [f"bulb {f}" for f in C.FLOORS if may_light(house, f)]
        if "food" in hand:
            acts += [
                f"food {seat_tag(o)} {f} {g}"
                for o in opponents
                for f in C.FLOORS
                if s.houses[o][f - 1].cats
                for g in free
            ]
        if "elevator" in hand:
            acts += [
                f"elevator {f} {g}" for f in C.FLOORS if house[f - 1].cats for g in free if g != f
            ]
        if "lightning" in hand:
            for o in opponents:
                to = haunt_floor(s.houses[o])
                if to is not None and s.houses[o][to - 1].lit:
                    acts.append(f"lightning {seat_tag(o)}")
        if hand:
            acts.append("discard")
        return acts

    def _step_actions(self, s: HauntedState, seat: Seat) -> list[str]:
        step = s.step
        if step["act"] == "rooms":
            return [*self._room_plays(s, seat), "done"]
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

    def explain_illegal(self, s: HauntedState, seat: Seat, action: str) -> str | None:
        words = action.split()
        if top(s.windows) is not None or s.step is not None or not words:
            return None
        hand = s.hands[seat]
        verb = words[0]
        card = words[1] if verb == "play" and len(words) == 2 else verb
        if card in C.NAMES and card not in hand and verb not in ("light", "discard"):
            return f"You have no {C.NAMES[card]} in your hand."
        if verb == "play" and card in C.ROOMS:
            floor = next_floor(s.houses[seat])
            if floor is None:
                return "Your house is fully explored already."
            if C.ROOMS[card] < floor:
                return f"Floor {C.ROOMS[card]} is fully explored already."
            return f"Fill the lower floors first: your next room goes on floor {floor}."
        if verb == "ghost" and len(words) == 2:
            target = parse_seat(words[1], len(s.names))
            if target == seat:
                return "A ghost goes to an opponent's house, not yours."
            if target is not None:
                if haunt_floor(s.houses[target]) is None:
                    return f"{s.names[target]} has no room yet for a ghost to haunt."
                return f"{s.names[target]}'s highest floor already has a ghost."
        if verb == "light" and not light_sets_possible([], hand):
            return "A light needs 2 or 3 cards from your hand with at least 5 bulbs in all."
        if verb in ("light", "bulb"):
            return "Light a dark floor whose lower floors are fully explored (floor 1 always)."
        if verb == "cat":
            return "A cat goes on one of your explored floors that has no cat yet."
        return None

    # ----- applying an action -------------------------------------------------------
    def _apply(self, s: HauntedState, seat: Seat, action: str) -> list[Event]:
        if seat == CHANCE:
            events = self._draw(s, action)
        elif s.windows:
            events = self._react(s, seat, action)
        elif s.step is not None:
            events = self._continue_step(s, seat, action)
        else:
            events = self._turn(s, seat, action)
        events += self._settle(s)
        public = [e.text for e in events if e.to is None and e.kind != "draw"]
        if public:
            s.last = " ".join(public)
        return events

    def _turn(self, s: HauntedState, seat: Seat, action: str) -> list[Event]:
        verb, *args = action.split()
        name = s.names[seat]
        n = len(s.names)
        if verb == "play":
            return self._play_room(s, seat, args[0])
        if verb == "ghost":
            target = parse_seat(args[0], n)
            self._take(s, seat, "ghost")
            return self._ghost_arrives(s, target, seat, f"{name} plays a ghost")
        if verb == "cat":
            self._take(s, seat, "cat")
            events = [Event(f"{name} places a cat on floor {args[0]}.", kind="cat")]
            events += self._cat_arrives(s, seat, int(args[0]))
            return events + self._end_turn(s)
        if verb in ("light", "discard"):
            s.step = {"act": verb, "chosen": []}
            if verb == "light":
                s.step["floor"] = int(args[0])
                return [Event(f"{name} chooses cards to light floor {args[0]}.", kind="step")]
            return [Event(f"{name} chooses cards to discard.", kind="step")]
        if verb == "pass":
            return [Event(f"{name} has no card and passes."), *self._end_turn(s)]
        return self._special(s, seat, verb, args)

    def _special(self, s: HauntedState, seat: Seat, verb: str, args: list[str]) -> list[Event]:
        name = s.names[seat]
        n = len(s.names)
        self._take(s, seat, verb)
        self._to_discard(s, verb)
        house = s.houses[seat]
        if verb == "hole":
            src, f, dst = parse_seat(args[0], n), int(args[1]), parse_seat(args[2], n)
            s.houses[src][f - 1].ghosts -= 1
            whose = "their own" if src == seat else f"{s.names[src]}'s"
            return self._ghost_arrives(
                s, dst, seat, f"{name} opens a time space hole: the ghost on {whose} floor {f}"
            )
        if verb == "bulb":
            house[int(args[0]) - 1].lit = True
            events = [
                Event(f"{name} screws in a light bulb: floor {args[0]} is lit.", kind="light")
            ]
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
            events += self._cat_arrives(s, seat, g)
        elif verb == "elevator":
            f, g = int(args[0]), int(args[1])
            house[f - 1].cats -= 1
            events = [Event(f"{name} takes the elevator: a cat moves from floor {f} to {g}.")]
            events += self._cat_arrives(s, seat, g)
        else:  # lightning
            target = parse_seat(args[0], n)
            f = haunt_floor(s.houses[target])
            floor = s.houses[target][f - 1]
            floor.lit = False
            events = [
                Event(f"Lightning! {s.names[target]}'s light on floor {f} goes out.", kind="dark")
            ]
            if floor.ghosts:  # a ghost on a floor now dark takes it at once
                events += self._floor_lost(s, target, f, "the ghost now haunts a dark floor")
        return events + self._end_turn(s)

    def _play_room(self, s: HauntedState, seat: Seat, kind: str) -> list[Event]:
        floor = next_floor(s.houses[seat])
        self._take(s, seat, kind)
        s.houses[seat][floor - 1].rooms.append(kind)
        what = "a room wild card" if kind == "wild" else "a room"
        events = [Event(f"{s.names[seat]} explores {what} on floor {floor}.", kind="room")]
        # The run ends only by the mover's `done` (the timer's default), even with no room
        # left to play: ending it by itself would tell everyone the hand holds no such room.
        s.step = {"act": "rooms"}
        return events

    def _continue_step(self, s: HauntedState, seat: Seat, action: str) -> list[Event]:
        step = s.step
        name = s.names[seat]
        verb, *args = action.split()
        if verb == "cancel":
            s.step = None
            return [Event(f"{name} changes their mind.", kind="step")]
        if step["act"] == "rooms":  # `play ...` or `done`
            if verb == "play":
                return self._play_room(s, seat, args[0])
            return self._end_turn(s)
        if verb == "with":
            step["chosen"].append(args[0])
            events = [Event(f"You pick your {C.NAMES[args[0]]}.", to=seat, kind="step")]
            rest = minus(s.hands[seat], step["chosen"])
            if (step["act"] == "light" and len(step["chosen"]) == 3) or not rest:
                return events + self._finish_step(s, seat)  # nothing more to choose
            return events
        return self._finish_step(s, seat)  # done

    def _finish_step(self, s: HauntedState, seat: Seat) -> list[Event]:
        step = s.step
        chosen = step["chosen"]
        name = s.names[seat]
        for card in chosen:
            self._take(s, seat, card)
            self._to_discard(s, card)
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
        return events + self._end_turn(s)

    # ----- ghosts and cats ----------------------------------------------------------
    def _ghost_arrives(
        self, s: HauntedState, target: Seat, attacker: Seat, how: str
    ) -> list[Event]:
        """A ghost reaches `target`'s highest floor with a room: a cat there cancels it,
        else the target may answer with a cat from hand (a reaction window)."""
        floor = haunt_floor(s.houses[target])
        here = s.houses[target][floor - 1]
        who = s.names[target]
        if here.cats:
            here.cats -= 1
            self._to_discard(s, "cat")
            self._to_discard(s, "ghost")
            text = f"{how} on {who}'s floor {floor}; the cat there chases it off (both discarded)."
            return [Event(text, kind="ghost"), *self._after_ghost(s)]
        s.windows.append(
            Window(
                kind=DEFEND,
                seats=[target],
                answers=["cat"],
                data={"attacker": attacker, "target": target, "floor": floor},
            )
        )
        return [
            Event(f"{how} on {who}'s floor {floor}. {who} may answer with a cat.", kind="ghost")
        ]

    def _ghost_lands(self, s: HauntedState, target: Seat, floor: int) -> list[Event]:
        here = s.houses[target][floor - 1]
        here.ghosts += 1
        if not here.lit:
            return self._floor_lost(s, target, floor, "the floor is dark")
        if here.ghosts >= 2:
            events = self._floor_lost(s, target, floor, "a second ghost on a lit floor")
            here.lit = False
            return events
        text = f"The ghost haunts {s.names[target]}'s lit floor {floor}; the rooms hold for now."
        return [Event(text, kind="ghost")]

    def _floor_lost(self, s: HauntedState, target: Seat, floor: int, why: str) -> list[Event]:
        here = s.houses[target][floor - 1]
        rooms = len(here.rooms)
        for card in here.rooms:
            self._to_discard(s, card)
        self._to_discard(s, "ghost", here.ghosts)
        here.rooms, here.ghosts = [], 0
        text = (
            f"{s.names[target]} loses floor {floor} ({why}): "
            f"{rooms} room{'s' if rooms != 1 else ''} and the ghosts are discarded."
        )
        return [Event(text, kind="haunt")]

    def _cat_arrives(self, s: HauntedState, seat: Seat, floor: int) -> list[Event]:
        here = s.houses[seat][floor - 1]
        if here.ghosts:
            here.ghosts -= 1
            self._to_discard(s, "ghost")
            self._to_discard(s, "cat")
            return [Event(f"The cat chases the ghost off floor {floor}; both are discarded.")]
        here.cats += 1
        return []

    def _react(self, s: HauntedState, seat: Seat, action: str) -> list[Event]:
        window = s.windows[-1]
        answered = window.respond(seat, action)
        name = s.names[seat]
        if window.kind == DEFEND:
            s.windows.pop()
            floor = window.data["floor"]
            if answered:
                self._take(s, seat, "cat")
                self._to_discard(s, "cat")
                self._to_discard(s, "ghost")
                events = [
                    Event(
                        f"{name} answers with a cat: the ghost is cancelled (both discarded).",
                        kind="cat",
                    )
                ]
            else:
                events = self._ghost_lands(s, seat, floor)
            return events + self._after_ghost(s)
        escaper = window.data["escaper"]
        if answered:
            self._take(s, seat, "ghost")
            how = f"{name} plays a ghost to stop the escape"
            return self._ghost_arrives(s, escaper, seat, how)
        return [Event(f"{name} lets {s.names[escaper]} go.", kind="pass"), *self._escape_goes_on(s)]

    def _after_ghost(self, s: HauntedState) -> list[Event]:
        """A ghost is settled: an escape goes on (or is stopped), or the turn ends."""
        window = top(s.windows)
        if window is not None and window.kind == ESCAPE:
            return self._escape_goes_on(s)
        return self._end_turn(s)

    # ----- turns, escapes and draws -------------------------------------------------
    def _end_turn(self, s: HauntedState) -> list[Event]:
        seat = s.turn
        s.step = None
        n = len(s.names)
        if complete(s.houses[seat]):
            s.windows.append(
                Window(
                    kind=ESCAPE,
                    seats=ordered_after(seat, n),
                    answers=["ghost"],
                    limit=2 if n == 2 else 1,
                    data={"escaper": seat},
                )
            )
            others = (
                "the other player may play up to 2 ghosts"
                if n == 2
                else "each other player may play a ghost"
            )
            text = f"{s.names[seat]}'s house is fully explored: escape! To stop it, {others}."
            return [Event(text, kind="escape")]
        s.draws.append([seat, HAND])
        s.turn = (seat + 1) % n
        s.turns += 1
        return []

    def _escape_goes_on(self, s: HauntedState) -> list[Event]:
        window = s.windows[-1]
        escaper = window.data["escaper"]
        n = len(s.names)
        if not complete(s.houses[escaper]):
            s.windows.pop()
            s.draws += [[(escaper + k) % n, HAND] for k in range(n)]
            s.turn = (escaper + 1) % n
            s.turns += 1
            text = f"The escape is stopped! Everyone refills; {s.names[s.turn]} plays next."
            return [Event(text, kind="stopped")]
        if window.is_open:
            return []
        s.windows.pop()
        s.winner = escaper
        return [Event(f"{s.names[escaper]} escapes from the haunted house and wins!", kind="win")]

    def _draw(self, s: HauntedState, kind: str) -> list[Event]:
        seat = s.draws[0][0]
        s.deck[kind] -= 1
        if not s.deck[kind]:
            del s.deck[kind]
        s.hands[seat] = C.sort_cards([*s.hands[seat], kind])
        return [
            Event(f"{s.names[seat]} draws a card.", kind="draw"),
            Event(f"You draw a {C.NAMES[kind]}.", to=seat, kind="draw"),
        ]

    def _settle(self, s: HauntedState) -> list[Event]:
        """Drop finished draws; reshuffle the discard pile when the deck runs out."""
        events = []
        while s.draws:
            seat, size = s.draws[0]
            if len(s.hands[seat]) >= size:
                s.draws.pop(0)
            elif s.deck:
                break
            elif s.discard:
                s.deck, s.discard = s.discard, {}
                n = sum(s.deck.values())
                events.append(Event(f"The deck is empty: the {n} discarded cards are shuffled."))
            else:  # every card is in a hand or a house: nothing to draw
                s.draws.pop(0)
        return events

    def _take(self, s: HauntedState, seat: Seat, kind: str) -> None:
        s.hands[seat].remove(kind)

    def _to_discard(self, s: HauntedState, kind: str, count: int = 1) -> None:
        if count:
            s.discard[kind] = s.discard.get(kind, 0) + count

    # ----- views, results, labels ---------------------------------------------------
    def view(self, s: HauntedState, seat: Seat | None) -> dict:
        window = top(s.windows)
        out = {
            "game": self.id,
            "names": list(s.names),
            "specials": "on" if s.specials else "off",
            "phase": self._phase(s),
            "turn": s.turn,
            "to_act": self.to_act(s),
            "houses": [[asdict(f) for f in house] for house in s.houses],
            "hand_sizes": [len(h) for h in s.hands],
            "deck": sum(s.deck.values()),
            "discard": sum(s.discard.values()),
            "window": None,
            "escaper": next((w.data["escaper"] for w in s.windows if w.kind == ESCAPE), None),
            "step": None,
            "winner": s.winner,
            "last": s.last,
            "viewer": seat,
        }
        if window is not None:
            out["window"] = {"kind": window.kind, "to_act": window.to_act(), **window.data}
        if s.step is not None:
            step = {"act": s.step["act"], "floor": s.step.get("floor")}
            if "chosen" in s.step:
                step["count"] = len(s.step["chosen"])
                if seat == s.turn:
                    step["chosen"] = list(s.step["chosen"])
            out["step"] = step
        if seat is not None and 0 <= seat < len(s.names):
            out["hand"] = [{"card": c, "bulbs": C.BULBS[c]} for c in s.hands[seat]]
        return out

    def _phase(self, s: HauntedState) -> str:
        if s.winner is not None:
            return "over"
        if s.draws:
            return "draw"
        window = top(s.windows)
        if window is not None:
            return window.kind
        return s.step["act"] if s.step else "turn"

    def result(self, s: HauntedState) -> Result | None:
        if s.winner is None:
            return None
        w = s.winner
        others = [seat for seat in range(len(s.names)) if seat != w]
        scores = {
            seat: float(sum(len(f.rooms) for f in s.houses[seat])) for seat in range(len(s.names))
        }
        return Result(
            ranking=[[w], others],
            scores=scores,
            summary=f"{s.names[w]} escapes the haunted house and wins.",
        )

    def describe(self, s: HauntedState, action: str) -> str:
        verb, *args = action.split()
        n = len(s.names)

        def who(tag: str) -> str:
            seat = parse_seat(tag, n)
            return s.names[seat] if seat is not None else tag

        if verb == "play" and args:
            return f"Play {C.NAMES.get(args[0], args[0])}"
        if verb == "with" and args:
            card = C.NAMES.get(args[0], args[0])
            if s.step is not None and s.step.get("act") == "discard":
                return f"Discard {card}"
            return f"Use {card} for the light"
        labels = {
            "ghost": lambda: f"Ghost on {who(args[0])}'s house" if args else "Ghost",
            "cat": lambda: f"Cat on floor {args[0]}" if args else "Cat from hand: cancel the ghost",
            "light": lambda: f"Light floor {args[0]} (discard 5+ bulbs)",
            "bulb": lambda: f"Light bulb: light floor {args[0]}",
            "hole": lambda: f"Hole: {who(args[0])}'s floor {args[1]} ghost to {who(args[2])}",
            "food": lambda: f"Cat food: {who(args[0])}'s cat (floor {args[1]}) to floor {args[2]}",
            "elevator": lambda: f"Elevator: cat from floor {args[0]} to {args[1]}",
            "lightning": lambda: f"Lightning on {who(args[0])}'s light",
            "discard": lambda: "Discard cards and draw as many",
            "done": lambda: "Done",
            "cancel": lambda: "Cancel",
            "pass": lambda: "Pass",
        }
        try:
            return labels[verb]() if verb in labels else action
        except IndexError:
            return action

    def default_action(self, s: HauntedState, seat: Seat) -> str | None:
        """Windows and empty hands pass; a started room run ends; a choice of cards is cancelled."""
        legal = self.legal_actions(s, seat)
        for safe in ("pass", "done" if s.step and s.step["act"] == "rooms" else "", "cancel"):
            if safe in legal:
                return safe
        return None

    def redraw(self, s: HauntedState, seat: Seat, rng: random.Random) -> HauntedState:
        """Other hands, the deck and the discard pile are shown only by their sizes: their
        cards are dealt again from one pool. Cards another player has picked for a light or
        a discard they have not finished are a random few of their new hand."""
        others = [o for o in range(len(s.names)) if o != seat]
        zones = [s.hands[o] for o in others]
        zones += [hidden.cards(s.deck), hidden.cards(s.discard)]
        dealt = hidden.redeal(zones, rng)
        new = self.copy(s)
        for o, hand in zip(others, dealt, strict=False):
            new.hands[o] = C.sort_cards(hand)
        new.deck, new.discard = hidden.pile(dealt[-2]), hidden.pile(dealt[-1])
        if new.step is not None and "chosen" in new.step and s.turn != seat:
            new.step["chosen"] = hidden.sample(new.hands[s.turn], len(s.step["chosen"]), rng)
        return new

    def dump(self, s: HauntedState) -> dict:
        return asdict(s)

    def load(self, data: dict) -> HauntedState:
        data = dict(data)
        data["houses"] = [[Floor(**f) for f in house] for house in data["houses"]]
        data["windows"] = [Window.from_dict(w) for w in data["windows"]]
        return HauntedState(**data)
