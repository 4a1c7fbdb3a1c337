"""A game review's chart (`/escape review`): each player's chance to win after every move
(a co-operative party's chance to escape, one line), the turning moves marked with their
numbers. It draws a plain description of the review (`chart(view, language)`), never a
state: the caller hands it numbers and names only.

The view: {"number": game number, "game": the game's title (a message, as JSON),
"names": [...], "cooperative": bool, "points": [[move, [chance a seat, ...]], ...],
"turning": [[move, seat], ...]} (chances from 0 to 1).
"""

from __future__ import annotations

from engines.text import from_json
from languages import DEFAULT, msg, say
from render.lettering import fit, label, text
from render.palette import (
    DARK,
    GREY,
    HIGHLIGHT,
    INK,
    PANEL,
    PLAYER_COLOURS,
    PLAYER_SHAPES,
    WHITE,
    canvas,
    to_png,
)
from render.tokens import token

WIDTH, HEIGHT = 1100, 560
LEFT, RIGHT, TOP, BOTTOM = 80, 260, 80, 70  # the plot's margins
PARTY = (0, 114, 178)


def _said(value, language: str) -> str:
    return say(from_json(value), language)


def _ticks(last: int, most: int = 10) -> list[int]:
    """Round move numbers along the x axis, at most `most` of them."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if last // step <= most:
            return list(range(0, last + 1, step))
    return [0, last]


def chart(view: dict, language: str = DEFAULT):
    img, draw = canvas(HEIGHT, WIDTH)
    names = view["names"]
    points = view["points"]
    coop = view["cooperative"]
    title = (
        msg(
            "Game #{number}, {game}: the party's chance to escape after every move",
            number=view["number"],
            game=from_json(view["game"]),
        )
        if coop
        else msg(
            "Game #{number}, {game}: each player's chance to win after every move",
            number=view["number"],
            game=from_json(view["game"]),
        )
    )
    label(draw, (LEFT - 40, 24), say(title, language), 24, WIDTH - LEFT, INK, anchor="la")
    x0, y0, x1, y1 = LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM
    last = max(1, points[-1][0] if points else 1)

    def at(n: float, chance: float) -> tuple[float, float]:
        return x0 + (x1 - x0) * n / last, y1 - (y1 - y0) * chance

    draw.rectangle((x0, y0, x1, y1), fill=WHITE, outline=GREY)
    for share in (0, 0.25, 0.5, 0.75, 1.0):
        y = at(0, share)[1]
        draw.line((x0, y, x1, y), fill=PANEL if share not in (0, 1) else GREY, width=1)
        text(draw, (x0 - 10, y), f"{round(share * 100)}%", 18, DARK, anchor="rm")
    for n in _ticks(last):
        x = at(n, 0)[0]
        draw.line((x, y1, x, y1 + 6), fill=GREY, width=1)
        text(draw, (x, y1 + 10), str(n), 16, DARK, anchor="ma")
    text(draw, ((x0 + x1) / 2, y1 + 36), say(msg("move"), language), 18, DARK, anchor="ma")
    lines = [0] if coop else range(len(names))
    for seat in lines:
        colour = PARTY if coop else PLAYER_COLOURS[seat % 8]
        xy = [at(n, chances[seat]) for n, chances in points]
        if len(xy) > 1:
            draw.line(xy, fill=colour, width=4, joint="curve")
        elif xy:
            draw.ellipse((xy[0][0] - 3, xy[0][1] - 3, xy[0][0] + 3, xy[0][1] + 3), fill=colour)
    by_move = dict(points)
    for k, (n, seat) in enumerate(view["turning"], start=1):
        chances = by_move.get(n)
        if chances is None:
            continue
        cx, cy = at(n, chances[0 if coop else seat])
        draw.line((cx, y0, cx, y1), fill=HIGHLIGHT, width=2)
        token(draw, (cx, cy), 15, "circle", HIGHLIGHT, str(k), outline=INK)
    # the legend: who each line is, and what the numbered marks are
    lx, ly = x1 + 24, y0
    if coop:
        draw.line((lx, ly + 14, lx + 28, ly + 14), fill=PARTY, width=4)
        label(
            draw,
            (lx + 38, ly + 14),
            say(msg("the party"), language),
            20,
            RIGHT - 70,
            INK,
            anchor="lm",
        )
        ly += 34
    else:
        for seat, name in enumerate(names):
            token(draw, (lx + 14, ly + 14), 12, PLAYER_SHAPES[seat % 8], PLAYER_COLOURS[seat % 8])
            label(
                draw,
                (lx + 36, ly + 14),
                fit(name, 20, RIGHT - 70),
                20,
                RIGHT - 70,
                INK,
                anchor="lm",
            )
            ly += 34
    if view["turning"]:
        ly += 10
        token(draw, (lx + 14, ly + 14), 12, "circle", HIGHLIGHT, "1", outline=INK)
        label(
            draw,
            (lx + 36, ly + 14),
            say(msg("a turning move"), language),
            18,
            RIGHT - 70,
            INK,
            anchor="lm",
        )
    return img


def chart_png(view: dict, language: str = DEFAULT) -> bytes:
    return to_png(chart(view, language))


def describe(view: dict, language: str = DEFAULT) -> str:
    """The chart in words: where each line ends, and which moves are marked."""
    points = view["points"]
    final = points[-1][1] if points else []
    if view["cooperative"]:
        ends = (
            say(msg("the party ends at {percent}%", percent=round(100 * final[0])), language)
            if final
            else ""
        )
    else:
        ends = ", ".join(
            say(
                msg("{name} ends at {percent}%", name=name, percent=round(100 * final[seat])),
                language,
            )
            for seat, name in enumerate(view["names"])
        )
    marks = ", ".join(str(n) for n, _ in view["turning"])
    said = msg(
        "A line chart of game #{number} over {moves} moves: {ends}. Marked as turning moves: {marks}.",
        number=view["number"],
        moves=points[-1][0] if points else 0,
        ends=ends,
        marks=marks or "-",
    )
    return say(said, language)
