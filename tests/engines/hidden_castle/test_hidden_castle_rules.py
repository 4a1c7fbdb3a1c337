"""Escape from the Hidden Castle, standard game: scenarios naming the passage of
the rulebook (docs/games.md) they check, with the die forced through chance outcomes."""

from __future__ import annotations

import pytest

from engines import CHANCE, REGISTRY, IllegalAction
from engines.hidden_castle import board as B
from engines.hidden_castle.game import HiddenCastleState

G = REGISTRY["hidden_castle"]
NAMES = ["Landry", "Jonah", "Claire", "Rivka-Simone", "Ann", "Bo", "Cy", "Di"]


def position(
    players: int = 2,
    guests: dict[str, tuple[str, int]] | None = None,
    phantom: int | None = None,
    climbed: int | None = None,
    turn: int = 0,
    **fields,
) -> HiddenCastleState:
    """A play-phase state holding only the listed guests: letter -> (where, place).
    Places: ("gallery", space), ("chamber", doorway), ("step", step value). Unlisted guests
    stay in the box, out of play. `phantom` puts the Phantom on that Gallery space."""
    s = G.setup(NAMES[:players], {"variant": fields.pop("variant", "standard")})
    s.queue, s.phase, s.turn = [], "roll", turn
    for letter, (where, place) in (guests or {}).items():
        g = ord(letter) - ord("a")
        if where == "step":
            s.where[g], s.pos[g] = "stairs", B.STEPS[s.variant].index(place)
        else:
            s.where[g], s.pos[g] = where, place
    if phantom is not None:
        s.climbed, s.phantom = B.CLIMB, phantom
    if climbed is not None:
        s.climbed = climbed
    for name, value in fields.items():
        setattr(s, name, value)
    return s


def roll(s, face: str):
    return G.apply(s, CHANCE, face)


def where(s, letter: str) -> tuple[str, int]:
    g = ord(letter) - ord("a")
    if s.where[g] == "stairs":
        return "step", B.STEPS[s.variant][s.pos[g]]
    return s.where[g], s.pos[g]


# ----- set-up --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "each"), [(2, 6), (3, 5), (4, 4), (5, 3), (6, 2), (7, 2), (8, 2)]
)
def test_guests_per_player_count(players, each):
    """SET UP table: '2 6 ... 3 5 ... 4 4 ... 5 3 ... 6-8 2'."""
    s = G.setup(NAMES[:players])
    for seat in range(players):
        assert s.owner.count(seat) == each
    assert len(G.legal_actions(s, 0)) == 28


def test_tokens_on_ten_clock_on_eleven_forty_five_phantom_on_its_start():
    """'Place all of the Scoring Tokens on the number 10', 'the Phantom Token on the first
    clock (11:45)', 'Place the Phantom on the bottom door of the dungeon staircase'."""
    s = G.setup(NAMES[:4])
    assert s.scores == [10, 10, 10, 10]
    assert B.CLOCKS[s.clock] == "11:45"
    assert s.climbed == 0 and s.phantom == 0
    view = G.view(s, None)
    assert view["phantom"] == {"climbed": 0, "space": 0}


def test_placement_one_guest_at_a_time_in_turn_order_on_empty_gallery_spaces():
    """'take turns placing one Guest on any empty space in the Gallery ... may not place
    Guests on the dungeon staircase'."""
    s = G.setup(NAMES[:3])
    order = []
    spaces = iter(range(1, 16))
    while G.to_act(s) != [CHANCE]:
        seat = G.to_act(s)[0]
        order.append(seat)
        space = next(spaces)
        assert f"place {space}" in G.legal_actions(s, seat)
        s, _ = G.apply(s, seat, f"place {space}")
        assert f"place {space}" not in G.legal_actions(s, G.to_act(s)[0]) or not s.queue
    assert order == [0, 1, 2] * 5
    assert all(w == "gallery" for w in s.where)
    assert sorted(s.pos) == list(range(1, 16))
    with pytest.raises(IllegalAction):
        G.apply(G.setup(NAMES[:2]), 0, "place 29")  # no such Gallery space


