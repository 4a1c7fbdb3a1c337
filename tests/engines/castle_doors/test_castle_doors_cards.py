"""Castle Doors: every draw card, checked against the rulebook (docs/games.md) ("Draw Cards")."""

from __future__ import annotations

import pytest

from engines.castle_doors import GAME
from engines.castle_doors import castle as K
from engines.contract import CHANCE, IllegalAction
from tests.engines.castle_doors.test_castle_doors_helpers import (
    FILL,
    act,
    castle,
    chance,
    legal,
    targets,
    tile,
)

# Colours in the test castle: (column + row) % 4 -> red, blue, green, yellow.
# a1 red, b1 blue, c1 green, d1 yellow, e1 red; a2 blue, b2 green, c2 yellow, d2 red,
# e2 blue; d3 blue. Hands in the `play` step normally hold four cards.


def test_key_opens_only_its_colour_and_the_first_opening_is_chance():
    """KEY: "Used to open or close a door of the same color (i.e. a Blue Key opens or
    closes a blue door)"; the closed side hides what is behind it until first opened."""
    s = castle(hands=[["key blue", "net", "net"], FILL])
    s = act(s, 0, "play key blue")
    assert "b1" in targets(s) and "a2" in targets(s)
    assert "a1" not in targets(s) and "c1" not in targets(s)  # red and green
    with pytest.raises(IllegalAction, match="blue key only works on blue"):
        GAME.apply(s, 0, "target a1")
    s = act(s, 0, "target b1")
    assert GAME.to_act(s) == [CHANCE]
    assert dict(GAME.chance_outcomes(s)) == {
        "open door": 0.6,
        "barred door": 0.2,
        "extra key": 0.1,
        "extra turn": 0.1,
    }
    s = chance(s, "barred door")
    assert s.tiles["b1"] == {**s.tiles["b1"], "open": True, "kind": "barred door"}
    assert s.discard == {"key blue": 1} and s.hands[0] == ["net", "net"]
    assert s.phase == "move"


def test_reveal_draws_only_kinds_not_yet_seen():
    """ "24 Open Door tiles (6 of each color) 8 Barred Door tiles (2 of each color)
    4 Extra Key tiles (1 of each color) 4 Extra Turn tiles (1 of each color)": a blue tile
    cannot show a third blue barred door or a second blue extra key."""
    s = castle(hands=[["key blue"] * 3, []])
    for cell, kind in (("a2", "barred door"), ("d3", "extra key"), ("e2", "barred door")):
        tile(s, cell, kind, open=False)  # seen before, closed again
    s = act(s, 0, "play key blue", "target b1")
    assert dict(GAME.chance_outcomes(s)) == {"open door": 6 / 7, "extra turn": 1 / 7}


def test_key_closes_an_open_door_and_reopening_needs_no_chance():
    """KEY: "closing a door slows your opponents"; a door closed again keeps what it showed."""
    s = castle(hands=[["key red"] * 3, []])
    tile(s, "a1", "barred door")
    s = act(s, 0, "play key red", "target a1")
    assert s.tiles["a1"]["open"] is False and s.tiles["a1"]["kind"] == "barred door"
    s = act(s, 0, "stay")
    s.phase, s.turn = "play", 0
    s = act(s, 0, "play key red", "target a1")
    assert s.tiles["a1"]["open"] is True and s.phase == "move"  # no chance node this time


def test_cannot_close_a_door_with_a_character_on_it():
    """ "You cannot close a door if there is a character already occupying the tile.\""""
    s = castle(hands=[["key red", "skeleton", "net"], []], at=[None, "a1"])
    tile(s, "a1")
    tile(s, "e1")
    s = act(s, 0, "play key red")
    assert "a1" not in targets(s) and "e1" in targets(s)
    with pytest.raises(IllegalAction, match="a character stands on it"):
        GAME.apply(s, 0, "target a1")
    s = act(s, 0, "back", "play skeleton")
    assert "a1" not in targets(s)


def test_skeleton_key_opens_and_closes_any_colour():
    """SKELETON KEY: "can be used to open or close a door of ANY color"."""
    s = castle(hands=[["skeleton"] * 3, []])
    tile(s, "b1")
    s = act(s, 0, "play skeleton")
    assert {"a1", "b1", "c1", "d1", "b2", "c2"} <= targets(s)
    s = act(s, 0, "target b1")
    assert s.tiles["b1"]["open"] is False and s.discard == {"skeleton": 1}


