"""Haunted House turn actions, each test naming the passage of the rulebook (docs/games.md)
it checks. Positions are built directly; draws are forced through CHANCE outcomes."""

from __future__ import annotations

import pytest

from engines import CHANCE, IllegalAction
from engines.haunted_house import cards as C
from engines.haunted_house.game import Floor
from tests.engines.haunted_house.test_haunted_house_helpers import NAMES, G, act, draw, house, table


def test_deal_three_cards_each_from_a_53_card_deck_drawn_by_chance():
    """'There are 46 basic cards ... There are 7 special cards' and 'Deal 3 cards to each
    player'."""
    s = G.setup(NAMES[:2], {})
    outcomes = dict(G.chance_outcomes(s))
    assert sum(s.deck.values()) == 53
    assert outcomes["ghost"] == pytest.approx(8 / 53)
    assert outcomes["room1b1"] == pytest.approx(4 / 53)
    assert outcomes["hole"] == pytest.approx(1 / 53)
    s = draw(s, "ghost", "cat", "wild", "room1b1", "room1b1", "hole")
    assert s.hands == [["wild", "ghost", "cat"], ["room1b1", "room1b1", "hole"]]
    assert G.to_act(s) == [0]
    assert dict(G.chance_outcomes(G.setup(NAMES[:2], {})))["ghost"] == pytest.approx(8 / 53)


def test_the_deck_holds_the_rulebook_counts_with_our_bulb_values():
    """'There are 46 basic cards: 12 first floor, 10 second floor, 10 third floor, 8 ghost, and
    6 cat. There are 7 special cards: 1 time space hole, 1 light bulb, 1 cat food, 1 elevator,
    1 lightning, 2 room wild card.' Bulbs: our values (the rules text)."""
    deck = C.full_deck(specials=True)
    by_floor = {f: sum(n for k, n in deck.items() if C.ROOMS.get(k) == f) for f in (1, 2, 3)}
    assert by_floor == {1: 12, 2: 10, 3: 10}
    assert (deck["ghost"], deck["cat"]) == (8, 6)
    assert {k: deck[k] for k in C.SPECIALS} == {
        "hole": 1,
        "bulb": 1,
        "food": 1,
        "elevator": 1,
        "lightning": 1,
        "wild": 2,
    }
    assert sum(deck.values()) == 53
    bulbs = {
        f: sorted(C.BULBS[k] for k, n in deck.items() for _ in range(n) if C.ROOMS.get(k) == f)
        for f in (1, 2, 3)
    }
    assert bulbs[1] == [1] * 4 + [2] * 4 + [3] * 4
    assert bulbs[2] == bulbs[3] == [1] * 4 + [2] * 3 + [3] * 3
    assert C.BULBS["wild"] == 1
    assert all(C.BULBS[k] == 0 for k in ("ghost", "cat", "hole", "bulb", "food", "elevator"))
    assert C.BULBS["lightning"] == 0
    assert "4 with 1 bulb, 3 with 2, 3 with 3" in G.rules_text


def test_specials_off_leaves_the_seven_special_cards_out():
    """'There are 7 special cards' (left out for a first game: option specials=off)."""
    s = G.setup(NAMES[:3], {"specials": "off"})
    assert sum(s.deck.values()) == 46
    assert not set(s.deck) & set(C.SPECIALS)


