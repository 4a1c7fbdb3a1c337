"""A whole 18 Ghosts game through the real python-telegram-bot (long polling) against the
stand-in Bot API: commands and inline buttons by two group members until one wins."""

from __future__ import annotations

import random

from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import (
    BOARD_CALLS,
    GROUP,
    PNG,
    board_photos,
    buttons,
    choice_buttons,
    current_board,
    mentioned_ids,
    open_table,
    press_and_wait,
    until_shown,
)
from tests.e2e.telegram_standin import TelegramStandIn


async def play_until_won(standin: TelegramStandIn, rng: random.Random, limit: int = 400) -> int:
    users = {standin.ann["id"]: standin.ann, standin.bob["id"]: standin.bob}
    for moves in range(limit):
        board = current_board(standin)
        if " wins with " in board["caption"]:
            return moves
        actor = users[mentioned_ids(board)[0]]
        nav = [b for b in buttons(board) if (b.get("callback_data") or "").startswith("p|")]
        if nav and rng.random() < 0.5:  # look at the next page of choices first
            nxt = [b for b in nav if b["text"].startswith("Next")]
            if nxt:
                await press_and_wait(
                    standin,
                    actor,
                    board,
                    nxt[0]["callback_data"],
                    after_methods=("editMessageReplyMarkup",),
                )
                board = current_board(standin)
        choice = rng.choice(choice_buttons(board))
        await press_and_wait(standin, actor, board, choice["callback_data"])
    raise AssertionError(f"no winner after {limit} moves")


async def test_whole_game_in_a_group(tg_bot):
    standin = tg_bot.standin
    commands = standin.calls_of("setMyCommands")
    assert {c.params["scope"]["type"] for c in commands} == {"all_private_chats", "all_group_chats"}

    board = await open_table(standin)
    assert mentioned_ids(board) == [standin.ann["id"]]
    refusal = await standin.say(standin.ann, GROUP, "/escape leave")  # seats are fixed now
    notice = await standin.wait_for(
        lambda c: (
            c.method == "sendMessage"
            and c.params.get("reply_parameters", {}).get("message_id") == refusal["message_id"]
        )
    )
    assert "seats are fixed" in notice.result["text"]
    assert "Your move: Ann" in board["caption"]

    # The first move typed as a command, the rest by buttons.
    mark = len(standin.calls)
    await standin.say(standin.ann, GROUP, "/escape move place a1")
    await standin.wait_for(lambda c: c.method in BOARD_CALLS, after=mark)
    assert "places" in current_board(standin)["caption"]

    moves = await play_until_won(standin, random.Random(7))
    assert moves > 10

    final = current_board(standin)
    assert " wins with " in final["caption"]  # the engine's announcement, and only that:
    assert "wins 18 Ghosts" not in final["caption"]  # not the result's summary again
    assert not choice_buttons(final), "a finished game offers no moves"
    row = await tg_bot.service.store.session(1)
    assert row.status == "finished"

    uploads = [c for c in standin.calls if c.method in BOARD_CALLS]
    assert all(any(f.startswith(PNG) for f in c.files.values()) for c in uploads)
    # The board is edited in place: one board in the group, nothing left behind.
    await until_shown(standin, lambda: board_photos(standin) == [final])  # tidied after it
    assert board_photos(standin) == [final]
    live = standin.bot_messages(GROUP)
    assert not [m for m in live if "opened a table" in m.get("text", "")], "the lobby is tidied"
    assert standin.calls_of("editMessageMedia"), "moves edit the board message"
    assert len(standin.calls_of("sendPhoto")) < 5, "moves do not flood the group"
    # Notices are tidied at the end, after the final board is shown: wait for it.
    await standin.wait_for(lambda c: (GROUP, notice.result["message_id"]) in standin.deleted)
    assert standin.calls_of("editMessageReplyMarkup"), "long lists of choices were paged"
    # Every press was answered.
    presses = sum(1 for c in standin.calls if c.method == "answerCallbackQuery")
    assert presses >= moves