def test_skeleton_key_removes_a_padlock_and_a_closed_door_stays_closed():
    """SKELETON KEY: "Used to remove a Padlock ... Place the used Skeleton Key (and the
    removed Padlock) into the discard pile. If the door under the Padlock was closed, it is
    still closed when the Padlock is removed.\""""
    s = castle(hands=[["skeleton"] * 3, []])
    s.tiles["c1"]["lock"] = True
    s = act(s, 0, "play skeleton")
    assert GAME.describe(s, "target c1") == "Unlock c1"
    s = act(s, 0, "target c1")
    assert s.tiles["c1"]["lock"] is False and s.tiles["c1"]["open"] is False
    assert s.tiles["c1"]["kind"] == ""  # not opened, so nothing revealed
    assert s.discard == {"skeleton": 1, "padlock": 1} and s.phase == "move"


def test_doors_under_padlocks_cannot_be_opened_or_closed():
    """PADLOCK: "Doors under Padlocks cannot be opened or closed until the Padlock is
    removed." A key cannot touch them; a skeleton key only takes the padlock off."""
    s = castle(hands=[["key red", "key red", "skeleton"], []])
    tile(s, "a1", lock=True)
    s.tiles["e1"]["lock"] = True
    s = act(s, 0, "play key red")
    assert "a1" not in targets(s) and "e1" not in targets(s)
    with pytest.raises(IllegalAction, match="padlocked"):
        GAME.apply(s, 0, "target a1")
    s = act(s, 0, "back", "play skeleton", "target a1")
    assert s.tiles["a1"]["open"] is True and s.tiles["a1"]["lock"] is False


def test_padlock_goes_on_open_or_closed_doors_but_never_stacks():
    """PADLOCK: "Padlocks can be placed on open or closed doors." "Padlocks cannot be
    stacked on top of another Padlock." Nor under a character (house decision)."""
    s = castle(hands=[["padlock"] * 3, []], at=[None, "b8"])
    tile(s, "a1")
    tile(s, "b8")
    s.tiles["c1"]["lock"] = True
    s = act(s, 0, "play padlock")
    assert {"a1", "b1"} <= targets(s)
    assert "c1" not in targets(s) and "b8" not in targets(s)
    with pytest.raises(IllegalAction, match="do not stack"):
        GAME.apply(s, 0, "target c1")
    s = act(s, 0, "target a1")
    assert s.tiles["a1"]["lock"] and s.tiles["a1"]["open"]
    assert "padlock" not in s.discard  # it stays on the castle


def test_padlocked_door_is_impassable():
    """PADLOCK: "Used to block a door in order to obstruct your opponent's path.\""""
    s = castle(hands=[FILL, []], at=["a1", None], phase="move")
    tile(s, "a1")
    tile(s, "a2", lock=True)
    tile(s, "b1")
    assert "move up" not in legal(s) and "move right" in legal(s)
    with pytest.raises(IllegalAction, match="a2 is padlocked"):
        GAME.apply(s, 0, "move up")


def test_hacksaw_opens_a_barred_door_for_good():
    """HACKSAW: "Used to permanently open a Barred Door. Place the Hacksaw card on top of
    the Barred Door, and leave it there for the remainder of the game.\""""
    s = castle(hands=[["hacksaw", "key red", "net"], []], at=["a1", None])
    tile(s, "a1")
    tile(s, "b1", "barred door")
    tile(s, "a2", "open door")
    s = act(s, 0, "play hacksaw")
    assert targets(s) == {"b1"}  # only an open barred door
    s = act(s, 0, "target b1")
    assert s.tiles["b1"]["sawn"] and "hacksaw" not in s.discard
    assert "move right" in legal(s)


def test_barred_door_cannot_be_crossed():
    """BARRED DOOR TILES: "Players cannot move through a Barred Door.\""""
    s = castle(at=["a1", None], phase="move")
    tile(s, "a1")
    tile(s, "b1", "barred door")
    assert "move right" not in legal(s)
    with pytest.raises(IllegalAction, match="barred door"):
        GAME.apply(s, 0, "move right")


