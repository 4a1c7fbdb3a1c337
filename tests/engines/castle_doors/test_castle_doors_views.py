"""Castle Doors: what each seat may see, and the pictures (docs/engine-contract.md, rule 6)."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

import render
from engines.castle_doors import GAME
from engines.castle_doors import board as B
from engines.contract import CHANCE
from engines.playout import play
from tests.engines.castle_doors.test_castle_doors_helpers import FILL, act, castle, chance, tile


def _positions(players: int, seed: int):
    run = play(GAME, players, {}, seed, max_steps=400, keep_states=True)
    return [s for s in run.states[60::37] if s.phase != "deal"]


def _swap_with_deck(s, seat: int):
    """Another state that differs only in `seat`'s hand (and so in the unseen deck)."""
    other = GAME.copy(s)
    hand = other.hands[seat]
    new = [k for k, n in other.deck.items() if n and k not in hand]
    if not hand or not new:
        return None
    old = hand[0]
    other.deck[old] += 1
    other.deck[new[0]] -= 1
    other.hands[seat] = sorted([*hand[1:], new[0]])
    return other


@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_hide_other_hands_and_the_deck(players):
    """ "Shuffle the DRAW cards and deal three cards to each player": a hand is its owner's
    alone, the draw pile is face down. Changing another hand (and so what the deck holds)
    leaves a seat's view and the public view identical."""
    checked = 0
    for s in _positions(players, seed=players):
        for owner in range(players):
            other = _swap_with_deck(s, owner)
            if other is None:
                continue
            assert GAME.dump(other) != GAME.dump(s)
            for viewer in [None, *range(players)]:
                if viewer == owner:
                    assert GAME.view(other, viewer) != GAME.view(s, viewer)
                else:
                    assert GAME.view(other, viewer) == GAME.view(s, viewer)
            checked += 1
    assert checked >= 5


def test_unrevealed_tiles_hide_nothing_in_the_state():
    """ "One side shows only closed doors ... The other side of the tiles have open doors, but
    sometimes the open side has a surprise": what a closed tile hides is not stored at all
    (it is drawn when first opened), so the draw can be worked out from the public view
    alone, and is the same whatever the hands hold."""
    reveals = 0
    run = play(GAME, 4, {}, 9, max_steps=600, keep_states=True)
    for s in run.states:
        for t in s.tiles.values():
            if not t["open"] and not t["kind"]:
                assert not t["used"] and not t["sawn"]
        if s.phase != "reveal":
            continue
        view = GAME.view(s, None)
        colour = view["tiles"][view["reveal"]]["colour"]
        seen = [t["kind"] for t in view["tiles"].values() if t["colour"] == colour]
        left = {k: n - seen.count(k) for k, n in B.TILES_PER_COLOUR.items()}
        expected = {k: n / sum(left.values()) for k, n in left.items() if n}
        assert dict(GAME.chance_outcomes(s)) == pytest.approx(expected)
        reveals += 1
    assert reveals >= 3
    s = castle(hands=[["key red"] * 4, FILL])
    other = castle(hands=[["key red"] * 4, ["padlock", "padlock", "hacksaw"]])
    s = act(s, 0, "play key red", "target a1")
    other = act(other, 0, "play key red", "target a1")
    assert GAME.chance_outcomes(s) == GAME.chance_outcomes(other)
    assert GAME.view(s, 0) == GAME.view(other, 0)


@pytest.mark.parametrize("players", [2, 4])
def test_pictures_and_alt_text_unchanged_when_only_a_hidden_hand_changes(players):
    """A hand is its owner's alone: another seat's picture and the public picture are the
    same bytes (and the same alt text) whatever that hand and the face-down pile hold."""
    checked = 0
    for s in _positions(players, seed=players + 20)[:2]:
        other = _swap_with_deck(s, 0)
        if other is None:
            continue
        for viewer in (None, 1):
            assert render.board_png("castle_doors", GAME.view(other, viewer)) == render.board_png(
                "castle_doors", GAME.view(s, viewer)
            )
            assert render.describe("castle_doors", GAME.view(other, viewer)) == render.describe(
                "castle_doors", GAME.view(s, viewer)
            )
        assert render.board_png("castle_doors", GAME.view(other, 0)) != render.board_png(
            "castle_doors", GAME.view(s, 0)
        )
        checked += 1
    assert checked