def test_placing_on_an_occupied_space_is_refused():
    """'placing one Guest on any empty space in the Gallery'."""
    s = G.setup(NAMES[:2])
    s, _ = G.apply(s, 0, "place 5")
    with pytest.raises(IllegalAction, match="Space 5 is taken"):
        G.apply(s, 1, "place 5")
    with pytest.raises(IllegalAction, match="empty Gallery space from 1 to 28"):
        G.apply(s, 1, "place 0")
    with pytest.raises(IllegalAction, match=r"with `place N`.*e\.g\. `place 1`"):  # the syntax
        G.apply(s, 1, "place a 5")


# ----- the die and guest moves -------------------------------------------------------------
def test_die_is_a_chance_node_with_two_phantom_faces():
    """The die: 1, 2, 4, 5 and the Phantom on two faces (where 3 and 6 would be)."""
    s = position(guests={"a": ("gallery", 5)})
    assert G.to_act(s) == [CHANCE]
    outcomes = dict(G.chance_outcomes(s))
    assert set(outcomes) == {"1", "2", "4", "5", "phantom"}
    assert outcomes["phantom"] == pytest.approx(2 / 6)
    assert outcomes["4"] == pytest.approx(1 / 6)


def test_moving_one_guest_clockwise_around_the_corner():
    """'move one of your Guests the number of spaces shown on the die in a clockwise
    direction'."""
    s = position(guests={"a": ("gallery", 27), "b": ("gallery", 10)})
    s, _ = roll(s, "4")
    assert G.to_act(s) == [0]
    assert sorted(G.legal_actions(s, 0)) == ["move a", "move b"]
    s, _ = G.apply(s, 0, "move a")
    assert where(s, "a") == ("gallery", 3)  # 28, 1, 2, 3
    assert where(s, "b") == ("gallery", 10)
    assert G.to_act(s) == [CHANCE] and s.turn == 1


def test_several_guests_may_share_a_space():
    """'more than one Guest may end a move on the same space'."""
    s = position(guests={"a": ("gallery", 5), "g": ("gallery", 9)})
    s, _ = roll(s, "4")
    s, _ = G.apply(s, 0, "move a")
    assert where(s, "a") == where(s, "g") == ("gallery", 9)


def test_a_guest_of_another_player_is_refused_with_a_reason():
    """'move one of your Guests'."""
    s = position(guests={"a": ("gallery", 5), "g": ("gallery", 9)})
    s, _ = roll(s, "2")
    with pytest.raises(IllegalAction, match="not yours"):
        G.apply(s, 0, "move g")


def test_passing_the_phantom_is_safe():
    """'The Phantom does not capture your Guest if you move it past the Phantom.'"""
    s = position(guests={"a": ("gallery", 5)}, phantom=7)
    s, _ = roll(s, "4")
    s, _ = G.apply(s, 0, "move a")
    assert where(s, "a") == ("gallery", 9)
    assert s.scores == [10, 10]


def test_ending_on_the_phantom_is_a_capture():
    """'the Phantom does capture your Guest if your Guest ends your turn on the same space
    as the Phantom'."""
    s = position(guests={"a": ("gallery", 5)}, phantom=7)
    s, _ = roll(s, "2")
    s, events = G.apply(s, 0, "move a")
    assert where(s, "a") == ("step", 10)
    assert s.scores == [20, 10]
    assert any(e.kind == "capture" for e in events)


def test_you_must_move_a_guest_every_turn():
    """'You must move one of your Guests on every turn.'"""
    s = position(guests={"a": ("gallery", 5)})
    s, _ = roll(s, "1")
    assert G.legal_actions(s, 0) == ["move a"]
    with pytest.raises(IllegalAction, match="must move"):
        G.apply(s, 0, "stay")


# ----- the Phantom -------------------------------------------------------------------------
def test_phantom_climbs_step_by_step_then_enters_the_gallery_at_the_exit():
    """'the Phantom climbs up the steps one at a time', 'Once the Phantom passes the exit,
    it turns to the right', 'When the Phantom reaches the exit, move the Phantom Token from
    the first clock ... to the second clock'."""
    s = position(guests={"a": ("gallery", 20)})
    s, _ = roll(s, "phantom")
    assert (s.climbed, s.phantom, s.clock) == (3, 0, 0)
    s, _ = roll(s, "phantom")
    assert (s.climbed, s.phantom, s.clock) == (6, 0, 0)
    s, events = roll(s, "phantom")
    assert (s.phantom, B.CLOCKS[s.clock]) == (B.EXIT, "12:00")
    assert any("12:00" in e.text for e in events)
    assert (
        events[1].text == "The Phantom climbs out of the dungeon by the exit: 3 spaces to space 1."
    )
    s, _ = roll(s, "phantom")
    assert s.phantom == 4 and s.climbed == B.CLIMB  # never back to the dungeon