def test_hacksaw_then_padlock_but_never_closed():
    """ "A Barred Door opened with a Hacksaw can still be blocked with a Padlock (but cannot
    be closed with a Key)." "Padlocks can also be placed on Barred Doors that have been
    opened with a Hacksaw.\""""
    s = castle(hands=[["key blue", "skeleton", "padlock"], []])
    tile(s, "b1", "barred door", sawn=True)
    s = act(s, 0, "play key blue")
    assert "b1" not in targets(s)
    with pytest.raises(IllegalAction, match="sawn through"):
        GAME.apply(s, 0, "target b1")
    s = act(s, 0, "back", "play skeleton")
    assert "b1" not in targets(s)
    s = act(s, 0, "back", "play padlock", "target b1")
    assert s.tiles["b1"]["lock"] and s.tiles["b1"]["sawn"]


def test_hacksaw_cannot_open_a_padlock():
    """ "A Hacksaw cannot open a Padlock. Only Skeleton Keys can remove Padlocks.\""""
    s = castle(hands=[["hacksaw", "net", "net"], []])
    tile(s, "b1", "barred door", lock=True)
    assert "play hacksaw" not in legal(s)
    assert "discard hacksaw" in legal(s)


def test_secret_passage_joins_two_diagonal_tiles_for_everyone():
    """SECRET PASSAGE: "Creates a permanent diagonal passage between two doors ... the doors
    on either end of the passage must be open for a CHARACTER to move from one tile to the
    other.\""""
    s = castle(hands=[["passage", "net", "net"], FILL], at=["b2", "c3"])
    for cell in ("b2", "c3", "a1"):
        tile(s, cell)
    s = act(s, 0, "play passage")
    assert len(targets(s)) == 40  # any tile can be a first end (on open or closed doors)
    s = act(s, 0, "target b2")
    assert targets(s) == {"a1", "c1", "a3", "c3"}
    s = act(s, 0, "target a1")
    assert s.passages == [["a1", "b2"]] and "passage" not in s.discard
    assert "move down-left" in legal(s)
    s = act(s, 0, "move down-left")
    assert s.at[0] == "a1"
    # The other player may use it too, but only while both doors are open.
    s = castle(hands=[FILL, FILL], at=[None, "b2"], phase="move", turn=1)
    tile(s, "b2")
    s.passages = [["a1", "b2"]]
    assert "move down-left" not in legal(s)  # a1 is closed
    tile(s, "a1")
    assert "move down-left" in legal(s)


def test_secret_passage_ends_can_be_padlocked_and_keyed():
    """ "The doors on either end of a Secret Passage can be blocked with a Padlock." "The doors
    on either end of a Secret Passage can also be opened and closed with Keys and Skeleton
    Keys.\""""
    s = castle(hands=[["padlock", "key green", "net"], []], at=["a1", None])
    tile(s, "a1")
    tile(s, "b2")
    s.passages = [["a1", "b2"]]
    s = act(s, 0, "play key green")
    assert "b2" in targets(s)  # b2 is green
    s = act(s, 0, "back", "play padlock")
    assert "b2" in targets(s)
    s = act(s, 0, "target b2")
    assert "move up-right" not in legal(s)


def test_two_passages_cannot_cross_one_corner():
    """SECRET PASSAGE: "placed across the space between the corners of two tiles": one card
    fills that space (house decision: no crossing passages)."""
    s = castle(hands=[["passage"] * 3, []])
    s.passages = [["a1", "b2"]]
    s = act(s, 0, "play passage", "target b1")
    assert "a2" not in targets(s) and "c2" in targets(s)


def test_net_traps_a_player_for_two_turns():
    """NET: "Like a normal turn, your opponent must draw and play a card, however they cannot
    move. They are trapped for 2 rounds. After the 2 rounds, remove the Net and place into
    the discard pile.\""""
    s = castle(hands=[["net", "net", "key red", "key red"], ["key red"] * 3], at=["a1", "c8"])
    for cell in ("a1", "c8", "b8", "d8"):
        tile(s, cell)
    s = act(s, 0, "play net")
    assert targets(s) == {"c8"}
    s = act(s, 0, "target c8")
    assert s.netted == [0, 2]
    s = act(s, 0, "stay")
    for left in (1, 0):
        s = chance(s, "key blue")  # Bob draws up to four
        assert s.turn == 1 and s.phase == "play"
        s = act(s, 1, "discard key red")  # plays a card, then cannot move
        assert s.netted[1] == left and s.turn == 0 and s.at[1] == "c8"
        s = chance(s, "key blue")
        s = act(s, 0, "discard key blue", "stay")
    assert s.discard["net"] == 1
    s = chance(s, "key blue")
    s = act(s, 1, "discard key red")
    assert s.phase == "move" and "move left" in legal(s)


