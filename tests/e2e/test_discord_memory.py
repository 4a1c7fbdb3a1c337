"""After a game in a Discord channel: its replay (an animated GIF decoded frame by frame,
then board by board), the channel's history and full log, the leaderboard picture, the
Rematch button of the final board, and a watcher's /escape board, through the real
discord.py and the stand-in."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.service import ChatRef, UserRef
from engines import REGISTRY
from tests.e2e.discord_fixtures import *  # noqa: F403
from tests.e2e.discord_fixtures import ANN, BOB, CHANNEL, CID, GUILD_ID, DiscordBot, Message

PNG = b"\x89PNG\r\n\x1a\n"
CHAT = ChatRef("discord", str(CHANNEL), "", str(GUILD_ID))
USERS = [UserRef("discord", ANN["id"], "Ann"), UserRef("discord", BOB["id"], "Bob")]


def button(message: Message, label: str) -> str:
    return next(b["custom_id"] for b in message.buttons() if b["label"] == label)


async def open_castle(bot: DiscordBot) -> None:
    start = await bot.slash(ANN, "start", {"game": "hidden_castle"})
    (lobby,) = bot.answers(start)
    await bot.click(BOB, lobby, button(lobby, "Join"))
    lobby = bot.server.messages[lobby.id]
    joined = [m for m in bot.public() if "Begin" in str(m.components)]
    await bot.click(BOB, joined[-1], button(joined[-1], "Begin"))


async def finish(bot: DiscordBot, seed: int = 4) -> int:
    """Play the game here to its end through the service; the final board is posted as
    the bot posts boards it was not asked for."""
    service = bot.service
    rng = random.Random(seed)
    moves, replies = 0, []
    while (row := await service.live(CHAT)) is not None:
        game = REGISTRY[row.game]
        state = game.load(row.state)
        seat = game.to_act(state)[0]
        replies = await service.move(CHAT, USERS[seat], rng.choice(game.legal_actions(state, seat)))
        moves += 1
    assert await service.notify(CHAT, replies)
    return moves


async def test_replay_history_log_top_and_rematch(discord_bot):
    bot = discord_bot
    await open_castle(bot)
    # a member who does not play is told so by /escape board and offered the replay
    watch = await bot.slash(CID, "board")
    note = [m for m in bot.answers(watch) if "Cid, you are watching" in m.content]
    assert note and "Replay so far" in str(note[0].components)

    moves = await finish(bot)
    final = bot.latest_board()
    assert "Ratings:" in final.content
    assert [b["label"] for b in final.buttons()] == ["Rematch", "Replay", "Review"]

    # drawing every board takes seconds on a busy machine: a longer wait than a move's
    record = await bot.push_and_settle(
        bot.server.slash_payload(CID, CHANNEL, "records replay", {}), timeout=120
    )
    (replay,) = bot.answers(record)
    assert not replay.ephemeral and f"{moves} moves" in replay.content
    name, data = replay.files[0]
    assert name.endswith(".gif")
    gif = Image.open(io.BytesIO(data))
    assert gif.n_frames == moves + 1

    paged = await bot.click(CID, replay, button(replay, "Step through"))
    (first,) = bot.answers(paged)
    assert "board 1 of" in first.content and first.files[0][1].startswith(PNG)
    paged = await bot.click(CID, first, button(first, "Next"))
    (second,) = bot.answers(paged)
    assert "board 2 of" in second.content
    assert [b["label"] for b in second.buttons()] == ["Previous", "Next"]

    record = await bot.slash(ANN, "history")
    (history,) = bot.answers(record)
    assert history.ephemeral and "#1 Escape from the Hidden Castle: Ann, Bob" in history.content
    record = await bot.slash(ANN, "log", {"game": "1"})
    (log,) = bot.answers(record)
    assert "Log of #1" in log.content and "the game ends" in log.content  # the last page
    assert [b["label"] for b in log.buttons()] == ["Previous"]

    record = await bot.slash(BOB, "top")
    (top,) = bot.answers(record)
    assert top.files[0][1].startswith(PNG) and "Ann" in top.content and "Bob" in top.content
    record = await bot.slash(BOB, "stats")
    (stats,) = bot.answers(record)
    assert stats.ephemeral and "Bob on this server" in stats.content
    record = await bot.slash(BOB, "stats", locale="es-ES")  # the platform's word said too
    (stats,) = bot.answers(record)
    assert stats.ephemeral and "(servidor)" in stats.content, stats.content

    # Rematch: Bob presses (a lobby, waiting for Ann), then Ann (it begins)
    pressed = await bot.click(BOB, final, button(final, "Rematch"))
    (lobby,) = bot.answers(pressed)
    assert "Rematch of #1: waiting for Ann" in lobby.content
    # the board Bob pressed lost its buttons for the lobby; the lobby has its own Rematch
    await bot.click(ANN, lobby, button(lobby, "Rematch"))
    row = await bot.service.live(CHAT)
    assert row.id == 2 and row.status == "active"
    assert {s.name for s in row.seats} == {"Ann", "Bob"}


async def test_undo_asked_with_a_command_and_accepted_with_a_button(discord_bot):
    """Ann places a ghost (no chance, nothing hidden shown), asks to take it back, Cid may
    not answer, Bob accepts: the move is marked in the log and it is Ann's turn again."""
    from tests.e2e.test_discord_game import open_ghosts

    bot = discord_bot
    await open_ghosts(bot)
    row = await bot.service.live(CHAT)
    game = REGISTRY[row.game]
    await bot.service.move(CHAT, USERS[0], game.legal_actions(game.load(row.state), 0)[0])

    record = await bot.slash(ANN, "undo")
    asked = [m for m in bot.answers(record) if "asks to take back" in m.content]
    assert asked and not asked[0].ephemeral
    refused = await bot.click(CID, asked[0], button(asked[0], "Accept undo"))
    (refusal,) = bot.answers(refused)
    assert refusal.ephemeral and "You are not playing in this game" in refusal.content
    await bot.click(BOB, asked[0], button(asked[0], "Accept undo"))
    row = await bot.service.live(CHAT)
    assert game.to_act(game.load(row.state)) == [0]
    log = await bot.service.store.log(row.id)
    assert [e.undone for e in log if e.seat >= 0] == [True]
    assert any("taken back" in m.content for m in bot.public())


async def test_review_button_answers_the_presser_alone(discord_bot):
    """Review under the final board, pressed in a Discord channel: the chart and its turning
    moves come back to the presser alone (ephemeral), a player's as their seat saw it, a
    member who did not play the review of no seat; nothing new is posted in the channel."""
    bot = discord_bot
    await open_castle(bot)
    await finish(bot)
    final = bot.latest_board()
    public_before = {m.id for m in bot.public()}
    for user, head in (
        (ANN, "Review of game #1, Escape from the Hidden Castle, as Ann saw it"),
        (CID, "Review of game #1, Escape from the Hidden Castle (the chart"),
    ):
        record = await bot.push_and_settle(
            bot.server.click_payload(user, final, button(final, "Review")), timeout=120
        )
        (review,) = bot.answers(record)
        assert review.ephemeral, "the review is the presser's alone"
        assert review.content.startswith(head) and "1. Move " in review.content, review.content
        assert review.files and review.files[0][1].startswith(PNG)
    assert {m.id for m in bot.public()} == public_before
