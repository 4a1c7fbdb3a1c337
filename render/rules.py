"""Rules pictures: a game's board as a worked example, with numbered marks on it and a key
under it saying what each marked thing is and does.

`/escape rules` used to send a bare starting board, which explains nothing. Each renderer
offers `illustration()`: a sample view from a seeded game (so the example is a position
the rules really reach) and its notes, each a point on the board (or None: a note with no
mark) and a sentence. The picture is deterministic: same code, same bytes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image

from engines.text import Text
from languages import DEFAULT, say
from render import lettering, palette
from render.renderers import in_language, renderer

Note = tuple[tuple[float, float] | None, Text]  # a message, said in the picture's language

MARK_R = 17
KEY_SIZE = 22
KEY_LINE = int(KEY_SIZE * 1.3)
INDENT = 72


def mark(draw, centre: tuple[float, float], number: int) -> None:
    """A numbered mark: a yellow disc with a dark ring, readable over any ground."""
    x, y = centre
    draw.ellipse(
        (x - MARK_R, y - MARK_R, x + MARK_R, y + MARK_R),
        fill=palette.HIGHLIGHT,
        outline=palette.INK,
        width=3,
    )
    lettering.text(draw, (x, y + 1), str(number), 20, palette.INK, "mm")


def annotate(board: Image.Image, notes: Sequence[Note], title: str) -> Image.Image:
    """The board with its marks, and the key under it."""
    width = board.width
    text_width = width - INDENT - 30
    wrapped = [lettering.wrap(text, KEY_SIZE, text_width) for _, text in notes]
    height = 70 + sum(len(lines) * KEY_LINE + 14 for lines in wrapped) + 10
    out = palette.new_image((width, board.height + height), palette.PANEL)
    out.paste(board, (0, 0))
    d = palette.drawer(out)
    for number, (at, _) in enumerate(notes, start=1):
        if at is not None:
            mark(d, at, number)
    y = board.height
    d.line((0, y, width, y), fill=palette.INK, width=3)
    lettering.label(d, (30, y + 20), title, 26, width - 60, palette.INK, smallest=18)
    y += 70
    for number, lines in enumerate(wrapped, start=1):
        mark(d, (30 + MARK_R, y + KEY_LINE / 2), number)
        for line in lines:
            lettering.text(d, (INDENT, y + KEY_LINE / 2), line, KEY_SIZE, palette.INK, "lm")
            y += KEY_LINE
        y += 14
    return out


def sample_states(game_id: str, players: int, seed: int, names: Sequence[str]) -> list:
    """Every state of a seeded random game played with these names (a position the rules
    really reach, the same at every call)."""
    from engines import CHANCE, REGISTRY
    from engines.playout import pick_chance

    game = REGISTRY[game_id]
    rng = random.Random(seed)
    state = game.setup(list(names[:players]), {})
    states = [state]
    for _ in range(3000):
        acting = game.to_act(state)
        if not acting:
            break
        if acting == [CHANCE]:
            seat, action = CHANCE, pick_chance(game.chance_outcomes(state), rng.random())
        else:
            seat = acting[int(rng.random() * len(acting))]
            legal = game.legal_actions(state, seat)
            action = legal[int(rng.random() * len(legal))]
        state, _ = game.apply(state, seat, action)
        states.append(state)
    return states


def best_view(
    game_id: str, players: int, seed: int, names: Sequence[str], score: Callable[[dict], float]
) -> dict:
    """The public view of the seeded game that shows most of what the notes explain (the
    first of the best, so the choice is stable)."""
    from engines import REGISTRY

    game = REGISTRY[game_id]
    views = [game.view(s, None) for s in sample_states(game_id, players, seed, names)]
    return max(views, key=score)


def said_notes(
    notes: Sequence[Note], language: str
) -> list[tuple[tuple[float, float] | None, str]]:
    return [(at, say(text, language)) for at, text in notes]


@lru_cache(maxsize=16)
def rules_png(game_id: str, language: str = DEFAULT) -> bytes:
    module = renderer(game_id)
    view, notes, title = in_language(module.illustration, language=language)  # (laid out for it)
    board = in_language(module.board, view, language=language)
    return palette.to_png(annotate(board, said_notes(notes, language), say(title, language)))


def rules_alt(game_id: str, language: str = DEFAULT) -> str:
    """The rules picture told in words: its title and each numbered note."""
    _view, notes, title = in_language(renderer(game_id).illustration, language=language)
    told = [say(title, language) + "."]
    told += [f"{n}. {say(text, language)}" for n, (_, text) in enumerate(notes, start=1)]
    return " ".join(told)
