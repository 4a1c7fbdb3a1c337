"""`python -m bench.canvas`: a board as a CPU worker makes it (render/work.py), on the canvas
it keeps for the table against a fresh one, after the worker's practice (render/practice.py).

For each game, the public boards of seeded random games at one table, one after another:
the median time to paint the board and to write its PNG, on the kept canvas and on a fresh
one, and the share of rows painted and deflated again. Then 24 tables of every game moving
in turn, their boards interleaved as one worker that is handed every table's boards sees
them (`TABLES`): the share of rows not deflated again. Medians; a shared machine varies.

`python -m bench.canvas parts [games]`: for each game, which parts make a kept canvas
deflate bands again (one table, one board after another, as a kept canvas compares them):
by painter, the share of bands it reaches, and of those it alone reaches, with the rows its
boxes cover. Deterministic (seeded games): what to redesign so fewer rows change a move.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

import render
from engines import CHANCE, REGISTRY
from engines.playout import pick_chance
from engines.text import to_json
from render import png_bands, work
from render.canvas import Canvas
from render.practice import Practice

GAMES = ("castle_doors", "dark_castle", "ghosts18", "haunted_house", "hidden_castle")
BOARDS = 120
TABLES = 24


def views(game_id: str, seed: int):
    """(public view, the move's public lines) of seeded random games at one table, named as
    `make bench` names its players (P1, P2...), one after another, without end."""
    game = REGISTRY[game_id]
    players = max(2, game.min_players) if game.max_players > 1 else 1
    while True:
        rng = random.Random(seed)
        seed += 1000
        state = game.setup([f"P{i + 1}" for i in range(players)], {})
        for _ in range(300):
            acting = game.to_act(state)
            if not acting:
                break
            if acting == [CHANCE]:
                outcome = pick_chance(game.chance_outcomes(state), rng.random())
                state, _ = game.apply(state, CHANCE, outcome)
                continue
            legal = game.legal_actions(state, acting[0])
            state, events = game.apply(state, acting[0], rng.choice(legal))
            yield game.view(state, None), [to_json(e.text) for e in events if e.to is None]


def _ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:.2f}"


def one_table(game_id: str, boards: int = BOARDS) -> str:
    kept_draw, kept_encode, fresh_draw, fresh_encode = [], [], [], []
    work.CANVASES = work.Canvases()
    stream = views(game_id, 1)
    for _ in range(boards):
        view, recent = next(stream)
        _, _, drawn, encoded = work.board(game_id, view, recent, "en", "", ("t", None))
        kept_draw.append(drawn)
        kept_encode.append(encoded)
        fresh = Canvas()
        started = time.perf_counter()
        render.paint_board(fresh, game_id, view, recent, "en")
        painted = time.perf_counter()
        fresh.png()
        fresh_draw.append(painted - started)
        fresh_encode.append(time.perf_counter() - painted)
    kept = work.CANVASES
    return (
        f"{game_id} | {_ms(kept_draw)} + {_ms(kept_encode)} | {_ms(fresh_draw)} + "
        f"{_ms(fresh_encode)} | {kept.painted_rows / kept.rows:.0%} | "
        f"{kept.deflated_rows / kept.rows:.0%}"
    )


def interleaved(tables: int = TABLES, rounds: int = 40) -> str:
    """Rows not deflated again with `tables` tables' boards interleaved on one worker."""
    work.CANVASES = work.Canvases()
    streams = [
        (GAMES[i % len(GAMES)], views(GAMES[i % len(GAMES)], 100 + i)) for i in range(tables)
    ]
    by_game: dict[str, list[int]] = {}
    for _ in range(rounds):
        for i, (game_id, stream) in enumerate(streams):
            view, recent = next(stream)
            before = (work.CANVASES.rows, work.CANVASES.deflated_rows)
            work.board(game_id, view, recent, "en", "", (i, None))
            rows = by_game.setdefault(game_id, [0, 0])
            rows[0] += work.CANVASES.rows - before[0]
            rows[1] += work.CANVASES.deflated_rows - before[1]
    kept = work.CANVASES
    each = ", ".join(f"{g} {1 - d / r:.0%}" for g, (r, d) in sorted(by_game.items()))
    return (
        f"{tables} tables interleaved, {rounds} boards each: {1 - kept.deflated_rows / kept.rows:.0%} "
        f"of rows not deflated again ({each}); {kept.painted_rows / kept.rows:.0%} painted again"
    )


def parts(game_id: str, boards: int = BOARDS) -> str:
    """The painters whose changed parts reach the bands a kept canvas deflates again."""
    rows = png_bands.BAND_ROWS
    stream = views(game_id, 1)
    old = None
    reached: dict[str, int] = {}
    alone: dict[str, int] = {}
    spans: dict[str, set] = {}
    bands = again = 0
    for _ in range(boards):
        view, recent = next(stream)
        scene = render.board_scene(game_id, view, recent, "en")
        height = scene.size[1]
        count = (height + rows - 1) // rows
        if old is not None:
            by_band: dict[int, set[str]] = {}
            changed = Canvas._changes(old.parts, scene.parts)
            if changed is None:
                changed = [((0, 0, *scene.size), None)]
            if height > old.size[1]:
                changed.append(((0, old.size[1], scene.size[0], height), None))
            for box, part in changed:
                name = "(all)" if part is None else part.paint.__qualname__
                top, bottom = max(0, box[1]), min(height, box[3])
                if top >= bottom:
                    continue
                spans.setdefault(name, set()).add((top, bottom))
                for band in range(top // rows, (bottom - 1) // rows + 1):
                    by_band.setdefault(band, set()).add(name)
            bands += count
            again += len(by_band)
            for names in by_band.values():
                for name in names:
                    reached[name] = reached.get(name, 0) + 1
                if len(names) == 1:
                    alone[next(iter(names))] = alone.get(next(iter(names)), 0) + 1
        old = scene
    lines = [f"{game_id}: {again / bands:.0%} of bands deflated again (one table)"]
    for name, n in sorted(reached.items(), key=lambda item: -item[1]):
        seen = sorted(spans[name])
        shown = ", ".join(f"{a}-{b}" for a, b in seen[:4]) + (", ..." if len(seen) > 4 else "")
        lines.append(
            f"  {name}: reaches {n / bands:.1%}, alone {alone.get(name, 0) / bands:.1%} "
            f"(rows {shown})"
        )
    return "\n".join(lines)


def report(games=GAMES) -> str:
    practice = Practice(200)
    while practice.step():
        pass
    lines = [
        "game | kept canvas: paint + PNG ms | fresh canvas: paint + PNG ms | rows painted | rows deflated"
    ]
    lines += [one_table(game_id) for game_id in games]
    lines.append(interleaved())
    return "\n".join(lines)


if __name__ == "__main__":
    if sys.argv[1:2] == ["parts"]:
        chosen = sys.argv[2].split(",") if len(sys.argv) > 2 else GAMES
        print("\n".join(parts(game_id) for game_id in chosen))
    else:
        print(report(sys.argv[1].split(",") if len(sys.argv) > 1 else GAMES))
