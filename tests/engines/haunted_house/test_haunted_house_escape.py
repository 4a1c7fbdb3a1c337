"""Haunted House escapes (the rulebook, docs/games.md: "End of Turn"): stopped, won, and
the 2-player double ghost; each test names the passage it checks."""

from __future__ import annotations

import render
from engines import CHANCE
from tests.engines.haunted_house.test_haunted_house_helpers import G, act, draw, house, table

ALMOST = ({"rooms": 2}, {"rooms": 2}, {"rooms": 1})  # one room short of a full house


def escaping(hands, top: dict | None = None, escaper: int = 0):
    """`escaper` plays the last room (a room3b2 added to their hand), says `done` and so
    starts an escape."""
    floors = [*ALMOST[:2], {**ALMOST[2], **(top or {})}]
    hands = [list(h) for h in hands]
    hands[escaper].append("room3b2")
    s = table(hands, {escaper: house(*floors)}, turn=escaper)
    return act(s, escaper, "play room3b2", "done")


def test_a_full_house_does_not_refill_and_an_unstopped_escape_wins():
    """'If the active player's house is fully explored (even if the lights are off), the player
    does not refill their hand. ... If the escape is NOT stopped, the escaping player wins'."""
    s = escaping([["cat"], ["room1b1"], ["room1b1"]])
    assert not s.draws and s.hands[0] == ["cat"]
    assert G.to_act(s) == [1] and G.legal_actions(s, 1) == ["pass"]
    s = act(s, 1, "pass")
    assert G.to_act(s) == [2] and G.result(s) is None
    s = act(s, 2, "pass")
    assert G.to_act(s) == [] and s.winner == 0
    result = G.result(s)
    assert result.ranking == [[0], [1, 2]] and "Ann" in result.summary


def test_every_other_player_is_asked_in_turn_order():
    """'each other player has a chance to play 1 ghost to stop the escape'."""
    s = escaping([["cat"], ["cat"], ["room1b1"], ["ghost"]], escaper=2)
    order = []
    while G.to_act(s):
        seat = G.to_act(s)[0]
        order.append(seat)
        assert G.default_action(s, seat) == "pass"  # a timer closes the window
        s = act(s, seat, "pass")
    assert order == [3, 0, 1] and s.winner == 2


def test_a_ghost_that_takes_a_floor_stops_the_escape_and_all_refill_from_the_escaper():
    """'If the escape is stopped, all players refill their hands starting with the player who
    tried to escape. Then, the next player after the player who tried to escape resumes'."""
    s = escaping([[], ["ghost"], ["ghost"]])
    s = act(s, 1, "pass")
    assert G.legal_actions(s, 2) == ["ghost p1", "pass"]
    s = act(s, 2, "ghost p1")
    assert G.to_act(s) == [0] and G.legal_actions(s, 0) == ["pass"]  # asked, no cat
    s = act(s, 0, "pass")
    assert s.houses[0][2].rooms == [] and s.winner is None
    assert [seat for seat, _ in s.draws] == [0, 1, 2]
    s = draw(s, "cat", "cat", "cat")
    assert len(s.hands[0]) == 3 and s.hands[1] == ["ghost"]  # Ann first
    s = draw(s, "wild", "wild", "ghost", "ghost", "ghost")
    assert [len(h) for h in s.hands] == [3, 3, 3]
    assert G.to_act(s) == [1] and s.turn == 1


def test_the_target_may_cat_each_escape_ghost():
    """'As usual, the player targeted by ghost(s) may discard cat(s) from their hand to
    defend.'"""
    s = escaping([["cat"], ["ghost"], ["ghost"]])
    s = act(s, 1, "ghost p1")
    assert G.legal_actions(s, 0) == ["cat", "pass"]
    s = act(s, 0, "cat")
    assert len(s.houses[0][2].rooms) == 2 and G.to_act(s) == [2]  # the escape goes on
    s = act(s, 2, "ghost p1")
    s = act(s, 0, "pass")  # no cat left: the floor falls
    assert s.houses[0][2].rooms == [] and s.turn == 1 and G.to_act(s) == [CHANCE]


