"""Issue 59 on Telegram, from outside (the real python-telegram-bot against the stand-in
Bot API): resign in a 2- and a 4-player game; a seat offered, taken with its button and the
game finished by the new player; an admin (asked with getChatMember) ends a table and bars
a user, a member refused each; a blocked member cannot join. A person is named by replying
to one of their messages, Telegram's way to pick a member."""

from __future__ import annotations

import random

from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import (
    GROUP,
    buttons,
    choice_buttons,
    current_board,
    mentioned_ids,
    open_table,
    press_and_wait,
)
from tests.e2e.test_telegram_platform import command


def said_since(standin, mark: int) -> str:
    return "\n".join(
        str(
            c.params.get("text")
            or c.params.get("caption")
            or (c.params.get("media") or {}).get("caption")
            or ""
        )
        for c in standin.calls[mark:]
        if c.method in ("sendMessage", "sendPhoto", "editMessageMedia", "editMessageCaption")
    )


async def test_resign_in_a_two_player_game(tg_bot):
    standin = tg_bot.standin
    await open_table(standin)
    mark = len(standin.calls)
    await command(standin, standin.bob, "/escape resign", expect=("sendPhoto", "editMessageMedia"))
    said = said_since(standin, mark)
    assert "Bob resigns: they lose this game." in said and "Ratings: Ann" in said
    assert "Waiting for" not in said  # nobody is waited for once it is over
    row = await tg_bot.service.store.session(1)
    assert row.status == "finished" and row.result["ranking"] == [[0], [1]]


async def test_resign_in_a_four_player_game_the_others_play_on(tg_bot):
    standin = tg_bot.standin
    await command(standin, standin.ann, "/escape start castle_doors")
    for user in (standin.bob, standin.carol, standin.dave):
        await command(
            standin, user, "/escape join", expect=("sendMessage", "sendPhoto", "editMessageText")
        )
    await until_active(tg_bot, 4)
    mark = len(standin.calls)
    await standin.say(standin.carol, GROUP, "/escape resign")
    await standin.wait_for(lambda c: "Carol resigns" in said_since(standin, mark), after=mark)
    row = await tg_bot.service.store.session(1)
    assert row.status == "active" and row.seats[2].lost and row.seats[2].kind == "placeholder"
    assert "Carol resigns: they lose this game, and a stand-in plays their seat on." in said_since(
        standin, mark
    )


async def until_active(tg_bot, players: int) -> None:
    import asyncio

    for _ in range(200):
        row = await tg_bot.service.store.session(1)
        if row is not None and row.status == "active" and len(row.seats) == players:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the table did not begin")


async def test_a_seat_handed_over_and_the_game_finished_by_the_new_player(tg_bot):
    standin = tg_bot.standin
    await open_table(standin)
    offer = await command(standin, standin.bob, "/escape offer")
    assert "The seat of Bob is offered" in offer.params["text"]
    take = next(b["callback_data"] for b in buttons(offer.result) if "Take the seat" in b["text"])
    await press_and_wait(standin, standin.carol, offer.result, take)
    assert (await tg_bot.service.store.session(1)).seats[1].user_id == "1003"
    people = {1001: standin.ann, 1003: standin.carol}
    rng = random.Random(4)
    for _ in range(400):
        board = current_board(standin)
        if not mentioned_ids(board):
            break
        (actor,) = mentioned_ids(board)
        assert actor != 1002, "Bob's seat is Carol's now"
        data = rng.choice(choice_buttons(board))["callback_data"]
        await press_and_wait(standin, people[actor], board, data)
    else:
        raise AssertionError("the game did not end")
    row = await tg_bot.service.store.session(1)
    assert row.status == "finished"
    log = await tg_bot.service.store.log(1)
    note = next(e for e in log if e.action == "seat")
    assert {e.user_id for e in log if e.seat == 1 and e.n > note.n} == {"1003"}


async def test_an_admin_ends_a_table_and_bars_a_user_a_member_is_refused_each(tg_bot):
    standin = tg_bot.standin
    await open_table(standin)
    refused = await command(standin, standin.carol, "/escape abort")
    assert "Only the player who started" in refused.params["text"]
    await command(standin, standin.dave, "/escape abort")  # Dave administers the group
    row = await tg_bot.service.store.session(1)
    assert row.status == "aborted" and not row.result
    await command(standin, standin.dave, "/start", chat=standin.dave["id"])  # answers: privately
    ann_said = await standin.say(standin.ann, GROUP, "hello")
    mark = len(standin.calls)
    await standin.say(standin.carol, GROUP, "/escape bar", reply_to=ann_said)
    await standin.wait_for(lambda c: c.method == "sendMessage", after=mark)
    assert "Only an admin" in said_since(standin, mark)
    mark = len(standin.calls)
    await standin.say(standin.dave, GROUP, "/escape bar", reply_to=ann_said)
    await standin.wait_for(lambda c: c.method == "sendMessage", after=mark)
    assert "Ann is barred" in said_since(standin, mark)
    refusal = await command(standin, standin.ann, "/escape start ghosts18")
    assert "barred you" in refusal.params["text"]
    assert await tg_bot.live() is None


async def test_a_blocked_member_cannot_join(tg_bot):
    standin = tg_bot.standin
    await command(standin, standin.ann, "/start", chat=standin.ann["id"])  # answers: privately
    bob_said = await standin.say(standin.bob, GROUP, "hi all")
    mark = len(standin.calls)
    await standin.say(standin.ann, GROUP, "/escape block", reply_to=bob_said)
    await standin.wait_for(lambda c: c.method == "sendMessage", after=mark)
    assert "You block Bob" in said_since(standin, mark)
    assert "/escape unblock lifts it" in said_since(standin, mark)  # flat on Telegram
    await command(standin, standin.ann, "/escape start ghosts18")
    refusal = await command(standin, standin.bob, "/escape join")
    assert refusal.params["text"].startswith("You cannot join this table.")
    assert "Ann" not in refusal.params["text"]
    row = await tg_bot.live()
    assert row.status == "lobby" and [s.user_id for s in row.seats] == ["1001"]


async def test_export_comes_privately_as_a_file_and_forget_me_asks_first(tg_bot):
    import json

    standin = tg_bot.standin
    await command(standin, standin.ann, "/start", chat=standin.ann["id"])
    await open_table(standin)
    mark = len(standin.calls)
    await standin.say(standin.ann, standin.ann["id"], "/escape export")
    sent = await standin.wait_for(lambda c: c.method == "sendDocument", after=mark)
    assert sent.params["chat_id"] == standin.ann["id"]  # privately, never in the group
    data = json.loads(standin.documents[-1])
    assert [g["number"] for g in data["games"]] == [1] and data["name"] == "Ann"
    assert "1 game you sat at" in str(sent.params.get("caption"))
    asked = await command(standin, standin.ann, "/escape forget-me", chat=standin.ann["id"])
    assert "forget-me confirm" in asked.params["text"]
    assert (await tg_bot.service.store.session(1)).seats[0].user_id == "1001"