def test_net_only_on_an_opponent_in_the_castle():
    """NET: "Place the Net card on top of the tile underneath your opponent's CHARACTER."
    Not on yourself, not on someone outside, not on someone already netted (house)."""
    s = castle(players=3, hands=[["net", "net", "key red"], [], []], at=["a1", None, "c6"])
    assert targets(act(s, 0, "play net")) == {"c6"}
    s.netted[2] = 1
    assert "play net" not in legal(s)


def test_discarding_a_card_for_nothing():
    """ "Next, Player 1 plays a card (either onto the discard pile or the Castle).\""""
    s = castle(hands=[["hacksaw", "net", "passage"], []])
    assert "play hacksaw" not in legal(s)  # no open barred door
    s = act(s, 0, "discard passage")
    assert s.discard == {"passage": 1} and s.discard_top == "passage"
    assert s.passages == [] and s.phase == "move"


def test_back_returns_the_card_before_a_target_is_chosen():
    """ "Players MUST use ONE card each turn": choosing a card can be undone until its target
    is chosen, and the turn still needs a card."""
    s = castle(hands=[["key red", "net", "padlock"], []])
    s = act(s, 0, "play padlock")
    assert "back" in legal(s)
    s = act(s, 0, "back")
    assert s.phase == "play" and s.hands[0] == ["key red", "net", "padlock"]
    assert not any(a in legal(s) for a in ("stay", "pass"))


def test_the_54_draw_cards():
    """ "54 DRAW cards: 28 Keys (7 of each color), 10 Skeleton Keys, 6 Padlocks, 5 Secret
    Passages, 3 Hacksaws, 2 Nets": the first card dealt is drawn from exactly these."""
    s = GAME.setup(["Ann", "Bob"])
    while GAME.to_act(s) == [CHANCE] and s.phase == "deal" and K.undealt(s):
        s = chance(s, GAME.chance_outcomes(s)[0][0])
    first = {card: round(p * 54) for card, p in GAME.chance_outcomes(s)}
    assert first == {
        "key red": 7,
        "key blue": 7,
        "key green": 7,
        "key yellow": 7,
        "skeleton": 10,
        "padlock": 6,
        "passage": 5,
        "hacksaw": 3,
        "net": 2,
    }
    assert sum(first.values()) == 54


def test_a_hacksaw_needs_the_bars_showing():
    """HACKSAW: "Place the Hacksaw card on top of the Barred Door": a barred door closed
    again shows its closed side, so it must be opened first (house decision)."""
    s = castle(hands=[["hacksaw", "key blue", "net"], []])
    tile(s, "b1", "barred door", open=False)
    assert "play hacksaw" not in legal(s)
    s = act(s, 0, "play key blue", "target b1")  # known already: no chance node
    assert s.tiles["b1"]["open"] and s.phase == "move"
    s = act(s, 0, "stay")
    s.phase, s.turn = "play", 0
    assert targets(act(s, 0, "play hacksaw")) == {"b1"}


def test_a_netted_player_with_nothing_to_draw_or_play_still_cannot_move():
    """NET: "They are trapped for 2 rounds": even a turn with no card to draw or play (every
    card held or on the castle) counts as one of them and has no move."""
    s = castle(hands=[["key red"] * 3, []], at=[None, "c8"], phase="move")
    tile(s, "c8")
    tile(s, "c7")
    s.deck = {k: 0 for k in s.deck}  # (a position made for the test: no card anywhere)
    s.netted[1] = 2
    s = act(s, 0, "stay")
    assert s.turn == 0 and s.netted[1] == 1 and s.at[1] == "c8"  # Bob's turn went by
    assert s.phase == "play"
