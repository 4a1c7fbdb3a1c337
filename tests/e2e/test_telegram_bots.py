"""A human plays a whole 18 Ghosts game against a bot seat through the real
python-telegram-bot and the stand-in Bot API (issue 15): the table starts at once, the bot
answers every move before the next board, and the board always waits for the human."""

from __future__ import annotations

import random

from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import (
    BOARD_CALLS,
    GROUP,
    choice_buttons,
    current_board,
    mentioned_ids,
    press_and_wait,
)


async def test_a_human_against_a_bot_to_the_end(tg_bot):
    standin = tg_bot.standin
    ann = standin.ann
    mark = len(standin.calls)
    await standin.say(ann, GROUP, "/escape start ghosts18 variant=short bots=1 level=easy")
    await standin.wait_for(lambda c: c.method in BOARD_CALLS, after=mark)
    board = current_board(standin)
    assert "Bot 1 (easy)" in board["caption"]
    row = await tg_bot.live()
    assert [(s.name, s.kind) for s in row.seats] == [("Ann", "human"), ("Bot 1 (easy)", "ai")]
    rng = random.Random(4)
    for _ in range(300):
        board = current_board(standin)
        if " wins with " in board["caption"]:  # the engine announces the win
            break
        assert mentioned_ids(board) == [ann["id"]], "the board waits for the human only"
        choice = rng.choice(choice_buttons(board))
        await press_and_wait(standin, ann, board, choice["callback_data"])
    else:
        raise AssertionError("no winner")
    row = await tg_bot.service.store.session(row.id)
    assert row.status == "finished"
    log = await tg_bot.service.store.log(row.id)
    assert [e for e in log if e.seat == 1 and e.user_id is None], "the bot moved"
