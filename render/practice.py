"""A drawing process's practice: boards of seeded random games of every game, drawn while
it has nothing else to do, so that the first real games after a start find what does not
change between games already drawn (fonts at their sizes, frames, legends, cards, pieces).

Everything a board draws is cached by what it shows, and most of it recurs across games:
after ten other seeded Dark Castle games, the boards of an eleventh were drawn in 2.2 ms
(median, worst 4.9) against 5.0 ms (worst 42) in a fresh process; the first board of a
game took 25-55 ms fresh. A picture is a pure function of its arguments, so practice
changes when a board is ready, never its pixels.

Practice is a fixed list of boards (so many a game, ESCAPE_PRACTICE; the games taken in
turn), the same in every process: a step draws one and throws it away. The caller decides
when to step (bot/worker_process.py: only when no job has come for a while).
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator

from engines import CHANCE, REGISTRY, Game
from engines.playout import pick_chance
from languages import DEFAULT
from render import board_image
from render.renderers import renderer

TURNS = 300  # a practice game's most moves (a random player may never finish)
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")


def _players(game: Game) -> int:
    return min(game.max_players, max(2, game.min_players))


def _views(game: Game) -> Iterator[dict]:
    """Views of seeded random games, one after the other: each position's public view, and
    the view of whoever acts next where it shows more (a hand). Not `engines.playout.play`:
    it plays a whole game at once, where practice takes one position a step (a job waits
    at most for one board), and its players are P1, P2..., the names `make bench` seats,
    whose name tags practice must not draw ahead of it (no real table has them)."""
    seed = 0
    while True:
        rng = random.Random(seed)
        state = game.setup(NAMES[: _players(game)], {})
        for _ in range(TURNS):
            acting = game.to_act(state)
            if not acting:
                break
            if acting == [CHANCE]:
                drawn = pick_chance(game.chance_outcomes(state), rng.random())
                state, _ = game.apply(state, CHANCE, drawn)
                continue
            legal = game.legal_actions(state, acting[0])
            if not legal:
                break
            public = game.view(state, None)
            yield public
            own = game.view(state, acting[0])
            if own != public:
                yield own
            state, _ = game.apply(state, acting[0], rng.choice(legal))
        seed += 1


def _drawn() -> dict[str, Game]:
    """The games that have a renderer."""
    found = {}
    for game_id, game in sorted(REGISTRY.items()):
        with contextlib.suppress(KeyError):
            renderer(game_id)
            found[game_id] = game
    return found


def _plan(games: dict[str, Game], boards: int) -> Iterator[tuple[str, dict]]:
    """`boards` views of each game, the games in turn."""
    streams = {game_id: _views(game) for game_id, game in games.items()}
    for _ in range(boards):
        for game_id, views in streams.items():
            yield game_id, next(views)


class Practice:
    """Boards to draw, one a step, in `language`."""

    def __init__(self, boards: int, language: str = DEFAULT) -> None:
        self.language = language
        self.drawn = 0
        self._plan = _plan(_drawn(), boards)

    def step(self) -> bool:
        """Draw the next board; False, drawing nothing, once every one is drawn."""
        board = next(self._plan, None)
        if board is None:
            return False
        game_id, view = board
        board_image(game_id, view, None, self.language)
        self.drawn += 1
        return True