def test_rolling_the_phantom_moves_no_guest():
    """'You may not move your Guests on a turn when you move the Phantom.'"""
    s = position(guests={"a": ("gallery", 20)}, turn=1)
    s, _ = roll(s, "phantom")
    assert G.to_act(s) == [CHANCE] and s.turn == 0
    assert where(s, "a") == ("gallery", 20)


def test_the_phantom_captures_nothing_on_the_staircase():
    """'Once the Phantom is in the Gallery, it captures a Guest every time it passes'."""
    s = position(guests={"a": ("gallery", 2)})
    s, _ = roll(s, "phantom")
    assert where(s, "a") == ("gallery", 2)


def test_phantom_arriving_at_the_exit_captures_a_guest_standing_there():
    """House decision: the exit is Gallery space 1, so the Phantom reaching it captures."""
    s = position(guests={"a": ("gallery", 1)}, climbed=6)
    s, _ = roll(s, "phantom")
    assert where(s, "a") == ("step", 10)


def test_landry_jonah_claire_capture_example():
    """'the Phantom passes Landry's piece and moves it to the +10 step ... The Phantom
    lands on Jonah's and Claire's pieces and moves them to the +9 step.'"""
    # Three players, five guests each: Landry a-e, Jonah f-j, Claire k-o.
    s = position(
        players=3,
        guests={"a": ("gallery", 13), "f": ("gallery", 15), "k": ("gallery", 15)},
        phantom=12,
    )
    s, events = roll(s, "phantom")  # 3 spaces: 13, 14, 15
    assert s.phantom == 15
    assert where(s, "a") == ("step", 10)
    assert where(s, "f") == where(s, "k") == ("step", 9)
    assert s.scores == [20, 19, 19]
    assert [e.kind for e in events].count("capture") == 3


def test_captured_guests_take_the_highest_free_step():
    """'starting with the step with the highest number that doesn't have a Guest on it' and
    'As more Guests are captured, put them on the open step with the highest number.'"""
    s = position(
        guests={"a": ("step", 9), "b": ("gallery", 6), "g": ("gallery", 8)},
        phantom=5,
    )
    s, _ = roll(s, "phantom")
    assert where(s, "b") == ("step", 10)  # +10 was open again
    assert where(s, "g") == ("step", 8)  # +9 taken, next open step
    assert s.scores == [20, 18]


def test_when_every_step_is_full_captures_go_on_plus_ten():
    """'When all of the dungeon staircase steps have Guests on them, put any newly
    captured Guests on the +10 step.'"""
    full = {
        letter: ("step", value)
        for letter, value in zip("abcdefgh", B.STEPS["standard"], strict=True)
    }
    s = position(guests={**full, "i": ("gallery", 6)}, phantom=5)
    s, _ = roll(s, "phantom")
    assert where(s, "i") == ("step", 10)
    assert s.scores[1] == 20


def test_clock_advances_each_time_the_phantom_lands_on_or_passes_the_exit():
    """'Every time the Phantom lands on or passes the exit space, move the Phantom Token to
    the next clock' and 'The number below the clock shows how many spaces the Phantom will
    move'."""
    s = position(guests={"a": ("gallery", 10)}, phantom=27, clock=1)
    s, _ = roll(s, "phantom")  # 3 spaces: 28, 1, 2 (passes the exit)
    assert (s.phantom, B.CLOCKS[s.clock]) == (2, "1:00")
    assert G.speed(s) == 4
    s.phantom = 25
    s, _ = roll(s, "phantom")  # 4 spaces: 26, 27, 28, 1 (lands on it)
    assert (s.phantom, B.CLOCKS[s.clock]) == (1, "2:00")
    assert G.speed(s) == 5


