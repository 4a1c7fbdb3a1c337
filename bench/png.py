"""`python -m bench.png`: how a move's board is best deflated, measured on boards of seeded
random games (each game's public boards one after another, as a table's kept canvas sees
them: render/canvas.py).

For each game: the whole picture in one stream, and band by band at several band heights,
by zlib-ng (the project's) and, where installed, by ISA-L (`isal`) and libdeflate
(`deflate`), which are not the project's dependencies: their time for a fresh board and its
size, and the time for only the bands whose rows changed since the board before, with the
share of rows not deflated again (the least a kept canvas can deflate: render/png_bands.py).
Medians; on a shared machine run it a few times.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from engines import CHANCE, REGISTRY
from engines.playout import pick_chance
from render import board_image
from render.png import LEVEL, rows_of

BOARDS = 120
GAMES = ("castle_doors", "dark_castle", "ghosts18", "haunted_house", "hidden_castle")


def boards(game_id: str, count: int = BOARDS) -> list[tuple[tuple[int, int], bytes]]:
    """(size, rows in PNG's layout) of `count` public boards of seeded random games."""
    game = REGISTRY[game_id]
    players = max(2, game.min_players) if game.max_players > 1 else 1
    out: list[tuple[tuple[int, int], bytes]] = []
    seed = 100
    while len(out) < count:
        rng = random.Random(seed)
        seed += 1
        state = game.setup(["Ann", "Bob", "Cat", "Dan"][:players], {})
        for _ in range(300):
            acting = game.to_act(state)
            if not acting or len(out) >= count:
                break
            if acting == [CHANCE]:
                outcome = pick_chance(game.chance_outcomes(state), rng.random())
                state, _ = game.apply(state, CHANCE, outcome)
                continue
            state, _ = game.apply(
                state, acting[0], rng.choice(game.legal_actions(state, acting[0]))
            )
            img = board_image(game_id, game.view(state, None))
            out.append((img.size, rows_of(img)))
    return out


def _deflaters() -> dict[str, tuple]:
    """name: (whole(rows), band(rows)) for each library at hand."""
    from zlib_ng import zlib_ng

    def zng_band(rows: bytes) -> bytes:
        packer = zlib_ng.compressobj(LEVEL, zlib_ng.DEFLATED, -15)
        return packer.compress(rows) + packer.flush(zlib_ng.Z_SYNC_FLUSH)

    found = {f"zlib-ng {LEVEL}": (lambda rows: zlib_ng.compress(rows, LEVEL), zng_band)}
    try:
        from isal import isal_zlib

        def isal_band(rows: bytes) -> bytes:
            packer = isal_zlib.compressobj(1, isal_zlib.DEFLATED, -15)
            return packer.compress(rows) + packer.flush(isal_zlib.Z_SYNC_FLUSH)

        found["isal 1"] = (lambda rows: isal_zlib.compress(rows, 1), isal_band)
    except ImportError:
        pass
    try:
        import deflate  # libdeflate: whole streams only (no flush to join bands)

        found["libdeflate 2"] = (lambda rows: deflate.zlib_compress(rows, 2), None)
    except ImportError:
        pass
    return found


def _median_ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:.2f}"


def report(games=GAMES, heights=(16, 32, 64)) -> str:
    lines = ["game | library | way | fresh ms | KiB | changed bands only ms | rows kept"]
    for game_id in games:
        captured = boards(game_id)
        for name, (whole, band) in _deflaters().items():
            times, sizes = [], []
            for _, rows in captured:
                started = time.perf_counter()
                sizes.append(len(whole(rows)))
                times.append(time.perf_counter() - started)
            lines.append(
                f"{game_id} | {name} | whole | {_median_ms(times)} | "
                f"{statistics.median(sizes) / 1024:.1f} | - | -"
            )
            for height in heights if band is not None else ():
                lines.append(
                    f"{game_id} | {name} | bands of {height} | " + _banded(captured, band, height)
                )
    return "\n".join(lines)


def _banded(captured, band, height: int) -> str:
    fresh, sizes, changed, kept = [], [], [], []
    before: list[bytes] | None = None
    for (width, _), rows in captured:
        step = (width + 1) * height
        bands = [rows[i : i + step] for i in range(0, len(rows), step)]
        started = time.perf_counter()
        sizes.append(sum(len(band(b)) for b in bands))
        fresh.append(time.perf_counter() - started)
        if before is not None:
            new = [i for i, b in enumerate(bands) if i >= len(before) or b != before[i]]
            started = time.perf_counter()
            for i in new:
                band(bands[i])
            changed.append(time.perf_counter() - started)
            kept.append(1 - sum(len(bands[i]) for i in new) / len(rows))
        before = bands
    return (
        f"{_median_ms(fresh)} | {statistics.median(sizes) / 1024:.1f} | "
        f"{_median_ms(changed)} | {statistics.mean(kept):.0%}"
    )


if __name__ == "__main__":
    print(report(sys.argv[1].split(",") if len(sys.argv) > 1 else GAMES))
