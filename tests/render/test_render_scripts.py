"""Every name drawn right (issue 34, item 1): the longest and the most mixed names a player
may have, in every renderer, the replay and the leaderboard, draw no missing-glyph box and
fit their space; a right-to-left name reads right to left without turning its line round.

"No box" is checked against the fonts themselves, not by eye: every drawn string is cut
into the runs it is drawn in (`render.runs.pieces`), and each character of a run must be
in the cmap of the font that run is drawn with. The boxes are measured as the drawing
measures them (`lettering.bbox`), with the recorder of test_render_fit.py.
"""

from __future__ import annotations

import unicodedata

import pytest

import render
from bot.service.base.platform_input import MAX_NAME
from engines import REGISTRY
from engines.playout import play
from languages import isolate, say
from render import animation, fonts, lettering, runs
from render.bidi import FSI, PDI, visual_runs
from tests.render.test_render_fit import _clear_caches, _inside, _origin, _overlap, drawn  # noqa: F401

LONG = ("Zoë Ünterweger 山田太郎 محمد Иван 🎲👑 " * 3)[:MAX_NAME]
NAMES = ["🎲 Dice Queen 👑", "山田太郎", "محمد", "Иван Петров", "Zoë Ünterweger", LONG]


def _invisible(ch: str) -> bool:
    """Characters the shaper never draws: joiners, variation selectors, isolate marks."""
    return unicodedata.category(ch) == "Cf" or 0xFE00 <= ord(ch) <= 0xFE0F


def boxes_in(content: str) -> list[str]:
    """The characters of a drawn string that its font has no glyph for."""
    missing = []
    for text, face, _ in runs.pieces(content):
        for ch in text:
            if not _invisible(ch) and not fonts.covers(face, ch):
                missing.append(f"U+{ord(ch):04X} {ch!r} in {fonts.faces()[face].name}")
    return missing


def _named(content: str) -> bool:
    return any(name[:4] in content for name in NAMES)


def problems(record) -> list[str]:
    """A box for a missing glyph anywhere; a string off the picture; a string with a name
    out of the smallest shape it starts in, or over another string."""
    found = []
    for space, width, height, box, anchor, content in record.texts:
        space = record.space_of(space)
        short = content[:40]
        for missing in boxes_in(content):
            found.append(f"no glyph: {missing} in {short!r}")
        if not _inside(box, (0, 0, width, height)):
            found.append(f"off the picture ({width}x{height}): {short!r} at {box}")
            continue
        if not _named(content):
            continue
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
        for where, _, _, other, _, text in record.texts:
            if record.space_of(where) == space and other is not box and _overlap(box, other):
                found.append(f"{short!r} at {box} covers {text[:30]!r} at {other}")
    return found


