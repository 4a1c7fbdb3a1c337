"""Threats one turn deep, for hints: what an opponent wins or scores before the asker moves
again, and which move stops it.

A search of a few hundred iterations averages over many futures and can miss the plain one
where the opponent gets a ghost out on the very next turn (a hint rated 40 of 100 once let
the bot escape two ghosts at once). So a hint is checked move by move: for each move, the
asker's own turn is finished as well as it can be (the asker's further steps chosen to
leave the least), chance is averaged over, and each opponent answers with the move that
gains them most at once. A move's *exposure* is that gain: a win counts `WIN`, a game's
`gain(game, state, seat)` (beside its rules: 18 Ghosts counts escaped ghosts) the rest.
`guard` keeps the search's choice unless another move leaves clearly less.

A game may say itself what threatens once the asker's turn is over
(`threats(game, state, seat)`: a list of `Threat`, or None while it is still the asker's
turn): Castle Doors reads its threats off the board (an opponent one open door from their
far row), since searching every card an opponent might hold is both slow and a guess. A
game may word a threat (`threat_text(game, before, after, seat, at_once)`); otherwise the
opponent's move is named. Everything runs on states the asker may see (`Game.redraw`), and
two budgets bound the work: of states (`BUDGET`) and of moves along one line (`DEPTH`: a
two-player Dark Castle turn is a long chain of one prisoner's steps, which once recursed
past Python's limit). Past either, the search's choice stands, unchecked.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from types import ModuleType

from engines.ai.search import heuristics, own_copy
from engines.contract import CHANCE, Game, Seat, State
from engines.text import Text, msg

WIN = 100.0
SLACK = 0.05  # a move counts as leaving as little as the best within this much gain
BUDGET = 4_000  # states applied to look one move through, at most (in each world)
REDRAWS = 3  # states the asker cannot tell apart, averaged over, in a game with secrets
DEPTH = 60  # moves (chance included) along one line, at most: each is two frames of the stack
MINE_OUTCOMES = 3  # in the asker's own turn (a card drawn for a bonus turn), the likeliest


@dataclass(frozen=True)
class Threat:
    """What `seat` gains before the asker moves again, and how it is said to the asker."""

    seat: Seat
    gain: float
    text: Text


@dataclass(frozen=True)
class Guarded:
    action: str
    answered: Threat | None = None  # the threat the move stops (others leave it open)
    open: Threat | None = None  # a threat no move stops
    checked: bool = True  # False: over budget, the search's choice unchecked
    safe: tuple[str, ...] = ()  # every move that leaves as little as `action` does


class _OverBudget(Exception):
    pass


class _Look:
    """One guard's exploration: the game, the asker, the gains at the root, the budget."""

    def __init__(self, game: Game, me: Seat, root: State, module: ModuleType | None) -> None:
        self.game, self.me, self.root, self.module = game, me, root, module
        self.left = BUDGET
        self.depth = 0  # the moves applied along the line being looked at now
        self.useful = getattr(module, "useful", None)
        self.threats = getattr(module, "threats", None)
        self.names = game.seat_names(root)
        self.rivals = [s for s in range(len(self.names)) if s != me]
        self.base = {s: self.gain(root, s) for s in self.rivals}

    def gain(self, state: State, seat: Seat) -> float:
        value = 0.0
        if not self.game.to_act(state):
            result = self.game.result(state)
            if result is not None and len(result.ranking) > 1 and result.ranking[0] == [seat]:
                value += WIN
        scored = getattr(self.module, "gain", None)
        return value + (scored(self.game, state, seat) if scored else 0.0)

    def child(self, state: State, seat: Seat, action: str) -> State:
        self.left -= 1
        if self.left < 0:
            raise _OverBudget
        after = own_copy(state)
        self.game.apply_in_place(after, seat, action)
        return after

    def deeper(self, look, state: State) -> tuple[float, Threat | None]:
        """`look(state)` one move further down the line: over budget past `DEPTH`."""
        if self.depth >= DEPTH:
            raise _OverBudget
        self.depth += 1
        try:
            return look(state)
        finally:
            self.depth -= 1

    def legal(self, state: State, seat: Seat) -> list[str]:
        legal = self.game.legal_actions(state, seat)
        return self.useful(self.game, state, seat, legal) if self.useful else legal

    def settle(self, state: State, at_once: bool) -> tuple[float, Threat | None]:
        """The most any opponent has gained since the root."""
        worst: tuple[float, Threat | None] = (0.0, None)
        for seat in self.rivals:
            gained = self.gain(state, seat) - self.base[seat]
            if gained > worst[0] + 1e-9:
                worst = (gained, Threat(seat, gained, self.said(state, seat, at_once)))
        return worst

    def said(self, state: State, seat: Seat, at_once: bool) -> Text:
        word = getattr(self.module, "threat_text", None)
        if word is not None:
            return word(self.game, self.root, state, seat, at_once)
        name = self.names[seat]
        if self.gain(state, seat) - self.base[seat] >= WIN:
            return msg("{name} could win at once", name=name)
        return msg("{name} could score at once", name=name)

    # the asker's own turn: the asker chooses what leaves least; chance is averaged
    def mine(self, state: State) -> tuple[float, Threat | None]:
        acting = self.game.to_act(state)
        if not acting:
            return self.settle(state, at_once=True)
        if self.me not in acting and self.threats is not None:
            told = self.threats(self.game, state, self.me)
            if told is not None:
                return self.strongest(state, told)
        if acting == [CHANCE]:
            return self.average(state, self.mine, most=MINE_OUTCOMES)
        if self.me not in acting:
            return self.theirs(state, self.settle(state, at_once=True)[0])
        best: tuple[float, Threat | None] | None = None
        for action in self.legal(state, self.me):
            found = self.deeper(self.mine, self.child(state, self.me, action))
            if best is None or found[0] < best[0] - 1e-9:
                best = found
            if best[0] <= 0:
                break
        return best or (0.0, None)

    def strongest(self, state: State, told: list[Threat]) -> tuple[float, Threat | None]:
        """A game's own threats, on top of what its opponents have gained already."""
        now = self.settle(state, at_once=True)
        top = max(told, key=lambda t: t.gain, default=None)
        if top is not None and top.gain > now[0]:
            return top.gain, top
        return now

    # the opponents' turns until the asker acts again: each takes what gains it most
    def theirs(self, state: State, already: float) -> tuple[float, Threat | None]:
        acting = self.game.to_act(state)
        if not acting or self.me in acting:
            return self.settle(state, at_once=already > 0)
        if acting == [CHANCE]:
            return self.average(state, lambda s: self.theirs(s, already))
        who = acting[0]
        best: tuple[float, Threat | None] = (-1.0, None)
        for action in self.legal(state, who):
            found = self.deeper(lambda s: self.theirs(s, already), self.child(state, who, action))
            if found[0] > best[0]:
                best = found
            if best[0] >= WIN:
                break
        return best

    def average(self, state: State, then, most: int = 0) -> tuple[float, Threat | None]:
        outcomes = self.game.chance_outcomes(state)
        if most and len(outcomes) > most:  # the likeliest, as if they were all there is
            outcomes = sorted(outcomes, key=lambda o: -o[1])[:most]
            scale = sum(p for _, p in outcomes)
            outcomes = [(o, p / scale) for o, p in outcomes]
        total, worst = 0.0, (0.0, None)
        for outcome, p in outcomes:
            found = self.deeper(then, self.child(state, CHANCE, outcome))
            total += p * found[0]
            if found[1] is not None and found[0] > worst[0]:
                worst = found
        threat = worst[1]
        if threat is not None:
            threat = Threat(threat.seat, total, threat.text)
        return total, threat


