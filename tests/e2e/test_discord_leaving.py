"""Issue 59 on Discord, from outside (the real discord.py against the stand-in): resign in
a 2- and a 4-player game; a seat offered, taken with its button and the game finished by
the new player; an admin ends a table and bars a user, a member without Manage Messages
refused each; a blocked member cannot join."""

from __future__ import annotations

import random

from tests.e2e.discord_fixtures import *  # noqa: F403
from tests.e2e.discord_fixtures import ADMIN_PERMISSIONS, ANN, BOB, CID, DiscordBot, mentioned
from tests.e2e.discord_standin import user_payload
from tests.e2e.test_discord_game import open_ghosts, options_of, pick

DEE = user_payload(930000000000000044, "Dee")
MEMBERS = {int(u["id"]): u for u in (ANN, BOB, CID, DEE)}


async def test_resign_in_a_two_player_game(discord_bot):
    bot = discord_bot
    await open_ghosts(bot)
    refused = await bot.slash(CID, "resign")
    assert bot.answers(refused)[0].ephemeral and "not playing" in bot.answers(refused)[0].content
    done = await bot.slash(BOB, "resign")
    (board,) = [m for m in bot.answers(done) if m.attachments]
    assert not board.ephemeral and "Bob resigns: they lose this game." in board.content
    assert "Ratings: Ann" in board.content
    row = await bot.service.store.session(1)
    assert row.status == "finished" and row.result["ranking"] == [[0], [1]]


async def test_resign_in_a_four_player_game_the_others_play_on(discord_bot):
    bot = discord_bot
    start = await bot.slash(ANN, "start", {"game": "castle_doors"})
    (lobby,) = bot.answers(start)
    join = next(b["custom_id"] for b in lobby.buttons() if b["label"] == "Join")
    for user in (BOB, CID, DEE):
        lobby = next(m for m in bot.public() if m.buttons() and "Join" in str(m.buttons()))
        await bot.click(user, lobby, join)
    row = await bot.service.store.session(1)
    assert row.status == "active" and len(row.seats) == 4
    done = await bot.slash(CID, "resign")
    said = " ".join(m.content for m in bot.answers(done))
    assert "Cid resigns: they lose this game, and a stand-in plays their seat on." in said
    row = await bot.service.store.session(1)
    assert row.status == "active" and row.seats[2].kind == "placeholder" and row.seats[2].lost


async def test_a_seat_handed_over_and_the_game_finished_by_the_new_player(discord_bot):
    bot = discord_bot
    board = await open_ghosts(bot)
    refused = await bot.slash(CID, "offer", {"player": BOB})  # not an admin, not Bob
    assert "only your own seat" in bot.answers(refused)[0].content
    offered = await bot.slash(BOB, "offer")
    (offer,) = bot.answers(offered)
    assert not offer.ephemeral and "The seat of Bob is offered" in offer.content
    take = next(b["custom_id"] for b in offer.buttons() if "Take the seat" in b["label"])
    taken = await bot.click(CID, offer, take)
    assert (await bot.service.store.session(1)).seats[1].user_id == CID["id"]
    board = bot.latest_board()
    assert "Cid takes over the seat of Bob" in board.content or any(
        "Cid takes over" in m.content for m in bot.answers(taken)
    )
    rng = random.Random(2)
    for _ in range(400):
        board = bot.latest_board()
        if not mentioned(board):
            break
        (actor,) = mentioned(board)
        assert actor != int(BOB["id"]), "Bob's seat is Cid's now"
        await pick(bot, MEMBERS[actor], board, rng.choice(options_of(board)))
    else:
        raise AssertionError("the game did not end")
    row = await bot.service.store.session(1)
    assert row.status == "finished"
    log = await bot.service.store.log(1)
    note = next(e for e in log if e.action == "seat")
    assert {e.user_id for e in log if e.seat == 1 and e.n > note.n} == {CID["id"]}


async def test_an_admin_ends_a_table_and_bars_a_user_a_member_is_refused_each(discord_bot):
    bot: DiscordBot = discord_bot
    await open_ghosts(bot)
    refused = await bot.slash(BOB, "abort")  # Bob did not start it and is no admin
    assert bot.answers(refused)[0].ephemeral
    assert (await bot.service.store.session(1)).status == "active"
    ended = await bot.slash(CID, "abort", permissions=ADMIN_PERMISSIONS)
    assert "ended the game" in bot.answers(ended)[0].content
    row = await bot.service.store.session(1)
    assert row.status == "aborted" and not row.result  # unrated
    barred = await bot.slash(BOB, "bar", {"player": ANN})
    (no,) = bot.answers(barred)
    assert no.ephemeral and "Only an admin" in no.content
    barred = await bot.slash(CID, "bar", {"player": ANN}, permissions=ADMIN_PERMISSIONS)
    (yes,) = bot.answers(barred)
    assert yes.ephemeral and "Ann is barred" in yes.content
    # the commands it names as Discord lays them out: in their groups
    assert "/escape admin unbar lifts it" in yes.content and "/escape admin remove" in yes.content
    start = await bot.slash(ANN, "start", {"game": "ghosts18"})
    (refusal,) = bot.answers(start)
    assert refusal.ephemeral and "barred you" in refusal.content
    assert await bot.service.live(_chat()) is None
    await bot.slash(BOB, "start", {"game": "ghosts18"})
    lobby = bot.public()[-1]
    join = next(b["custom_id"] for b in lobby.buttons() if b["label"] == "Join")
    await bot.click(ANN, lobby, join)
    assert [s.user_id for s in (await bot.service.live(_chat())).seats] == [BOB["id"]]


async def test_a_blocked_member_cannot_join(discord_bot):
    bot = discord_bot
    blocked = await bot.slash(ANN, "block", {"player": BOB})
    (said,) = bot.answers(blocked)
    assert said.ephemeral and "You block Bob" in said.content
    assert "/escape me unblock lifts it" in said.content  # in its group, as Discord has it
    start = await bot.slash(ANN, "start", {"game": "ghosts18"})
    (lobby,) = bot.answers(start)
    join = next(b["custom_id"] for b in lobby.buttons() if b["label"] == "Join")
    await bot.click(BOB, lobby, join)
    row = await bot.service.live(_chat())
    assert row.status == "lobby" and [s.user_id for s in row.seats] == [ANN["id"]]
    typed = await bot.slash(BOB, "join")
    (refusal,) = bot.answers(typed)
    assert refusal.ephemeral and refusal.content.startswith("You cannot join this table.")
    assert "Ann" not in refusal.content


def _chat():
    from bot.service import ChatRef
    from tests.e2e.discord_fixtures import CHANNEL, GUILD_ID

    return ChatRef("discord", str(CHANNEL), "", str(GUILD_ID))


async def test_export_is_an_ephemeral_file(discord_bot):
    import json

    bot = discord_bot
    await open_ghosts(bot)
    record = await bot.slash(ANN, "export")
    (answer,) = bot.answers(record)
    assert answer.ephemeral and "1 game you sat at" in answer.content
    name, body = answer.files[0]
    assert name.endswith(".json") and json.loads(body)["games"][0]["number"] == 1