def test_own_hand_only_in_own_view():
    """Each player's hand is shown only to that player; everyone sees hand sizes."""
    s = castle(players=3, hands=[["key red", "net", "padlock", "skeleton"], FILL, FILL])
    assert GAME.view(s, 0)["hand"] == ["key red", "net", "padlock", "skeleton"]
    assert GAME.view(s, 1)["hand"] == FILL
    assert "hand" not in GAME.view(s, None)
    assert GAME.view(s, None)["hand_sizes"] == [4, 3, 3]


def test_a_card_being_aimed_is_seen_only_by_its_player():
    """A card is shown to all only once it is played on its target (`back` may still take
    it back), so the target step names the card in its player's view alone."""
    s = castle(hands=[["key red", "net", "padlock", "skeleton"], FILL])
    s = act(s, 0, "play padlock")
    assert GAME.view(s, 0)["card"] == "padlock"
    assert "card" not in GAME.view(s, 1) and "card" not in GAME.view(s, None)
    new, events = GAME.apply(s, 0, "back")
    assert all(e.to == 0 for e in events)
    assert GAME.view(new, 1) == GAME.view(
        castle(hands=[["key red", "net", "padlock", "skeleton"], FILL]), 1
    )


def test_a_drawn_card_is_told_only_to_its_drawer():
    """ "Players MUST draw ONE card each turn": everyone learns that a card was drawn, only
    the drawer learns which."""
    s = castle(hands=[["net", *FILL], FILL], phase="draw", turn=1)
    _, events = GAME.apply(s, CHANCE, "hacksaw")
    public = [e.text for e in events if e.to is None]
    private = [e.text for e in events if e.to == 1]
    assert public and not any("hacksaw" in t for t in public)
    assert private == ["You draw a hacksaw."]


def test_views_and_states_are_json():
    """docs/engine-contract.md rule 9: dump/load round trip; views are JSON."""
    s = castle(hands=[["passage", *FILL], FILL], at=["b2", None])
    tile(s, "b2", "extra key", used=[0, 1])
    s.passages = [["a1", "b2"]]
    s = act(s, 0, "play passage", "target c3")
    assert GAME.dump(GAME.load(json.loads(json.dumps(GAME.dump(s))))) == GAME.dump(s)
    for viewer in (None, 0, 1):
        view = GAME.view(s, viewer)
        assert json.loads(json.dumps(view)) == view


def _picture(view):
    png = render.board_png("castle_doors", view)
    return png, Image.open(io.BytesIO(png))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pictures_are_wide_stable_and_hands_only_in_own_view(players):
    """Pictures: at least 1000 px wide, same bytes for the same view, drawn from a view."""
    s = _positions(players, seed=1)[-1]
    png, img = _picture(GAME.view(s, 0))
    assert img.width >= 1000 and png == _picture(GAME.view(s, 0))[0]
    assert _picture(GAME.view(s, None))[0] != png  # the public picture has no hand
    text = render.describe("castle_doors", GAME.view(s, 0))
    assert "Your hand" in text
    assert "Your hand" not in render.describe("castle_doors", GAME.view(s, None))


def test_pictures_of_every_tile_state():
    """Every tile state the rulebook names can be drawn and is named in the alt text:
    closed, open, barred, sawn, padlocked, passage, net, used bonus tiles."""
    s = castle(hands=[["passage", *FILL], FILL], at=["b2", "c8"])
    tile(s, "b2", "extra key", used=[0])
    tile(s, "c8")
    tile(s, "a1", "barred door")
    tile(s, "b1", "barred door", sawn=True, lock=True)
    tile(s, "c1", "extra turn", open=False)
    s.passages = [["a1", "b2"]]
    s.netted[1] = 2
    s = act(s, 0, "play passage", "target d4")
    view = GAME.view(s, 0)
    _, img = _picture(view)
    assert img.width >= 1000
    text = render.describe("castle_doors", view)
    for words in (
        "a1 red barred door",
        "b1 blue barred door (sawn), padlocked",
        "c1 green shut (extra turn)",
        "d1 yellow shut",
        "a1-b2",
        "netted for 2 more turns",
        "b2 used by Ann",
        "Your hand",
    ):
        assert words in text
    chance(act(s, 0, "back", "discard passage", "stay"), "net")  # still a legal game