def test_several_room_cards_in_one_turn_lower_floors_first():
    """'You must fill all lower floors before placing a room card on the next floor. However,
    you can play several cards in the same turn -- e.g. 2 first floor cards and then 1 second
    floor card.'"""
    s = table([["room1b1", "room1b3", "room2b2"], ["cat"]])
    legal = G.legal_actions(s, 0)
    assert "play room1b1" in legal and "play room1b3" in legal
    assert "play room2b2" not in legal
    with pytest.raises(IllegalAction, match="lower floors first"):
        G.apply(s, 0, "play room2b2")
    s = act(s, 0, "play room1b1")
    assert G.to_act(s) == [0] and "done" in G.legal_actions(s, 0)
    assert "play room2b2" not in G.legal_actions(s, 0)
    s = act(s, 0, "play room1b3")
    assert G.legal_actions(s, 0) == ["play room2b2", "done"]
    s = act(s, 0, "play room2b2")  # nothing more to play, yet only `done` ends the run
    assert [len(f.rooms) for f in s.houses[0]] == [2, 1, 0]
    assert G.to_act(s) == [0] and G.legal_actions(s, 0) == ["done"]
    s = act(s, 0, "done")
    assert s.turn == 1 and G.to_act(s) == [CHANCE]
    s = draw(s, "ghost", "cat", "room3b1")
    assert len(s.hands[0]) == 3 and G.to_act(s) == [1]


def test_the_rules_text_says_only_done_ends_a_run_of_rooms():
    """The house decision as the engine plays it (the test above): a run with no room left to
    play still waits for `done`; the text must not promise that it ends by itself."""
    s = table([["room1b1", "room1b2", "ghost"], ["cat"]], {0: house({"rooms": 0})})
    s = act(s, 0, "play room1b1", "play room1b2")  # floor 1 full, no floor-2 room in hand
    assert G.legal_actions(s, 0) == ["done"] and G.to_act(s) == [0]
    text = " ".join(G.rules_text.split())
    assert "A run of rooms ends only with `done`" in text
    assert "`done`, or by itself" not in text  # what it said before


def test_done_ends_a_run_of_rooms():
    """'you can play several cards in the same turn' (and may stop after any of them)."""
    s = table([["room1b1", "room1b2", "ghost"], ["cat"]])
    s = act(s, 0, "play room1b1", "done")
    assert len(s.houses[0][0].rooms) == 1 and s.hands[0] == ["room1b2", "ghost"]
    assert s.turn == 1


def test_a_wild_room_fills_whichever_floor_is_being_explored():
    """'Room Wild Card: Can be played as a room on any floor. Can be played with other room
    cards.'"""
    s = table([["room1b1", "wild", "room2b1"], ["cat"]], {0: house({"rooms": 1})})
    s = act(s, 0, "play room1b1", "play wild", "play room2b1")
    assert s.houses[0][1].rooms == ["wild", "room2b1"]
    s = table([["wild", "cat"], ["cat"]], {0: house({"rooms": 2}, {"rooms": 2}, {"rooms": 1})})
    s = act(s, 0, "play wild")
    assert s.houses[0][2].rooms[-1] == "wild"


def test_ghost_targets_the_highest_floor_with_a_room_never_onto_a_ghost():
    """'The target must be the highest floor where the opponent has a room card. The target
    may have a cat, but must not have a ghost.'"""
    s = table(
        [["ghost"], ["cat"], ["cat"]],
        {1: house({"rooms": 2}, {"rooms": 1}), 2: house({"rooms": 2, "lit": True, "ghosts": 1})},
    )
    legal = G.legal_actions(s, 0)
    assert "ghost p2" in legal
    assert "ghost p3" not in legal  # a ghost already there
    assert "ghost p1" not in legal  # not your own house
    s = act(s, 0, "ghost p2")
    assert s.windows[-1].data["floor"] == 2


def test_ghost_on_a_dark_floor_discards_it_and_its_rooms():
    """'If the light for that floor is off, the ghost and all room cards on that floor are
    discarded.'"""
    s = table([["ghost", "cat"], ["room1b1"]], {1: house({"rooms": 2}, {"rooms": 1})})
    s = act(s, 0, "ghost p2")
    assert G.to_act(s) == [1]
    assert G.legal_actions(s, 1) == ["pass"]  # no cat in hand, still asked
    assert G.default_action(s, 1) == "pass"
    s = act(s, 1, "pass")
    assert s.houses[1][1] == Floor()
    assert len(s.houses[1][0].rooms) == 2  # lower floors untouched
    assert s.discard == {"room2b1": 1, "ghost": 1}
    assert s.turn == 1


