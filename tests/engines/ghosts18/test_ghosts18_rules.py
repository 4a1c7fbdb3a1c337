"""18 Ghosts scenarios, each naming the passage of the rulebook (docs/games.md) it checks."""

from __future__ import annotations

import pytest

from engines import REGISTRY, IllegalAction
from engines.ghosts18.game import Ghosts18State, placer

G = REGISTRY["ghosts18"]


def position(board: dict[str, tuple[int, str]], turn: int = 0, **kw) -> Ghosts18State:
    """A play-phase state with exactly these ghosts on the board."""
    none = {"red": 0, "blue": 0, "yellow": 0}
    return Ghosts18State(
        names=["Ann", "Bob"],
        board={cell: list(g) for cell, g in board.items()},
        unplaced=[dict(none), dict(none)],
        placed=18,
        turn=turn,
        **kw,
    )


def test_placement_order_a_one_b_two_then_alternate():
    """'He takes one of his ghosts ... Then player B has to place two ... After that, the
    players take turns placing one'."""
    order = [placer(k) for k in range(18)]
    assert order[:5] == [0, 1, 1, 0, 1]
    assert order.count(0) == 9 and order.count(1) == 9
    s = G.setup(["Ann", "Bob"])
    assert G.to_act(s) == [0]
    s, _ = G.apply(s, 0, "place b1")
    assert G.to_act(s) == [1]
    s, _ = G.apply(s, 1, "place a1")
    assert G.to_act(s) == [1]
    s, _ = G.apply(s, 1, "place d1")
    assert G.to_act(s) == [0]


def test_placement_needs_an_empty_chamber_of_the_ghosts_colour():
    """'places it in any empty chamber that has a carpet whose color matches the ghost's
    color' and 'the rooms with mirrors should be empty'."""
    s = G.setup(["Ann", "Bob"])
    legal = G.legal_actions(s, 0)
    assert len(legal) == 18  # every carpet, none of the 4 mirrors or 3 portals
    assert "place b2" not in legal and "place c1" not in legal
    s, events = G.apply(s, 0, "place b1")
    assert s.board["b1"] == [0, "red"] and "red" in events[0].text
    with pytest.raises(IllegalAction):
        G.apply(s, 1, "place b1")  # occupied now


def test_a_player_out_of_a_colour_cannot_place_it():
    """'Each player gets a set of 9 ghosts of the same type (3 of each color)'."""
    s = G.setup(["Ann", "Bob"])
    s.unplaced[0]["red"] = 0
    legal = G.legal_actions(s, 0)
    assert not any(a in legal for a in ("place b1", "place e1", "place a3"))


def test_move_one_step_orthogonally_to_any_carpet():
    """'move one of your ghosts 1 space orthogonally ... the color of the carpet doesn't matter'."""
    s = position({"c3": (0, "red"), "a5": (1, "blue")})
    legal = G.legal_actions(s, 0)
    assert {"move c3 up", "move c3 down", "move c3 left", "move c3 right"} <= set(legal)
    s2, _ = G.apply(s, 0, "move c3 right")  # onto a blue carpet
    assert s2.board["d3"] == [0, "red"] and "c3" not in s2.board
    assert G.to_act(s2) == [1]


def test_no_diagonal_steps_and_no_moving_the_opponents_ghost():
    """'(not diagonally)' and 'You may never move your opponent's ghost.'"""
    s = position({"c3": (0, "red"), "a5": (1, "blue")})
    with pytest.raises(IllegalAction):
        G.apply(s, 0, "move c3 upleft")
    with pytest.raises(IllegalAction, match="not yours"):
        G.apply(s, 0, "move a5 up")


def test_portal_chambers_hold_no_ghost():
    """Board facts: 'Portal chambers hold no ghost.'"""
    s = position({"c2": (0, "yellow"), "a5": (1, "blue")})
    assert "move c2 up" not in G.legal_actions(s, 0)
    with pytest.raises(IllegalAction, match="portal"):
        G.apply(s, 0, "move c2 up")


def test_mirror_jump_to_an_empty_mirror_chamber():
    """'or from one mirror chamber to another mirror chamber'; a jump needs an empty mirror."""
    s = position({"b2": (0, "red"), "d4": (1, "blue"), "a5": (1, "yellow")})
    legal = G.legal_actions(s, 0)
    assert "jump b2 d2" in legal and "jump b2 b4" in legal and "jump b2 d4" not in legal
    s2, _ = G.apply(s, 0, "jump b2 b4")
    assert s2.board["b4"] == [0, "red"]


def test_fight_red_beats_blue_and_the_loser_goes_to_the_dungeon():
    """'Red ghosts beat blue ones ... The winner stays in the chamber, but the loser
    immediately goes to the dungeon.'"""
    s = position({"a3": (0, "red"), "b3": (1, "blue"), "e5": (1, "yellow")})
    s2, events = G.apply(s, 0, "move a3 right")
    assert s2.board["b3"] == [0, "red"] and "a3" not in s2.board
    assert s2.dungeon[1]["blue"] == 1
    assert events[0].kind == "fight"


