"""Every picture of Hidden Castle, Haunted House, Castle Doors and 18 Ghosts fits its words in
English, in German, Spanish and Russian and in the pseudo-language (accented and 40% longer),
issues 26 (item 5) and 37.

Each board is drawn with the kit's drawing calls recorded (the recorder of
test_render_fit.py): every string's box as the font measures it, and every shape's. A
string may not run off the picture, may not leave the smallest shape it starts in (its
panel, band, card, tile), and may not cover another string; and no label or paragraph may
have been cut because even its smallest size did not fit (`lettering.overflows`). The names
are short ones, so whatever would not fit is a word of ours.
"""

from __future__ import annotations

import pytest

import render
import render.rules
from engines import REGISTRY
from engines.playout import play
from render import lettering, palette
from tests.render.test_render_fit import _clear_caches, _inside, _origin, _overlap, drawn  # noqa: F401

GAMES = ("hidden_castle", "haunted_house", "castle_doors", "ghosts18")
LANGUAGES = ("en", "de", "es", "ru", "qps")
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def views(game_id: str) -> list[tuple[str, dict]]:
    """Public and private views of seeded games at the fewest and most players: the start,
    the middle, the end, and states that show more (a ghost in flight, a Midnight Party)."""
    game = REGISTRY[game_id]
    out = []
    for players in sorted({game.min_players, game.max_players}):
        run = play(game, players, {}, seed=players + 11, max_steps=2000)
        state = game.setup(NAMES[:players], {})
        states = [state]
        for seat, action in run.log:
            state, _ = game.apply(state, seat, action)
            states.append(state)
        for i in sorted({1, len(states) // 3, len(states) // 2, len(states) - 1}):
            out.append((f"{players}p state {i}", game.view(states[i], None)))
        out.append((f"{players}p seat 0", game.view(states[len(states) // 2], 0)))
        if game_id == "haunted_house":  # the ghost in flight, and an escape under way
            for kind in ("defend", "escape"):
                for i, s in enumerate(states):
                    view = game.view(s, None)
                    if (view.get("window") or {}).get("kind") == kind:
                        out.append((f"{players}p {kind} {i}", view))
                        break
        if game_id == "castle_doors":  # choosing a target, with the card named in the panel
            for i, s in enumerate(states):
                if s.phase == "target":
                    out.append((f"{players}p target {i}", game.view(s, s.turn)))
                    break
    if game_id == "hidden_castle":
        run = play(game, 3, {"variant": "midnight_party"}, seed=4, max_steps=3000)
        state = game.setup(NAMES[:3], {"variant": "midnight_party"})
        out.append(("midnight set-up", game.view(state, None)))
        for k, (seat, action) in enumerate(run.log):
            state, _ = game.apply(state, seat, action)
            if k == len(run.log) // 2:
                out.append(("midnight middle", game.view(state, None)))
        out.append(("midnight end", game.view(state, None)))
    return out


def problems(record) -> list[str]:
    """Strings off the picture, out of the shape they start in, or over another string (a
    piece's letter, drawn over its token with a halo, only needs to stay on the picture and
    off other strings)."""
    found = []
    texts = [(record.space_of(t[0]), *t[1:]) for t in record.texts]
    for space, width, height, box, anchor, content in texts:
        short = content[:40]
        if not _inside(box, (0, 0, width, height)):
            found.append(f"off the picture ({width}x{height}): {short!r} at {box}")
            continue
        if len(content.strip()) <= 2:
            continue  # a piece's letter or number, drawn over its token with a halo
        ox, oy = _origin(box, anchor)
        around = [
            s
            for where, s in record.shapes
            if record.space_of(where) == space and s[0] <= ox <= s[2] and s[1] <= oy <= s[3]
        ]
        if around:
            room = min(around, key=lambda s: (s[2] - s[0]) * (s[3] - s[1]))
            if not _inside(box, room):
                found.append(f"out of its space {room}: {short!r} at {box}")
        for where, _, _, other, _, text in texts:
            if where == space and other is not box and _overlap(box, other):
                found.append(f"{short!r} at {box} covers {text[:30]!r} at {other}")
    return found


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game_id", GAMES)
def test_every_label_fits_its_space(game_id, language, drawn):  # noqa: F811
    found = []
    for label, view in views(game_id):
        _clear_caches()
        drawn.clear()
        with lettering.overflows() as cut:
            render.board_png(game_id, view, language=language)
        assert drawn.texts, f"{label}: nothing was drawn"
        found += [f"{label}: {p}" for p in problems(drawn)]
        found += [
            f"{label}: cut to fit {room:.0f}px at {size}: {text[:50]!r}"
            for text, size, room, _ in cut
        ]
    assert not found, "\n".join(found[:25])


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game_id", GAMES)
def test_the_rules_picture_fits_its_words(game_id, language, drawn):  # noqa: F811
    _clear_caches()
    render.rules.rules_png.cache_clear()
    drawn.clear()
    with lettering.overflows() as cut:
        render.rules_png(game_id, language)
    found = problems(drawn) + [f"cut: {text[:50]!r}" for text, *_ in cut]
    assert not found, "\n".join(found[:25])


def test_a_label_too_long_for_its_space_is_shrunk_then_recorded():
    _, d = palette.canvas(100, 400)
    with lettering.overflows() as cut:
        size = lettering.label(d, (0, 0), "Schlosstüren", 30, 400)
        assert size == 30 and not cut  # fits as it is
        size = lettering.label(d, (0, 0), "Schlosstüren", 30, 150)
        assert size < 30 and lettering.text_width("Schlosstüren", size) <= 150 and not cut
        lettering.label(d, (0, 0), "Schlosstüren " * 5, 30, 150, smallest=20)
    assert len(cut) == 1 and cut[0][1] == 20
