"""The replay GIF stores each frame after the first as what changed (render/gif_frames.py):
decoded, every frame has the pixels of the board it was given, in a file at most a third
of the frames saved whole (render/animation.py; `python -m bench.replay` measures every
game)."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engines import CHANCE, REGISTRY
from engines.playout import pick_chance
from render import animation


def seeded_frames(game_id: str, count: int, seed: int = 7) -> list[animation.Frame]:
    """The public boards of a seeded random game, as a replay's frames."""
    game = REGISTRY[game_id]
    rng = random.Random(seed)
    state = game.setup(["Ann", "Bob"], {})
    frames: list[animation.Frame] = []
    while len(frames) < count and (acting := game.to_act(state)):
        if acting == [CHANCE]:
            state, _ = game.apply(
                state, CHANCE, pick_chance(game.chance_outcomes(state), rng.random())
            )
            continue
        frames.append((game.view(state, None), f"Move {len(frames)} of {count}", "Ann moves."))
        state, _ = game.apply(state, acting[0], rng.choice(game.legal_actions(state, acting[0])))
    return frames


def whole(images: list[Image.Image], optimize: bool = False) -> bytes:
    """The same frames, each saved whole (as replays were before); `optimize`: as Pillow's
    `optimize` saves them (the bot's replay before issue 61, for bench/replay.py)."""
    palette = animation.palette_image()
    frames = [i.quantize(palette=palette, dither=Image.Dither.NONE) for i in images]
    buf = io.BytesIO()
    frames[0].save(
        buf,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=1000,
        loop=0,
        optimize=optimize,
        disposal=1,
    )
    return buf.getvalue()


def decoded(data: bytes) -> list[bytes]:
    img = Image.open(io.BytesIO(data))
    frames = []
    for n in range(img.n_frames):
        img.seek(n)
        frames.append(img.convert("RGB").tobytes())
    return frames


def on_the_palette(images: list[Image.Image]) -> list[bytes]:
    """The boards as the GIF must show them: each drawn frame on the fixed palette."""
    palette = animation.palette_image()
    return [
        i.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB").tobytes()
        for i in images
    ]


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_replay_of_40_boards_decodes_to_its_boards_in_a_third_of_the_bytes(game_id):
    frames = seeded_frames(game_id, 40)
    images = animation.frame_images(game_id, frames, animation.GIF_WIDTH)
    data, shown = animation.replay_gif(game_id, frames)
    assert shown == 40
    assert decoded(data) == on_the_palette(images)
    size, saved_whole = len(data), len(whole(images))
    assert size * 3 <= saved_whole
