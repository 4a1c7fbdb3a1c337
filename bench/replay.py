"""`python -m bench.replay [--boards N]`: a replay GIF of N boards (default 40) for each
game, its bytes as the bot writes it (Pillow's `optimize`: each frame after the first as
what changed) against the same frames saved whole, and the time each took to save.
Measurements on whatever machine runs it, not test assertions."""

from __future__ import annotations

import argparse
import time

from engines import REGISTRY
from render import animation
from tests.render.test_replay_gif import decoded, seeded_frames, whole


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=40)
    boards = parser.parse_args().boards
    print(f"replay GIF of {boards} boards: saved whole -> as the bot writes it")
    for game_id in sorted(REGISTRY):
        frames = seeded_frames(game_id, boards)
        images = animation.frame_images(game_id, frames, animation.GIF_WIDTH)
        started = time.perf_counter()
        before = whole(images)
        middle = time.perf_counter()
        now = animation._gif(images, animation.frame_seconds(len(images)))
        done = time.perf_counter()
        same = "same frames" if decoded(now) == decoded(before) else "FRAMES DIFFER"
        print(
            f"  {game_id:14s} {len(before) / 1024:7.0f} KiB ({(middle - started) * 1000:4.0f} ms)"
            f" -> {len(now) / 1024:5.0f} KiB ({(done - middle) * 1000:4.0f} ms),"
            f" {len(before) / len(now):.1f} times smaller, {same}"
        )


if __name__ == "__main__":
    main()
