"""`python -m bench.replay [--boards N] [--runs R]`: a replay GIF of N boards (default 40)
for each game: its bytes as the bot writes it (render/gif_frames.py: each frame after the
first as what changed, on one colour table), against the same frames saved whole and saved
with Pillow's `optimize` (how the bot wrote them before issue 61), and the median time each
took to save over R alternated runs. Every frame of the bot's file is decoded and compared
with the boards. Measurements on whatever machine runs it, not test assertions."""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from engines import REGISTRY
from render import animation
from tests.render.test_replay_gif import decoded, on_the_palette, seeded_frames, whole


def _timed(save: Callable[[], bytes]) -> tuple[bytes, float]:
    started = time.perf_counter()
    data = save()
    return data, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(
        f"replay GIF of {args.boards} boards: saved whole, with Pillow's optimize, as the bot"
        f" writes it (median ms of {args.runs} runs)"
    )
    for game_id in sorted(REGISTRY):
        frames = seeded_frames(game_id, args.boards)
        images = animation.frame_images(game_id, frames, animation.GIF_WIDTH)
        seconds = animation.frame_seconds(len(images))
        ways = {
            "whole": lambda images=images: whole(images),
            "pillow": lambda images=images: whole(images, optimize=True),
            "bot": lambda images=images, seconds=seconds: animation._gif(images, seconds),
        }
        sizes: dict[str, int] = {}
        times: dict[str, list[float]] = {way: [] for way in ways}
        for _ in range(args.runs):
            for way, save in ways.items():
                data, took = _timed(save)
                sizes[way] = len(data)
                times[way].append(took)
        same = decoded(ways["bot"]()) == on_the_palette(images)
        ms = {way: statistics.median(t) * 1000 for way, t in times.items()}
        print(
            f"  {game_id:14s} {sizes['whole'] / 1024:5.0f} KiB ({ms['whole']:4.0f} ms)"
            f" | {sizes['pillow'] / 1024:4.0f} KiB ({ms['pillow']:4.0f} ms)"
            f" | {sizes['bot'] / 1024:4.0f} KiB ({ms['bot']:4.0f} ms),"
            f" {sizes['whole'] / sizes['bot']:.1f} times smaller than whole,"
            f" {'same frames' if same else 'FRAMES DIFFER'}"
        )


if __name__ == "__main__":
    main()
