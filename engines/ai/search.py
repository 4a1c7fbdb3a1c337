"""Information-set Monte Carlo tree search over the engine contract, for any game.

Each iteration redraws what the AI's seat cannot see (`Game.redraw`), walks a tree of
actions keyed by their strings (UCB among the actions this redrawing allows, counting how
often each was available), samples chance from `chance_outcomes` as its own edges, plays a
short rollout and scores the end: a finished game by its result, an unfinished one by the
game's evaluation where it has one (`engines/<game>/ai.py`). Every seat's result is kept,
so each seat chooses for itself (a co-operative game ranks everyone together, so the whole
party wins or loses as one). A game's `useful(game, state, seat, legal)` (beside its rules)
may leave out moves that only undo an earlier one: the search, its rollouts and the choice
itself never play them. A game's `TUNING` changes a level's fields for that game alone
(Haunted House: only hard plays its rollout policy). A `focused` level searches only the
moves the game's `focus(game, state, seat, legal)` keeps, in the tree and its rollouts
alike (Castle Doors' hard: the targets near a character), unless the caller names the
moves to search (`among`). A level that plays the game's rollout policy also takes the
game's `settled(game, state, seat, legal)` move where it names one (with `SETTLED_REASON`,
the words a hint gives for it): a choice a good player makes by rule where the search
cannot see far enough to make it (Hidden Castle's placements: the evaluation cannot tell
them apart, yet they decide much).

The only inputs are the seat's view (through the redrawn states), the level and a seeded
`random.Random` used through `random()` alone: the same call gives the same action, for the
iteration budget binds first and the time budget (CPU time of the searching thread, so a
loaded machine does not change the choice) is only a guard.
"""

from __future__ import annotations

import importlib
import math
import pickle
import random
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from types import ModuleType

from engines.contract import CHANCE, Game, Seat, State
from engines.text import Msg

Evaluate = Callable[[Game, State], list[float]]
Rollout = Callable[[Game, State, Seat, list[str], random.Random], str]
Useful = Callable[[Game, State, Seat, list[str]], list[str]]
Settled = Callable[[Game, State, Seat, list[str]], str | None]


def _all(game: Game, state: State, seat: Seat, legal: list[str]) -> list[str]:
    return legal


@dataclass(frozen=True)
class Level:
    name: str
    iterations: int
    seconds: float  # a guard, in CPU seconds of this thread: the iterations bind first
    depth: int  # player moves in a rollout before the position is evaluated
    heuristics: bool  # the game's rollout policy (its evaluation is always used)
    blunder: float  # the share of decisions made at random (a beginner can win)
    explore: float = 0.7
    focused: bool = False  # search only the moves the game's `focus` keeps
    tuned: bool = False  # the game's TUNING applied already (`tuned` applies it once)


LEVELS: dict[str, Level] = {
    "easy": Level("easy", iterations=40, seconds=0.5, depth=4, heuristics=False, blunder=0.3),
    "normal": Level("normal", iterations=500, seconds=1.8, depth=8, heuristics=True, blunder=0.0),
    "hard": Level("hard", iterations=1500, seconds=5.0, depth=10, heuristics=True, blunder=0.0),
}
DEFAULT_LEVEL = "normal"


@dataclass(frozen=True)
class Decision:
    action: str
    iterations: int
    seconds: float  # wall time
    cpu: float = 0.0  # CPU time of the searching thread
    # the searched moves, best first: (action, mean result 0-1 for the seat, visits); a win
    # seen at once alone with no visits; empty for a single move or a blunder
    ranked: tuple[tuple[str, float, int], ...] = ()
    # why a move made by the game's rule of thumb (`settled`, not searched) is the one to make
    rule: Msg | None = None


class _Node:
    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: Seat | None) -> None:
        self.seat = seat  # who chose the action leading here (None: chance)
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


def heuristics(game: Game) -> ModuleType | None:
    """The game's own `ai` module (beside its rules), if it has one."""
    try:
        return importlib.import_module(f"{type(game).__module__.rsplit('.', 1)[0]}.ai")
    except ModuleNotFoundError:
        return None


