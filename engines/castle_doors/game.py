"""Castle Doors (shared/rules/castle-doors.txt), readable top to bottom against the rulebook.

Seats sit clockwise: with two players seat 0 at the bottom edge and seat 1 at the top;
with three or four, bottom, left, top, right. A turn, and its actions:

  (chance)          draw up to four cards
  play key red      play a card, then choose where:  target c4   (or `back`)
  play passage      a secret passage takes two steps: target c4, then target d5
  discard net       play a card onto the discard pile for nothing
  move up           one step; `move up-left` etc. only along a secret passage
  enter c1          step from your own edge onto a tile of your first row
  exit              step out of the castle back to your own edge
  stay              do not move
  target c4 / pass  the bonus of an extra key tile: open or close one door, or skip it

Chance (the pseudo-seat CHANCE) deals the colours of the tiles, draws every card and
turns a tile over the first time it is opened (`open door`, `barred door`, `extra key`,
`extra turn`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields

from engines import hidden
from engines.castle_doors import board as B
from engines.castle_doors.rules_text import RULES_TEXT
from engines.contract import CHANCE, Event, Game, Result, Seat

TRAPPED_TURNS = 2
RECENT = 3  # public events kept for the caption


@dataclass
class CastleState:
    names: list[str]
    width: int
    height: int
    edges: list[str]
    # cell -> {"colour", "kind" ("" until first opened), "open", "sawn", "lock", "used"}
    tiles: dict[str, dict]
    passages: list[list[str]] = field(default_factory=list)  # pairs of diagonal cells
    at: list[str | None] = field(default_factory=list)  # None: outside, on its own edge
    netted: list[int] = field(default_factory=list)  # own turns each seat is still trapped
    hands: list[list[str]] = field(default_factory=list)
    deck: dict[str, int] = field(default_factory=lambda: dict(B.DECK))
    discard: dict[str, int] = field(default_factory=dict)
    discard_top: str = ""
    phase: str = "deal"  # deal, draw, play, target, reveal, move, bonus, over
    turn: Seat = 0
    card: str = ""  # the card waiting for its target
    first_end: str = ""  # a secret passage's first end, once chosen
    reveal: str = ""  # the cell turning over for the first time
    after: str = ""  # what follows the reveal: "move" (after a card) or "end" (a bonus)
    extra: bool = False  # the current player has a bonus turn to come
    winner: Seat | None = None
    turns: int = 0
    recent: list[str] = field(default_factory=list)


def _count(pile: dict[str, int]) -> int:
    return sum(pile.values())


def _outcomes(counts: Mapping[str, int]) -> list[tuple[str, float]]:
    total = sum(counts.values())
    return [(k, n / total) for k, n in counts.items() if n > 0]


class CastleDoors(Game):
    id = "castle_doors"
    title = "Castle Doors"
    hidden_information = True  # each hand of cards is its owner's alone
    rules_version = 1
    min_players = 2
    max_players = 4
    options = {}
    summary = "Open, shut, bar and lock the castle's doors: first across the maze wins."
    rules_text = RULES_TEXT

    # ----- set-up -----------------------------------------------------------------
    def new_state(self, names: Sequence[str], options: Mapping[str, str]) -> CastleState:
        n = len(names)
        width, height = B.size(n)
        tiles = {
            cell: {
                "colour": "",
                "kind": "",
                "open": False,
                "sawn": False,
                "lock": False,
                "used": [],
            }
            for cell in B.cells(width, height)
        }
        return CastleState(
            names=list(names),
            width=width,
            height=height,
            edges=B.edges(n),
            tiles=tiles,
            at=[None] * n,
            netted=[0] * n,
            hands=[[] for _ in range(n)],
        )

    # ----- who acts ---------------------------------------------------------------
    def to_act(self, s: CastleState) -> list[Seat]:
        if s.phase == "over":
            return []
        if s.phase in ("deal", "draw", "reveal"):
            return [CHANCE]
        return [s.turn]

    def chance_outcomes(self, s: CastleState) -> list[tuple[str, float]]:
        if s.phase == "deal" and self._undealt(s):
            return _outcomes(self._colours_left(s))
        if s.phase in ("deal", "draw"):
            return _outcomes(s.deck)
        if s.phase == "reveal":
            return _outcomes(self._hidden_kinds(s, s.tiles[s.reveal]["colour"]))
        return []

    def _undealt(self, s: CastleState) -> str | None:
        return next((c for c, t in s.tiles.items() if not t["colour"]), None)

    def _colours_left(self, s: CastleState) -> dict[str, int]:
        left = {c: B.TILES_OF_COLOUR for c in B.COLOURS}
        for t in s.tiles.values():
            if t["colour"]:
                left[t["colour"]] -= 1
        return left

    def _hidden_kinds(self, s: CastleState, colour: str) -> dict[str, int]:
        """What a tile of this colour may hide: its colour's kinds not yet seen.

        With 3-4 players four tiles stay in the box unseen; they are among these too.
        """
        left = dict(B.TILES_PER_COLOUR)
        for t in s.tiles.values():
            if t["colour"] == colour and t["kind"]:
                left[t["kind"]] -= 1
        return left

    # ----- facts about the castle ---------------------------------------------------
    def _occupant(self, s: CastleState, cell: str) -> Seat | None:
        return s.at.index(cell) if cell in s.at else None

    def _passable(self, s: CastleState, cell: str) -> bool:
        """An open door a character may stand on (occupancy aside)."""
        t = s.tiles[cell]
        if not t["open"] or t["lock"]:
            return False
        return t["kind"] in B.PASSABLE_KINDS or (t["kind"] == "barred door" and t["sawn"])

    def _free(self, s: CastleState, cell: str) -> bool:
        return self._passable(s, cell) and cell not in s.at

    def _can_open(self, s: CastleState, cell: str) -> bool:
        t = s.tiles[cell]
        return not t["open"] and not t["lock"]

    def _can_close(self, s: CastleState, cell: str) -> bool:
        t = s.tiles[cell]
        return t["open"] and not t["lock"] and not t["sawn"] and cell not in s.at

    def _why_not_close(self, s: CastleState, cell: str) -> str:
        t = s.tiles[cell]
        if cell in s.at:
            return f"You cannot close {cell}: a character stands on it."
        if t["lock"]:
            return f"{cell} is padlocked: only a skeleton key can take the padlock off."
        if t["sawn"]:
            return f"The bars of {cell} are sawn through: it can never be closed."
        return ""

    def _toggles(self, s: CastleState, colour: str | None) -> list[str]:
        return [
            cell
            for cell, t in s.tiles.items()
            if (colour is None or t["colour"] == colour)
            and (self._can_open(s, cell) or self._can_close(s, cell))
        ]

    def _passage_ends(self, s: CastleState, cell: str, used: set | None = None) -> list[str]:
        """Tiles diagonal to `cell` across a corner that no passage crosses yet."""
        if used is None:
            used = {B.corner(a, b) for a, b in s.passages}
        out = []
        for direction in B.DIAGONALS:
            other = B.step(cell, direction, s.width, s.height)
            if other and B.corner(cell, other) not in used:
                out.append(other)
        return out

    def _targets(self, s: CastleState, card: str) -> list[str]:
        seat = s.turn
        if card.startswith("key "):
            return self._toggles(s, card[4:])
        if card == "skeleton":
            return [c for c, t in s.tiles.items() if t["lock"]] + self._toggles(s, None)
        if card == "padlock":
            return [c for c, t in s.tiles.items() if not t["lock"] and c not in s.at]
        if card == "hacksaw":
            return [
                c
                for c, t in s.tiles.items()
                if t["open"] and t["kind"] == "barred door" and not t["sawn"] and not t["lock"]
            ]
        if card == "passage":
            if s.first_end:
                return self._passage_ends(s, s.first_end)
            used = {B.corner(a, b) for a, b in s.passages}
            return [c for c in s.tiles if self._passage_ends(s, c, used)]
        if card == "net":
            return [
                cell
                for other, cell in enumerate(s.at)
                if other != seat and cell is not None and s.netted[other] == 0
            ]
        return []

    def _steps(self, s: CastleState, seat: Seat) -> dict[str, str]:
        """Direction -> cell for every step the character could take now."""
        here = s.at[seat]
        out = {}
        if here is None:
            return out
        for direction in B.STEPS:
            cell = B.step(here, direction, s.width, s.height)
            if cell and self._free(s, cell):
                out[direction] = cell
        for a, b in s.passages:
            if here in (a, b):
                other = b if here == a else a
                if self._passable(s, here) and self._free(s, other):
                    out[B.diagonal_of(here, other)] = other
        return out

    def _entries(self, s: CastleState, seat: Seat) -> list[str]:
        if s.at[seat] is not None:
            return []
        row = B.first_row(s.edges[seat], s.width, s.height)
        return sorted(c for c in row if self._free(s, c))

    # ----- what is legal ----------------------------------------------------------
    def _legal(self, s: CastleState, seat: Seat) -> list[str]:
        if s.phase == "play":
            cards = sorted(set(s.hands[seat]))
            plays = [f"play {c}" for c in cards if self._targets(s, c)]
            return plays + [f"discard {c}" for c in cards]
        if s.phase == "target":
            return [f"target {c}" for c in sorted(self._targets(s, s.card))] + ["back"]
        if s.phase == "move":
            steps = [f"move {d}" for d in self._steps(s, seat)]
            entries = [f"enter {c}" for c in self._entries(s, seat)]
            row = B.first_row(s.edges[seat], s.width, s.height)
            leave = ["exit"] if s.at[seat] in row else []
            return steps + entries + leave + ["stay"]
        if s.phase == "bonus":
            return [f"target {c}" for c in sorted(self._toggles(s, None))] + ["pass"]
        return []

    def explain_illegal(self, s: CastleState, seat: Seat, action: str) -> str | None:
        words = action.split()
        if s.phase == "play" and len(words) >= 2 and words[0] in ("play", "discard"):
            card = " ".join(words[1:])
            if card not in B.CARDS:
                return f"There is no card {card!r}; cards: {', '.join(B.CARDS)}."
            if card not in s.hands[seat]:
                return f"You have no {B.CARD_NAME[card]} in your hand."
            return f"Your {B.CARD_NAME[card]} has nothing to act on now; you may discard it."
        if s.phase in ("target", "bonus") and words[:1] == ["target"] and len(words) == 2:
            cell = words[1]
            if cell not in s.tiles:
                return f"There is no tile {cell}."
            card = s.card if s.phase == "target" else "extra key"
            t = s.tiles[cell]
            if card.startswith("key ") and t["colour"] != card[4:]:
                return f"A {card[4:]} key only works on {card[4:]} doors; {cell} is {t['colour']}."
            if card.startswith("key ") or card in ("skeleton", "extra key"):
                if t["lock"] and card != "skeleton":
                    return f"{cell} is padlocked: only a skeleton key can take the padlock off."
                if t["open"]:
                    return self._why_not_close(s, cell) or None
            if card == "padlock":
                if t["lock"]:
                    return f"{cell} already has a padlock; padlocks do not stack."
                return f"{cell} is occupied: a padlock cannot go under a character."
            if card == "hacksaw":
                return "A hacksaw only cuts an open barred door that has no padlock."
            if card == "net":
                return "A net goes on the tile of an opponent who is in the castle and not netted."
            if card == "passage":
                return "A secret passage joins two diagonal tiles across a corner with no passage."
        if s.phase == "move" and words[:1] == ["move"] and len(words) == 2:
            if s.netted[seat]:
                return "You are caught in a net and cannot move."
            here = s.at[seat]
            if here is None:
                return "You are outside the castle: enter it with `enter <tile of your first row>`."
            if words[1] in B.DIAGONALS:
                return "Diagonal steps need a secret passage with both its doors open."
            if words[1] in B.STEPS:
                cell = B.step(here, words[1], s.width, s.height)
                if cell is None:
                    return (
                        "That step would leave the castle; `exit` steps off it "
                        "from the row along your own edge."
                    )
                if cell in s.at:
                    return f"{cell} is occupied: only one character may stand on a tile."
                t = s.tiles[cell]
                if t["lock"]:
                    return f"{cell} is padlocked."
                if not t["open"]:
                    return f"The door of {cell} is closed."
                return f"{cell} is a barred door: a hacksaw opens it for good."
        if s.phase == "move" and words == ["exit"]:
            if s.at[seat] is None:
                return "You are already outside the castle."
            return "You can only step out of the castle from the row along your own edge."
        if s.phase == "move" and words[:1] == ["enter"]:
            if s.at[seat] is not None:
                return "You are already in the castle."
            return "You enter onto a free open door of the row along your own edge."
        return None

    # ----- applying an action -----------------------------------------------------
    def _apply(self, s: CastleState, seat: Seat, action: str) -> list[Event]:
        if seat == CHANCE:
            events = self._chance(s, action)
        else:  # `recent` rolls on: the card played stays in the caption after "stays put"
            verb, *args = action.split()
            arg = " ".join(args)
            if verb == "play":
                events = self._choose(s, seat, arg)
            elif verb == "discard":
                events = self._discard(s, seat, arg)
            elif verb == "back":
                s.card, s.first_end, s.phase = "", "", "play"
                events = [Event("You take the card back into your hand.", to=seat)]
            elif verb == "target" and s.phase == "target":
                events = self._target(s, seat, arg)
            elif verb == "target":
                events = self._bonus(s, seat, arg)
            elif verb == "pass":
                events = [Event(f"{s.names[seat]} does not use the extra key.")]
                events += self._end_turn(s)
            else:
                events = self._move(s, seat, verb, arg)
        public = [e.text for e in events if e.to is None]
        s.recent = (s.recent + public)[-RECENT:]
        return events

    def _chance(self, s: CastleState, outcome: str) -> list[Event]:
        if s.phase == "deal":
            cell = self._undealt(s)
            if cell:
                s.tiles[cell]["colour"] = outcome
                return []  # the finished castle is announced once, not tile by tile
            dealt = sum(len(h) for h in s.hands)
            target = dealt % len(s.names)
            events = self._take(s, target, outcome, "is dealt")
            if all(len(h) == B.HAND for h in s.hands):
                s.phase = "draw"
                events.append(
                    Event(
                        f"The castle is built and three cards are dealt to each player. "
                        f"{s.names[0]} begins."
                    )
                )
                events += self._start_draw(s)
            return events
        if s.phase == "draw":
            events = self._take(s, s.turn, outcome, "draws")
            return events + self._start_draw(s)
        # reveal
        cell = s.reveal
        s.tiles[cell]["kind"] = outcome
        s.reveal = ""
        events = [Event(f"The door of {cell} swings open: {self._kind_text(outcome)}.")]
        if s.after == "end":
            return events + self._end_turn(s)
        return events + self._after_play(s)

    @staticmethod
    def _kind_text(kind: str) -> str:
        return {
            "open door": "an open door",
            "barred door": "a barred door",
            "extra key": "an extra key tile",
            "extra turn": "an extra turn tile",
        }[kind]

    def _take(self, s: CastleState, seat: Seat, card: str, verb: str) -> list[Event]:
        s.deck[card] -= 1
        s.hands[seat] = sorted([*s.hands[seat], card])
        mine = "You are dealt" if verb == "is dealt" else "You draw"
        return [
            Event(f"{s.names[seat]} {verb} a card.", kind="draw"),
            Event(f"{mine} a {B.CARD_NAME[card]}.", to=seat, kind="draw"),
        ]

    def _start_draw(self, s: CastleState) -> list[Event]:
        """Draw up to four: one chance node a card, the discards reshuffled when needed."""
        events = []
        if len(s.hands[s.turn]) >= B.HAND_IN_TURN:
            s.phase = "play"
            return events
        if _count(s.deck) == 0 and _count(s.discard) > 0:
            s.deck = {k: s.deck.get(k, 0) + s.discard.get(k, 0) for k in B.CARDS}
            s.discard, s.discard_top = {}, ""
            events.append(
                Event("The draw pile is empty: the discards are shuffled into a new one.")
            )
        if _count(s.deck) == 0:  # every card is in a hand or on the castle: play what you hold
            if s.hands[s.turn]:
                s.phase = "play"
                return events
            return events + self._after_play(s)  # nothing to play; a net still holds
        s.phase = "draw"
        return events

    def _to_discard(self, s: CastleState, card: str) -> None:
        s.discard[card] = s.discard.get(card, 0) + 1
        s.discard_top = card

    def _from_hand(self, s: CastleState, seat: Seat, card: str) -> None:
        hand = list(s.hands[seat])
        hand.remove(card)
        s.hands[seat] = hand

    def _choose(self, s: CastleState, seat: Seat, card: str) -> list[Event]:
        s.phase, s.card, s.first_end = "target", card, ""
        what = "the first end of the passage" if card == "passage" else "a target"
        return [Event(f"Choose {what} for your {B.CARD_NAME[card]}, or `back`.", to=seat)]

    def _discard(self, s: CastleState, seat: Seat, card: str) -> list[Event]:
        self._from_hand(s, seat, card)
        self._to_discard(s, card)
        events = [Event(f"{s.names[seat]} discards a {B.CARD_NAME[card]} for nothing.")]
        return events + self._after_play(s)

    def _target(self, s: CastleState, seat: Seat, cell: str) -> list[Event]:
        card, name = s.card, s.names[seat]
        if card == "passage" and not s.first_end:
            s.first_end = cell
            return [Event(f"Now choose the tile diagonal to {cell}.", to=seat)]
        self._from_hand(s, seat, card)
        s.card, s.phase = "", "play"
        t = s.tiles[cell]
        label = B.CARD_NAME[card]
        if card.startswith("key ") or card == "skeleton":
            self._to_discard(s, card)
            if t["lock"]:
                t["lock"] = False
                self._to_discard(s, "padlock")
                state = "open" if t["open"] else "closed"
                events = [
                    Event(f"{name} takes the padlock off {cell} with a skeleton key; "
                          f"the door stays {state}.", kind="unlock")
                ]  # fmt: skip
            else:
                events = self._toggle(s, seat, cell, f"with a {label}", after="move")
                if s.phase == "reveal":
                    return events
        elif card == "padlock":
            t["lock"] = True
            events = [Event(f"{name} padlocks {cell}.", kind="padlock")]
        elif card == "hacksaw":
            t["sawn"] = True
            events = [Event(f"{name} saws through the bars of {cell}: it stays open for good.")]
        elif card == "passage":
            pair = sorted([s.first_end, cell])
            s.passages = sorted([*s.passages, pair])
            s.first_end = ""
            events = [Event(f"{name} opens a secret passage between {pair[0]} and {pair[1]}.")]
        else:  # net
            victim = s.at.index(cell)
            s.netted[victim] = TRAPPED_TURNS
            events = [
                Event(f"{name} throws a net over {s.names[victim]} on {cell}: "
                      f"trapped for their next {TRAPPED_TURNS} turns.", kind="net")
            ]  # fmt: skip
        return events + self._after_play(s)

    def _toggle(self, s: CastleState, seat: Seat, cell: str, how: str, after: str) -> list[Event]:
        t = s.tiles[cell]
        name = s.names[seat]
        if t["open"]:
            t["open"] = False
            return [Event(f"{name} closes the {t['colour']} door of {cell} {how}.", kind="close")]
        t["open"] = True
        event = Event(f"{name} opens the {t['colour']} door of {cell} {how}.", kind="open")
        if not t["kind"]:
            s.phase, s.reveal, s.after = "reveal", cell, after
            return [event]
        return [event, Event(f"It shows {self._kind_text(t['kind'])}.")]

    def _after_play(self, s: CastleState) -> list[Event]:
        """The card is played; now the move, unless a net holds the character."""
        seat = s.turn
        if not s.netted[seat]:
            s.phase = "move"
            return []
        s.netted[seat] -= 1
        name = s.names[seat]
        if s.netted[seat]:
            events = [Event(f"{name} is caught in the net and cannot move (one more turn).")]
        else:
            self._to_discard(s, "net")
            events = [Event(f"{name} cannot move this turn; then the net comes off.")]
        return events + self._end_turn(s)

    def _bonus(self, s: CastleState, seat: Seat, cell: str) -> list[Event]:
        events = self._toggle(s, seat, cell, "with the extra key tile", after="end")
        if s.phase == "reveal":
            return events
        return events + self._end_turn(s)

    def _move(self, s: CastleState, seat: Seat, verb: str, arg: str) -> list[Event]:
        name = s.names[seat]
        if verb == "stay":
            return [Event(f"{name} stays put."), *self._end_turn(s)]
        if verb == "exit":
            s.at[seat] = None
            return [
                Event(f"{name} leaves the castle, back to the {s.edges[seat]} edge."),
                *self._end_turn(s),
            ]
        if verb == "enter":
            cell = arg
            events = [Event(f"{name} enters the castle at {cell}.", kind="move")]
        else:
            cell = self._steps(s, seat)[arg]
            how = "through the secret passage " if arg in B.DIAGONALS else ""
            events = [Event(f"{name} moves {arg} {how}to {cell}.", kind="move")]
        s.at[seat] = cell
        if cell in B.far_row(s.edges[seat], s.width, s.height):
            s.winner, s.phase = seat, "over"
            return [
                *events,
                Event(f"{name} reaches the far side of the castle and wins!", kind="win"),
            ]
        t = s.tiles[cell]
        if t["kind"] in ("extra key", "extra turn") and seat not in t["used"]:
            t["used"] = sorted([*t["used"], seat])
            if t["kind"] == "extra key":
                s.phase = "bonus"
                return [
                    *events,
                    Event(f"{name} lands on an extra key tile: one more door to open or close."),
                ]
            s.extra = True
            events.append(Event(f"{name} lands on an extra turn tile: a bonus turn follows."))
        return events + self._end_turn(s)

    def _end_turn(self, s: CastleState) -> list[Event]:
        s.turns += 1
        s.card, s.first_end = "", ""
        if s.extra:
            s.extra = False
        else:
            s.turn = (s.turn + 1) % len(s.names)
        return self._start_draw(s)

    # ----- views, results, labels -------------------------------------------------
    def view(self, s: CastleState, seat: Seat | None) -> dict:
        tiles = {
            cell: {
                "colour": t["colour"],
                "kind": t["kind"],
                "open": t["open"],
                "sawn": t["sawn"],
                "lock": t["lock"],
                "used": list(t["used"]),
            }
            for cell, t in s.tiles.items()
        }
        out = {
            "game": self.id,
            "names": list(s.names),
            "viewer": seat,
            "to_act": self.to_act(s),
            "phase": s.phase,
            "turn": s.turn,
            "turns": s.turns,
            "width": s.width,
            "height": s.height,
            "edges": list(s.edges),
            "tiles": tiles,
            "passages": [list(p) for p in s.passages],
            "at": list(s.at),
            "netted": list(s.netted),
            "hand_sizes": [len(h) for h in s.hands],
            "deck": _count(s.deck),
            "discard": _count(s.discard),
            "discard_top": s.discard_top,
            "reveal": s.reveal,
            "extra": s.extra,
            "winner": s.winner,
            "last": " ".join(s.recent),
        }
        if seat is not None and 0 <= seat < len(s.names):
            out["hand"] = list(s.hands[seat])
            if seat == s.turn and s.phase == "target":
                out["card"] = s.card
                out["first_end"] = s.first_end
        return out

    def result(self, s: CastleState) -> Result | None:
        if s.winner is None:
            return None
        w = s.winner
        others = [seat for seat in range(len(s.names)) if seat != w]
        return Result(
            ranking=[[w], others],
            scores={seat: 1.0 if seat == w else 0.0 for seat in range(len(s.names))},
            summary=f"{s.names[w]} crosses the castle and wins Castle Doors "
            f"after {s.turns + 1} turns.",
        )

    def describe(self, s: CastleState, action: str) -> str:
        verb, *args = action.split()
        arg = " ".join(args)
        if verb == "play" and arg in B.CARD_NAME:
            return f"Play {B.CARD_NAME[arg]}"
        if verb == "discard" and arg in B.CARD_NAME:
            return f"Discard {B.CARD_NAME[arg]} (no effect)"
        if verb == "target" and arg in s.tiles:
            return self._describe_target(s, arg)
        if verb == "move" and s.phase == "move":
            cell = self._steps(s, s.turn).get(arg)
            via = " (secret passage)" if arg in B.DIAGONALS else ""
            return f"Move {arg} to {cell}{via}" if cell else f"Move {arg}"
        labels = {
            "enter": f"Enter the castle at {arg}",
            "exit": "Leave the castle to your edge",
            "stay": "Stay where you are",
            "back": "Choose another card",
            "pass": "Skip the extra key",
        }
        return labels.get(verb, action)

    def _describe_target(self, s: CastleState, cell: str) -> str:
        t = s.tiles[cell]
        card = s.card if s.phase == "target" else "extra key"
        colour = f"{t['colour']} " if t["colour"] else ""
        if card == "padlock":
            return f"Padlock {cell}"
        if card == "hacksaw":
            return f"Saw the bars of {cell}"
        if card == "net":
            victim = self._occupant(s, cell)
            return f"Net {s.names[victim]} on {cell}" if victim is not None else f"Net {cell}"
        if card == "passage":
            if s.first_end:
                return f"Passage {s.first_end} to {cell}"
            return f"Passage from {cell}"
        if t["lock"]:
            return f"Unlock {cell}"
        return f"{'Close' if t['open'] else 'Open'} {colour}door {cell}"

    def default_action(self, s: CastleState, seat: Seat) -> str | None:
        """A timer skips a bonus or stays put; real card choices are left to a player or AI."""
        legal = self.legal_actions(s, seat)
        for safe in ("pass", "stay"):
            if safe in legal:
                return safe
        return None

    def redraw(self, s: CastleState, seat: Seat, rng: random.Random) -> CastleState:
        """Other hands, the draw pile and the discard pile under its top card are shown
        only by their sizes: their cards are dealt again from one pool. A card another
        player is placing stays in their hand (its target is still theirs to choose)."""
        others = [o for o in range(len(s.names)) if o != seat]
        kept = [[] for _ in s.names]
        if s.phase == "target" and s.turn != seat:
            kept[s.turn] = [s.card]
        top = [s.discard_top] if s.discard_top else []
        zones = [hidden.minus(s.hands[o], kept[o]) for o in others]
        zones += [hidden.cards(s.deck), hidden.minus(hidden.cards(s.discard), top)]
        dealt = hidden.redeal(zones, rng)
        new = self.copy(s)
        for o, hand in zip(others, dealt, strict=False):
            new.hands[o] = sorted(hand + kept[o])
        deck = hidden.pile(dealt[-2])  # kinds kept in the old order: chance lists them so
        order = [*s.deck, *(k for k in B.CARDS if k not in s.deck)]
        new.deck = {k: deck.get(k, 0) for k in order if deck.get(k) or k in s.deck}
        new.discard = hidden.pile(dealt[-1] + top)
        return new

    def dump(self, s: CastleState) -> dict:
        """Like dataclasses.asdict, written out: asdict's deep copy is most of a move's time."""
        data = {f.name: getattr(s, f.name) for f in fields(CastleState)}
        data["tiles"] = {c: {**t, "used": list(t["used"])} for c, t in s.tiles.items()}
        for name in ("names", "edges", "at", "netted", "recent"):
            data[name] = list(data[name])
        data["passages"] = [list(p) for p in s.passages]
        data["hands"] = [list(h) for h in s.hands]
        data["deck"], data["discard"] = dict(s.deck), dict(s.discard)
        return data

    def load(self, data: dict) -> CastleState:
        return CastleState(**data)