def test_attacker_that_loses_goes_to_the_dungeon():
    """'Player A moves his blue ghost into a chamber with a red ghost of his opponent. The
    blue ghost is beaten.'"""
    s = position({"a4": (0, "blue"), "a3": (1, "red"), "e5": (1, "yellow")})
    s2, _ = G.apply(s, 0, "move a4 up")
    assert s2.board["a3"] == [1, "red"] and "a4" not in s2.board
    assert s2.dungeon[0]["blue"] == 1


def test_fighting_your_own_ghost_is_allowed_and_same_colours_never_fight():
    """'You are welcome to beat up your own ghosts' and 'The ghost must be a different color!'"""
    s = position({"a3": (0, "yellow"), "b3": (0, "red"), "a4": (0, "yellow"), "e5": (1, "blue")})
    s2, _ = G.apply(s, 0, "move a3 right")  # yellow beats red, both Ann's
    assert s2.board["b3"] == [0, "yellow"] and s2.dungeon[0]["red"] == 1
    assert "move a3 down" not in G.legal_actions(s, 0)
    with pytest.raises(IllegalAction, match="different colour"):
        G.apply(s, 0, "move a3 down")


@pytest.mark.parametrize(
    ("loser_colour", "start", "after"),
    [("red", "up", "right"), ("blue", "down", "left"), ("yellow", "right", "down")],
)
def test_a_beaten_ghost_turns_its_portal_clockwise(loser_colour, start, after):
    """'Every time a ghost is beaten, the portal that is the same color as the defeated ghost
    will turn 90 degrees clockwise.'"""
    winner = {"red": "yellow", "blue": "red", "yellow": "blue"}[loser_colour]
    s = position({"a3": (0, winner), "b3": (1, loser_colour), "e5": (1, "yellow")})
    if loser_colour == "yellow":
        s.board["e5"] = [1, "red"]
    assert s.portals[loser_colour] == start
    s2, _ = G.apply(s, 0, "move a3 right")
    assert s2.portals[loser_colour] == after


def test_escape_is_automatic_on_anyones_turn():
    """'he automatically and immediately escapes from the castle. This doesn't count as an
    action, and happens regardless of whose turn it is.' Here Ann's fight turns the red
    portal to face d1, where Bob's red ghost waits: Bob's ghost escapes on Ann's turn."""
    s = position({"a3": (0, "yellow"), "b3": (0, "red"), "d1": (1, "red"), "e5": (1, "blue")})
    s2, events = G.apply(s, 0, "move a3 right")  # yellow beats Ann's own red: red portal turns
    assert s2.portals["red"] == "right"
    assert "d1" not in s2.board and s2.escaped[1]["red"] == 1
    assert any(e.kind == "escape" for e in events)


def test_ghost_of_another_colour_does_not_escape():
    """'and the ghost is the same color as the portal'."""
    s = position(
        {"e4": (0, "red"), "c3": (1, "blue")},
        portals={"red": "up", "yellow": "down", "blue": "down"},
    )
    s2, _ = G.apply(s, 0, "move e4 left")
    s3, _ = G.apply(s2, 1, "move c3 right")
    assert s3.escaped == [{"red": 0, "blue": 0, "yellow": 0}] * 2


def test_moving_in_front_of_an_open_portal_escapes():
    """'Whenever a ghost is in the chamber that the open side of the portal faces'."""
    s = position(
        {"e5": (0, "yellow"), "a1": (1, "blue")},
        portals={"red": "up", "yellow": "down", "blue": "down"},
    )
    s2, _ = G.apply(s, 0, "move e5 up")  # e4 is in front of the yellow portal facing down
    assert s2.escaped[0]["yellow"] == 1 and "e4" not in s2.board


def test_a_portal_facing_the_wall_lets_nobody_out():
    """'The open side of each of the the three portals starts facing the outer wall.'"""
    s = position({"d1": (0, "red"), "b1": (0, "red"), "a5": (1, "blue")})
    assert s.portals["red"] == "up"
    s2, _ = G.apply(s, 0, "move d1 down")
    assert s2.escaped[0]["red"] == 0