def tuned(level: Level, module: ModuleType | None) -> Level:
    """The level as the game tunes it (its `TUNING`: level name -> changed fields), for a
    ladder the same budgets do not space out in every game. Applied once: a level tuned
    already comes back as it is (its budget would otherwise be scaled down again)."""
    if level.tuned:
        return level
    changes = dict(getattr(module, "TUNING", {}).get(level.name) or {})
    base = LEVELS.get(level.name)
    if "iterations" in changes and base is not None and base.iterations != level.iterations:
        # a level scaled down (tests, ESCAPE_AI_SCALE) keeps its share of the tuned budget
        share = level.iterations / base.iterations
        changes["iterations"] = max(1, round(changes["iterations"] * share))
    return replace(level, **changes, tuned=True) if changes else level


def own_copy(state: State) -> State:
    """A private copy to play on in place (much faster than the contract's JSON copy)."""
    return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))


def mover(acting: list[Seat], seat: Seat) -> Seat:
    """Who decides when several seats may act: the AI's own seat first (a group decision
    in a co-operative game), else the first listed."""
    return seat if seat in acting else acting[0]


def rewards(game: Game, state: State, players: int) -> list[float]:
    """1 for the best rank, 0 for the worst, evenly between; a table ranked as one (a
    co-operative game) shares its score (1 escaped, 0 not)."""
    result = game.result(state)
    out = [0.5] * players
    if result is None:
        return out
    groups = result.ranking
    if len(groups) == 1:
        value = min(1.0, max(0.0, result.scores.get(groups[0][0], 0.5))) if groups[0] else 0.5
        return [value] * players
    for i, group in enumerate(groups):
        for s in group:
            if 0 <= s < players:
                out[s] = 1 - i / (len(groups) - 1)
    return out


def sample(outcomes: list[tuple[str, float]], rng: random.Random) -> str:
    u, total = rng.random(), 0.0
    for outcome, p in outcomes:
        total += p
        if u < total:
            return outcome
    return outcomes[-1][0]


def random_rollout(game: Game, state: State, seat: Seat, legal: list[str], rng) -> str:
    return legal[int(rng.random() * len(legal))]