@pytest.mark.parametrize(("clock", "speed"), [(0, 3), (1, 3), (2, 4), (3, 5), (4, 6), (5, 7)])
def test_phantom_speed_comes_from_the_clock(clock, speed):
    """Clock track: '3 spaces 3 spaces 4 spaces 5 spaces 6 spaces 7 spaces'."""
    s = position(guests={"a": ("gallery", 20)}, phantom=2, clock=clock)
    s, _ = roll(s, "phantom")
    assert s.phantom == 2 + speed


# ----- chambers ----------------------------------------------------------------------------
def test_no_chamber_before_the_phantom_is_in_the_gallery():
    """'You may not start moving into chambers until after the Phantom has left the
    dungeon and is in the Gallery.'"""
    s = position(guests={"a": ("gallery", 10)}, climbed=6)
    s, _ = roll(s, "2")
    assert G.legal_actions(s, 0) == ["move a"]
    with pytest.raises(IllegalAction, match="left the dungeon"):
        G.apply(s, 0, "hide a 11")


def test_entering_a_chamber_counts_as_a_space_and_surplus_pips_are_lost():
    """'A chamber counts as one space when moving' and 'you only need a number on the die
    equal to or greater than the number of spaces required'."""
    s = position(guests={"a": ("gallery", 11)}, phantom=20)
    s, _ = roll(s, "1")
    assert "hide a 11" in G.legal_actions(s, 0)  # from its doorway: one space
    s = position(guests={"a": ("gallery", 10)}, phantom=20)
    s, _ = roll(s, "5")
    assert "hide a 11" in G.legal_actions(s, 0)  # needs 2, rolled 5
    assert "hide a 15" not in G.legal_actions(s, 0)  # needs 6
    s, _ = G.apply(s, 0, "hide a 11")
    assert where(s, "a") == ("chamber", 11)


def test_the_phantom_never_enters_a_chamber():
    """'The Phantom may not enter these chambers'."""
    s = position(guests={"a": ("chamber", 11)}, phantom=9)
    s, _ = roll(s, "phantom")
    assert s.phantom == 12 and where(s, "a") == ("chamber", 11)


def test_one_guest_a_chamber_and_never_your_own():
    """'only one Guest may be in a chamber at a time' and 'You may not move into a chamber
    that has one of your own Guests in it.'"""
    s = position(guests={"a": ("gallery", 10), "b": ("chamber", 11)}, phantom=20)
    s, _ = roll(s, "2")
    assert "hide a 11" not in G.legal_actions(s, 0)
    with pytest.raises(IllegalAction, match="your own"):
        G.apply(s, 0, "hide a 11")


def test_claires_boot_example():
    """'Claire moves her red Guest into the chamber with Landry's blue Guest. She moves his
    Guest out of the chamber onto the doorway space right outside of that chamber.'"""
    s = position(players=3, guests={"a": ("chamber", 15), "k": ("gallery", 13)}, phantom=2, turn=2)
    s, _ = roll(s, "2")
    assert "hide k 15" not in G.legal_actions(s, 2)  # 13 -> 14 -> 15 is the doorway
    s = position(players=3, guests={"a": ("chamber", 15), "k": ("gallery", 13)}, phantom=2, turn=2)
    s, _ = roll(s, "4")
    assert "hide k 15" not in G.legal_actions(s, 2)  # not exact: 3 would be needed
    with pytest.raises(IllegalAction, match="exact roll"):
        G.apply(s, 2, "hide k 15")
    s = position(players=3, guests={"a": ("chamber", 15), "k": ("gallery", 14)}, phantom=2, turn=2)
    s, _ = roll(s, "2")
    s, events = G.apply(s, 2, "hide k 15")
    assert where(s, "k") == ("chamber", 15)
    assert where(s, "a") == ("gallery", 15)  # on the doorway
    assert any(e.kind == "boot" for e in events)


def test_a_guest_booted_onto_the_phantom_is_captured():
    """House decision: a guest booted onto the doorway where the Phantom stands is caught."""
    s = position(guests={"a": ("chamber", 15), "g": ("gallery", 14)}, phantom=15, turn=1)
    s, _ = roll(s, "2")
    s, _ = G.apply(s, 1, "hide g 15")
    assert where(s, "a") == ("step", 10)
    assert s.scores == [20, 10]


