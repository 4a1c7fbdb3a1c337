"""Midnight Party (option variant=midnight_party): scenarios naming the passage of
"PLAYING THE ORIGINAL MIDNIGHT PARTY VERSION" in the rulebook (docs/games.md)."""

from __future__ import annotations

import pytest

from engines import CHANCE, REGISTRY, IllegalAction
from engines.hidden_castle import board as B
from engines.hidden_castle.game import HiddenCastleState

G = REGISTRY["hidden_castle"]
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
MP = {"variant": "midnight_party"}


def position(
    players: int = 2,
    guests: dict[str, tuple[str, int]] | None = None,
    phantom: int | None = None,
    turn: int = 0,
    **fields,
) -> HiddenCastleState:
    """A Midnight Party play state holding only the listed guests: letter -> (where, place);
    ("step", -9) is a staircase step by its value. Unlisted guests stay in the box."""
    s = G.setup(NAMES[:players], MP)
    s.queue, s.phase, s.turn = [], "roll", turn
    for letter, (where, place) in (guests or {}).items():
        g = ord(letter) - ord("a")
        if where == "step":
            s.where[g], s.pos[g] = "stairs", B.STEPS[s.variant].index(place)
        else:
            s.where[g], s.pos[g] = where, place
    if phantom is not None:
        s.climbed, s.phantom = B.CLIMB, phantom
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


def test_set_up_phantom_on_minus_ten_no_tokens():
    """'Place the Phantom on the -10 space' and 'Put the Phantom Token and the Scoring
    Tokens back into the box'."""
    s = G.setup(NAMES[:3], MP)
    assert s.climbed == 0 and s.phantom == 0
    assert s.scores == [0, 0, 0]
    view = G.view(s, None)
    assert view["steps"][0] == -10 and view["steps"][-1] == -2
    coats = {c["door"]: c["coat"] for c in view["chambers"]}
    assert coats == {3: 0, 4: 0, 6: 3, 9: 3, 11: 0, 15: 0, 18: 0, 21: -1, 26: -1}


def test_placement_is_the_same_as_the_standard_game():
    """Set-up is unchanged apart from the board side: one guest at a time in turn order."""
    s = G.setup(NAMES[:2], MP)
    s, _ = G.apply(s, 0, "place 4")
    assert G.to_act(s) == [1]
    assert "place 4" not in G.legal_actions(s, 1)


@pytest.mark.parametrize(("players", "speed"), [(2, 3), (6, 3), (7, 2), (8, 2)])
def test_phantom_speed_is_constant(players, speed):
    """'When there are 2-6 players, the Phantom moves 3 spaces ... When there are 7 or 8
    players, the Phantom moves 2 spaces.'"""
    s = position(players=players, guests={"a": ("gallery", 20)}, phantom=26)
    s, _ = roll(s, "phantom")
    assert s.phantom == B.ahead(26, speed)
    s, _ = roll(s, "phantom")  # past the exit: no clock, same speed
    assert s.phantom == B.ahead(26, 2 * speed)
    assert s.clock == 0 and G.speed(s) == speed


def test_phantom_climbs_from_minus_ten_to_the_exit_in_nine_spaces():
    """'Place the Phantom on the -10 space' - house decision: -9 ... -3, the -2 landing,
    then the exit, nine spaces as on the other side."""
    s = position(guests={"a": ("gallery", 20)})
    for _ in range(2):
        s, _ = roll(s, "phantom")
    assert s.phantom == 0 and s.climbed == 6
    s, _ = roll(s, "phantom")
    assert s.phantom == B.EXIT


def test_captures_fill_the_staircase_from_minus_ten_and_score_at_round_end():
    """Captured guests go on the staircase; in this version they score when the round ends."""
    s = position(
        guests={"a": ("gallery", 11), "b": ("gallery", 25), "g": ("gallery", 20)}, phantom=10
    )
    s, _ = roll(s, "phantom")
    assert where(s, "a") == ("step", -10)
    assert s.scores == [0, 0]


def test_no_booting_out_of_chambers():
    """'You cannot boot Guests out of chambers.'"""
    s = position(
        guests={"a": ("chamber", 15), "g": ("gallery", 14), "h": ("gallery", 2)}, phantom=20, turn=1
    )
    s, _ = roll(s, "2")
    assert "hide g 15" not in G.legal_actions(s, 1)
    with pytest.raises(IllegalAction, match="booted"):
        G.apply(s, 1, "hide g 15")


def test_chambers_and_staircase_keep_their_guests_for_the_round():
    """'When you move a Guest into a chamber, it stays there until the end of the round' and
    'you cannot move captured Guests off of the dungeon staircase'."""
    s = position(
        guests={
            "a": ("chamber", 11),
            "b": ("step", -10),
            "c": ("gallery", 20),
            "d": ("gallery", 5),
        },
        phantom=8,
    )
    s, _ = roll(s, "1")
    assert sorted(G.legal_actions(s, 0)) == ["move c", "move d"]
    with pytest.raises(IllegalAction, match="cannot move now"):
        G.apply(s, 0, "move a")


