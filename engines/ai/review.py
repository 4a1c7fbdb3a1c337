"""A finished game reviewed: each player's chance to win (a co-operative party's chance to
escape) after every move, and the moves that changed it most, with the move the AI would
have preferred there.

The game is played again from its log. After each move (with the dice and cards it drew)
the position is judged as the search AI judges one: short rollouts with the game's own
rollout policy from positions the viewer cannot tell apart from it (`Game.redraw` for the
viewer's seat: what their view hides is dealt again), then the game's evaluation. So a
review is a function of what the viewer's seat saw, the public log and the seed: nothing
of another player's hand. For the same reason the AI's preferred move is given only for
the viewer's own moves, or in a game with no secrets, and another player's move in a game
with secrets is named by its number, never by its words (which could name a card).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engines.ai.search import LEVELS, choose, heuristics, own_copy, random_rollout, rewards, sample
from engines.contract import CHANCE, Game, Seat, State
from engines.text import Text

SAMPLES = 24  # redrawn positions judged after each move
DEPTH = 10  # player moves rolled out from each before the evaluation
TURNING = 3  # the moves shown as the ones that changed the chances most
LEVEL = "normal"  # the AI that names a preferred move


@dataclass(frozen=True)
class Point:
    """The chances after move `n` (0: the opening), one a seat."""

    n: int
    seat: Seat | None  # who moved (None: the opening)
    chances: tuple[float, ...]


@dataclass(frozen=True)
class Turning:
    n: int
    seat: Seat
    swing: float  # the mover's chance after the move, less before it
    move: Text | None  # the move as its button named it (None: not the viewer's to read)
    preferred: Text | None = None  # the AI's choice there, where the viewer may read it
    agreed: bool = False  # the AI would have made the same move


@dataclass(frozen=True)
class Review:
    points: tuple[Point, ...]
    turning: tuple[Turning, ...]
    cooperative: bool
    players: int


class Judge:
    """The chances of a position, as the viewer's seat can know them."""

    def __init__(
        self, game: Game, viewer: Seat | None, seed: int, samples: int = SAMPLES, depth: int = DEPTH
    ) -> None:
        self.game, self.viewer = game, viewer
        self.rng = random.Random(seed)
        self.samples, self.depth = samples, depth
        module = heuristics(game)
        self.evaluate = getattr(module, "evaluate", None)
        self.policy = getattr(module, "rollout", random_rollout)
        self.useful = getattr(module, "useful", None)

    def world(self, state: State) -> State:
        if self.game.hidden_information:
            if self.viewer is None:
                raise ValueError("a game with secrets is reviewed for one of its seats")
            return own_copy(self.game.redraw(state, self.viewer, self.rng))
        return own_copy(state)

    def chances(self, state: State, players: int) -> tuple[float, ...]:
        game = self.game
        if not game.to_act(state):
            return tuple(rewards(game, state, players))
        total = [0.0] * players
        for _ in range(self.samples):
            world = self.world(state)
            moves = 0
            for _ in range(self.depth * 8):
                acting = game.to_act(world)
                if not acting or moves >= self.depth:
                    break
                if acting == [CHANCE]:
                    game.apply_in_place(
                        world, CHANCE, sample(game.chance_outcomes(world), self.rng)
                    )
                    continue
                who = acting[0]
                legal = game.legal_actions(world, who)
                if self.useful is not None:
                    legal = self.useful(game, world, who, legal)
                action = (
                    legal[0] if len(legal) == 1 else self.policy(game, world, who, legal, self.rng)
                )
                game.apply_in_place(world, who, action)
                moves += 1
            if not game.to_act(world) or self.evaluate is None:
                values = rewards(game, world, players)
            else:
                values = self.evaluate(game, world)
            for s in range(players):
                total[s] += values[s]
        return tuple(round(t / self.samples, 4) for t in total)


def review(
    game: Game,
    names: Sequence[str],
    options: dict,
    entries: Sequence[tuple[Seat, str]],
    viewer: Seat | None,
    seed: int,
    samples: int = SAMPLES,
    depth: int = DEPTH,
) -> Review:
    """The review of a game played from `entries` (each stored move and chance outcome, in
    order, as (seat, action)), for `viewer` (a seat, or None in a game with no secrets)."""
    players = len(names)
    judge = Judge(game, viewer, seed, samples, depth)
    state = game.setup(list(names), options)
    points = [Point(0, None, judge.chances(state, players))]
    befores: list[tuple[Seat, str, State]] = []
    for seat, action in entries:
        if seat >= 0:
            if befores:
                points.append(Point(len(befores), befores[-1][0], judge.chances(state, players)))
            befores.append((seat, action, own_copy(state)))
        state, _ = game.apply(state, seat, action)
    if befores:
        points.append(Point(len(befores), befores[-1][0], judge.chances(state, players)))
    return Review(
        tuple(points), turning(game, points, befores, viewer, seed), game.cooperative, players
    )


def turning(game: Game, points, befores, viewer: Seat | None, seed: int) -> tuple[Turning, ...]:
    """The moves after which the mover's chance (the party's, co-operatively) moved most."""
    swings = []
    for i in range(1, len(points)):
        seat = points[i].seat
        whose = 0 if game.cooperative else seat
        swings.append(
            (
                abs(points[i].chances[whose] - points[i - 1].chances[whose]),
                i,
                points[i].chances[whose] - points[i - 1].chances[whose],
            )
        )
    out = []
    for _, i, swing in sorted(swings, reverse=True)[:TURNING]:
        seat, action, before = befores[i - 1]
        readable = not game.hidden_information or seat == viewer
        move = game.label(before, action) if readable else None
        preferred, agreed = None, False
        if readable and len(game.legal_actions(before, seat)) > 1:
            decision = choose(game, before, seat, LEVELS[LEVEL], random.Random(seed + i))
            agreed = decision.action == action
            preferred = game.label(before, decision.action)
        out.append(Turning(i, seat, round(swing, 4), move, preferred, agreed))
    return tuple(sorted(out, key=lambda t: t.n))