def test_minus_three_chambers_need_an_exact_roll_and_stop_at_zero():
    """'you get to move your scoring token back 3 spaces ... but you may not move further
    back than 0' and 'You must have an exact roll to move into a chamber with a -3 Coat of
    Arms'."""
    s = position(guests={"a": ("gallery", 4)}, phantom=20, scores=[12, 10])
    s, _ = roll(s, "4")
    assert "hide a 6" not in G.legal_actions(s, 0)  # 3 spaces needed, 4 rolled
    s = position(guests={"a": ("gallery", 4)}, phantom=20, scores=[12, 10])
    s, _ = roll(s, "2")
    assert "hide a 6" not in G.legal_actions(s, 0)  # 3 needed, 2 rolled
    s = position(guests={"a": ("gallery", 6)}, phantom=20, scores=[12, 10])
    s, _ = roll(s, "4")  # 7, 8, 9, chamber: exactly 4
    s, _ = G.apply(s, 0, "hide a 9")
    assert s.scores == [9, 10]
    s = position(guests={"a": ("gallery", 6)}, phantom=20, scores=[2, 10])
    s, _ = roll(s, "4")
    s, _ = G.apply(s, 0, "hide a 9")
    assert s.scores == [0, 10]


def test_plus_one_chamber_adds_a_point_without_an_exact_roll():
    """'If you move into the chamber with the +1 Coat of Arms, move your Scoring Token one
    space forward.'"""
    s = position(guests={"a": ("gallery", 24)}, phantom=10)
    s, _ = roll(s, "5")  # 25, 26, chamber: 3 needed
    s, _ = G.apply(s, 0, "hide a 26")
    assert s.scores == [11, 10]


def test_a_guest_may_leave_its_chamber_through_its_doorway():
    """House decision: a chamber may be left on any turn; the doorway is the first space."""
    s = position(guests={"a": ("chamber", 11), "b": ("gallery", 27)}, phantom=8)
    s, _ = roll(s, "4")
    assert sorted(G.legal_actions(s, 0)) == ["move a", "move b"]
    s, _ = G.apply(s, 0, "move a")
    assert where(s, "a") == ("gallery", 14)  # 11, 12, 13, 14


# ----- leaving the dungeon -----------------------------------------------------------------
def test_rivka_simones_dungeon_exit_example():
    """'Rivka-Simone has two Guests on the dungeon staircase, one on the +9 step and one on
    +6. She rolls a 2 ... She must move the Guest on the +9 space, starting on the exit
    space.'"""
    # Four players, four guests each: Rivka-Simone is seat 3 with m-p.
    s = position(
        players=4,
        guests={"m": ("step", 6), "n": ("step", 9), "o": ("gallery", 20), "a": ("step", 10)},
        phantom=15,
        turn=3,
    )
    s, _ = roll(s, "2")
    legal = G.legal_actions(s, 3)
    assert "move n" in legal and "move m" not in legal
    with pytest.raises(IllegalAction, match="highest step"):
        G.apply(s, 3, "move m")
    s, _ = G.apply(s, 3, "move n")
    assert where(s, "n") == ("gallery", 2)  # the exit is the first space
    assert where(s, "m") == ("step", 6)


def test_a_roll_of_one_leaves_the_dungeon_onto_the_exit():
    """'Count the exit as the first space of your move.'"""
    s = position(guests={"a": ("step", 5), "b": ("gallery", 20)}, phantom=15)
    s, _ = roll(s, "1")
    s, _ = G.apply(s, 0, "move a")
    assert where(s, "a") == ("gallery", 1)


def test_leaving_the_dungeon_onto_the_phantom_is_caught_again():
    """'the Phantom does capture your Guest if your Guest ends your turn on the same space'."""
    s = position(guests={"a": ("step", 5)}, phantom=4)
    s, _ = roll(s, "4")
    s, _ = G.apply(s, 0, "move a")
    assert where(s, "a") == ("step", 10)
    assert s.scores == [20, 10]


