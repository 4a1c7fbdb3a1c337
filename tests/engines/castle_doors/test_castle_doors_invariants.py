"""Castle Doors: what must hold in every position of whole random games (cards and tiles
are never created or lost, characters stand only where the rulebook lets them)."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.castle_doors import GAME
from engines.castle_doors import board as B
from engines.castle_doors import castle as K
from engines.castle_doors.game import CastleState
from engines.playout import play


def _cards_everywhere(s: CastleState) -> Counter:
    """Draw pile, discards, hands, and the cards lying on the castle."""
    held = Counter(s.deck) + Counter(s.discard)
    for hand in s.hands:
        held.update(hand)
    held["passage"] += len(s.passages)
    held["hacksaw"] += sum(t["sawn"] for t in s.tiles.values())
    held["padlock"] += sum(t["lock"] for t in s.tiles.values())
    held["net"] += sum(1 for n in s.netted if n)
    return +held


def _check(s: CastleState) -> None:
    # "54 DRAW cards": every card is somewhere, once ("place into the discard pile").
    assert _cards_everywhere(s) == Counter(B.DECK)
    # "40 DOOR tiles ... (6 of each color) ... (2 of each color) ... (1 of each color)".
    colours = Counter(t["colour"] for t in s.tiles.values() if t["colour"])
    assert all(n <= B.TILES_OF_COLOUR for n in colours.values())
    shown = Counter((t["colour"], t["kind"]) for t in s.tiles.values() if t["kind"])
    assert all(n <= B.TILES_PER_COLOUR[kind] for (_, kind), n in shown.items())
    # "Only one CHARACTER may occupy a DOOR tile at one time", and only an open door.
    inside = [cell for cell in s.at if cell]
    assert len(inside) == len(set(inside))
    for seat, cell in enumerate(s.at):
        if cell:
            assert K.passable(s, cell), (cell, s.tiles[cell])
        else:
            assert s.netted[seat] == 0  # a net lies on a tile under a character
    # "Players MUST draw ONE card ... MUST use ONE card": never more than four in hand.
    assert all(len(hand) <= B.HAND_IN_TURN for hand in s.hands)
    for t in s.tiles.values():
        if t["sawn"]:  # "permanently open a Barred Door"
            assert t["open"] and t["kind"] == "barred door"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_random_games_keep_every_card_and_tile(players):
    run = play(GAME, players, {}, seed=players, max_steps=2500, keep_states=True)
    for s in run.states:
        _check(s)
    phases = {s.phase for s in run.states}
    assert {"draw", "play", "target", "reveal", "move"} <= phases  # a real game went by
