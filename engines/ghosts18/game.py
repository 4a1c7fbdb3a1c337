"""18 Ghosts (docs/games.md), readable top to bottom against the rulebook.

Seat 0 is Player A, seat 1 Player B. Actions:
  place b3          put a ghost on an empty carpet of its colour (set-up, or a released ghost)
  move c3 up        one step orthogonally; into an occupied chamber it is a fight
  jump b2 d4        from a mirror chamber to another empty mirror chamber
  release red       give one of your dungeon ghosts to the opponent to place
  pass              only when nothing else is possible (a decision of ours)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engines.contract import Event, Game, Option, Result, Seat, plain
from engines.ghosts18 import board as layout
from engines.ghosts18.rules_text import RULES_TEXT
from engines.ghosts18.words import COLOUR, COLOUR_TITLE, DIRECTION
from engines.text import Msg, Text, from_json, joined, msg, plural, to_json

GHOSTS_PER_COLOUR = 3
TOTAL_GHOSTS = 18


def _per_colour(n: int) -> dict[str, int]:
    return {c: n for c in layout.COLOURS}


@dataclass
class Ghosts18State:
    names: list[str]
    short: bool = False
    board: dict[str, list] = field(default_factory=dict)  # cell -> [owner, colour]
    unplaced: list[dict[str, int]] = field(default_factory=lambda: [_per_colour(3), _per_colour(3)])
    dungeon: list[dict[str, int]] = field(default_factory=lambda: [_per_colour(0), _per_colour(0)])
    escaped: list[dict[str, int]] = field(default_factory=lambda: [_per_colour(0), _per_colour(0)])
    portals: dict[str, str] = field(default_factory=lambda: dict(layout.PORTAL_START))
    placed: int = 0  # ghosts placed during set-up
    turn: Seat = 0  # whose turn it is once play has begun
    release: list | None = None  # [owner, colour] of a released ghost waiting to be placed
    winner: Seat | None = None
    plies: int = 0
    last: str | dict = ""  # the last public events, a message as JSON


def _together(said: list[Text]) -> Text:
    """The events of one move as one line (what the board's caption says last)."""
    if len(said) == 1:
        return said[0]
    return joined(said, " ") if said else ""


def placer(placed: int) -> Seat:
    """Set-up order: A places one, B two, then one each in turn (A, B, B, A, B, A, ...)."""
    if placed == 0:
        return 0
    if placed in (1, 2):
        return 1
    return 0 if (placed - 3) % 2 == 0 else 1


class Ghosts18(Game):
    id = "ghosts18"
    title = "18 Ghosts"
    rules_version = 1
    min_players = 2
    max_players = 2
    options = {
        "variant": Option(
            choices=("standard", "short"),
            default="standard",
            description="standard: one escaped ghost of each colour wins; "
            "short: any three escaped ghosts win",
        )
    }
    summary = "Two players, nine ghosts each, three portals that turn: get your ghosts out."
    rules_text = RULES_TEXT

    # ----- set-up -----------------------------------------------------------------
    def new_state(self, names: Sequence[str], options: Mapping[str, str]) -> Ghosts18State:
        return Ghosts18State(names=list(names), short=options["variant"] == "short")

    # ----- who acts ---------------------------------------------------------------
    def to_act(self, s: Ghosts18State) -> list[Seat]:
        if s.winner is not None:
            return []
        if s.placed < TOTAL_GHOSTS:
            return [placer(s.placed)]
        if s.release is not None:
            return [1 - s.release[0]]
        return [s.turn]

    # ----- what is legal ----------------------------------------------------------
    def _legal(self, s: Ghosts18State, seat: Seat) -> list[str]:
        if s.placed < TOTAL_GHOSTS:
            colours = {c for c, n in s.unplaced[seat].items() if n > 0}
            return [f"place {cell}" for cell in self._empty_carpets(s, colours)]
        if s.release is not None:
            return [f"place {cell}" for cell in self._empty_carpets(s, {s.release[1]})]
        actions = self._moves(s, seat) + self._jumps(s, seat)
        actions += [
            f"release {colour}"
            for colour in layout.COLOURS
            if s.dungeon[seat][colour] > 0 and self._empty_carpets(s, {colour})
        ]
        return actions or ["pass"]

    def _is_legal(self, s: Ghosts18State, seat: Seat, action: str) -> bool:
        """A placement is answered from its carpet alone; moves fall back to the list."""
        verb, _, cell = action.partition(" ")
        if s.placed < TOTAL_GHOSTS or s.release is not None:
            if verb != "place" or cell not in layout.CARPET or cell in s.board:
                return False
            if s.release is not None:
                return layout.CARPET[cell] == s.release[1]
            return s.unplaced[seat].get(layout.CARPET[cell], 0) > 0
        return action in self._legal(s, seat)

    def _empty_carpets(self, s: Ghosts18State, colours: set[str]) -> list[str]:
        return [c for c, k in layout.CARPET.items() if k in colours and c not in s.board]

    def _moves(self, s: Ghosts18State, seat: Seat) -> list[str]:
        out = []
        for cell, (owner, colour) in s.board.items():
            if owner != seat:
                continue
            for direction in layout.DIRECTIONS:
                target = layout.neighbour(cell, direction)
                if target is None or target in layout.PORTAL_CELL.values():
                    continue
                other = s.board.get(target)
                if other is None or other[1] != colour:
                    out.append(f"move {cell} {direction}")
        return sorted(out)

    def _jumps(self, s: Ghosts18State, seat: Seat) -> list[str]:
        return [
            f"jump {cell} {mirror}"
            for cell in layout.MIRRORS
            if s.board.get(cell, [None])[0] == seat
            for mirror in layout.MIRRORS
            if mirror != cell and mirror not in s.board
        ]

    def explain_illegal(self, s: Ghosts18State, seat: Seat, action: str) -> Msg | None:
        words = action.split()
        if len(words) >= 2 and words[0] in ("move", "jump") and words[1] in s.board:
            owner, colour = s.board[words[1]]
            if owner != seat:
                if seat == 0:
                    return msg(
                        "The ghost on {cell} is not yours: your ghosts are the round ones.",
                        cell=words[1],
                    )
                return msg(
                    "The ghost on {cell} is not yours: your ghosts are the square ones.",
                    cell=words[1],
                )
            if words[0] == "move" and len(words) == 3 and words[2] in layout.DIRECTIONS:
                target = layout.neighbour(words[1], words[2])
                if target is None:
                    return msg("That step would leave the castle.")
                if target in layout.PORTAL_CELL.values():
                    return msg("No ghost may enter a portal chamber.")
                if s.board.get(target, [None, None])[1] == colour:
                    return msg("A ghost may only fight a ghost of a different colour.")
        if words[:1] == ["release"] and len(words) == 2 and words[1] in layout.COLOURS:
            colour = COLOUR[words[1]]
            if s.dungeon[seat][words[1]] == 0:
                return msg("You have no {colour} ghost in the dungeon.", colour=colour)
            return msg("There is no empty {colour} chamber to place it in.", colour=colour)
        if words[:1] == ["place"] and s.placed >= TOTAL_GHOSTS and s.release is None:
            return msg(
                "Set-up is over: every ghost is placed. Move, jump or release a ghost instead."
            )
        if words[:1] == ["place"] and len(words) == 2 and words[1] in layout.CELLS:
            return msg("A ghost goes on an empty chamber with a carpet of its own colour.")
        return None

    # ----- applying an action -----------------------------------------------------
    def _apply(self, s: Ghosts18State, seat: Seat, action: str) -> list[Event]:
        verb, *args = action.split()
        name = s.names[seat]
        in_setup = s.placed < TOTAL_GHOSTS
        if verb == "place":
            events = self._place(s, seat, args[0])
        elif verb == "move":
            events = self._move(s, seat, args[0], args[1])
        elif verb == "jump":
            s.board[args[1]] = s.board.pop(args[0])
            events = [
                Event(
                    msg(
                        "{name} jumps a ghost through the mirrors from {start} to {end}.",
                        name=name,
                        start=args[0],
                        end=args[1],
                    )
                )
            ]
        elif verb == "release":
            s.dungeon[seat][args[0]] -= 1
            s.release = [seat, args[0]]
            opponent = s.names[1 - seat]
            events = [
                Event(
                    msg(
                        "{name} releases a {colour} ghost from the dungeon; {opponent} chooses where it appears.",
                        name=name,
                        colour=COLOUR[args[0]],
                        opponent=opponent,
                    ),
                    kind="release",
                )
            ]
        else:  # pass
            events = [Event(msg("{name} cannot move and passes.", name=name))]
        if not in_setup:
            s.plies += 1
            if verb in ("move", "jump", "pass"):
                s.turn = 1 - seat
        events += self._escapes(s)
        s.last = to_json(_together([e.text for e in events if e.to is None]))
        return events

    def _place(self, s: Ghosts18State, seat: Seat, cell: str) -> list[Event]:
        colour = layout.CARPET[cell]
        if s.placed < TOTAL_GHOSTS:
            s.unplaced[seat][colour] -= 1
            s.board[cell] = [seat, colour]
            s.placed += 1
            said = msg(
                "{name} places a {colour} ghost on {cell}.",
                name=s.names[seat],
                colour=COLOUR[colour],
                cell=cell,
            )
            return [Event(said, kind="place")]
        owner = s.release[0]
        s.board[cell] = [owner, colour]
        s.release = None
        s.turn = seat  # the releaser's turn is over; the placer plays next
        return [
            Event(
                msg(
                    "{name} places {owner}'s {colour} ghost on {cell}.",
                    name=s.names[seat],
                    owner=s.names[owner],
                    colour=COLOUR[colour],
                    cell=cell,
                ),
                kind="place",
            )
        ]

    def _move(self, s: Ghosts18State, seat: Seat, cell: str, direction: str) -> list[Event]:
        target = layout.neighbour(cell, direction)
        attacker = s.board.pop(cell)
        defender = s.board.get(target)
        name = s.names[seat]
        if defender is None:
            s.board[target] = attacker
            return [
                Event(
                    msg(
                        "{name} moves a {colour} ghost from {start} to {end}.",
                        name=name,
                        colour=COLOUR[attacker[1]],
                        start=cell,
                        end=target,
                    )
                )
            ]
        if layout.BEATS[attacker[1]] == defender[1]:
            s.board[target] = attacker
            loser = defender
            won = True
        else:
            loser = attacker
            won = False
        s.dungeon[loser[0]][loser[1]] += 1
        s.portals[loser[1]] = layout.turned(s.portals[loser[1]])
        args = dict(
            name=name,
            colour=COLOUR[attacker[1]],
            start=cell,
            other=COLOUR[defender[1]],
            end=target,
            loser=COLOUR[loser[1]],
            facing=DIRECTION[s.portals[loser[1]]],
        )
        if defender[0] == seat:
            text = (
                msg(
                    "{name}'s {colour} ghost on {start} fights own {other} ghost on {end} and wins; the {loser} ghost goes to the dungeon and the {loser} portal turns to face {facing}.",
                    **args,
                )
                if won
                else msg(
                    "{name}'s {colour} ghost on {start} fights own {other} ghost on {end} and loses; the {loser} ghost goes to the dungeon and the {loser} portal turns to face {facing}.",
                    **args,
                )
            )
        else:
            args["owner"] = s.names[defender[0]]
            text = (
                msg(
                    "{name}'s {colour} ghost on {start} fights {owner}'s {other} ghost on {end} and wins; the {loser} ghost goes to the dungeon and the {loser} portal turns to face {facing}.",
                    **args,
                )
                if won
                else msg(
                    "{name}'s {colour} ghost on {start} fights {owner}'s {other} ghost on {end} and loses; the {loser} ghost goes to the dungeon and the {loser} portal turns to face {facing}.",
                    **args,
                )
            )
        return [Event(text, kind="fight")]

    def _escapes(self, s: Ghosts18State) -> list[Event]:
        """A ghost of a portal's colour in the chamber it faces escapes at once, on any turn."""
        events = []
        for colour in layout.COLOURS:
            cell = layout.faced_cell(colour, s.portals[colour])
            ghost = s.board.get(cell) if cell else None
            if ghost is None or ghost[1] != colour:
                continue
            owner = ghost[0]
            del s.board[cell]
            s.escaped[owner][colour] += 1
            events.append(
                Event(
                    msg(
                        "{name}'s {colour} ghost escapes through the {colour} portal!",
                        name=s.names[owner],
                        colour=COLOUR[colour],
                    ),
                    kind="escape",
                )
            )
            if self._has_won(s, owner):
                s.winner = owner
                won = (
                    msg("{name} wins with three ghosts outside!", name=s.names[owner])
                    if s.short
                    else msg(
                        "{name} wins with a ghost of every colour outside!", name=s.names[owner]
                    )
                )
                events.append(Event(won, kind="win"))
                break
        return events

    def _has_won(self, s: Ghosts18State, seat: Seat) -> bool:
        out = s.escaped[seat]
        if s.short:
            return sum(out.values()) >= 3
        return all(out[c] > 0 for c in layout.COLOURS)

    # ----- views, results, labels -------------------------------------------------
    def view(self, s: Ghosts18State, seat: Seat | None) -> dict:
        """Everything in 18 Ghosts is public, so every seat sees the same."""
        return {
            "game": self.id,
            "names": list(s.names),
            "variant": "short" if s.short else "standard",
            "phase": "over" if s.winner is not None else "place" if s.placed < 18 else "play",
            "to_act": self.to_act(s),
            "board": {cell: list(g) for cell, g in sorted(s.board.items())},
            "portals": dict(s.portals),
            "unplaced": [dict(u) for u in s.unplaced],
            "dungeon": [dict(d) for d in s.dungeon],
            "escaped": [dict(e) for e in s.escaped],
            "release": list(s.release) if s.release else None,
            "winner": s.winner,
            "last": from_json(s.last),
            "viewer": seat,
        }

    def result(self, s: Ghosts18State) -> Result | None:
        if s.winner is None:
            return None
        w = s.winner
        scores = {seat: float(sum(s.escaped[seat].values())) for seat in (0, 1)}
        return Result(
            ranking=[[w], [1 - w]],
            scores=scores,
            summary=plural(
                "{name} wins 18 Ghosts, with {count} ghost escaped.",
                "{name} wins 18 Ghosts, with {count} ghosts escaped.",
                int(scores[w]),
                name=s.names[w],
            ),
        )

    def label(self, s: Ghosts18State, action: str) -> Text:
        verb, *args = action.split()
        if verb == "place" and args[0] in layout.CARPET:
            return msg(
                "Place a {colour} ghost on {cell}",
                colour=COLOUR[layout.CARPET[args[0]]],
                cell=args[0],
            )
        if verb == "move" and args[0] in s.board:
            target = layout.neighbour(args[0], args[1])
            colour = s.board[args[0]][1]
            other = s.board.get(target) if target else None
            said = dict(colour=COLOUR_TITLE[colour], start=args[0], end=target)
            if other:
                if layout.BEATS[colour] == other[1]:
                    return msg(
                        "{colour} {start}→{end}: fight {other} (win)",
                        other=COLOUR[other[1]],
                        **said,
                    )
                return msg(
                    "{colour} {start}→{end}: fight {other} (lose)", other=COLOUR[other[1]], **said
                )
            return msg("{colour} ghost {start}→{end}", **said)
        if verb == "jump":
            return msg("Mirror jump {start}→{end}", start=args[0], end=args[1])
        if verb == "release":
            return msg("Release a {colour} ghost", colour=COLOUR[args[0]])
        if verb == "pass":
            return msg("Pass")
        return action.capitalize()

    def default_action(self, s: Ghosts18State, seat: Seat) -> str | None:
        """Set-up placements and passes can be automated; real moves are left to a player."""
        legal = self.legal_actions(s, seat)
        if legal == ["pass"] or (legal and legal[0].startswith("place")):
            return legal[0]
        return None

    dump_is_a_copy = True  # plain(s): new lists and dicts

    def dump(self, s: Ghosts18State) -> dict:
        return plain(s)

    def load(self, data: dict) -> Ghosts18State:
        return Ghosts18State(**data)
