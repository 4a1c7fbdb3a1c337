"""The shapes of the game pieces (`tokens.token`): a player's colour always comes with one
of them, so that no piece is told apart by hue alone."""

from __future__ import annotations

import math

from PIL import ImageDraw


def polygon_points(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    sides = {"triangle": 3, "diamond": 4, "pentagon": 5, "hexagon": 6}
    if shape == "star":
        pts = []
        for i in range(10):
            rr = r if i % 2 == 0 else r * 0.45
            a = -math.pi / 2 + i * math.pi / 5
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        return pts
    n = sides[shape]
    offset = -math.pi / 2
    return [
        (
            cx + r * math.cos(offset + 2 * math.pi * i / n),
            cy + r * math.sin(offset + 2 * math.pi * i / n),
        )
        for i in range(n)
    ]


# A triangle or a diamond drawn in a piece's circle covers little more than half of it, and
# its letter spills over: they are drawn larger, so that every piece looks the same size.
SHAPE_SCALE = {"triangle": 1.22, "diamond": 1.18, "pentagon": 1.05, "star": 1.15}


def shape_centre(shape: str, cx: float, cy: float, radius: float) -> tuple[float, float]:
    """Where a piece's letter goes: its shape's middle (a triangle's is low in its circle)."""
    if shape == "triangle":
        return cx, cy + radius * SHAPE_SCALE["triangle"] / 4
    return cx, cy


def polygon(draw: ImageDraw.ImageDraw, *args, **kwargs) -> None:
    """Pillow's own polygon, not the kit's drawer's: `tokens.token` keeps a piece whole, so
    the drawer's cache of outlined polygons (render/sprites.py) would only keep it twice."""
    ImageDraw.ImageDraw.polygon(draw, *args, **kwargs)


def body(draw, centre, radius, shape, fill, label, outline, label_fill) -> None:
    """A piece's shape, in plain inks, within 1.22 times its radius of its centre (its
    label is drawn by `tokens.token`, which takes the same arguments)."""
    cx, cy = centre
    box = (cx - radius, cy - radius, cx + radius, cy + radius)
    if shape == "circle":
        draw.ellipse(box, fill=fill, outline=outline, width=3)
    elif shape == "square":
        inset = radius * 0.12
        draw.rectangle(
            (box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset),
            fill=fill,
            outline=outline,
            width=3,
        )
    elif shape == "cross":
        w = radius * 0.42
        polygon(
            draw,
            [
                (cx - w, cy - radius),
                (cx + w, cy - radius),
                (cx + w, cy - w),
                (cx + radius, cy - w),
                (cx + radius, cy + w),
                (cx + w, cy + w),
                (cx + w, cy + radius),
                (cx - w, cy + radius),
                (cx - w, cy + w),
                (cx - radius, cy + w),
                (cx - radius, cy - w),
                (cx - w, cy - w),
            ],
            fill=fill,
            outline=outline,
            width=3,
        )
    else:
        mx, my = shape_centre(shape, cx, cy, radius)
        points = polygon_points(shape, mx, my, radius * SHAPE_SCALE.get(shape, 1.0))
        polygon(draw, points, fill=fill, outline=outline, width=3)
