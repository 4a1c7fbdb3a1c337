"""The shared reaction window (engines/reactions.py): who may answer, what, and `pass`."""

from __future__ import annotations

import json

import pytest

from engines.reactions import PASS, Window, ordered_after, top


def test_an_ordered_window_asks_one_seat_at_a_time_in_order():
    w = Window(kind="stop", seats=[2, 0, 1], answers=["block"])
    assert w.to_act() == [2] and w.responder == 2
    assert w.offers(2, ["block x", "run"]) == ["block x", PASS]
    assert w.offers(0, ["block x"]) == []  # not asked yet
    w.pass_turn(2)
    assert w.to_act() == [0] and w.passed == [2]
    w.answer(0, "block x")
    assert w.to_act() == [1]
    assert w.is_open
    w.respond(1, PASS)
    assert not w.is_open and w.to_act() == [] and w.responder is None


def test_pass_is_always_offered_even_with_nothing_to_answer():
    w = Window(kind="defend", seats=[1], answers=["shield"])
    assert w.offers(1) == [PASS]
    assert w.offers(1, ["attack 3"]) == [PASS]  # not an answer this window allows


def test_a_seat_may_answer_up_to_its_limit_and_passing_ends_its_part():
    w = Window(kind="stop", seats=[1, 2], answers=["ghost"], limit=2)
    w.answer(1, "ghost p1")
    assert w.to_act() == [1] and w.given == [1, 0]
    w.answer(1, "ghost p1")
    assert w.to_act() == [2]
    w.pass_turn(2)
    assert not w.is_open
    w2 = Window(kind="stop", seats=[1, 2], answers=["ghost"], limit=2)
    w2.pass_turn(1)
    assert w2.to_act() == [2] and w2.is_done(1)


def test_a_window_together_asks_every_remaining_seat_at_once():
    w = Window(kind="vote", seats=[0, 1, 2], answers=["veto"], ordered=False)
    assert w.to_act() == [0, 1, 2]
    w.pass_turn(1)
    assert w.to_act() == [0, 2]
    assert w.offers(2, ["veto"]) == ["veto", PASS]


def test_wrong_seat_or_answer_is_refused_and_close_ends_the_window():
    w = Window(kind="stop", seats=[1, 2], answers=["ghost"])
    with pytest.raises(ValueError):
        w.answer(2, "ghost")  # seat 1 first
    with pytest.raises(ValueError):
        w.answer(1, "cat")
    with pytest.raises(ValueError):
        w.pass_turn(0)
    w.close()
    assert not w.is_open and w.passed == [1, 2]


def test_bad_windows_cannot_be_built():
    with pytest.raises(ValueError):
        Window(kind="x", seats=[1, 1], answers=["a"])
    with pytest.raises(ValueError):
        Window(kind="x", seats=[1], answers=[PASS])
    with pytest.raises(ValueError):
        Window(kind="x", seats=[1], answers=["a"], limit=0)


def test_a_window_round_trips_through_json():
    w = Window(kind="stop", seats=[3, 0], answers=["ghost"], limit=2, data={"escaper": 2})
    w.answer(3, "ghost p3")
    back = Window.from_dict(json.loads(json.dumps(w.to_dict())))
    assert back == w
    assert back.to_act() == [3]


def test_turn_order_helpers():
    assert ordered_after(2, 4) == [3, 0, 1]
    assert ordered_after(1, 2) == [0]
    assert top([]) is None
    a, b = Window("a", [0], ["x"]), Window("b", [1], ["y"])
    assert top([a, b]) is b
