"""Redrawing what a seat cannot see (`Game.redraw`), written once for every game.

A game with secrets keeps them in a few zones of interchangeable cards: other players'
hands, a deck, a discard pile shown only by its size. From one seat's side every such
card could be anywhere among those zones, so a redraw gathers them into one pool and
deals them out again, each zone keeping its size. The pool is sorted before it is
shuffled, so the result depends only on what the zones hold together (which the seat can
work out from its view) and on the generator, never on where the cards really were: an
AI that searches redrawn states cannot peek.

The generator is used through `random()` only, like the session's chance generator, so
the same seed redraws the same way on every Python version.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence


def shuffled(items: Iterable[str], rng: random.Random) -> list[str]:
    """A Fisher-Yates shuffle of the items in sorted order, drawing with `rng.random()`."""
    out = sorted(items)
    for i in range(len(out) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def cards(pile: Mapping[str, int]) -> list[str]:
    """A pile kept as kind -> count, as a list of cards."""
    return [kind for kind, n in pile.items() for _ in range(n)]


def pile(cards_: Iterable[str]) -> dict[str, int]:
    """A list of cards as a pile (kind -> count), kinds in sorted order."""
    out: dict[str, int] = {}
    for card in sorted(cards_):
        out[card] = out.get(card, 0) + 1
    return out


def minus(cards_: Sequence[str], taken: Sequence[str]) -> list[str]:
    """The cards without one copy of each taken card."""
    rest = list(cards_)
    for card in taken:
        rest.remove(card)
    return rest


def redeal(zones: Sequence[Sequence[str]], rng: random.Random) -> list[list[str]]:
    """Pool every card of `zones`, shuffle, and deal each zone as many as it held."""
    pool = shuffled((card for zone in zones for card in zone), rng)
    out, at = [], 0
    for zone in zones:
        out.append(pool[at : at + len(zone)])
        at += len(zone)
    return out


def sample(cards_: Sequence[str], k: int, rng: random.Random) -> list[str]:
    """`k` of the cards, chosen at random (as a multiset: the order does not matter)."""
    return sorted(shuffled(cards_, rng)[:k])