def test_plus_three_chambers_need_an_exact_roll():
    """The other board side: '+3' coats of arms (exact roll), '-1' elsewhere."""
    s = position(guests={"a": ("gallery", 7), "g": ("gallery", 20)}, phantom=12)
    s, _ = roll(s, "5")
    assert "hide a 9" not in G.legal_actions(s, 0)  # 3 needed
    s = position(guests={"a": ("gallery", 7), "g": ("gallery", 20)}, phantom=12)
    s, _ = roll(s, "2")
    assert "hide a 9" not in G.legal_actions(s, 0)
    s = position(guests={"a": ("gallery", 6), "g": ("gallery", 20)}, phantom=12)
    s, _ = roll(s, "4")
    s, _ = G.apply(s, 0, "hide a 9")
    assert where(s, "a") == ("chamber", 9)


def test_dont_move_with_one_guest_left_in_the_gallery():
    """'When you only have one Guest left in the Gallery, you can choose not to move your
    Guest after you roll.'"""
    s = position(
        guests={"a": ("gallery", 5), "b": ("chamber", 11), "g": ("gallery", 20)}, phantom=14
    )
    s, _ = roll(s, "4")
    assert "stay" in G.legal_actions(s, 0)
    s, events = G.apply(s, 0, "stay")
    assert where(s, "a") == ("gallery", 5)
    assert s.turn == 1 and G.to_act(s) == [CHANCE]
    assert "not to move" in events[0].text
    s = position(
        guests={"a": ("gallery", 5), "b": ("gallery", 16), "g": ("gallery", 20)}, phantom=14
    )
    s, _ = roll(s, "4")
    assert "stay" not in G.legal_actions(s, 0)
    with pytest.raises(IllegalAction, match="single guest"):
        G.apply(s, 0, "stay")


def test_rolling_with_nothing_to_move():
    """'If all of your Guests are on the dungeon staircase or in chambers, you still roll
    the die even though you can't move your Guests. If you roll the Phantom, move the
    Phantom.'"""
    guests = {"a": ("chamber", 11), "b": ("step", -10), "g": ("gallery", 20)}
    s = position(guests=guests, phantom=14)
    assert G.to_act(s) == [CHANCE]
    s, events = roll(s, "4")
    assert s.turn == 1 and G.to_act(s) == [CHANCE]
    assert "no guest left to move" in events[0].text
    s = position(guests=guests, phantom=14)
    s, _ = roll(s, "phantom")
    assert s.phantom == 17 and s.turn == 1


def test_round_ends_when_the_gallery_is_empty_and_guests_score():
    """'A round ends when there are no Guests left in the Gallery' and 'Guests on the
    dungeon staircase subtract the number of points shown ... chambers with a -1 Coat of Arms
    subtract 1 ... chambers with a +3 Coat of Arms add 3'."""
    s = position(
        guests={
            "a": ("chamber", 6),
            "b": ("chamber", 21),
            "c": ("chamber", 3),
            "g": ("step", -10),
            "h": ("step", -9),
            "i": ("gallery", 10),
        },
        phantom=9,
    )
    s, events = roll(s, "phantom")
    assert s.scores == [3 - 1 + 0, -10 - 9 - 8]
    assert s.round == 2
    assert any(e.kind == "round" for e in events)
    # After scoring: chamber guests on their doorways, captured guests wait to come back.
    assert where(s, "a") == ("gallery", 6) and where(s, "b") == ("gallery", 21)
    assert s.queue == [6, 7, 8]  # g (-10), h (-9), i (-8)
    assert G.to_act(s) == [1]
    assert "place 6" not in G.legal_actions(s, 1)  # a stands on doorway 6
    assert s.climbed == 0 and s.phantom == 0  # back on -10


def test_round_ends_when_all_chambers_are_full_leftovers_to_minus_two():
    """'When a Guest moves into the last open chamber, move all remaining Guests to the -2
    step on the dungeon staircase.'"""
    rooms = dict(zip("bcdefhij", (3, 4, 6, 9, 11, 15, 18, 21), strict=True))
    guests = {letter: ("chamber", room) for letter, room in rooms.items()}
    guests |= {"a": ("gallery", 25), "k": ("gallery", 10)}
    s = position(guests=guests, phantom=12)
    s, _ = roll(s, "2")
    s, _ = G.apply(s, 0, "hide a 26")
    # seat 0: a -1 (26), b 0, c 0, d +3, e +3, f 0; seat 1: h 0, i 0, j -1, k on -2.
    assert s.scores == [5, -3]
    assert s.queue == [10]  # k comes back from the landing
    assert where(s, "a") == ("gallery", 26)


