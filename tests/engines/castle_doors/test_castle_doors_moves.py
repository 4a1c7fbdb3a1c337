"""Castle Doors: set-up, the turn, moving, bonus tiles and winning (the rulebook: docs/games.md)."""

from __future__ import annotations

import pytest

from engines.castle_doors import GAME
from engines.contract import CHANCE, IllegalAction
from tests.engines.castle_doors.test_castle_doors_helpers import (
    FILL,
    NAMES,
    act,
    castle,
    chance,
    legal,
    targets,
    tile,
)


@pytest.mark.parametrize(("players", "size"), [(2, (5, 8)), (3, (6, 6)), (4, (6, 6))])
def test_castle_size_and_sides(players, size):
    """ "If there are only 2 players, build a 5x8 grid. If there are 3 or 4 players, build a
    6x6 grid." "Only one player can start on each side. In 2 player games, sit across from
    each other." "(no CHARACTERS begin on the Castle)\""""
    s = GAME.setup(NAMES[:players])
    assert (s.width, s.height) == size and len(s.tiles) == size[0] * size[1]
    assert len(set(s.edges)) == players
    if players == 2:
        assert s.edges == ["bottom", "top"]
    if players == 3:  # house decision: the right-hand side stays empty
        assert s.edges == ["bottom", "left", "top"]
    assert s.at == [None] * players


def test_tiles_are_shuffled_colours_then_three_cards_are_dealt():
    """ "Shuffle the DOOR tiles, and place them in a grid ... closed side of the doors are
    facing up." "Shuffle the DRAW cards and deal three cards to each player." With 3-4
    players, "there will be 4 extra DOOR tiles. They are not needed.\""""
    s = GAME.setup(NAMES[:3])
    assert GAME.to_act(s) == [CHANCE]
    assert dict(GAME.chance_outcomes(s)) == {c: 0.25 for c in ("red", "blue", "green", "yellow")}
    s = chance(s, *["red"] * 10)
    assert "red" not in dict(GAME.chance_outcomes(s))  # all ten red tiles are down
    s = chance(s, *["blue"] * 10, *["green"] * 10, *["yellow"] * 6)
    assert all(t["colour"] and not t["open"] and not t["kind"] for t in s.tiles.values())
    first = dict(GAME.chance_outcomes(s))  # now the cards: 54 of them
    assert first["key red"] == 7 / 54 and first["skeleton"] == 10 / 54 and first["net"] == 2 / 54
    assert sum(GAME.load(GAME.dump(s)).deck.values()) == 54
    s = chance(s, *["skeleton"] * 9)
    assert [len(h) for h in s.hands] == [3, 3, 3]
    assert s.phase == "draw" and s.turn == 0  # Ann draws her fourth card
    s = chance(s, "net")
    assert s.phase == "play" and len(s.hands[0]) == 4 and sum(s.deck.values()) == 44


def test_two_players_use_all_40_door_tiles():
    """ "40 DOOR tiles: 24 Open Door tiles (6 of each color), 8 Barred Door tiles (2 of each
    color), 4 Extra Key tiles (1 of each color), 4 Extra Turn tiles (1 of each color)"; a
    5 x 8 castle holds all forty, so every colour is dealt ten times and nothing else."""
    s = GAME.setup(NAMES[:2])
    for colour in ("red", "blue", "green", "yellow"):
        s = chance(s, *[colour] * 10)
    assert s.phase == "deal" and "red" not in dict(GAME.chance_outcomes(s))  # cards now
    s.tiles["a1"]["open"] = True  # the first red tile to turn over may be any red tile
    s.phase, s.reveal, s.after = "reveal", "a1", "move"
    assert dict(GAME.chance_outcomes(s)) == {
        "open door": 0.6,
        "barred door": 0.2,
        "extra key": 0.1,
        "extra turn": 0.1,
    }


def test_a_turn_is_draw_play_move_and_moving_is_optional():
    """ "Players MUST draw ONE card each turn. Players MUST use ONE card each turn. It is NOT
    necessary to move each turn." Play moves clockwise around the table."""
    s = castle(players=4, hands=[["key red"] * 4, *[FILL] * 3])
    assert s.edges == ["bottom", "left", "top", "right"]
    assert "stay" not in legal(s)
    s = act(s, 0, "discard key red")
    assert "stay" in legal(s) and GAME.default_action(s, 0) == "stay"
    s = act(s, 0, "stay")
    assert s.turn == 1 and s.phase == "draw"
    s = chance(s, "hacksaw")
    assert s.hands[1] == ["hacksaw", *FILL] and s.phase == "play"