def test_forced_move_when_all_guests_hide_or_are_captured():
    """'if all of your Guests are in chambers and/or on the dungeon staircase, you must
    move one of your Guests out of a chamber or off of the dungeon staircase.'"""
    s = position(
        guests={"a": ("chamber", 11), "b": ("step", 9), "c": ("step", 7)},
        phantom=20,
    )
    s, _ = roll(s, "2")
    legal = G.legal_actions(s, 0)
    assert sorted(legal) == ["move a", "move b"]
    assert "stay" not in legal and "pass" not in legal


# ----- the end -----------------------------------------------------------------------------
def test_the_game_ends_when_the_token_reaches_the_last_clock():
    """'The game ends when the Phantom token reaches the last clock'."""
    s = position(
        guests={"a": ("gallery", 10), "g": ("gallery", 12)}, phantom=26, clock=5, scores=[14, 12]
    )
    s, events = roll(s, "phantom")
    assert B.CLOCKS[s.clock] == "5:00"
    assert events[-1].kind == "over" and "5:00" in events[-1].text
    assert G.to_act(s) == []
    result = G.result(s)
    assert result.ranking == [[1], [0]]
    assert "Jonah" in result.summary


def test_the_game_ends_at_46_and_the_lowest_score_wins():
    """'or when one of the Scoring Tokens moves on or past 46 ... The player with the
    lowest score wins'."""
    s = position(
        players=3,
        guests={"a": ("gallery", 6), "f": ("gallery", 20)},
        phantom=5,
        scores=[37, 20, 30],
    )
    s, _ = roll(s, "phantom")
    assert s.scores[0] == 47
    assert G.to_act(s) == [] and G.result(s).ranking == [[1], [2], [0]]
    with pytest.raises(IllegalAction, match="over"):
        roll(s, "1")


def test_ties_share_the_win():
    """'the player with the lowest score wins' - equal lowest scores share the place."""
    s = position(players=3, guests={"a": ("gallery", 6)}, phantom=5, scores=[36, 20, 20])
    s, _ = roll(s, "phantom")
    assert G.result(s).ranking == [[1, 2], [0]]


def test_the_phantom_finishes_its_move_when_the_game_ends():
    """House decision: at 46 the Phantom still finishes its move; every capture counts."""
    s = position(guests={"a": ("gallery", 6), "g": ("gallery", 8)}, phantom=5, scores=[40, 10])
    s, _ = roll(s, "phantom")
    assert where(s, "g") == ("step", 9) and s.scores == [50, 19]
    assert G.to_act(s) == []


def test_actions_are_short_and_labelled():
    """Contract: actions are short stable strings; describe() gives a button label."""
    s = position(
        guests={"a": ("gallery", 5), "b": ("chamber", 15), "g": ("chamber", 9)}, phantom=20
    )
    s, _ = roll(s, "5")
    for action in G.legal_actions(s, 0):
        assert len(action) <= 32
    assert G.describe(s, "hide a 9") == "A into chamber 9 (-3), boot G"
    assert G.describe(s, "move a") == "A: space 5 to space 10"


def test_a_timer_places_on_the_highest_free_space_and_leaves_real_choices():
    """House decision: a timer places a guest on the highest-numbered empty space; a turn
    with a real choice waits for the player."""
    s = G.setup(NAMES[:2])
    assert G.default_action(s, 0) == "place 28"
    s, _ = G.apply(s, 0, "place 28")
    assert G.default_action(s, 1) == "place 27"
    s = position(guests={"a": ("gallery", 5), "b": ("gallery", 20)})
    s, _ = roll(s, "1")
    assert G.default_action(s, 0) is None
    s = position(guests={"a": ("gallery", 12)})
    s, _ = roll(s, "1")
    assert G.default_action(s, 0) == "move a"


def test_variant_option_defaults_to_the_standard_game():
    """Option `variant`: standard (the scoring-track side) unless midnight_party is chosen."""
    assert G.options["variant"].choices == ("standard", "midnight_party")
    assert G.setup(NAMES[:2]).variant == "standard"
    assert G.setup(NAMES[:2], {"variant": "midnight_party"}).scores == [0, 0]
    assert (G.min_players, G.max_players) == (2, 8)