def _views(game_id: str) -> list[tuple[str, dict]]:
    """Seeded games at the fewest and most players, every seat one of the names: the start,
    the middle, the end and a player's own view."""
    game = REGISTRY[game_id]
    out = []
    for players in sorted({game.min_players, game.max_players}):
        for shift in range(0, len(NAMES), players):  # every name gets a seat
            names = [NAMES[(shift + i) % len(NAMES)] for i in range(players)]
            run = play(game, players, {}, seed=players + 5, max_steps=2000)
            state = game.setup(names, {})
            states = [state]
            for seat, action in run.log:
                state, _ = game.apply(state, seat, action)
                states.append(state)
            for i in sorted({1, len(states) // 2, len(states) - 1}):
                out.append((f"{players}p {shift} state {i}", game.view(states[i], None)))
            out.append((f"{players}p {shift} seat 0", game.view(states[len(states) // 2], 0)))
    return out


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_every_name_in_every_script_is_drawn_whole_and_in_its_space(game_id, drawn):  # noqa: F811
    found, seen = [], set()
    for label, view in _views(game_id):
        _clear_caches()
        drawn.clear()
        render.board_png(game_id, view)
        assert drawn.texts, label
        seen |= {name for name in NAMES for t in drawn.texts if name[:4] in t[5]}
        found += [f"{label}: {p}" for p in problems(drawn)]
    assert not found, "\n".join(dict.fromkeys(found[:30]))
    assert seen >= set(NAMES[:5]), f"names never drawn: {set(NAMES) - seen}"


def test_replay_frames_and_the_leaderboard_draw_every_name(drawn):  # noqa: F811
    game = REGISTRY["ghosts18"]
    found = []
    for pair in (NAMES[:2], NAMES[2:4], NAMES[4:6]):
        run = play(game, 2, {}, seed=5, max_steps=400)
        state = game.setup(list(pair), {})
        frames = [(game.view(state, None), f"18 Ghosts: {', '.join(pair)}", "")]
        for k, (seat, action) in enumerate(run.log[:2]):
            state, events = game.apply(state, seat, action)
            said = " ".join(say(e.text) for e in events if e.to is None)
            frames.append((game.view(state, None), f"Move {k + 1}: {pair[seat]}", said))
        for frame in frames:
            _clear_caches()
            drawn.clear()
            animation.frame_images("ghosts18", [frame], animation.GIF_WIDTH)
            assert any(_named(t[5]) for t in drawn.texts)
            found += problems(drawn)
    drawn.clear()
    rows = [[name, "1234.5", "120", "99"] for name in NAMES]
    animation.leaderboard_png("18 Ghosts: the best", ["Player", "Rating", "Games", "Won"], rows)
    assert sum(_named(t[5]) for t in drawn.texts) == len(NAMES)
    found += problems(drawn)
    assert not found, "\n".join(found[:20])


def test_the_fonts_have_every_letter_of_the_names_and_the_scripts_we_promise():
    samples = [
        *NAMES,
        "李小龙",
        "🦄",
        "שלום",
        "नमस्ते",
        "สวัสดี",
        "김민준",
        "Ελένη",
        "こんにちは",
        "👨‍👩‍👧",
    ]
    for sample in samples:
        assert not boxes_in(sample), sample
        assert not boxes_in(isolate(sample)), sample
    assert boxes_in("\U0010fffd")  # a character no font has is found out, not passed


def test_an_arabic_name_reads_right_to_left_and_its_line_keeps_its_order():
    line = f"1 {isolate('محمد')}: starts here"
    assert isolate("محمد") == f"{FSI}محمد{PDI}" and isolate("Ann") == "Ann"
    assert [(text, rtl) for text, _, rtl in runs.pieces(line)] == [
        ("1 ", False),
        ("محمد", True),
        (": starts here", False),
    ]
    # not isolated, the line still keeps its own (left-to-right) order: never turned round
    bare = "محمد (bottom edge) < turn"
    assert [rtl for _, _, rtl in runs.pieces(bare)] == [True, False]
    assert runs.pieces(bare)[0][0] == "محمد"
    # a number after a right-to-left name stays outside it when the name is isolated
    line = f"{isolate('محمد')} 12 points"
    assert [(t, rtl) for t, _, rtl in runs.pieces(line)] == [("محمد", True), (" 12 points", False)]
    bare = line.replace(FSI, "").replace(PDI, "")  # without: "12" jumps left of the name
    assert [(start, level) for start, _, level in visual_runs(bare)] == [(5, 2), (0, 1), (7, 0)]
    # a name mixing directions: inside its isolate the right-to-left words come right first
    mixed = [t for t, _, _ in runs.pieces(isolate("علي Ali محمد"))]
    assert mixed[0] == "محمد" and mixed[-1] == "علي"


def test_alt_text_isolates_a_right_to_left_name():
    game = REGISTRY["castle_doors"]
    view = game.view(game.setup(["محمد", "Ann"], {}), None)
    told = render.describe("castle_doors", view)
    assert f"{FSI}محمد{PDI}" in told and f"{FSI}Ann" not in told


def test_a_cut_name_keeps_its_emoji_and_marks_whole():
    family = "👨‍👩‍👧"
    name = "Ann " + family * 10
    for width in range(40, 200, 7):
        cut = lettering.fit(name, 22, width)
        assert lettering.text_width(cut, 22) <= width
        body = cut.removesuffix(lettering.ELLIPSIS)
        assert not body.endswith("\u200d"), cut
    marked = "e\u0301" * 30  # é as a letter and its mark
    for width in range(20, 120, 9):
        body = lettering.fit(marked, 22, width).removesuffix(lettering.ELLIPSIS)
        assert not body or body.endswith("\u0301"), body


def test_the_sectioned_leaderboards_draw_every_name(drawn):  # noqa: F811
    """`/escape top` (a season above all time), a season's final standings and the daily
    castle's boards (render/leaderboards.py)."""
    from render.leaderboards import Section, leaderboards_png  # (drawn: its text recorded)

    half = len(NAMES) // 2
    sections = [
        Section(
            "Season 2 (until 2027-03-01 00:00 UTC)",
            ["Player", "Rating", "Games", "Won"],
            [[name, "1234.5", "120", "99"] for name in NAMES[:half]],
        ),
        Section(
            "All time",
            ["Party", "Escaped", "Chapters", "Steps"],
            [[name, "✓", "16", "240"] for name in NAMES[half:]],
        ),
    ]
    leaderboards_png("18 Ghosts: the best", sections)
    assert sum(_named(t[5]) for t in drawn.texts) == len(NAMES)
    found = problems(drawn)
    assert not found, "\n".join(found[:20])


def test_each_face_draws_the_characters_its_cmap_maps_to_a_glyph():
    """`fonts.coverage` reads a face's cmap with its glyphs numbered: the same characters as
    fontTools' own reading with the glyphs named, for every face of the chain (a
    collection's font by its index)."""
    from fontTools.ttLib import TTFont

    for n, face in enumerate(fonts.faces()):
        with TTFont(str(face.path), fontNumber=face.index, lazy=True) as font:
            best = font.getBestCmap() or {}
            drawn = {c for c, glyph in best.items() if font.getGlyphID(glyph) != 0}
        assert fonts.coverage(n) == drawn, face.name