def test_restart_order_by_step_then_lower_score_first():
    """'Starting with the Guest on the -10 dungeon staircase step ... The player on the -9
    space goes next' and 'If there are steps with more than one Guest, the player with the
    lower score (the larger negative number) moves first.'"""
    s = position(
        guests={"a": ("step", -10), "g": ("step", -10), "h": ("step", -9), "b": ("gallery", 10)},
        phantom=9,
        scores=[0, -5],
    )
    s, _ = roll(s, "phantom")  # b caught on -8; the Gallery is empty
    assert s.scores == [-18, -24]
    assert s.queue == [6, 0, 7, 1]  # g then a (-10, Bo lower), h (-9), b (-8)
    order = []
    spaces = iter([1, 2, 3, 4])
    while s.phase == "place":
        seat = G.to_act(s)[0]
        order.append(seat)
        s, _ = G.apply(s, seat, f"place {next(spaces)}")
    assert order == [1, 0, 1, 0]
    assert where(s, "g") == ("gallery", 1) and where(s, "b") == ("gallery", 4)
    assert G.to_act(s) == [CHANCE]


def test_chambers_close_again_until_the_phantom_is_back_in_the_gallery():
    """'Place the Phantom on the -10 space, then start the next round' - with the Phantom
    in the dungeon, chambers are closed again."""
    s = position(guests={"a": ("gallery", 10)}, round=2)
    s, _ = roll(s, "2")
    assert G.legal_actions(s, 0) == ["move a", "stay"]


def test_three_rounds_and_the_highest_score_wins():
    """'This game is played in three rounds' and 'After the third round, the player with the
    lowest score ... The player with the highest score wins' (closest to zero)."""
    s = position(
        players=3,
        guests={"a": ("gallery", 10), "f": ("chamber", 6), "k": ("chamber", 11)},
        phantom=9,
        round=3,
        scores=[-9, -23, -9],
    )
    s, events = roll(s, "phantom")
    assert s.scores == [-19, -20, -9]
    assert events[-1].kind == "over"
    assert G.to_act(s) == []
    result = G.result(s)
    assert result.ranking == [[2], [0], [1]]
    assert "Cy" in result.summary


def test_ties_share_the_win_in_midnight_party():
    """'the player with the highest score wins' - equal best scores share it."""
    s = position(
        guests={"a": ("gallery", 10), "g": ("chamber", 6)}, phantom=9, round=3, scores=[-5, -18]
    )
    s, _ = roll(s, "phantom")
    assert G.result(s).ranking == [[0, 1]]


def test_a_full_random_game_lasts_three_rounds():
    """'This game is played in three rounds.'"""
    from engines.playout import play

    run = play(G, 4, MP, seed=1, max_steps=2000)
    assert run.finished
    assert run.states[-1].round == 3


def test_guests_caught_together_share_a_step_from_minus_ten_up():
    """'When the Phantom captures Guests that are on the same space in the Gallery, they are
    moved to the same space on the dungeon staircase' (kept by Midnight Party): the first
    capture fills -10, the next -9."""
    s = position(
        guests={
            "a": ("gallery", 11),
            "g": ("gallery", 11),
            "b": ("gallery", 12),
            "c": ("gallery", 25),
        },
        phantom=10,
    )
    s, _ = roll(s, "phantom")
    assert where(s, "a") == where(s, "g") == ("step", -10)
    assert where(s, "b") == ("step", -9)
    assert s.scores == [0, 0]  # scored when the round ends


def test_with_all_eight_steps_taken_captures_go_on_minus_ten():
    """House decision: the standard rule 'When all of the dungeon staircase steps have Guests
    on them, put any newly captured Guests on the +10 step' applies as -10; the -2 landing
    only takes the leftovers when every chamber is full."""
    steps = dict(zip("abcdeghi", (-10, -9, -8, -7, -6, -5, -4, -3), strict=True))
    guests = {letter: ("step", value) for letter, value in steps.items()}
    s = position(guests={**guests, "j": ("gallery", 11), "f": ("gallery", 25)}, phantom=10)
    s, _ = roll(s, "phantom")
    assert where(s, "j") == ("step", -10)


def test_minus_one_chambers_need_no_exact_roll():
    """'Guests in chambers with a -1 Coat of Arms subtract 1 point' - only the +3 chambers
    need the exact roll (house decision, as the -3 on the other side)."""
    s = position(guests={"a": ("gallery", 19), "g": ("gallery", 2)}, phantom=12)
    s, _ = roll(s, "5")  # 20, 21, then the chamber: 3 needed, 5 rolled
    assert "hide a 21" in G.legal_actions(s, 0)
    s, _ = G.apply(s, 0, "hide a 21")
    assert where(s, "a") == ("chamber", 21)


def test_chambers_open_again_once_the_phantom_is_back_in_the_gallery():
    """'Place the Phantom on the -10 space, then start the next round': it climbs again, and
    with it in the Gallery the chambers open (house decision)."""
    s = position(guests={"a": ("gallery", 10), "g": ("gallery", 20)}, round=2)
    for _ in range(3):  # 3 + 3 + 3 spaces: -10 to the exit
        s, _ = roll(s, "phantom")
    assert s.phantom == B.EXIT
    s.turn = 0
    s, _ = roll(s, "2")
    assert "hide a 11" in G.legal_actions(s, 0)
