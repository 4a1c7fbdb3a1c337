"""Every picture fits any name a player may have (issue 29, item 9): the longest display
name allowed (64 characters, bot/service/base/platform_input.py) in the widest letters and in
scripts the font draws as boxes, in every renderer and in the replay and leaderboard.

The pictures are drawn with `lettering.text` and the drawing calls recorded: each drawn
string's box (as the font measures it) and each shape's. A string carrying a name must lie
inside the smallest shape it starts in (its panel, band, card), or inside the picture, and
must not cover any other string; no string at all may run off the picture.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

import render
from bot.service.base.platform_input import MAX_NAME
from engines import REGISTRY
from engines.playout import play
from render import animation, captions, leaderboards, lettering, palette, tokens

NAMES = ["W" * MAX_NAME, "Ｗ" * MAX_NAME, "漢字" * (MAX_NAME // 2), "M" * MAX_NAME]
SHAPES = ("rectangle", "rounded_rectangle", "ellipse", "polygon")
SLACK = 1  # a pixel of rounding between the font's box and the shape's


class Drawn:
    """What one picture drew: strings with their boxes, and the boxes of shapes, each in the
    coordinates of the image it was drawn on. A board drawn once, then copied (and a board
    pasted at the top of its captioned picture) shares those coordinates with its copy;
    scratch tiles and rotated labels have coordinates of their own."""

    def __init__(self) -> None:
        self.texts: list[tuple[int, int, int, tuple, str, str]] = []  # space, w, h, box, anchor, s
        self.shapes: list[tuple[int, tuple]] = []
        self.images: list[Image.Image] = []  # kept alive: an id is never reused meanwhile
        self.same: dict[int, int] = {}
        self._inside = False

    def clear(self) -> None:
        self.texts.clear()
        self.shapes.clear()
        self.images.clear()
        self.same.clear()

    def space(self, image: Image.Image) -> int:
        return self.space_of(id(image))

    def space_of(self, key: int) -> int:
        """The coordinates a drawing was made in, as known now (a copy may come later)."""
        while key in self.same:
            key = self.same[key]
        return key

    def join(self, copy: Image.Image, original: Image.Image) -> None:
        self.images += [copy, original]
        if self.space(copy) != self.space(original):
            self.same[self.space(copy)] = self.space(original)

    def text(self, draw, xy, content, size=22, fill=palette.INK, anchor="la", stroke_width=0, **kw):
        image = draw._image
        if content:
            self.images.append(image)
            left, top, right, bottom = lettering.bbox(content, size, anchor, stroke_width)
            box = (xy[0] + left, xy[1] + top, xy[0] + right, xy[1] + bottom)
            self.texts.append((self.space(image), *image.size, box, anchor, content))
        return ORIGINAL_TEXT(draw, xy, content, size, fill, anchor, stroke_width, **kw)

    def shape(self, kind, original, draw, xy, *args, **kwargs):
        if not self._inside:
            points = _points(xy)
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            self.images.append(draw._image)
            self.shapes.append((self.space(draw._image), (min(xs), min(ys), max(xs), max(ys))))
        self._inside, was = True, self._inside
        try:
            return original(draw, xy, *args, **kwargs)
        finally:
            self._inside = was


ORIGINAL_TEXT = lettering.text


def _points(xy) -> list[tuple[float, float]]:
    flat = list(xy)
    if flat and isinstance(flat[0], list | tuple):
        return [tuple(p) for p in flat]
    return [(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)]


@pytest.fixture
def drawn(monkeypatch):
    record = Drawn()
    copy, paste = Image.Image.copy, Image.Image.paste

    def copied(image):
        out = copy(image)
        record.join(out, image)
        return out

    def pasted(image, im, box=None, mask=None):
        if isinstance(im, Image.Image) and box in ((0, 0), (0, 0, *im.size)):
            record.join(im, image)  # a board at the top of its captioned picture
        return paste(image, im, box, mask)

    monkeypatch.setattr(Image.Image, "copy", copied)
    monkeypatch.setattr(Image.Image, "paste", pasted)
    monkeypatch.setattr(lettering, "text", record.text)
    monkeypatch.setattr(animation, "text", record.text)
    monkeypatch.setattr(leaderboards, "text", record.text)
    for kind in SHAPES:
        original = getattr(ImageDraw.ImageDraw, kind)

        def wrapper(draw, xy, *args, _kind=kind, _original=original, **kwargs):
            return record.shape(_kind, _original, draw, xy, *args, **kwargs)

        monkeypatch.setattr(ImageDraw.ImageDraw, kind, wrapper)
    return record


def _clear_caches() -> None:
    """Boards drawn once and reused (static parts, tiles, text) are drawn afresh, so that
    every string and shape of the picture is seen."""
    for module in (
        palette,
        lettering,
        tokens,
        captions,
        *(render.renderer(g) for g in REGISTRY),
        animation,
    ):
        for value in vars(module).values():
            if hasattr(value, "cache_clear"):
                value.cache_clear()


def _named(content: str) -> bool:
    return any(name[:4] in content for name in NAMES)


def _inside(box, outer) -> bool:
    return (
        box[0] >= outer[0] - SLACK
        and box[1] >= outer[1] - SLACK
        and box[2] <= outer[2] + SLACK
        and box[3] <= outer[3] + SLACK
    )


def _overlap(a, b) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > SLACK and h > SLACK else 0


def _origin(box, anchor: str) -> tuple[float, float]:
    """Where a string starts: its anchor's side of its box."""
    y = (box[1] + box[3]) / 2
    if anchor[0] == "l":
        return box[0] + 2, y
    if anchor[0] == "r":
        return box[2] - 2, y
    return (box[0] + box[2]) / 2, y


