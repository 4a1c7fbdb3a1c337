"""Castle Doors (docs/games.md), readable top to bottom against the rulebook.

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

The rules, by module: castle.py (the state, the facts about tiles and steps), moves.py (what
is legal, and why a move is not), playing.py (what each card does), turn.py (the deal and
draws, the move, the end of a turn).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import fields

from engines import hidden
from engines.castle_doors import board as geometry
from engines.castle_doors import castle as castle_state
from engines.castle_doors import moves
from engines.castle_doors import playing as card_play
from engines.castle_doors import turn as turn_course
from engines.castle_doors.castle import RECENT, CastleState
from engines.castle_doors.rules_text import RULES_TEXT
from engines.castle_doors.words import DIRECTION
from engines.contract import CHANCE, Event, Game, Result, Seat
from engines.text import Text, from_json, joined, msg, plural, to_json


def _together(said: list[Text]) -> Text:
    """Recent events as one line (what the board's caption says last)."""
    if len(said) == 1:
        return said[0]
    return joined(said, " ") if said else ""


__all__ = ["CastleDoors", "CastleState"]


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
        width, height = geometry.size(n)
        tiles = {
            cell: {
                "colour": "",
                "kind": "",
                "open": False,
                "sawn": False,
                "lock": False,
                "used": [],
            }
            for cell in geometry.cells(width, height)
        }
        return CastleState(
            names=list(names),
            width=width,
            height=height,
            edges=geometry.edges(n),
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
        if s.phase == "deal" and castle_state.undealt(s):
            return castle_state.outcomes(castle_state.colours_left(s))
        if s.phase in ("deal", "draw"):
            return castle_state.outcomes(s.deck)
        if s.phase == "reveal":
            return castle_state.outcomes(castle_state.hidden_kinds(s, s.tiles[s.reveal]["colour"]))
        return []

    # ----- what is legal ----------------------------------------------------------
    def _legal(self, s: CastleState, seat: Seat) -> list[str]:
        return moves.legal(s, seat)

    def explain_illegal(self, s: CastleState, seat: Seat, action: str) -> str | None:
        return moves.explain_illegal(s, seat, action)

    # ----- applying an action -----------------------------------------------------
    def _apply(self, s: CastleState, seat: Seat, action: str) -> list[Event]:
        if seat == CHANCE:
            events = turn_course.chance(s, action)
        else:  # `recent` rolls on: the card played stays in the caption after "stays put"
            verb, *args = action.split()
            arg = " ".join(args)
            if verb == "play":
                events = card_play.choose(s, seat, arg)
            elif verb == "discard":
                events = card_play.discard(s, seat, arg)
            elif verb == "back":
                s.card, s.first_end, s.phase = "", "", "play"
                events = [Event(msg("You take the card back into your hand."), to=seat)]
            elif verb == "target" and s.phase == "target":
                events = card_play.target(s, seat, arg)
            elif verb == "target":
                events = card_play.bonus(s, seat, arg)
            elif verb == "pass":
                events = [Event(msg("{name} does not use the extra key.", name=s.names[seat]))]
                events += turn_course.end_turn(s)
            else:
                events = turn_course.move(s, seat, verb, arg)
        public = [e.text for e in events if e.to is None]
        s.recent = (s.recent + [to_json(text) for text in public])[-RECENT:]
        return events

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
            "deck": castle_state.count(s.deck),
            "discard": castle_state.count(s.discard),
            "discard_top": s.discard_top,
            "reveal": s.reveal,
            "extra": s.extra,
            "winner": s.winner,
            "last": _together([from_json(text) for text in s.recent]),
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
            summary=plural(
                "{name} crosses the castle and wins Castle Doors after {count} turn.",
                "{name} crosses the castle and wins Castle Doors after {count} turns.",
                s.turns + 1,
                name=s.names[w],
            ),
        )

    def label(self, s: CastleState, action: str) -> Text:
        verb, *args = action.split()
        arg = " ".join(args)
        if verb == "play" and arg in geometry.CARD_NAME:
            return msg("Play {card}", card=geometry.CARD_NAME[arg])
        if verb == "discard" and arg in geometry.CARD_NAME:
            return msg("Discard {card} (no effect)", card=geometry.CARD_NAME[arg])
        if verb == "target" and arg in s.tiles:
            return card_play.describe_target(s, arg)
        if verb == "move" and s.phase == "move" and arg in DIRECTION:
            cell = castle_state.steps(s, s.turn).get(arg)
            said = dict(direction=DIRECTION[arg], cell=cell)
            if cell and arg in geometry.DIAGONALS:
                return msg("Move {direction} to {cell} (secret passage)", **said)
            if cell:
                return msg("Move {direction} to {cell}", **said)
            return msg("Move {direction}", **said)
        if verb == "enter":
            return msg("Enter the castle at {cell}", cell=arg)
        labels = {
            "exit": msg("Leave the castle to your edge"),
            "stay": msg("Stay where you are"),
            "back": msg("Choose another card"),
            "pass": msg("Skip the extra key"),
        }
        return labels.get(verb, action)

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
        order = [*s.deck, *(k for k in geometry.CARDS if k not in s.deck)]
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

    def copy(self, s: CastleState) -> CastleState:
        """`dump` already copies every part a move changes in place (`recent` is replaced
        whole, its entries never changed): no JSON round trip, a tenth of a search's time."""
        return self.load(self.dump(s))
