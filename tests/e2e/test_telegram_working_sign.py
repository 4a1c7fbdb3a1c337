"""A slow answer's sign on Telegram, through the real adapter and the stand-in Bot API: a
hint's search takes seconds at full strength, so the group sees "typing…" under the bot's
name while it is worked out, and the asker alone gets the hint. A fast answer shows no sign.
The sign's delay is set by each test (0: every answer is slow; 60: none is), so nothing
races the machine's speed."""

from __future__ import annotations

from bot.delivery import waiting
from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import GROUP, mentioned_ids, open_table


async def test_a_slow_hint_shows_typing_in_the_group_then_answers_the_asker(tg_bot, monkeypatch):
    standin = tg_bot.standin
    mark = len(standin.calls)
    await standin.say(standin.ann, standin.ann["id"], "/start")  # her private chat is open
    await standin.wait_for(lambda c: c.method == "sendMessage", after=mark)
    board = await open_table(standin)
    assert mentioned_ids(board) == [standin.ann["id"]]
    monkeypatch.setattr(waiting, "SIGN_AFTER", 0.0)
    mark = len(standin.calls)
    await standin.say(standin.ann, GROUP, "/escape hint")
    hint = await standin.wait_for(
        lambda c: c.method == "sendMessage" and "Hint:" in (c.result or {}).get("text", ""),
        after=mark,
    )
    assert int(hint.params["chat_id"]) == standin.ann["id"]  # to her alone
    signs = standin.calls_of("sendChatAction", after=mark)
    assert [(int(s.params["chat_id"]), s.params["action"]) for s in signs] == [(GROUP, "typing")]
    assert standin.calls.index(signs[0]) < standin.calls.index(hint)


async def test_a_fast_answer_and_a_strangers_hint_show_no_typing(tg_bot, monkeypatch):
    standin = tg_bot.standin
    await open_table(standin)
    monkeypatch.setattr(waiting, "SIGN_AFTER", 60.0)
    mark = len(standin.calls)
    await standin.say(standin.carol, GROUP, "/escape hint")  # not a player here
    refusal = await standin.wait_for(lambda c: c.method == "sendMessage", after=mark)
    assert "Hint:" not in refusal.result["text"]
    assert not standin.calls_of("sendChatAction", after=mark)
