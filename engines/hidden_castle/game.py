"""Escape from the Hidden Castle (docs/games.md), readable against the rulebook.

Guests are lettered a, b, c ... across all players (seat 0 has the first letters), so an
action names one guest without ambiguity. Actions:
  place 7       set-up (and a Midnight Party restart): put your next guest on empty space 7
  move c        move guest C the rolled number of spaces along the Gallery
  hide c 9      move guest C into the chamber behind doorway 9 (booting a guest, standard game)
  stay          Midnight Party only: with one guest left in the Gallery, do not move
The die is a chance node at the start of every turn: 1, 2, 4, 5 or the Phantom (two faces).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engines.contract import CHANCE, Event, Game, Option, Result, Seat, plain
from engines.hidden_castle import board as layout
from engines.hidden_castle import telling
from engines.hidden_castle.board import BOX, CHAMBER, GALLERY, STAIRS
from engines.hidden_castle.position import (
    HiddenCastleState,
    empty_spaces,
    guest_name,
    guests_at,
    in_gallery,
    is_midnight,
    may_stay,
    movable,
    place_of,
    plan_of,
    planned_moves,
    ranking,
    scores_text,
    speed,
)
from engines.hidden_castle.rules_text import RULES_TEXT
from engines.text import Msg, Text, joined, msg, plural, to_json


class HiddenCastle(Game):
    id = "hidden_castle"
    title = "Escape from the Hidden Castle"
    rules_version = 1
    min_players = 2
    max_players = 8
    options = {
        "variant": Option(
            choices=layout.VARIANTS,
            default=layout.STANDARD,
            description="standard: scoring track, lowest score wins; "
            "midnight_party: the original game, three rounds, highest score wins",
            labels={layout.STANDARD: "Standard", layout.MIDNIGHT: "Midnight Party"},
        )
    }
    summary = (
        "Race your guests around the Gallery and hide in chambers before the Phantom grabs them."
    )
    rules_text = RULES_TEXT

    # ----- set-up -----------------------------------------------------------------
    def new_state(self, names: Sequence[str], options: Mapping[str, str]) -> HiddenCastleState:
        n = len(names)
        per = layout.GUESTS_PER_PLAYER[n]
        variant = options["variant"]
        owner = [seat for seat in range(n) for _ in range(per)]
        # Placement: one guest at a time, in turn order, starting with seat 0.
        queue = [seat * per + k for k in range(per) for seat in range(n)]
        return HiddenCastleState(
            names=list(names),
            variant=variant,
            owner=owner,
            where=[BOX] * len(owner),
            pos=[0] * len(owner),
            queue=queue,
            scores=[layout.START_SCORE[variant]] * n,
        )

    # ----- board facts (engines/hidden_castle/position.py) --------------------------
    def speed(self, s: HiddenCastleState) -> int:
        return speed(s)

    # ----- who acts ---------------------------------------------------------------
    def to_act(self, s: HiddenCastleState) -> list[Seat]:
        if s.phase == "over":
            return []
        if s.phase == "place":
            return [s.owner[s.queue[0]]]
        if s.phase == "roll":
            return [CHANCE]
        return [s.turn]

    def chance_outcomes(self, s: HiddenCastleState) -> list[tuple[str, float]]:
        return list(layout.DIE) if s.phase == "roll" else []

    # ----- what is legal ----------------------------------------------------------
    def _legal(self, s: HiddenCastleState, seat: Seat) -> list[str]:
        if s.phase == "place":
            return [f"place {n}" for n in empty_spaces(s)]
        actions = [action for action, _ in planned_moves(s, seat)]
        if may_stay(s, seat):
            actions.append("stay")
        return actions

    def _is_legal(self, s: HiddenCastleState, seat: Seat, action: str) -> bool:
        """A placement is answered from its space alone; moves fall back to the list."""
        if s.phase != "place":
            return action in self._legal(s, seat)
        verb, _, number = action.partition(" ")
        if verb != "place" or not number.isdigit() or f"place {int(number)}" != action:
            return False
        n = int(number)
        taken = any(s.pos[g] == n and s.where[g] == GALLERY for g in range(len(s.owner)))
        return 1 <= n <= layout.SPACES and n != s.phantom and not taken

    def explain_illegal(self, s: HiddenCastleState, seat: Seat, action: str) -> Msg | None:
        return telling.explain_illegal(s, seat, action)

    # ----- applying an action -----------------------------------------------------
    def _apply(self, s: HiddenCastleState, seat: Seat, action: str) -> list[Event]:
        if seat == CHANCE:
            events = self._rolled(s, action)
        elif s.phase == "place":
            events = self._place(s, int(action.split()[1]))
        else:
            events = self._play(s, seat, action)
        public = [e.text for e in events if e.to is None]
        if public:
            s.last = to_json(public[0] if len(public) == 1 else joined(public, " "))
        if seat != CHANCE or action == "phantom":
            s.last_move = s.last
        return events

    def _place(self, s: HiddenCastleState, space: int) -> list[Event]:
        g = s.queue.pop(0)
        s.where[g], s.pos[g] = GALLERY, space
        s.trail, s.mover = [space], layout.label(g)
        events = [
            Event(
                msg("{guest} is placed on space {n}.", guest=guest_name(s, g), n=space),
                kind="place",
            )
        ]
        if not s.queue:
            s.phase = "roll"
            events.append(
                Event(
                    msg("All guests are in. {name} rolls first.", name=s.names[s.turn]), kind="info"
                )
            )
        return events

    def _rolled(self, s: HiddenCastleState, outcome: str) -> list[Event]:
        name = s.names[s.turn]
        if outcome == "phantom":
            s.last_roll = to_json(msg("{name} rolled the Phantom", name=name))
            events = [Event(msg("{name} rolls the Phantom.", name=name), kind="roll")]
            events += self._phantom_moves(s)
            return events + self._end_turn(s)
        s.last_roll = to_json(msg("{name} rolled {roll}", name=name, roll=outcome))
        s.roll = outcome
        s.phase = "move"
        # a guest that may move always has its Gallery move (the same as `_legal` not empty)
        if movable(s, s.turn) or may_stay(s, s.turn):
            return [Event(msg("{name} rolls {roll}.", name=name, roll=outcome), kind="roll")]
        # Midnight Party: every guest hidden or caught, yet the roll still happens.
        s.roll = ""
        s.phase = "roll"
        s.trail, s.mover = [], ""
        s.last_roll = to_json(
            msg("{name} rolled {roll} with no guest to move", name=name, roll=outcome)
        )
        events = [
            Event(
                msg("{name} rolls {roll} but has no guest left to move.", name=name, roll=outcome),
                kind="roll",
            )
        ]
        return events + self._end_turn(s)

    def _play(self, s: HiddenCastleState, seat: Seat, action: str) -> list[Event]:
        name = s.names[seat]
        if action == "stay":
            s.trail, s.mover = [], ""
            events = [
                Event(
                    msg("{name} rolled {roll} and chooses not to move.", name=name, roll=s.roll),
                    kind="move",
                )
            ]
            return events + self._end_turn(s)
        plan = plan_of(s, seat, action)
        g = plan.guest
        start = place_of(s, g)
        s.trail, s.mover = list(plan.trail), layout.label(g)
        if plan.chamber:
            events = self._enter_chamber(s, g, plan.chamber, start)
        else:
            s.where[g], s.pos[g] = GALLERY, plan.space
            said = plural(
                "{name} moves guest {letter} {count} space, from {start} to space {n}.",
                "{name} moves guest {letter} {count} spaces, from {start} to space {n}.",
                int(s.roll),
                name=name,
                letter=layout.label(g).upper(),
                start=start,
                n=plan.space,
            )
            events = [Event(said, kind="move")]
            if plan.space == s.phantom:
                events.append(Event(msg("It ends its move on the Phantom!"), kind="capture"))
                events += self._capture(s, [g])
        return events + self._end_turn(s)

    def _enter_chamber(self, s: HiddenCastleState, g: int, room: int, start: str) -> list[Event]:
        name = s.names[s.owner[g]]
        letter = layout.label(g).upper()
        events = [
            Event(
                msg(
                    "{name} moves guest {letter} from {start} into chamber {n}.",
                    name=name,
                    letter=letter,
                    start=start,
                    n=room,
                ),
                kind="hide",
            )
        ]
        for other in guests_at(s, CHAMBER, room):
            s.where[other], s.pos[other] = GALLERY, room
            events.append(
                Event(
                    msg(
                        "{guest} is booted out onto doorway {n}.",
                        guest=guest_name(s, other),
                        n=room,
                    ),
                    kind="boot",
                )
            )
            if room == s.phantom:  # house decision: booted onto the Phantom means caught
                events += self._capture(s, [other])
        s.where[g], s.pos[g] = CHAMBER, room
        coat = layout.COATS[s.variant].get(room)
        if coat and not is_midnight(s):
            seat = s.owner[g]
            before = s.scores[seat]
            s.scores[seat] = max(0, before + coat)
            events.append(
                Event(
                    msg(
                        "The {coat} coat of arms: {name}'s score goes from {before} to {after}.",
                        coat=layout.coat_text(coat),
                        name=name,
                        before=before,
                        after=s.scores[seat],
                    ),
                    kind="score",
                )
            )
        return events

    # ----- the Phantom ------------------------------------------------------------
    def _phantom_moves(self, s: HiddenCastleState) -> list[Event]:
        speed = self.speed(s)
        events: list[Event] = []
        s.trail, s.mover = [], "phantom"
        from_dungeon = not in_gallery(s)
        for _ in range(speed):
            if not in_gallery(s):
                s.climbed += 1
                if not in_gallery(s):
                    continue
                s.phantom = layout.EXIT
            else:
                s.phantom = layout.ahead(s.phantom, 1)
            s.trail.append(s.phantom)
            if s.phantom == layout.EXIT and not is_midnight(s) and s.clock < layout.LAST_CLOCK:
                s.clock += 1
                events.append(
                    Event(
                        msg("The clock strikes {time}.", time=layout.CLOCKS[s.clock]), kind="clock"
                    )
                )
            caught = guests_at(s, GALLERY, s.phantom)
            if caught:
                events += self._capture(s, caught)
        if s.phantom and from_dungeon:
            text = plural(
                "The Phantom climbs out of the dungeon by the exit: {count} space to space {n}.",
                "The Phantom climbs out of the dungeon by the exit: {count} spaces to space {n}.",
                speed,
                n=s.phantom,
            )
        elif s.phantom:
            text = plural(
                "The Phantom moves {count} space to space {n}.",
                "The Phantom moves {count} spaces to space {n}.",
                speed,
                n=s.phantom,
            )
        else:
            text = plural(
                "The Phantom climbs {count} step, {left} from the exit.",
                "The Phantom climbs {count} steps, {left} from the exit.",
                speed,
                left=layout.CLIMB - s.climbed,
            )
        events.insert(0, Event(text, kind="phantom"))
        return events

    def _capture(self, s: HiddenCastleState, guests: list[int]) -> list[Event]:
        """Guests caught together share the highest free step (the first step when all are full)."""
        steps = layout.STEPS[s.variant]
        used = {s.pos[g] for g in range(len(s.owner)) if s.where[g] == STAIRS}
        free = [i for i in range(layout.CAPTURE_STEPS) if i not in used]
        step = free[0] if free else 0
        value = steps[step]
        events = []
        for g in guests:
            s.where[g], s.pos[g] = STAIRS, step
            said = dict(guest=guest_name(s, g), value=layout.coat_text(value))
            if is_midnight(s):
                text = msg("The Phantom captures {guest}: onto step {value}.", **said)
            else:
                seat = s.owner[g]
                s.scores[seat] += value
                text = plural(
                    "The Phantom captures {guest}: onto step {value}, {name} now has {count} point.",
                    "The Phantom captures {guest}: onto step {value}, {name} now has {count} points.",
                    s.scores[seat],
                    name=s.names[seat],
                    **said,
                )
            events.append(Event(text, kind="capture"))
        return events

    # ----- turns, rounds and the end --------------------------------------------------
    def _end_turn(self, s: HiddenCastleState) -> list[Event]:
        s.turns += 1
        s.roll = ""
        s.turn = (s.turn + 1) % len(s.names)
        s.phase = "roll"
        if is_midnight(s):
            return self._round_end(s)
        if s.clock >= layout.LAST_CLOCK or max(s.scores) >= layout.END_SCORE:
            s.phase = "over"
            if s.clock >= layout.LAST_CLOCK:
                said = msg(
                    "The clock reaches 5:00: the game ends. {standing}", standing=self._standing(s)
                )
            else:
                said = msg(
                    "A score reaches {score}: the game ends. {standing}",
                    score=layout.END_SCORE,
                    standing=self._standing(s),
                )
            return [Event(said, kind="over")]
        return []

    def _round_end(self, s: HiddenCastleState) -> list[Event]:
        """Midnight Party: a round ends with the Gallery empty or every chamber taken."""
        in_gallery = [g for g in range(len(s.owner)) if s.where[g] == GALLERY]
        full = all(guests_at(s, CHAMBER, room) for room in layout.DOORWAYS)
        if in_gallery and not full:
            return []
        events = []
        if in_gallery:
            for g in in_gallery:
                s.where[g], s.pos[g] = STAIRS, layout.LANDING
            events.append(
                Event(msg("Every chamber is taken: the guests left in the Gallery go to step -2."))
            )
        steps = layout.STEPS[s.variant]
        for g in range(len(s.owner)):
            if s.where[g] == STAIRS:
                s.scores[s.owner[g]] += steps[s.pos[g]]
            elif s.where[g] == CHAMBER:
                s.scores[s.owner[g]] += layout.COATS[s.variant].get(s.pos[g], 0)
        events.append(
            Event(
                msg(
                    "Round {round} is over. Scores: {scores}.",
                    round=s.round,
                    scores=scores_text(s),
                ),
                kind="round",
            )
        )
        if s.round >= layout.ROUNDS:
            s.phase = "over"
            events.append(
                Event(
                    msg("After three rounds: {standing}", standing=self._standing(s)), kind="over"
                )
            )
            return events
        # The next round: chambers empty onto their doorways, the staircase restarts in order.
        for g in range(len(s.owner)):
            if s.where[g] == CHAMBER:
                s.where[g] = GALLERY
        stairs = [g for g in range(len(s.owner)) if s.where[g] == STAIRS]
        stairs.sort(key=lambda g: (s.pos[g], s.scores[s.owner[g]], s.owner[g], g))
        for g in stairs:
            s.where[g], s.pos[g] = BOX, 0
        s.queue = stairs
        s.round += 1
        s.climbed, s.phantom = 0, 0
        s.phase = "place" if stairs else "roll"
        events.append(
            Event(
                msg(
                    "Round {round} begins: guests from the chambers stand on their doorways, "
                    "the Phantom is back on step -10, and the captured guests return to the "
                    "Gallery in order.",
                    round=s.round,
                )
                if stairs
                else msg(
                    "Round {round} begins: guests from the chambers stand on their doorways, "
                    "the Phantom is back on step -10.",
                    round=s.round,
                ),
                kind="round",
            )
        )
        return events

    def _standing(self, s: HiddenCastleState) -> Msg:
        return telling.standing(s)

    # ----- views, results, labels -------------------------------------------------
    def view(self, s: HiddenCastleState, seat: Seat | None) -> dict:
        return telling.view(self, s, seat)

    def result(self, s: HiddenCastleState) -> Result | None:
        if s.phase != "over":
            return None
        return Result(
            ranking=ranking(s),
            scores={p: float(v) for p, v in enumerate(s.scores)},
            summary=self._standing(s),
        )

    def label(self, s: HiddenCastleState, action: str) -> Text:
        return telling.label(s, action)

    def default_action(self, s: HiddenCastleState, seat: Seat) -> str | None:
        """A timer places a guest on the free space furthest behind the exit, and otherwise
        applies the only move there is; real choices are left to the player or an AI."""
        legal = self.legal_actions(s, seat)
        if s.phase == "place" and legal:
            return legal[-1]
        return legal[0] if len(legal) == 1 else None

    dump_is_a_copy = True  # plain(s): new lists and dicts

    def dump(self, s: HiddenCastleState) -> dict:
        return plain(s)

    def load(self, data: dict) -> HiddenCastleState:
        return HiddenCastleState(**data)
