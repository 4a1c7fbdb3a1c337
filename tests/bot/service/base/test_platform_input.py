"""Whatever a platform sends (issue 20): ids, scopes, names and typed text with lone UTF-16
surrogates, control characters, bidirectional overrides and 10,000 characters go through
every service entry point and get a clear answer or a normal game, never an exception."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bot.service import ChatRef, GameService, Plan, Reply, UserError, UserRef
from bot.service.base.platform_input import MAX_ID, MAX_NAME, clean_id, clean_name
from bot.store import Store
from engines import REGISTRY

SPECIALS = [
    "\ud800",
    "\udfff",
    "\ud83d",
    "\x00",
    "\x07",
    "\n",
    "\r\n",
    "\t",
    "\x1b[31m",
    "\x7f",
    "\u202e",
    "\u2066",
    "\u200d",
    "\ufeff",
    "\u2028",
    "é",
    "👻",
    "\u0301",
    " ",
    "",
    "<@123>",
    "@everyone",
]

junk = st.one_of(
    st.lists(st.one_of(st.sampled_from(SPECIALS), st.text(max_size=3)), max_size=6).map("".join),
    st.sampled_from(SPECIALS).map(lambda s: (s or "x") * 10_000),
)
# seeded and without shrinking: a failure shows its example at once instead of minutes later
FAST = settings(
    derandomize=True,
    max_examples=40,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
)


def _sendable(text: str) -> None:
    """What every adapter needs of a text: it encodes (no lone surrogate)."""
    text.encode("utf-8")


# ----- the cleaning itself -----------------------------------------------------------
@FAST
@given(junk)
def test_cleaned_values_encode_are_bounded_and_clean_again_to_themselves(value):
    for clean, limit in ((clean_id, MAX_ID), (clean_name, MAX_NAME)):
        once = clean(value)
        _sendable(once)
        assert len(once) <= limit and clean(once) == once
    assert not any(ch in clean_name(value) for ch in "\n\r\t\x00\u202e")


def test_different_ids_stay_different_and_real_ids_are_untouched():
    assert clean_id("1234567890123456789") == "1234567890123456789"
    assert clean_id("-1001234567890") == "-1001234567890"
    assert clean_id("\ud800") != clean_id("\udfff")
    assert clean_id("a" * 10_000) != clean_id("a" * 10_001)
    assert clean_name("Zoë 👻") == "Zoë 👻"
    assert clean_name("Ann\nwins!") == "Ann wins!"
    assert clean_name("\u202eeve") == "eve"
    assert clean_name("\x00\n") == "(no name)"
    assert clean_name("B\ud800b") == "B\ufffdb"


def test_the_request_types_clean_what_they_are_given():
    user = UserRef("test", "u\ud800", "x" * 10_000)
    chat = ChatRef("test", "c\x00", "t\n", "s" * 10_000)
    assert user.id == "u\\ud800" and len(user.name) == MAX_NAME
    assert chat.chat == "c\\x00" and chat.thread == "t " and len(chat.scope) == MAX_ID


# ----- through every entry point ----------------------------------------------------
def _check(result) -> None:
    replies = result if isinstance(result, list | Plan) else [result]
    for reply in replies:
        if isinstance(reply, Reply):
            _sendable(reply.text)
            for choice in reply.choices:
                _sendable(choice.label)
            if reply.picture is not None:
                _sendable(reply.picture.alt)


async def _call(work) -> object:
    """An entry point's answer: replies that can be sent, or a refusal that can."""
    try:
        result = await work
    except UserError as exc:
        _sendable(str(exc))
        assert len(str(exc)) < 2000  # one Discord message
        return exc
    _check(result)
    return result


async def _junk_through_every_entry_point(
    tmp: Path, ids: list[str], names: list[str], texts: list[str]
) -> None:
    store = await Store.open(tmp / "escape.sqlite3")
    service = GameService(store, seed_source=lambda: 7, pictures=False)
    try:
        chat = ChatRef("test", ids[0], ids[1], ids[2])
        ann, bob = UserRef("test", ids[3], names[0]), UserRef("test", ids[4], names[1])
        await _call(service.start(chat, ann, texts[0], texts[1]))
        await _call(service.rules(texts[0]))
        await _call(service.start(chat, ann, "ghosts18", {texts[1]: texts[0]}))  # as a mapping
        await _call(service.abort(chat, ann))  # (in case those options were good after all)
        service.catalogue(), service.help()
        await _call(service.start(chat, ann, "ghosts18"))
        joined = await _call(service.join(chat, bob))
        if ann.id != bob.id:  # two people: a normal game begins
            assert isinstance(joined, Plan) and joined[0].kind == "board", joined
            assert ann.name in joined[0].text
        for work in (
            lambda: service.move(chat, ann, texts[2]),
            lambda: service.move(chat, bob, texts[2], version=3),
            lambda: service.press(chat, bob, texts[3]),
            lambda: service.board(chat),
            lambda: service.private_view(chat, ann),
            lambda: service.history(chat, bob),
            lambda: service.games_here(texts[4], ids[2]),
            lambda: service.games_here("test", texts[4]),
            lambda: service.rules(None, chat),
            lambda: service.clock_command(chat, ann, texts[5]),
            lambda: service.clock_command(chat, bob, "tz " + texts[5]),
            lambda: service.vote(chat, bob),
            lambda: service.choices(chat, ann),
            lambda: service.live(chat),
            lambda: service.leave(chat, bob),
            lambda: service.begin(chat, ann),
        ):
            await _call(work())
        board = await _call(service.board(chat))
        if isinstance(board, Plan):  # press a real button: the game goes on
            choice = next((c for c in board[0].choices if c.for_user), None)
            if choice is not None:
                who = ann if choice.for_user == ann.id else bob
                pressed = await _call(service.press(chat, who, choice.data))
                assert isinstance(pressed, Plan) and pressed[0].kind == "board"
        await _call(service.abort(chat, bob, is_admin=True))
        assert await service.live(chat) is None
    finally:
        await store.close()


@settings(FAST, max_examples=30)
@given(
    ids=st.lists(junk, min_size=5, max_size=5),
    names=st.lists(junk, min_size=2, max_size=2),
    texts=st.lists(junk, min_size=6, max_size=6),
)
def test_junk_from_a_platform_gets_an_answer_or_a_game_never_an_exception(ids, names, texts):
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(_junk_through_every_entry_point(Path(tmp), ids, names, texts))


@pytest.mark.parametrize("game", sorted(REGISTRY))
async def test_a_board_picture_with_the_worst_names_is_drawn(store, game):
    """Names reach the pictures too: the cleaned ones draw (Pillow's font has no glyph for
    some, which it draws as boxes) and their alt text can be sent."""
    service = GameService(store, seed_source=lambda: 7, pictures=True)
    chat = ChatRef("test", "c\ud800")
    ann = UserRef("test", "a", "\u202e" + "👻\ud83d" * 40)
    bob = UserRef("test", "b", "\x1b[31mBob\n" + "é" * 10_000)
    await service.start(chat, ann, game)
    [board, *_] = await service.join(chat, bob)
    if board.kind == "lobby":  # a table for more than two
        [board, *_] = await service.begin(chat, bob)
    assert board.kind == "board" and board.picture is not None
    _check([board])
    assert max(len(s.name) for s in (await service.live(chat)).seats) <= MAX_NAME
