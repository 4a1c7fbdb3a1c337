"""The haunted house card game (docs/games.md), readable against the rulebook.

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

The rules, by module: house.py (the state, the facts about a house), moves.py (what is legal
now, and why a move is not), playing.py (a turn's action), haunting.py (ghosts and cats),
turns.py (the end of a turn, an escape, the draws).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from engines import hidden
from engines.contract import CHANCE, Event, Game, Option, Result, Seat, plain
from engines.haunted_house import haunting, moves, playing, turns
from engines.haunted_house.cards import BULBS, NAMES, ORDER, full_deck, sort_cards
from engines.haunted_house.house import (
    DEFEND,
    ESCAPE,
    HAND,
    Floor,
    HauntedState,
    complete,
    new_house,
    parse_seat,
)
from engines.haunted_house.rules_text import RULES_TEXT
from engines.reactions import PASS, Window, top
from engines.text import Text, from_json, in_context, joined, msg, to_json

__all__ = ["DEFEND", "ESCAPE", "HAND", "Floor", "HauntedHouse", "HauntedState", "complete"]


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
            houses=[new_house() for _ in range(n)],
            deck=full_deck(specials),
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
        return [(k, s.deck[k] / total) for k in ORDER if s.deck.get(k, 0) > 0]

    # ----- what is legal ------------------------------------------------------------
    def _legal(self, s: HauntedState, seat: Seat) -> list[str]:
        window = top(s.windows)
        if window is not None:
            return window.offers(seat, moves.answers(s, seat, window))
        if s.step is not None:
            return moves.step_actions(s, seat)
        return moves.turn_actions(s, seat) or [PASS]

    def explain_illegal(self, s: HauntedState, seat: Seat, action: str) -> str | None:
        return moves.explain_illegal(s, seat, action)

    # ----- applying an action -------------------------------------------------------
    def _apply(self, s: HauntedState, seat: Seat, action: str) -> list[Event]:
        if seat == CHANCE:
            events = turns.draw(s, action)
        elif s.windows:
            events = haunting.react(s, seat, action)
        elif s.step is not None:
            events = playing.continue_step(s, seat, action)
        else:
            events = playing.turn(s, seat, action)
        events += turns.settle(s)
        public = [e.text for e in events if e.to is None and e.kind != "draw"]
        if public:
            s.last = to_json(public[0] if len(public) == 1 else joined(public, " "))
        return events

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
            "houses": plain(s.houses),
            "hand_sizes": [len(h) for h in s.hands],
            "deck": sum(s.deck.values()),
            "discard": sum(s.discard.values()),
            "window": None,
            "escaper": next((w.data["escaper"] for w in s.windows if w.kind == ESCAPE), None),
            "step": None,
            "winner": s.winner,
            "last": from_json(s.last),
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
            out["hand"] = [{"card": c, "bulbs": BULBS[c]} for c in s.hands[seat]]
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
            summary=msg("{name} escapes the haunted house and wins.", name=s.names[w]),
        )

    def label(self, s: HauntedState, action: str) -> Text:
        verb, *args = action.split()
        n = len(s.names)

        def who(tag: str) -> str:
            seat = parse_seat(tag, n)
            return s.names[seat] if seat is not None else tag

        if verb == "play" and args:
            return msg("Play {card}", card=NAMES.get(args[0], args[0]))
        if verb == "with" and args:
            card = NAMES.get(args[0], args[0])
            if s.step is not None and s.step.get("act") == "discard":
                return msg("Discard {card}", card=card)
            return msg("Use {card} for the light", card=card)
        labels = {
            "ghost": lambda: (
                msg("Ghost on {name}'s house", name=who(args[0]))
                if args
                else in_context("button", "Ghost")
            ),
            "cat": lambda: (
                msg("Cat on floor {floor}", floor=args[0])
                if args
                else msg("Cat from hand: cancel the ghost")
            ),
            "light": lambda: msg("Light floor {floor} (discard 5+ bulbs)", floor=args[0]),
            "bulb": lambda: msg("Light bulb: light floor {floor}", floor=args[0]),
            "hole": lambda: msg(
                "Hole: {owner}'s floor {floor} ghost to {target}",
                owner=who(args[0]),
                floor=args[1],
                target=who(args[2]),
            ),
            "food": lambda: msg(
                "Cat food: {owner}'s cat (floor {start}) to floor {end}",
                owner=who(args[0]),
                start=args[1],
                end=args[2],
            ),
            "elevator": lambda: msg(
                "Elevator: cat from floor {start} to {end}", start=args[0], end=args[1]
            ),
            "lightning": lambda: msg("Lightning on {name}'s light", name=who(args[0])),
            "discard": lambda: msg("Discard cards and draw as many"),
            "done": lambda: msg("Done"),
            "cancel": lambda: msg("Cancel"),
            "pass": lambda: msg("Pass"),
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
            new.hands[o] = sort_cards(hand)
        new.deck, new.discard = hidden.pile(dealt[-2]), hidden.pile(dealt[-1])
        if new.step is not None and "chosen" in new.step and s.turn != seat:
            new.step["chosen"] = hidden.sample(new.hands[s.turn], len(s.step["chosen"]), rng)
        return new

    dump_is_a_copy = True  # plain(s): new lists and dicts

    def dump(self, s: HauntedState) -> dict:
        return plain(s)

    def load(self, data: dict) -> HauntedState:
        data = dict(data)
        data["houses"] = [[Floor(**f) for f in house] for house in data["houses"]]
        data["windows"] = [Window.from_dict(w) for w in data["windows"]]
        return HauntedState(**data)
