"""Shared scaffolding for the Dark Castle scenario tests: a started game, test cards, forcing."""

from __future__ import annotations

from engines import CHANCE, REGISTRY
from engines.dark_castle import cards

G = REGISTRY["dark_castle"]


def options_for(set_name: str) -> dict:
    """The options that put a content set in play."""
    return {set_name: "on"} if set_name in cards.SUPPLEMENTS else {}


def started(picks=("smith", "tailor"), players=None, start="s_cell", options=None):
    """A game after the picks and the start card: the party is choosing who turns."""
    players = players or len(picks)
    s = G.setup([f"P{i + 1}" for i in range(players)], options or {})
    while s.pending.kind == "deal":  # the Collector's Box deals flaws first
        s, _ = G.apply(s, CHANCE, G.chance_outcomes(s)[0][0])
    for k, who in enumerate(picks):
        s, _ = G.apply(s, 0 if players == 1 else k, f"pick {who}")
    s, _ = G.apply(s, CHANCE, start)
    return s


def edit(s, **changes):
    """Change the state's data directly (hit points, items...) through dump and load."""
    data = G.dump(s)
    for key, value in changes.items():
        data[key] = value
    return G.load(data)


def set_char(s, who, **fields):
    data = G.dump(s)
    for char in data["chars"]:
        if char["who"] == who:
            char.update(fields)
    return G.load(data)


def char(s, who):
    return next(c for c in s.chars if c.who == who)


def act(s, action, seat=None):
    seat = G.to_act(s)[0] if seat is None else seat
    s, _ = G.apply(s, seat, action)
    return s


def chance(s, *outcomes):
    for outcome in outcomes:
        assert G.to_act(s) == [CHANCE], (s.pending, outcome)
        s, _ = G.apply(s, CHANCE, outcome)
    return s


def open_card(s, card_id, who="smith"):
    s = act(s, f"turn {who}")
    return chance(s, card_id)


def add_card(monkeypatch, *steps, card_id="t_room", text="A bare test room."):
    """Add a chapter of our own making to the pool for one test."""
    data = {
        "id": card_id,
        "title": "Test Room",
        "text": text,
        "steps": list(steps),
        "kind": "chapter",
        "set": "core",
    }
    assert cards.check_card(data) == []
    monkeypatch.setitem(cards.CHAPTERS, card_id, data)
    monkeypatch.setitem(cards.ALL_CARDS, card_id, data)
    return card_id


def combat(dice, attack=2, per_player=0, *specials, name="Brute", loot=True):
    step = {
        "do": "combat",
        "name": name,
        "dice": dice,
        "per_player": per_player,
        "attack": attack,
        "loot": loot,
    }
    if specials:
        step["specials"] = list(specials)
    return step


def room_with(options, monkeypatch, *steps, picks=("smith", "tailor"), who="smith", **chars):
    """A test room opened by `who` in a game with `options`, prisoners' fields set first."""
    add_card(monkeypatch, *steps)
    s = started(picks, options=options)
    for name, fields in chars.items():
        s = set_char(s, name, **fields)
    return open_card(s, "t_room", who=who)