def test_ghost_on_a_lit_floor_stays_until_a_second_ghost():
    """'If the light for that floor is on, the ghost stays unless there are 2 ghosts on the
    floor. If there are 2 ghosts, the room and ghost cards are discarded ... and the light is
    turned off.'"""
    s = table(
        [["ghost", "hole"], ["room1b1"], ["room3b1"]],
        {1: house({"rooms": 2, "lit": True}), 2: house({"rooms": 1, "lit": True, "ghosts": 1})},
    )
    s = act(s, 0, "ghost p2")
    s = act(s, 1, "pass")
    assert s.houses[1][0].ghosts == 1 and len(s.houses[1][0].rooms) == 2 and s.houses[1][0].lit
    s = draw(s, "cat", "cat")
    s.turn = 0  # Ann again, for the second ghost
    s = act(s, 0, "hole p3 1 p2")  # a second ghost, by the time space hole
    s = act(s, 1, "pass")
    assert s.houses[1][0] == Floor()  # rooms and ghosts gone, light off
    assert s.houses[2][0].ghosts == 0
    assert s.discard["ghost"] == 2 and s.discard["hole"] == 1


def test_a_cat_on_the_floor_cancels_a_ghost():
    """'If a cat is present on the floor, both the ghost and the cat will be discarded.'"""
    s = table([["ghost"], ["cat"]], {1: house({"rooms": 1, "cats": 1})})
    s = act(s, 0, "ghost p2")
    assert not s.windows  # nothing to ask: the cat there settles it
    assert s.houses[1][0].rooms and s.houses[1][0].cats == 0 and s.houses[1][0].ghosts == 0
    assert s.discard == {"ghost": 1, "cat": 1}
    assert s.turn == 1


def test_cat_from_hand_defends_out_of_turn():
    """'If someone plays a ghost against you, you can even discard a cat from your hand to
    defend immediately, cancelling the ghost! This works even though it is not your turn.'"""
    s = table([["ghost"], ["cat", "room1b1"]], {1: house({"rooms": 1})})
    s = act(s, 0, "ghost p2")
    assert G.to_act(s) == [1]
    assert G.legal_actions(s, 1) == ["cat", "pass"]
    s = act(s, 1, "cat")
    assert s.hands[1] == ["room1b1"]
    assert s.houses[1][0].rooms == ["room1b1"] and s.houses[1][0].ghosts == 0
    assert s.discard == {"ghost": 1, "cat": 1}
    assert s.turn == 1 and s.draws == [[0, 3]]


def test_cat_goes_on_an_own_explored_floor_without_a_cat():
    """'It can be placed on any room you have explored, but must not be placed on another
    cat.'"""
    s = table([["cat"], ["cat"]], {0: house({"rooms": 2, "cats": 1}, {"rooms": 1})})
    assert [a for a in G.legal_actions(s, 0) if a.startswith("cat")] == ["cat 2"]
    s = act(s, 0, "cat 2")
    assert s.houses[0][1].cats == 1


def test_cat_onto_a_ghost_discards_both_and_the_rooms_stay():
    """'If the cat is placed on a ghost, or on a floor with a ghost, both the cat and ghost are
    discarded, but the room cards stay.'"""
    s = table([["cat"], ["cat"]], {0: house({"rooms": 2, "lit": True, "ghosts": 1})})
    s = act(s, 0, "cat 1")
    assert s.houses[0][0].ghosts == 0 and s.houses[0][0].cats == 0
    assert len(s.houses[0][0].rooms) == 2 and s.discard == {"cat": 1, "ghost": 1}


