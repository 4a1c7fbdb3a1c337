"""Buttons are typed values (bot/service/base/buttons.py): every kind round-trips through its
wire form, the wire forms are those already posted under boards in chats, and anything
else (junk, tampered, oversized) is refused with one message."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.service.base import buttons as B
from bot.service.base.requests import UserError

SESSION = st.integers(0, 10**12 - 1)
NUMBER = st.integers(0, 10**9 - 1)

SIMPLE = (
    B.Join,
    B.Leave,
    B.Begin,
    B.AddBot,
    B.RemoveBot,
    B.MyView,
    B.BoardAgain,
    B.VoteReplace,
    B.Review,
    B.Replay,
    B.Rematch,
)
KINDS = st.one_of(
    st.builds(B.Act, SESSION, NUMBER, st.integers(0, 99), st.integers(0, 9999)),
    *(st.builds(kind, SESSION) for kind in SIMPLE),
    *(st.builds(kind, SESSION, NUMBER) for kind in (B.ReplayPage, B.LogPage, B.HistoryPage)),
    st.builds(B.UndoAnswer, SESSION, NUMBER, st.booleans()),
    st.builds(B.TakeSeat, SESSION, st.integers(0, 99)),
    st.builds(B.LessonButton, st.integers(0, 99), st.integers(0, 999), st.integers(0, 999)),
    st.builds(B.LessonButton, st.integers(0, 99)),
    st.builds(B.TournamentButton, SESSION, st.sampled_from("jls")),
)


def test_every_kind_is_drawn_by_the_strategy_above():
    """A kind added to buttons.py must be added to this test too."""
    covered = {
        B.Act,
        B.Join,
        B.Leave,
        B.Begin,
        B.AddBot,
        B.RemoveBot,
        B.MyView,
        B.BoardAgain,
        B.VoteReplace,
        B.Review,
        B.Replay,
        B.Rematch,
        B.ReplayPage,
        B.LogPage,
        B.HistoryPage,
        B.UndoAnswer,
        B.TakeSeat,
        B.LessonButton,
        B.TournamentButton,
    }
    assert set(B.KINDS.values()) == covered


@given(KINDS)
def test_every_kind_round_trips_and_fits(button):
    data = button.data
    assert data.isascii() and len(data.encode()) <= B.MAX_BYTES
    assert B.parse(data) == button
    assert type(B.parse(data)) is type(button)


@pytest.mark.parametrize(
    ("button", "wire"),
    [  # the forms of buttons already posted in chats before buttons were typed
        (B.Act(12, 7, 1, 3), "a:12:7:1:3"),
        (B.Join(5), "j:5"),
        (B.Leave(5), "l:5"),
        (B.Begin(5), "b:5"),
        (B.AddBot(5), "o:5"),
        (B.RemoveBot(5), "x:5"),
        (B.MyView(5), "v:5"),
        (B.BoardAgain(5), "g:5"),
        (B.VoteReplace(5), "k:5"),
        (B.Review(5), "w:5"),
        (B.Replay(5), "y:5"),
        (B.Rematch(5), "r:5"),
        (B.ReplayPage(9, 2), "p:9:2"),
        (B.LogPage(9, 0), "n:9:0"),
        (B.HistoryPage(9, 4), "h:9:4"),
        (B.UndoAnswer(9, 31, True), "u:9:31"),
        (B.UndoAnswer(9, 31, False), "d:9:31"),
        (B.LessonButton(2, 5, 1), "t:2:5:1"),
        (B.LessonButton(2), "t:2:p"),
        (B.TournamentButton(41, "j"), "T:41:j"),
        (B.TournamentButton(41, "s"), "T:41:s"),
    ],
)
def test_the_wire_forms_are_those_posted_before(button, wire):
    assert button.data == wire
    assert B.parse(wire) == button


TAMPERED = [
    "",
    "a",
    "a:",
    "a:1:2:3",
    "a:1:2:3:4:5",
    "a:1:2:333:4",
    "a:1:2:3:44444",
    "j:",
    "j:1:2",
    "y:1:2",
    "p:1",
    "u:1",
    "q:1",
    "J:1",
    "j:-1",
    "j:1 ",
    " j:1",
    "j:1\n",
    "j:\u0661",
    "a:1:2:3:x",
    "j:" + "1" * 13,
    "p:1:" + "1" * 10,
    "e|j:1",
    "lesson:ghosts18",
    "t:1",
    "t:1:2",
    "t:1:p:2",
    "t:123:p",
    "T:1",
    "T:1:q",
    "T:x:j",
    "T:1:j:2",
    "a:" + "1" * 12 + ":" + "1" * 9 + ":11:1111" + "0" * 30,
]


@pytest.mark.parametrize("data", [*TAMPERED, None, 7, b"j:1"])
def test_junk_and_tampered_data_is_refused_with_one_message(data):
    with pytest.raises(UserError) as refused:
        B.parse(data)
    assert str(refused.value) == str(B.NOT_OURS)


@given(st.text(max_size=80))
def test_any_text_is_a_button_that_round_trips_or_refused_with_the_message(data):
    try:
        button = B.parse(data)
    except UserError as exc:
        assert str(exc) == str(B.NOT_OURS)
        return
    assert len(data) <= B.MAX_BYTES
    assert B.parse(button.data) == button


@given(KINDS, st.text(min_size=1, max_size=3))
def test_a_tampered_tail_is_refused_unless_it_only_lengthens_a_number(button, tail):
    data = button.data + tail
    try:
        other = B.parse(data)
    except UserError as exc:
        assert str(exc) == str(B.NOT_OURS)
        return
    assert tail.isascii() and tail.isdigit()  # e.g. j:5 -> j:53: another table, checked there
    assert type(other) is type(button)


# the parser of the letters, as it was before buttons were typed (main aad9373)
_OLD = re.compile(r"^(?:(a):(\d{1,12}):(\d{1,9}):(\d{1,2}):(\d{1,4})|([jlbvgkoxw]):(\d{1,12}))$")
_OLD_PAGED = re.compile(r"^(?:([phnud]):(\d{1,12}):(\d{1,9})|([yr]):(\d{1,12}))$")


def _old_parse(data: str) -> tuple | None:
    if len(data) > B.MAX_BYTES:
        return None
    if m := _OLD_PAGED.match(data):
        if m.group(1):
            return (m.group(1), int(m.group(2)), int(m.group(3)))
        return (m.group(4), int(m.group(5)))
    if m := _OLD.match(data):
        if m.group(1):
            return ("a", *(int(m.group(i)) for i in range(2, 6)))
        return (m.group(6), int(m.group(7)))
    return None


def _fields(button: B.Button) -> tuple:
    code = button.data[0]
    return (code, *(int(n) for n in button.data.split(":")[1:]))


@given(st.text(alphabet="ajlbvgkoxwyrphnudq:0123456789", max_size=52))
def test_the_typed_parser_reads_exactly_what_the_letters_parser_read(data):
    old = _old_parse(data)
    try:
        new = _fields(B.parse(data))
    except UserError:
        new = None
    assert new == old