def choose(
    game: Game,
    state: State,
    seat: Seat,
    level: str | Level = DEFAULT_LEVEL,
    rng: random.Random | None = None,
    players: int | None = None,
    among: Collection[str] | None = None,
) -> Decision:
    """The action `seat` plays now, chosen from what it can see (from `among` alone, when
    given: a hint searching again only the moves that stop a threat)."""
    lv = LEVELS[level] if isinstance(level, str) else level
    rng = rng or random.Random(0)
    started, cpu_started = time.perf_counter(), time.thread_time()

    def finish(
        action: str, iterations: int, ranked: tuple = (), rule: Msg | None = None
    ) -> Decision:
        return Decision(
            action,
            iterations,
            time.perf_counter() - started,
            time.thread_time() - cpu_started,
            ranked,
            rule,
        )

    legal = game.legal_actions(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has nothing to do now")
    module = heuristics(game)
    lv = tuned(lv, module)
    useful: Useful = getattr(module, "useful", _all)
    # the moves a hint names (those that stop a threat) are searched, near or not
    focus: Useful | None = getattr(module, "focus", None) if lv.focused and among is None else None
    if focus is not None:
        useful = _narrowed(useful, focus)
    legal = useful(game, state, seat, legal)
    narrowed = None
    if among is not None:
        legal = [a for a in legal if a in among] or legal
        narrowed = frozenset(legal)
    if len(legal) == 1:
        return finish(legal[0], 0)
    if lv.blunder and rng.random() < lv.blunder:
        return finish(legal[int(rng.random() * len(legal))], 0)
    n = players if players is not None else len(game.seat_names(state)) or 1
    evaluate: Evaluate | None = getattr(module, "evaluate", None)
    policy: Rollout = random_rollout
    if lv.heuristics and module is not None:
        policy = getattr(module, "rollout", random_rollout)
        settled: Settled | None = getattr(module, "settled", None)
        by_rule = settled(game, state, seat, legal) if settled is not None else None
        if by_rule is not None:
            return finish(by_rule, 0, rule=module.SETTLED_REASON)
    win = _winning_move(game, own_copy(game.redraw(state, seat, rng)), seat, legal, n)
    if win is not None:
        return finish(win, 0, ((win, 1.0, 0),))
    budget = max(1, round(lv.iterations * getattr(module, "SEARCH_SCALE", 1.0)))
    root = _Node(None)
    # CPU time, not the wall clock: a loaded machine slows the search but does not change
    # what it chooses (only a search far over its budget is cut short)
    deadline = time.thread_time() + lv.seconds
    done = 0
    while done < budget and (done == 0 or time.thread_time() < deadline):
        world = own_copy(game.redraw(state, seat, rng))
        _iterate(game, world, seat, root, lv, rng, n, evaluate, policy, useful, narrowed)
        done += 1
    order = sorted(
        (a for a in legal if a in root.children),
        key=lambda a: (root.children[a].visits, root.children[a].total),
        reverse=True,
    )
    ranked = tuple(
        (a, root.children[a].total / root.children[a].visits, root.children[a].visits)
        for a in order
        if root.children[a].visits
    )
    return finish(order[0] if order else legal[0], done, ranked)


def _narrowed(useful: Useful, focus: Useful) -> Useful:
    def both(game: Game, state: State, seat: Seat, legal: list[str]) -> list[str]:
        return focus(game, state, seat, useful(game, state, seat, legal))

    return both


def _winning_move(game, world, seat, legal, n) -> str | None:
    """A move that ends the game at once with `seat` on top (and not merely tied)."""
    for action in legal:
        after = own_copy(world)
        game.apply_in_place(after, seat, action)
        if not game.to_act(after):
            result = game.result(after)
            alone = result is not None and (
                len(result.ranking) > 1 or len(result.ranking[0]) == len(result.scores)
            )
            if alone and seat in result.ranking[0] and rewards(game, after, n)[seat] == 1.0:
                return action
    return None


def _iterate(game, world, seat, root, lv, rng, n, evaluate, policy, useful, at_root) -> None:
    node, path = root, [root]
    expanded = False
    while True:
        acting = game.to_act(world)
        if not acting:
            break
        if acting == [CHANCE]:
            outcome = sample(game.chance_outcomes(world), rng)
            child = node.children.get("~" + outcome)
            if child is None:
                child = node.children["~" + outcome] = _Node(None)
            game.apply_in_place(world, CHANCE, outcome)
            node = child
            path.append(node)
            continue
        who = mover(acting, seat)
        legal = useful(game, world, who, game.legal_actions(world, who))
        if node is root and at_root is not None:  # the root's moves, as `among` narrowed them
            legal = [a for a in legal if a in at_root] or legal
        untried = [a for a in legal if a not in node.children]
        if untried:
            action = untried[int(rng.random() * len(untried))]
            child = node.children[action] = _Node(who)
            for a in legal:
                if a in node.children:
                    node.children[a].avail += 1
            game.apply_in_place(world, who, action)
            path.append(child)
            expanded = True
            break
        log_avail = {a: math.log(node.children[a].avail + 1) for a in legal}
        action = max(
            legal,
            key=lambda a: (
                node.children[a].total / node.children[a].visits
                + lv.explore * math.sqrt(log_avail[a] / node.children[a].visits)
            ),
        )
        for a in legal:
            node.children[a].avail += 1
        game.apply_in_place(world, who, action)
        node = node.children[action]
        path.append(node)
    if expanded:
        _rollout(game, world, seat, lv, rng, policy, useful)
    if game.to_act(world):
        # a judged position never counts as much as a real end: a seen win is taken
        values = [0.05 + 0.9 * v for v in evaluate(game, world)] if evaluate else [0.5] * n
    else:
        values = rewards(game, world, n)
    for visited in path:
        visited.visits += 1
        if visited.seat is not None and 0 <= visited.seat < len(values):
            visited.total += values[visited.seat]


def _rollout(game, world, seat, lv, rng, policy, useful=_all) -> None:
    moves = 0
    for _ in range(lv.depth * 8):
        acting = game.to_act(world)
        if not acting or moves >= lv.depth:
            return
        if acting == [CHANCE]:
            game.apply_in_place(world, CHANCE, sample(game.chance_outcomes(world), rng))
            continue
        who = mover(acting, seat)
        legal = useful(game, world, who, game.legal_actions(world, who))
        action = policy(game, world, who, legal, rng) if len(legal) > 1 else legal[0]
        game.apply_in_place(world, who, action)
        moves += 1