def test_light_needs_two_or_three_cards_with_five_bulbs():
    """'Discard 2 or 3 cards with a total of at least 5 lightbulb icons. It is even possible
    to discard a card with 0 lightbulb icons, if the other two cards have at least 5'."""
    s = table([["room2b3", "room3b2", "ghost"], ["cat"]])
    s = act(s, 0, "light 1")
    assert G.legal_actions(s, 0) == ["with room2b3", "with room3b2", "with ghost", "cancel"]
    s = act(s, 0, "with ghost", "with room3b2")
    assert G.legal_actions(s, 0) == ["with room2b3", "cancel"]  # 2 bulbs so far: not yet
    s = act(s, 0, "with room2b3")  # the third card: the light goes on by itself
    assert s.houses[0][0].lit and s.hands[0] == [] and s.turn == 1
    assert s.discard == {"room2b3": 1, "room3b2": 1, "ghost": 1}
    # two cards with 5 bulbs are enough
    s = table([["room2b3", "room3b2", "room1b1"], ["cat"]])
    s = act(s, 0, "light 1", "with room2b3", "with room3b2")
    assert "done" in G.legal_actions(s, 0)
    s = act(s, 0, "done")
    assert s.houses[0][0].lit and s.hands[0] == ["room1b1"]
    # 4 bulbs in the whole hand: no light at all
    s = table([["room2b1", "room3b1", "room1b2"], ["cat"]])
    assert not [a for a in G.legal_actions(s, 0) if a.startswith("light")]
    with pytest.raises(IllegalAction, match="5 bulbs"):
        G.apply(s, 0, "light 1")


def test_light_only_above_fully_explored_floors_the_first_always():
    """'All lower floors must be fully explored in order to turn on the light. You can always
    turn on the first floor light.'"""
    s = table([["room2b3", "room3b3", "ghost"], ["cat"]], {0: house({"rooms": 1})})
    assert [a for a in G.legal_actions(s, 0) if a.startswith("light")] == ["light 1"]
    s = table([["room2b3", "room3b3", "ghost"], ["cat"]], {0: house({"rooms": 2, "lit": True})})
    assert [a for a in G.legal_actions(s, 0) if a.startswith("light")] == ["light 2"]


def test_cancel_returns_the_chosen_cards_untouched():
    """'Turn on the light' is one action: backing out of the choice changes nothing."""
    s = table([["room2b3", "room3b3", "ghost"], ["cat"]])
    before = G.dump(s)
    s = act(s, 0, "light 1", "with ghost", "cancel")
    assert G.dump(s)["hands"] == before["hands"] and s.step is None and s.turn == 0
    assert not s.houses[0][0].lit


def test_discard_any_number_and_draw_as_many_in_secret():
    """'Discard one or more cards from your hand and draw the same number of cards from the
    deck. The identity of the discarded cards is secret from other players.'"""
    s = table([["ghost", "cat", "room3b1"], ["cat"]])
    s, events = G.apply(s, 0, "discard")
    s, _ = G.apply(s, 0, "with ghost")
    s, events = G.apply(s, 0, "with room3b1")
    assert G.legal_actions(s, 0)[-2:] == ["done", "cancel"]
    s, events = G.apply(s, 0, "done")
    public = " ".join(e.text for e in events if e.to is None)
    private = " ".join(e.text for e in events if e.to == 0)
    assert "2 cards" in public and "ghost" not in public and "third" not in public
    assert "ghost" in private
    assert "ghost" not in s.last
    assert s.hands[0] == ["cat"]
    s = draw(s, "room1b1", "room1b2")
    assert len(s.hands[0]) == 3 and G.to_act(s) == [1]