def test_release_hands_the_ghost_to_the_opponent_who_places_it():
    """'Take one of your ghosts from the dungeon, and give it to your opponent. Now, your
    opponent has to place the ghost ... in a chamber whose carpet is the same color'."""
    s = position(
        {"a1": (0, "blue"), "a5": (1, "yellow")},
        dungeon=[{"red": 1, "blue": 0, "yellow": 0}, {"red": 0, "blue": 0, "yellow": 0}],
    )
    assert "release red" in G.legal_actions(s, 0)
    s2, _ = G.apply(s, 0, "release red")
    assert G.to_act(s2) == [1]
    assert all(a.startswith("place") for a in G.legal_actions(s2, 1))
    assert "place a3" in G.legal_actions(s2, 1) and "place a2" not in G.legal_actions(s2, 1)
    s3, _ = G.apply(s2, 1, "place a3")
    assert s3.board["a3"] == [0, "red"] and s3.dungeon[0]["red"] == 0
    assert G.to_act(s3) == [1]  # Ann's turn ended with the placement; Bob plays


def test_no_release_without_an_empty_chamber_of_that_colour():
    """'You may not release a ghost from the dungeon if there are no empty chambers of his color.'"""
    reds = {c: (1, "red") for c in ("b1", "e1", "a3", "c3", "e4", "b5")}
    s = position(
        {**reds, "a1": (0, "blue")},
        dungeon=[{"red": 1, "blue": 0, "yellow": 0}, {"red": 0, "blue": 0, "yellow": 0}],
    )
    assert "release red" not in G.legal_actions(s, 0)
    with pytest.raises(IllegalAction, match="no empty red"):
        G.apply(s, 0, "release red")


def test_win_with_one_ghost_of_each_colour_outside():
    """'be the first to have a red ghost, a blue ghost, and a yellow ghost outside the castle.
    When this happens, the game ends immediately.'"""
    s = position(
        {"e5": (0, "yellow"), "a1": (1, "blue")},
        portals={"red": "up", "yellow": "down", "blue": "down"},
        escaped=[{"red": 1, "blue": 2, "yellow": 0}, {"red": 0, "blue": 0, "yellow": 0}],
    )
    s2, events = G.apply(s, 0, "move e5 up")
    assert G.to_act(s2) == [] and s2.winner == 0
    result = G.result(s2)
    assert result.ranking == [[0], [1]] and "Ann" in result.summary
    assert events[-1].kind == "win"


def test_three_ghosts_of_one_colour_do_not_win_the_standard_game():
    """'one (or more) of each of his color of ghosts outside the castle'."""
    s = position(
        {"e5": (0, "yellow"), "a1": (1, "blue")},
        portals={"red": "up", "yellow": "down", "blue": "down"},
        escaped=[{"red": 0, "blue": 0, "yellow": 2}, {"red": 0, "blue": 0, "yellow": 0}],
    )
    s2, _ = G.apply(s, 0, "move e5 up")
    assert s2.escaped[0]["yellow"] == 3 and s2.winner is None


def test_short_variant_any_three_win():
    """'VARIANT FOR SHORTER PLAY ... you win by getting any three of your ghosts outside'."""
    s = position(
        {"e5": (0, "yellow"), "a1": (1, "blue")},
        short=True,
        portals={"red": "up", "yellow": "down", "blue": "down"},
        escaped=[{"red": 0, "blue": 0, "yellow": 2}, {"red": 0, "blue": 0, "yellow": 0}],
    )
    s2, _ = G.apply(s, 0, "move e5 up")
    assert s2.winner == 0


def test_simultaneous_escapes_resolve_red_blue_yellow_and_stop_at_a_win():
    """House decision (rules text): several escapes at once leave red, then blue, then yellow;
    the first escape that completes a set ends the game."""
    s = position(
        {
            "d1": (1, "red"),
            "e2": (0, "yellow"),
            "b5": (0, "blue"),
            "a3": (0, "yellow"),
            "b3": (0, "red"),
        },
        portals={"red": "up", "yellow": "up", "blue": "left"},
        escaped=[{"red": 1, "blue": 0, "yellow": 1}, {"red": 0, "blue": 1, "yellow": 1}],
    )
    # Turning red to face d1 releases Bob's red ghost first: Bob completes his set and wins.
    # Ann's blue ghost on b5, in front of the blue portal, would have completed hers, but
    # blue resolves after red and the game is already over.
    s2, _ = G.apply(s, 0, "move a3 right")
    assert s2.escaped[0]["blue"] == 0 and "b5" in s2.board
    assert s2.winner == 1


def test_a_player_with_no_possible_action_passes():
    """House decision (rules text): a player who has no possible action passes."""
    s = position({"a5": (1, "blue")})
    assert G.legal_actions(s, 0) == ["pass"]
    s2, _ = G.apply(s, 0, "pass")
    assert G.to_act(s2) == [1]


def test_everything_is_public():
    """18 Ghosts has no hidden information: both seats and spectators see the same."""
    s = position({"a3": (0, "red"), "b3": (1, "blue")})
    public = {k: v for k, v in G.view(s, None).items() if k != "viewer"}
    for seat in (0, 1):
        assert {k: v for k, v in G.view(s, seat).items() if k != "viewer"} == public