def problems(record: Drawn) -> list[str]:
    found = []
    for space, width, height, box, anchor, content in record.texts:
        space = record.space_of(space)
        short = content[:40]
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
    """Public and private views of seeded games at the fewest and most players, every seat
    with a long name: the start, the middle, the end, and the views that show more."""
    game = REGISTRY[game_id]
    out = []
    for players in sorted({game.min_players, game.max_players}):
        run = play(game, players, {}, seed=players + 3, max_steps=2000)
        names = [NAMES[i % len(NAMES)] for i in range(players)]
        state = game.setup(names, {})
        states = [state]
        for seat, action in run.log:
            state, _ = game.apply(state, seat, action)
            states.append(state)
        picks = sorted({1, len(states) // 3, len(states) // 2, len(states) - 1})
        for i in picks:
            out.append((f"{players}p state {i}", game.view(states[i], None)))
        out.append((f"{players}p seat 0 view", game.view(states[len(states) // 2], 0)))
        if game_id == "haunted_house":  # the ghost in flight, over a floor
            for i, s in enumerate(states):
                view = game.view(s, None)
                if (view.get("window") or {}).get("kind") == "defend":
                    out.append((f"{players}p defend {i}", view))
                    break
    if game_id == "hidden_castle":
        names = NAMES[:2]
        state = game.setup(names, {"variant": "midnight_party"})
        out.append(("midnight set-up", game.view(state, None)))
    return out


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_every_name_fits_its_space(game_id, drawn):
    found = []
    for label, view in _views(game_id):
        _clear_caches()
        drawn.clear()
        render.board_png(game_id, view)
        assert any(_named(t[5]) for t in drawn.texts), f"{label}: no name was drawn"
        found += [f"{label}: {p}" for p in problems(drawn)]
    assert not found, "\n".join(found[:20])


def test_replay_frames_and_the_leaderboard_fit_every_name(drawn):
    game = REGISTRY["ghosts18"]
    names = NAMES[:2]
    run = play(game, 2, {}, seed=5, max_steps=400)
    state = game.setup(names, {})
    frames = [(game.view(state, None), f"18 Ghosts: {', '.join(names)}", "")]
    for k, (seat, action) in enumerate(run.log[:3]):
        state, events = game.apply(state, seat, action)
        said = " ".join(e.text for e in events if e.to is None)
        frames.append((game.view(state, None), f"Move {k + 1}: {names[seat]}", said))
    found = []
    for frame in frames:  # a page of Step through, and a frame of the animation
        for width in (animation.PAGE_WIDTH, animation.GIF_WIDTH):
            _clear_caches()
            drawn.clear()
            (image,) = animation.frame_images("ghosts18", [frame], width)
            assert image.width == width
            assert any(_named(t[5]) for t in drawn.texts)
            found += problems(drawn)
    drawn.clear()
    rows = [[name, "1234.5", "120", "99"] for name in NAMES]
    png = animation.leaderboard_png(
        f"{game.title}: the best of this server", ["Player", "Rating", "Games", "Won"], rows
    )
    assert Image.open(io.BytesIO(png)).width >= 1000
    assert sum(_named(t[5]) for t in drawn.texts) == len(NAMES)
    found += problems(drawn)
    assert not found, "\n".join(found[:20])


def test_fit_cuts_a_name_where_it_would_overflow():
    for name in NAMES:
        for width in (40, 150, 333):
            cut = lettering.fit(name, 24, width)
            assert cut.endswith(lettering.ELLIPSIS) and lettering.text_width(cut, 24) <= width
            longer = name[: len(cut)] + lettering.ELLIPSIS  # one character more would not fit
            assert lettering.text_width(longer, 24) > width
    assert lettering.fit("Ann", 24, 200) == "Ann"
    lines = lettering.wrap(f"{NAMES[0]} places a red ghost on b1.", 22, 300)
    assert all(lettering.text_width(line, 22) <= 300 for line in lines) and len(lines) >= 5
    assert "".join(lines[:-1]).startswith(NAMES[0][:40])