def test_everything_is_public():
    """Nothing is hidden in this game: every seat's view is the public view."""
    s = position(players=3, guests={"a": ("gallery", 5), "f": ("chamber", 9)}, phantom=12)
    public = G.view(s, None)
    for seat in range(3):
        view = G.view(s, seat)
        assert {k: v for k, v in view.items() if k != "viewer"} == {
            k: v for k, v in public.items() if k != "viewer"
        }


# ----- decisions the text leaves open (rules_text.py, HOUSE DECISIONS) ---------------------
def test_a_guest_leaving_the_dungeon_may_hide_on_the_way():
    """'start moving your Guest from the exit space ... Count the exit as the first space'
    with 'A chamber counts as one space': exit 1, space 2, space 3, then chamber 3 is the
    fourth space (house decision: leaving the dungeon is an ordinary move otherwise)."""
    s = position(guests={"a": ("step", 8), "b": ("gallery", 20)}, phantom=15)
    s, _ = roll(s, "4")
    assert "hide a 3" in G.legal_actions(s, 0)
    assert "hide a 4" not in G.legal_actions(s, 0)  # would be the fifth space
    s, _ = G.apply(s, 0, "hide a 3")
    assert where(s, "a") == ("chamber", 3)


def test_two_guests_on_the_highest_step_may_leave_in_either_order():
    """'you must move the Guest on the step with the highest number' - with every step full,
    new captures share +10 (house decision: either of your guests there may leave)."""
    s = position(guests={"a": ("step", 10), "b": ("step", 10), "c": ("step", 4)}, phantom=15)
    s, _ = roll(s, "1")
    assert sorted(G.legal_actions(s, 0)) == ["move a", "move b"]


def test_a_booted_guest_keeps_its_points_and_may_come_back_with_an_exact_one():
    """'you get to boot that Guest out of the chamber ... onto the doorway space' and 'You must
    have an exact roll to move into a chamber with another player's Guest': the booter scores
    the -3, the booted player keeps the -3 it took (house decision), and a 1 from the doorway
    is the exact roll back in."""
    s = position(
        guests={"a": ("chamber", 9), "g": ("gallery", 8)}, phantom=20, turn=1, scores=[7, 15]
    )
    s, _ = roll(s, "2")  # 9, then the chamber: exact
    s, _ = G.apply(s, 1, "hide g 9")
    assert where(s, "a") == ("gallery", 9) and where(s, "g") == ("chamber", 9)
    assert s.scores == [7, 12]
    s, _ = roll(s, "1")
    assert "hide a 9" in G.legal_actions(s, 0)
    s, _ = G.apply(s, 0, "hide a 9")
    assert where(s, "g") == ("gallery", 9) and s.scores == [4, 12]


def test_entering_the_chamber_a_guest_is_already_in_is_refused_clearly():
    """'only one Guest may be in a chamber at a time': a guest cannot re-enter the chamber it
    is leaving."""
    s = position(guests={"a": ("chamber", 11), "b": ("gallery", 2)}, phantom=20)
    s, _ = roll(s, "2")
    assert "hide a 11" not in G.legal_actions(s, 0)
    with pytest.raises(IllegalAction, match="already in chamber 11"):
        G.apply(s, 0, "hide a 11")


def test_the_rules_text_states_every_house_decision_tested_here():
    """Ground rule: a rule the text leaves open is decided once and written in the rules text
    players read (`/escape rules hidden_castle`)."""
    text = " ".join(G.rules_text.split())
    for decision in (
        "The first seat places first and rolls first",
        "The exit is Gallery space 1",
        "The Phantom's distance is fixed when it is rolled",
        "the Phantom still finishes its move",
        "A guest may leave its chamber on any turn",
        "A guest leaving the dungeon may enter a chamber on the way",
        "Two of your guests on the same (highest) step: either may leave first",
        "a guest booted onto a doorway where the Phantom stands is captured too",
        "A booted guest keeps the points its owner got for entering",
        "The +3 chambers (6 and 9, where the other side has its -3) need one",
        "the score closest to zero wins",
        "with all eight taken they go on -10",
        "Chambers open each round only once the Phantom is in the Gallery",
        "A timer places a guest on the highest-numbered empty space",
    ):
        assert decision in text, decision