def test_an_empty_draw_pile_is_the_shuffled_discards():
    """ "If the draw pile ever gets depleted, simply shuffle the discard pile and start a new
    draw pile.\""""
    s = castle(hands=[["key red"] * 4, FILL])
    s.deck = {k: 0 for k in s.deck}
    s.discard = {"padlock": 2, "net": 1}
    s = act(s, 0, "discard key red", "stay")
    assert s.discard == {} and s.deck["padlock"] == 2 and s.deck["key red"] == 1
    assert dict(GAME.chance_outcomes(s)) == {"key red": 0.25, "padlock": 0.5, "net": 0.25}


def test_entering_from_your_own_edge():
    """ "Players ideally begin the game by opening a door along their starting side with a
    matching colored Key card. And unless the door is barred, players now move their
    CHARACTER into the open door.\""""
    s = castle(hands=[["key red"] * 4, []])
    tile(s, "c1", "barred door")
    tile(s, "e8")  # the other side's row is not Ann's way in
    s = act(s, 0, "play key red", "target a1")
    s = chance(s, "open door")
    assert [a for a in legal(s) if a.startswith("enter")] == ["enter a1"]
    assert "exit" not in legal(s)
    s = act(s, 0, "enter a1")
    assert s.at[0] == "a1" and s.turn == 1


def test_only_one_character_a_tile():
    """ "Only one CHARACTER may occupy a DOOR tile at one time. If someone is blocking your
    way, too bad!\""""
    s = castle(players=4, at=["a2", "a1", None, None], phase="move")
    tile(s, "a1")
    tile(s, "a2")
    tile(s, "b1")
    assert "move down" not in legal(s)
    with pytest.raises(IllegalAction, match="occupied"):
        GAME.apply(s, 0, "move down")
    s.at = [None, "a1", None, None]
    assert "enter a1" not in legal(s) and "enter b1" in legal(s)


def test_no_diagonal_steps_without_a_passage():
    """ "They can move either forward, backward, left, or right. However, CHARACTERS cannot
    move diagonally (unless there is a Secret Passage).\""""
    s = castle(at=["b2", None], phase="move")
    for cell in ("b2", "a1", "c3", "b3", "b1"):
        tile(s, cell)
    moves = sorted(a for a in legal(s) if a.startswith("move"))
    assert moves == ["move down", "move up"]
    with pytest.raises(IllegalAction, match="secret passage"):
        GAME.apply(s, 0, "move up-right")


def test_exit_back_to_your_side_and_enter_again_elsewhere():
    """ "you can always choose to use a move to exit the Castle (back to your starting side),
    and then re-enter the Castle on a later turn through a different door.\""""
    s = castle(hands=[FILL, FILL], at=["b1", None], phase="move")
    tile(s, "b1")
    tile(s, "d1")
    assert "exit" in legal(s)
    s = act(s, 0, "exit")
    assert s.at[0] is None and s.turn == 1
    s.phase, s.turn = "move", 0
    assert {"enter b1", "enter d1"} <= set(legal(s))
    s.at[0] = "b2"
    tile(s, "b2")
    assert "exit" not in legal(s)  # house decision: exit steps off your own first row


@pytest.mark.parametrize(
    ("players", "seat", "start", "step", "goal"),
    [
        (2, 0, "c7", "move up", "c8"),
        (2, 1, "c2", "move down", "c1"),
        (4, 1, "e3", "move right", "f3"),
        (4, 3, "b3", "move left", "a3"),
    ],
)
def test_first_onto_an_open_far_door_wins(players, seat, start, step, goal):
    """ "The first player to move their CHARACTER to an open door on the last row opposite
    their starting side wins! You win immediately when you reach the last open door.\""""
    at = [None] * players
    at[seat] = start
    s = castle(players=players, at=at, phase="move", turn=seat)
    tile(s, start)
    tile(s, goal, "extra turn")
    s = act(s, seat, step)
    assert GAME.to_act(s) == []
    result = GAME.result(s)
    assert result.ranking[0] == [seat] and result.scores[seat] == 1.0
    assert NAMES[seat] in result.summary


def test_reaching_your_own_first_row_does_not_win():
    """ "the last row opposite their starting side": only the far row counts."""
    s = castle(at=["c2", None], phase="move")
    tile(s, "c2")
    tile(s, "c1")
    s = act(s, 0, "move down")
    assert GAME.result(s) is None and s.turn == 1


def test_extra_key_tile_gives_one_door_of_any_colour_once():
    """EXTRA KEY TILES: "Any player who lands on an Extra Key tile receives a bonus action.
    They are able to open or close another door (of any color)." "it does NOT grant players
    an extra move." "The Extra Key cannot remove a Padlock.\""""
    s = castle(hands=[FILL, FILL], at=["a1", None], phase="move")
    tile(s, "a1")
    tile(s, "b1", "extra key")
    s.tiles["c2"]["lock"] = True
    s = act(s, 0, "move right")
    assert s.phase == "bonus" and s.tiles["b1"]["used"] == [0]
    assert {"c1", "a2", "b2", "a1"} <= targets(s) and "c2" not in targets(s)
    assert "b1" not in targets(s)  # your own tile: occupied
    assert "pass" in legal(s) and GAME.default_action(s, 0) == "pass"
    s = act(s, 0, "target c1")
    s = chance(s, "open door")
    assert s.tiles["c1"]["open"] and s.turn == 1 and s.phase == "draw"