def test_two_players_the_opponent_may_play_two_ghosts():
    """'In a 2-player game, the opponent may play up to 2 ghosts to stop the escape.'"""
    s = escaping([[], ["ghost", "ghost"]], top={"cats": 1})
    s = act(s, 1, "ghost p1")  # the cat on the top floor cancels the first
    assert s.houses[0][2].cats == 0 and len(s.houses[0][2].rooms) == 2
    assert G.to_act(s) == [1] and G.legal_actions(s, 1) == ["ghost p1", "pass"]
    s = act(s, 1, "ghost p1")
    s = act(s, 0, "pass")
    assert s.houses[0][2].rooms == [] and s.winner is None and s.turn == 1


def test_two_players_a_pass_ends_the_chance_of_a_second_ghost():
    """'the opponent may play up to 2 ghosts' (passing gives up the rest: a house decision)."""
    s = escaping([[], ["ghost", "ghost"]])
    s = act(s, 1, "pass")
    assert s.winner == 0


def test_three_players_only_one_ghost_each():
    """'each other player has a chance to play 1 ghost to stop the escape.'"""
    s = escaping([["cat"], ["ghost", "ghost"], []], top={"cats": 1})
    s = act(s, 1, "ghost p1")  # cancelled by the cat on the floor
    assert G.to_act(s) == [2]  # Bob's one ghost is spent
    s = act(s, 2, "pass")
    assert s.winner == 0


def test_a_ghost_on_a_lit_top_floor_does_not_stop_the_escape():
    """'If the light for that floor is on, the ghost stays unless there are 2 ghosts'; a ghost
    may not join it ('must not have a ghost'), so the escape goes through."""
    s = escaping([[], ["ghost", "ghost"]], top={"lit": True})
    s = act(s, 1, "ghost p1")
    s = act(s, 0, "pass")
    assert s.houses[0][2].ghosts == 1 and len(s.houses[0][2].rooms) == 2
    assert G.legal_actions(s, 1) == ["pass"]
    s = act(s, 1, "pass")
    assert s.winner == 0


def test_two_players_a_cat_from_hand_answers_the_first_ghost_and_the_second_stops_it():
    """'In a 2-player game, the opponent may play up to 2 ghosts to stop the escape. As usual,
    the player targeted by ghost(s) may discard cat(s) from their hand to defend.' Then 'If
    the escape is stopped, all players refill their hands starting with the player who tried
    to escape.'"""
    s = escaping([["cat"], ["ghost", "ghost", "room1b1"]])
    assert G.to_act(s) == [1] and G.legal_actions(s, 1) == ["ghost p1", "pass"]
    s = act(s, 1, "ghost p1")
    assert G.legal_actions(s, 0) == ["cat", "pass"]
    s = act(s, 0, "cat")  # the first ghost is cancelled; the house is still whole
    assert len(s.houses[0][2].rooms) == 2 and s.hands[0] == []
    assert G.to_act(s) == [1] and G.legal_actions(s, 1) == ["ghost p1", "pass"]
    s = act(s, 1, "ghost p1")
    assert G.legal_actions(s, 0) == ["pass"]
    s = act(s, 0, "pass")  # the dark top floor falls: the escape is stopped
    assert s.houses[0][2].rooms == [] and s.winner is None
    assert s.draws == [[0, 3], [1, 3]] and G.to_act(s) == [CHANCE]
    s = draw(s, "room3b1", "room3b1", "room3b1", "cat", "cat")
    assert s.hands[0] == ["room3b1"] * 3 and s.hands[1] == ["room1b1", "cat", "cat"]
    assert s.turn == 1 and G.to_act(s) == [1]
    assert s.discard == {"ghost": 2, "cat": 1, "room3b1": 1, "room3b2": 1}


def test_the_escaper_stays_marked_while_a_ghost_against_the_escape_is_answered():
    """'each other player has a chance to play 1 ghost to stop the escape. As usual, the
    player targeted by ghost(s) may discard cat(s)': the table shows both questions."""
    s = escaping([["cat"], ["ghost"]])
    assert G.view(s, None)["escaper"] == 0 and G.view(s, None)["window"]["kind"] == "escape"
    s = act(s, 1, "ghost p1")
    public = G.view(s, None)
    assert public["escaper"] == 0 and public["window"]["kind"] == "defend"
    assert "Ann's floor 3 to stop the escape" in render.describe("haunted_house", public)
    s = act(act(s, 0, "cat"), 1, "pass")  # Bob has no second ghost
    assert s.winner == 0 and G.view(s, None)["escaper"] is None
