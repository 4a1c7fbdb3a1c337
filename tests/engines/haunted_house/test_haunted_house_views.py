"""Haunted House secrets and pictures: 'The identity of the discarded cards is secret from other
players', hands are private, and pictures are drawn from views only."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

import render
from engines.haunted_house import cards as C
from engines.playout import configurations, play
from tests.engines.haunted_house.test_haunted_house_helpers import G, act, house, table

STATES = [
    state
    for players in (2, 3, 4)
    for seed in range(2)
    for state in play(G, players, {}, seed, max_steps=250, keep_states=True).states[::5]
]


def swap_a_hidden_card(s, owner: int):
    """Change `owner`'s hand (one card swapped with the deck) and the discard pile's make-up,
    keeping every count; None when nothing can be swapped."""
    s = G.copy(s)
    chosen = (s.step or {}).get("chosen", []) if s.turn == owner else []
    spare = [c for c in s.hands[owner] if c not in chosen]
    swap = next(((c, k) for c in spare for k in s.deck if k != c), None)
    if swap is None:
        return None
    old, new = swap
    s.hands[owner].remove(old)
    s.hands[owner] = sorted([*s.hands[owner], new], key=C.ORDER.index)
    s.deck[new] -= 1
    s.deck[old] = s.deck.get(old, 0) + 1
    if not s.deck[new]:
        del s.deck[new]
    if s.discard:  # the discard pile's cards are secret too: relabel one of them
        kind = next(iter(s.discard))
        other = "cat" if kind != "cat" else "ghost"
        s.discard[kind] -= 1
        s.discard[other] = s.discard.get(other, 0) + 1
        if not s.discard[kind]:
            del s.discard[kind]
    return s


def test_a_seat_never_sees_another_hand_the_deck_or_the_discards():
    """'The identity of the discarded cards is secret from other players' (and hands and the
    deck are secret: docs/games.md)."""
    checked = 0
    for s in STATES:
        n = len(s.names)
        for owner in range(n):
            changed = swap_a_hidden_card(s, owner)
            if changed is None:
                continue
            assert G.view(changed, owner) != G.view(s, owner)  # the change is real
            for viewer in [None, *range(n)]:
                if viewer == owner:
                    continue
                assert G.view(changed, viewer) == G.view(s, viewer)
                checked += 1
    assert checked > 100


def test_a_seats_picture_does_not_change_with_another_hand_or_the_deck():
    """Hands and the deck are secret (docs/games.md): the same swap as above leaves
    every other seat's picture and the public picture byte for byte the same, and the public
    picture stays the same with every hand and the deck replaced by other cards."""
    picked = [s for s in STATES if s.windows or s.step][::4][:6] + STATES[1::60]
    assert len(picked) >= 8
    for s in picked:
        n = len(s.names)
        owner = s.turn
        changed = swap_a_hidden_card(s, owner)
        if changed is None:
            continue
        for viewer in [None, *(seat for seat in range(n) if seat != owner)][:3]:
            before = render.board_png("haunted_house", G.view(s, viewer))
            assert render.board_png("haunted_house", G.view(changed, viewer)) == before
        masked = G.copy(s)  # every hand and the whole deck replaced, every count kept
        masked.hands = [["cat"] * len(hand) for hand in s.hands]
        masked.deck = {"ghost": sum(s.deck.values())} if s.deck else {}
        public = render.board_png("haunted_house", G.view(s, None))
        assert render.board_png("haunted_house", G.view(masked, None)) == public


def test_the_public_view_never_holds_a_hand():
    """Hands are private: the public picture is drawn from a view with no hand in it."""
    for s in STATES:
        public = G.view(s, None)
        assert "hand" not in public
        assert "chosen" not in json.dumps(public)
        assert "hand" not in render.describe("haunted_house", public).lower()
        for seat in range(len(s.names)):
            mine = G.view(s, seat)
            assert [c["card"] for c in mine["hand"]] == s.hands[seat]
            assert "Your hand" in render.describe("haunted_house", mine)


def test_the_cards_being_chosen_for_a_light_are_shown_only_to_their_owner():
    """'Discard 2 or 3 cards with a total of at least 5 lightbulb icons' (chosen in steps; the
    choice is public only once the light goes on)."""
    s = table([["room2b3", "room3b3", "ghost"], ["cat"]])
    s = act(s, 0, "light 1", "with ghost")
    assert G.view(s, 0)["step"]["chosen"] == ["ghost"]
    assert G.view(s, 1)["step"] == {"act": "light", "floor": 1, "count": 1}
    assert '"ghost"' not in json.dumps(G.view(s, None))


@pytest.mark.parametrize("last_room", ["room1b2", "room2b2"])
def test_a_run_of_rooms_tells_nothing_of_the_rest_of_the_hand(last_room):
    """'you can play several cards in the same turn': the run ends by the mover's `done`, also
    when the hand holds no further room, so the others cannot tell which case it is."""
    houses = {0: house({"rooms": 1})}
    can_go_on = table([["room1b1", last_room, "ghost"], ["cat"]], houses)
    cannot = table([["room1b1", "ghost", "ghost"], ["cat"]], houses)
    after = [act(s, 0, "play room1b1") for s in (can_go_on, cannot)]
    for looker in (None, 1):
        assert G.view(after[0], looker) == G.view(after[1], looker)
    assert G.to_act(after[0]) == G.to_act(after[1]) == [0]
    assert "done" in G.legal_actions(after[1], 0) and G.default_action(after[1], 0) == "done"
    assert G.describe(after[1], "done") == "Done"


def test_pictures_public_and_private():
    """Pictures: the table for everyone; a player's hand with its bulbs only in their view."""
    s = table(
        [["room2b3", "cat", "hole"], ["ghost"], ["wild", "room1b1"]],
        {0: house({"rooms": 2, "lit": True, "ghosts": 1}, {"rooms": 1, "cats": 1})},
    )
    public = render.board_png("haunted_house", G.view(s, None))
    mine = render.board_png("haunted_house", G.view(s, 0))
    assert public == render.board_png("haunted_house", G.view(s, None))  # same view, same bytes
    pub_img, my_img = Image.open(io.BytesIO(public)), Image.open(io.BytesIO(mine))
    assert pub_img.width >= 1000 and my_img.height > pub_img.height  # the hand panel
    other = G.copy(s)
    other.hands[0] = ["ghost", "ghost", "cat"]
    assert render.board_png("haunted_house", G.view(other, None)) == public
    assert render.board_png("haunted_house", G.view(other, 0)) != mine
    text = render.describe("haunted_house", G.view(s, 0))
    assert "Your hand (Ann): Room, floor 2 (3 bulbs), Cat (0 bulbs)" in text
    assert "Ann (p1) holds 3 cards" in text and "room2b3" not in text  # names, not card ids
    assert "lit" in text and "1 ghost" in text and "a cat" in text


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_configuration_is_covered_by_the_conformance_suite(players):
    """'for 2 to 4 players' with option specials on and off."""
    configs = list(configurations(G))
    assert (players, {"specials": "on"}) in configs and (players, {"specials": "off"}) in configs
    for specials in ("on", "off"):
        run = play(G, players, {"specials": specials}, seed=1, max_steps=600)
        assert run.log