def test_time_space_hole_moves_a_ghost_to_an_opponents_highest_room_floor():
    """'Time Space Hole: Move a ghost from a haunted house (including your own) to an
    opponent's house, on the highest floor where they have a room card.'"""
    s = table(
        [["hole"], ["cat"], ["cat"]],
        {
            0: house({"rooms": 2, "lit": True, "ghosts": 1}),
            1: house({"rooms": 2}, {"rooms": 1}),
        },
    )
    legal = [a for a in G.legal_actions(s, 0) if a.startswith("hole")]
    assert legal == ["hole p1 1 p2"]  # p3 has no room for it
    s = act(s, 0, "hole p1 1 p2")
    assert s.houses[0][0].ghosts == 0
    assert G.to_act(s) == [1] and G.legal_actions(s, 1) == ["cat", "pass"]
    s = act(s, 1, "pass")
    assert s.houses[1][1] == Floor() and len(s.houses[1][0].rooms) == 2


def test_light_bulb_lights_a_floor_above_explored_floors():
    """'Light Bulb: Turn on the light in any floor of your house, as long as all lower floors
    are fully explored.'"""
    s = table([["bulb"], ["cat"]], {0: house({"rooms": 2}, {"rooms": 1})})
    assert [a for a in G.legal_actions(s, 0) if a.startswith("bulb")] == ["bulb 1", "bulb 2"]
    s = act(s, 0, "bulb 2")
    assert s.houses[0][1].lit and s.discard == {"bulb": 1}


def test_cat_food_moves_an_opponents_cat_to_your_house():
    """'Cat Food: Move a cat from any opponent's house to your own.'"""
    s = table(
        [["food"], ["cat"]],
        {0: house({"rooms": 2}, {"rooms": 1, "lit": True, "ghosts": 1}), 1: house({"cats": 1})},
    )
    s.houses[1][0].rooms = ["room1b1"]
    assert [a for a in G.legal_actions(s, 0) if a.startswith("food")] == [
        "food p2 1 1",
        "food p2 1 2",
    ]
    s = act(s, 0, "food p2 1 1")
    assert s.houses[1][0].cats == 0 and s.houses[0][0].cats == 1
    # onto a floor with a ghost: cat and ghost are both discarded
    s = table(
        [["food"], ["cat"]],
        {0: house({"rooms": 2}, {"rooms": 1, "lit": True, "ghosts": 1}), 1: house({"cats": 1})},
    )
    s = act(s, 0, "food p2 1 2")
    assert s.houses[0][1].ghosts == 0 and s.houses[0][1].cats == 0
    assert s.discard == {"food": 1, "ghost": 1, "cat": 1}


def test_elevator_moves_a_cat_between_your_floors():
    """'Elevator: Move a cat between floors in your own house.'"""
    s = table([["elevator"], ["cat"]], {0: house({"rooms": 2, "cats": 1}, {"rooms": 1})})
    assert [a for a in G.legal_actions(s, 0) if a.startswith("elevator")] == ["elevator 1 2"]
    s = act(s, 0, "elevator 1 2")
    assert s.houses[0][0].cats == 0 and s.houses[0][1].cats == 1


def test_lightning_turns_off_the_light_on_the_highest_room_floor():
    """'Lightning: Turn off an opponent's light on the highest floor where they have explored
    a room.'"""
    s = table(
        [["lightning"], ["cat"], ["cat"]],
        {
            1: house({"rooms": 2, "lit": True}, {"rooms": 1, "lit": True}),
            2: house({"rooms": 2, "lit": True}, {"rooms": 1}),  # top room floor is dark
        },
    )
    assert [a for a in G.legal_actions(s, 0) if a.startswith("lightning")] == ["lightning p2"]
    s = act(s, 0, "lightning p2")
    assert not s.houses[1][1].lit and s.houses[1][0].lit
    # a ghost on the floor that goes dark takes it at once (our house decision)
    s = table([["lightning"], ["cat"]], {1: house({"rooms": 2, "lit": True, "ghosts": 1})})
    s = act(s, 0, "lightning p2")
    assert s.houses[1][0] == Floor()


def test_special_cards_are_played_only_from_the_hand():
    """'Play a special card from your hand.'"""
    s = table([["cat"], ["cat"]], {0: house({"rooms": 2, "cats": 1}, {"rooms": 1})})
    with pytest.raises(IllegalAction, match="no elevator"):
        G.apply(s, 0, "elevator 1 2")


