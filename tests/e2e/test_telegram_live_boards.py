"""One live board per game (issue 58): "the chat has moved on" is judged per forum topic,
so two tables in one forum group each keep their board edited in place while the other
topic talks; messages in a board's own topic still bury it."""

from __future__ import annotations

from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import choice_buttons, mentioned_ids, press_and_wait, until_shown

FORUM = -1009998887700


async def _say(standin, user, text: str, thread: int, expect: str) -> None:
    mark = len(standin.calls)
    await standin.say(user, FORUM, text, thread=thread)
    await standin.wait_for(lambda c: c.method == expect, after=mark)


def _photos(standin, thread: int) -> list[dict]:
    """The boards topic `thread` shows now."""
    return [
        m
        for m in standin.bot_messages(FORUM)
        if "photo" in m and m.get("message_thread_id") == thread
    ]


def _board(standin, thread: int) -> dict:
    photos = _photos(standin, thread)
    assert len(photos) == 1, f"{len(photos)} boards in topic {thread}"
    return photos[0]


def _photos_sent(standin, thread: int) -> int:
    return sum(c.params.get("message_thread_id") == thread for c in standin.calls_of("sendPhoto"))


async def _move(standin, thread: int) -> None:
    board = _board(standin, thread)
    actor = {u["id"]: u for u in (standin.ann, standin.bob)}[mentioned_ids(board)[0]]
    await press_and_wait(standin, actor, board, choice_buttons(board)[0]["callback_data"])


async def test_talk_in_one_topic_does_not_bury_the_board_of_another(tg_bot):
    standin = tg_bot.standin
    standin.add_group(FORUM, "Games forum", forum=True)
    ann, bob, carol = standin.ann, standin.bob, standin.carol
    standin.add_topic(FORUM, 79)  # a topic with no table, where people talk
    for thread in (77, 78):
        standin.add_topic(FORUM, thread)
        await _say(standin, ann, "/escape start ghosts18 variant=short", thread, "sendMessage")
        await _say(standin, bob, "/escape join", thread, "sendPhoto")
    for _ in range(3):
        for thread, elsewhere in ((77, 79), (78, None)):
            await _move(standin, thread)
            for _ in range(4):  # eight messages elsewhere in the group: a command, its answer
                await _say(standin, carol, "/help", elsewhere, "sendMessage")
    assert _photos_sent(standin, 77) == _photos_sent(standin, 78) == 1, "edited in place"
    # talk in the board's own topic buries it: the next move posts the board anew
    for _ in range(4):
        await _say(standin, carol, "/help", 77, "sendMessage")
    before = _board(standin, 77)
    await _move(standin, 77)
    shown = lambda: [m["message_id"] for m in _photos(standin, 77)]  # noqa: E731
    assert await until_shown(
        standin, lambda: len(shown()) == 1 and shown() != [before["message_id"]]
    )
    assert _photos_sent(standin, 77) == 2 and _photos_sent(standin, 78) == 1
