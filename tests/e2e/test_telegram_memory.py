"""After a game in a Telegram group: its replay (an animation decoded frame by frame, then
board by board with Previous / Next), the group's history, the full log, the
leaderboard and a rematch, through the real python-telegram-bot and the stand-in."""

from __future__ import annotations

import asyncio
import io
import random

from PIL import Image

from bot.service import ChatRef, UserRef
from engines import REGISTRY
from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import (
    GROUP,
    PNG,
    buttons,
    current_board,
    open_table,
    press_and_wait,
)

CHAT = ChatRef("telegram", str(GROUP), "", str(GROUP))


async def finished_game(tg_bot) -> int:
    """Ann and Bob open and begin Escape from the Hidden Castle in the group; the moves
    are played through the service (the boards of moves are tested elsewhere)."""
    standin = tg_bot.standin
    for user, command, method in (
        (standin.ann, "/escape start hidden_castle", "sendMessage"),
        (standin.bob, "/escape join", "editMessageText"),
        (standin.bob, "/escape begin", "sendPhoto"),
    ):
        mark = len(standin.calls)
        await standin.say(user, GROUP, command)
        await standin.wait_for(lambda c, m=method: c.method == m, after=mark, timeout=30)
    # a member who does not play asks for the board: told so, with the replay so far
    mark = len(standin.calls)
    await standin.say(standin.carol, GROUP, "/escape board")
    note = await standin.wait_for(
        lambda c: c.method == "sendMessage" and "you are watching" in c.result.get("text", ""),
        after=mark,
        timeout=30,
    )
    assert "Carol, you are watching" in note.result["text"]
    assert [b["text"] for b in buttons(note.result)] == ["Replay so far"]
    service = tg_bot.service
    users = [UserRef("telegram", "1001", "Ann"), UserRef("telegram", "1002", "Bob")]
    rng = random.Random(4)
    moves = 0
    replies = []
    while (row := await service.live(CHAT)) is not None:
        game = REGISTRY[row.game]
        state = game.load(row.state)
        seat = game.to_act(state)[0]
        action = rng.choice(game.legal_actions(state, seat))
        replies = await service.move(CHAT, users[seat], action)
        moves += 1
    mark = len(standin.calls)
    assert await service.notify(CHAT, replies)  # the final board, posted as the adapter does
    await standin.wait_for(lambda c: c.method in ("sendPhoto", "editMessageMedia"), after=mark)
    return moves


async def say_and_wait(standin, user, text: str, method: str) -> dict:
    mark = len(standin.calls)
    await standin.say(user, GROUP, text)
    call = await standin.wait_for(lambda c: c.method == method, after=mark, timeout=60)
    return call.result


async def test_replay_history_log_and_leaderboard_in_a_group(tg_bot):
    standin = tg_bot.standin
    moves = await finished_game(tg_bot)

    replay = await say_and_wait(standin, standin.carol, "/escape replay", "sendAnimation")
    gif = Image.open(io.BytesIO(standin.animations[-1]))
    assert gif.format == "GIF" and gif.n_frames == moves + 1
    assert f"{moves} moves" in replay["caption"]
    [step] = [b for b in buttons(replay) if b["text"] == "Step through"]

    await press_and_wait(
        standin, standin.carol, replay, step["callback_data"], after_methods=("sendPhoto",)
    )
    first = standin.calls_of("sendPhoto")[-1].result
    assert "board 1 of" in first["caption"]
    assert any(f.startswith(PNG) for f in standin.calls_of("sendPhoto")[-1].files.values())
    [nxt] = [b for b in buttons(first) if b["text"] == "Next"]
    await press_and_wait(
        standin, standin.carol, first, nxt["callback_data"], after_methods=("sendPhoto",)
    )
    second = standin.calls_of("sendPhoto")[-1].result
    assert "board 2 of" in second["caption"] and "Move 1 of" in second["caption"]
    assert [b["text"] for b in buttons(second)] == ["Previous", "Next"]

    history = await say_and_wait(standin, standin.ann, "/escape history", "sendMessage")
    assert "#1 Escape from the Hidden Castle: Ann, Bob" in history["text"]
    [log_button] = [b for b in buttons(history) if b["text"] == "Log #1"]
    await press_and_wait(
        standin, standin.ann, history, log_button["callback_data"], after_methods=("sendMessage",)
    )
    log = standin.calls_of("sendMessage")[-1].result
    assert "Log of #1" in log["text"] and "page 1 of" in log["text"]

    top = await say_and_wait(standin, standin.bob, "/escape top", "sendPhoto")
    assert "Ann" in top["caption"] and "Bob" in top["caption"]
    stats = await say_and_wait(standin, standin.bob, "/escape stats Ann", "sendMessage")
    assert "rating" in stats["text"] and "1 game," in stats["text"]


async def test_rematch_button_on_the_final_board(tg_bot):
    standin = tg_bot.standin
    await finished_game(tg_bot)
    final = current_board(standin)
    assert "Ratings: Ann" in final["caption"] or "Ratings: Bob" in final["caption"]
    rematch = next(b for b in buttons(final) if b["text"] == "Rematch")
    assert [b["text"] for b in buttons(final)] == ["Rematch", "Replay", "Review"]
    mark = len(standin.calls)
    await press_and_wait(
        standin, standin.bob, final, rematch["callback_data"], after_methods=("sendMessage",)
    )
    lobby = next(
        c
        for c in standin.calls_of("sendMessage", after=mark)
        if "Rematch of #1" in c.result["text"]
    )
    assert "waiting for Ann" in lobby.result["text"]
    await press_and_wait(
        standin, standin.ann, final, rematch["callback_data"], after_methods=("sendPhoto",)
    )
    row = await tg_bot.service.live(CHAT)
    assert row.id == 2 and row.status == "active" and row.game == "hidden_castle"
    assert {s.name for s in row.seats} == {"Ann", "Bob"}