def test_extra_key_tile_once_per_player_but_others_may_use_it():
    """ "Once a player has used the Extra Key, they cannot use this bonus action again if they
    return to the tile. However, other players can use this bonus action if they move their
    CHARACTER to the tile.\""""
    s = castle(players=3, hands=[FILL] * 3, at=["a1", "a2", None], phase="move")
    tile(s, "a1")
    tile(s, "a2")
    tile(s, "b1", "extra key", used=[0])
    s = act(s, 0, "move right")
    assert s.phase == "draw" and s.turn == 1
    s.at[0], s.phase = "c1", "move"
    tile(s, "a1", "extra key", used=[0])
    s = act(s, 1, "move down")
    assert s.phase == "bonus" and s.tiles["a1"]["used"] == [0, 1]
    s = act(s, 1, "pass")
    assert s.turn == 2


def test_bonus_needs_landing_not_opening():
    """ "Players do not receive this bonus action just by opening the door. They must move
    their CHARACTER onto the tile to use the Extra Key.\""""
    s = castle(hands=[["key blue"] * 4, []])
    s = act(s, 0, "play key blue", "target b1")
    s = chance(s, "extra turn")
    assert s.phase == "move" and s.tiles["b1"]["used"] == [] and not s.extra
    s = act(s, 0, "stay")
    assert s.turn == 1


def test_extra_turn_tile_gives_a_whole_bonus_turn_once():
    """EXTRA TURN TILES: "Any player who lands on an Extra Turn tile receives a bonus turn.
    Just like a regular turn, players draw a card, play a card, and move their CHARACTER."
    "Once a player has used the Extra Turn, they cannot use this bonus action again.\""""
    s = castle(hands=[["key red"] * 3, FILL], phase="move")
    tile(s, "b1", "extra turn")
    s = act(s, 0, "enter b1")
    assert s.turn == 0 and s.phase == "draw" and s.tiles["b1"]["used"] == [0]
    s = chance(s, "net")
    s = act(s, 0, "discard net")
    tile(s, "a1")
    s = act(s, 0, "move left")
    assert s.turn == 1
    s.turn, s.phase = 0, "move"
    s = act(s, 0, "move right")  # back onto b1: no second bonus turn
    assert s.turn == 1


def test_a_netted_player_on_an_extra_turn_tile_gets_no_new_bonus():
    """NET: "your opponent must draw and play a card, however they cannot move": a trapped
    player never lands anywhere, so nets and bonus tiles never mix."""
    s = castle(hands=[[*FILL, "net"], FILL], at=["a1", None])
    tile(s, "a1")
    tile(s, "b1", "extra turn")
    s.netted[0] = 1
    s = act(s, 0, "discard net")
    assert s.turn == 1 and s.at[0] == "a1" and s.discard["net"] == 2


def test_exit_only_from_the_row_along_your_edge_is_explained():
    """ "use a move to exit the Castle (back to your starting side)": a move is one step, so
    it is taken from the row along your own edge (house decision), and a refusal says so."""
    s = castle(at=["c3", None], phase="move")
    tile(s, "c3")
    with pytest.raises(IllegalAction, match="row along your own edge"):
        GAME.apply(s, 0, "exit")


def test_a_sawn_barred_door_in_the_far_row_wins():
    """HACKSAW: "Used to permanently open a Barred Door": it is an open door, so it wins."""
    s = castle(at=["b7", None], phase="move")
    tile(s, "b7")
    tile(s, "b8", "barred door", sawn=True)
    s = act(s, 0, "move up")
    assert GAME.result(s).ranking[0] == [0]


def test_closed_doors_cannot_be_crossed_or_entered():
    """DOOR TILES: "One side shows only closed doors - this is the side facing up at the
    beginning of the game. Players cannot pass through closed doors.\""""
    s = castle(at=["b1", None], phase="move")
    tile(s, "b1")
    tile(s, "c1", open=False)  # seen once, shut again: still a closed door
    assert [a for a in legal(s) if a.startswith(("move", "enter"))] == []
    with pytest.raises(IllegalAction, match="c1 is closed"):
        GAME.apply(s, 0, "move right")
    s.at[0] = None
    s.tiles["b1"]["open"] = False
    assert legal(s) == ["stay"]  # the whole first row is shut: nowhere to enter
    with pytest.raises(IllegalAction, match="free open door of the row along your own edge"):
        GAME.apply(s, 0, "enter a1")