def test_an_empty_hand_passes():
    """'all players takes turns choosing ONE of the following actions' (with no card, none is
    possible: a house decision)."""
    s = table([[], ["cat"]])
    assert G.legal_actions(s, 0) == ["pass"]
    s = act(s, 0, "pass")
    assert s.turn == 1


def test_the_discard_pile_is_reshuffled_when_the_deck_runs_out():
    """'If the deck runs out of cards, it is reshuffled.'"""
    s = table([["room1b1", "room1b2", "ghost"], ["cat"]], deck={"wild": 1})
    s.discard = {"ghost": 2, "room2b2": 1}
    s = act(s, 0, "play room1b1", "play room1b2", "done")  # floor 1 full, turn over
    s, events = G.apply(s, CHANCE, "wild")  # the deck's last card; one more is owed
    assert s.deck == {"ghost": 2, "room2b2": 1} and s.discard == {}
    assert "shuffled" in events[-1].text
    assert dict(G.chance_outcomes(s)) == pytest.approx({"room2b2": 1 / 3, "ghost": 2 / 3})
    s = draw(s, "room2b2")
    assert s.hands[0] == ["room2b2", "wild", "ghost"]
    assert s.deck == {"ghost": 2} and G.to_act(s) == [1]


def test_with_no_card_left_anywhere_the_hand_stays_short():
    """'If the deck runs out of cards, it is reshuffled' (an empty discard pile too: nothing
    to draw, a house decision)."""
    s = table([["room1b1", "ghost", "cat"], ["cat"]], deck={})
    s = act(s, 0, "play room1b1", "done")  # the turn ends, nothing to draw
    assert G.to_act(s) == [1] and len(s.hands[0]) == 2


def test_refusals_say_what_is_wrong_and_labels_read_well():
    """'You must fill all lower floors before placing a room card on the next floor.'"""
    s = table([["room1b1", "room3b1", "ghost"], ["cat"]], {0: house({"rooms": 2})})
    with pytest.raises(IllegalAction, match="Floor 1 is fully explored"):
        G.apply(s, 0, "play room1b1")
    with pytest.raises(IllegalAction, match="next room goes on floor 2"):
        G.apply(s, 0, "play room3b1")
    with pytest.raises(IllegalAction, match="no room yet"):
        G.apply(s, 0, "ghost p2")
    with pytest.raises(IllegalAction, match="no cat"):
        G.apply(s, 0, "cat 1")
    assert G.describe(s, "play room1b1") == "Play first-floor room (1 bulb)"
    assert G.describe(s, "ghost p2") == "Ghost on Bob's house"
    assert G.describe(s, "hole p1 2 p2") == "Hole: Ann's floor 2 ghost to Bob"
    discarding = act(s, 0, "discard")
    assert G.describe(discarding, "with room3b1") == "Discard third-floor room (1 bulb)"
    lighting = act(table([["room1b3", "room2b3"], ["cat"]]), 0, "light 1")
    assert G.describe(lighting, "with room2b3") == "Use second-floor room (3 bulbs) for the light"


def test_a_ghost_sent_through_the_hole_onto_a_cat_is_cancelled():
    """'Time Space Hole: Move a ghost ... to an opponent's house' and 'If a cat is present on
    the floor, both the ghost and the cat will be discarded.'"""
    s = table(
        [["hole"], ["cat"]],
        {0: house({"rooms": 2, "lit": True, "ghosts": 1}), 1: house({"rooms": 1, "cats": 1})},
    )
    s = act(s, 0, "hole p1 1 p2")
    assert not s.windows and s.turn == 1
    assert s.houses[0][0].ghosts == 0 and s.houses[1][0].cats == 0
    assert s.houses[1][0].rooms == ["room1b1"]
    assert s.discard == {"hole": 1, "ghost": 1, "cat": 1}