async def test_review_button_on_the_final_board_answers_the_presser_alone(tg_bot):
    """Review under the final board: the chart and its turning moves go to whoever pressed
    it, not to the group (Hidden Castle has no secrets: a member who did not play gets the
    review of no seat)."""
    standin = tg_bot.standin
    for user in (standin.ann, standin.carol):  # they have pressed START privately
        mark = len(standin.calls)
        await standin.say(user, user["id"], "/start")
        await standin.wait_for(
            lambda c, u=user: (
                c.method == "sendMessage" and str(c.params["chat_id"]) == str(u["id"])
            ),
            after=mark,
        )
    await finished_game(tg_bot)
    final = current_board(standin)
    review = next(b for b in buttons(final) if b["text"] == "Review")
    for user, head in (
        (standin.ann, "Review of game #1, Escape from the Hidden Castle, as Ann saw it"),
        (standin.carol, "Review of game #1, Escape from the Hidden Castle (the chart"),
    ):
        mark = len(standin.calls)
        await standin.answer(await standin.press(user, final, review["callback_data"]), timeout=60)
        sent = await standin.wait_for(
            lambda c: (
                c.method == "sendPhoto" and "Review of game" in (c.result or {}).get("caption", "")
            ),
            after=mark,
            timeout=60,
        )
        assert str(sent.params["chat_id"]) == str(user["id"]), "the review is the presser's alone"
        assert sent.result["caption"].startswith(head) and "1. Move " in sent.result["caption"]
        assert any(f.startswith(PNG) for f in sent.files.values())
        assert not [
            c
            for c in standin.calls[mark:]
            if str(c.params.get("chat_id")) == str(GROUP)
            and c.method in ("sendPhoto", "sendMessage")
        ]


async def test_undo_asked_in_the_group_and_declined_then_accepted(tg_bot):
    standin = tg_bot.standin
    await open_table(standin)  # 18 Ghosts: Ann places first; no chance, nothing hidden
    service = tg_bot.service
    row = await service.live(CHAT)
    game = REGISTRY[row.game]
    ann = UserRef("telegram", "1001", "Ann")
    await service.move(CHAT, ann, game.legal_actions(game.load(row.state), 0)[0])

    asked = await say_and_wait(standin, standin.ann, "/escape undo", "sendMessage")
    assert "Ann asks to take back their last move" in asked["text"]
    accept, decline = (b["callback_data"] for b in buttons(asked))
    query = await standin.press(standin.carol, asked, accept)
    answer = await standin.answer(query)
    assert "You are not playing in this game" in answer.get("text", "")
    await press_and_wait(standin, standin.bob, asked, decline, after_methods=("sendMessage",))
    assert "Bob declines" in standin.calls_of("sendMessage")[-1].result["text"]

    asked = await say_and_wait(standin, standin.ann, "/escape undo", "sendMessage")
    accept = buttons(asked)[0]["callback_data"]
    await press_and_wait(standin, standin.bob, asked, accept)
    row = await service.live(CHAT)
    assert game.to_act(game.load(row.state)) == [0]
    assert [e.undone for e in await service.store.log(row.id) if e.seat >= 0] == [True]


async def test_a_slow_press_stops_spinning_before_its_answer(tg_bot, monkeypatch):
    """A press whose answer takes longer than a moment (a review of a long game on a busy
    machine) is acknowledged first with a short note, so the player's button stops spinning
    (Telegram gives up on an unanswered press); the review follows privately."""
    from bot.telegram import handlers

    standin = tg_bot.standin
    mark = len(standin.calls)
    await standin.say(standin.ann, standin.ann["id"], "/start")
    await standin.wait_for(
        lambda c: c.method == "sendMessage" and str(c.params["chat_id"]) == str(standin.ann["id"]),
        after=mark,
    )
    await finished_game(tg_bot)
    final = current_board(standin)
    review = next(b for b in buttons(final) if b["text"] == "Review")
    monkeypatch.setattr(handlers, "ACKNOWLEDGE_AFTER", 0.2)
    presses = tg_bot.service.presses
    press = presses.press

    async def slow_press(*args, **kwargs):
        await asyncio.sleep(1.5)  # the review's search, made long
        return await press(*args, **kwargs)

    monkeypatch.setattr(presses, "press", slow_press)
    mark = len(standin.calls)
    answer = await standin.answer(
        await standin.press(standin.ann, final, review["callback_data"]), timeout=60
    )
    assert answer.get("text", "").startswith("Working on it"), answer
    sent = await standin.wait_for(
        lambda c: (
            c.method == "sendPhoto" and "Review of game" in (c.result or {}).get("caption", "")
        ),
        after=mark,
        timeout=60,
    )
    answered = [c for c in standin.calls[mark:] if c.method == "answerCallbackQuery"]
    assert len(answered) == 1 and standin.calls.index(answered[0]) < standin.calls.index(sent)
    assert str(sent.params["chat_id"]) == str(standin.ann["id"])