def exposure(
    game: Game, state: State, seat: Seat, action: str, budget: int = BUDGET
) -> tuple[float, Threat | None]:
    """What the opponents gain before `seat` moves again if it plays `action` now (`state`
    as `seat` sees it: a redrawn one in a game with secrets); nothing known (0) when that
    takes more than `budget` states to find out, as `guard` counts it."""
    look = _Look(game, seat, state, heuristics(game))
    look.left = budget
    try:
        return look.mine(look.child(state, seat, action))
    except _OverBudget:
        return 0.0, None


def guard(game: Game, state: State, seat: Seat, order: list[str], rng: random.Random) -> Guarded:
    """The first move of `order` (the search's preference, best first, then the other legal
    moves) that leaves the opponents no more than the best move does; and the threat it
    answers, when the preferred move or most moves would leave one open."""
    module = heuristics(game)
    worlds = [state]
    if game.hidden_information:
        worlds = [game.redraw(state, seat, rng) for _ in range(REDRAWS)]
    losses: dict[str, float] = {}
    threats: dict[str, Threat | None] = {}
    unchecked = 0
    for action in order:
        total, said = 0.0, None
        try:
            for world in worlds:
                look = _Look(game, seat, world, module)
                found = look.mine(look.child(world, seat, action))
                total += found[0]
                if found[1] is not None and (said is None or found[0] > said.gain):
                    said = found[1]
        except _OverBudget:  # too much to look through: given the benefit of the doubt
            unchecked += 1
            total, said = 0.0, None
        losses[action] = total / len(worlds)
        threats[action] = Threat(said.seat, losses[action], said.text) if said else None
    if unchecked == len(order):
        return Guarded(order[0], checked=False)
    least = min(losses.values())
    safe = tuple(a for a in order if losses[a] <= least + SLACK)
    chosen = safe[0]
    if least > SLACK:  # nothing stops it
        return Guarded(chosen, open=threats[chosen], safe=safe)
    if chosen != order[0]:
        return Guarded(chosen, answered=threats[order[0]], safe=safe)
    exposed = [a for a in order if losses[a] > least + SLACK]
    if 2 * len(exposed) > len(order):  # most moves leave a threat this one stops
        return Guarded(chosen, answered=threats[exposed[0]], safe=safe)
    return Guarded(chosen, safe=safe)
