"""Strangers at a table, through the real discord.py client and the stand-in Discord: a
button of every kind pressed by someone who may not (a member of the channel who does not
play, a player of a table in another channel), a tampered custom id, and the admin
commands typed by a bystander. Each gets the refusal it got before buttons were typed
values and commands declared who may use them (the texts are those of main aad9373)."""

from __future__ import annotations

import dataclasses

import pytest

from tests.e2e.discord_fixtures import *  # noqa: F403
from tests.e2e.discord_fixtures import CHANNEL, CID, DiscordBot, Message
from tests.e2e.test_discord_game import open_ghosts
from tests.polling import until

KINDS = [
    "a:1:{v}:0:0",
    "a:1:{v}:1:0",
    "j:1",
    "l:1",
    "b:1",
    "o:1",
    "x:1",
    "v:1",
    "k:1",
    "w:1",
    "u:1:{v}",
    "d:1:{v}",
]
OTHER = 920000000000000077
NO_GAME_HERE = "That button belongs to no game in this chat."
NOT_PLAYING = "You are not playing in this game (players: Ann, Bob). Watch, or start the next one."
NOT_OURS = "That button is not one of ours; use the buttons under the latest board."


@pytest.fixture
def other_channel(standin):
    """A second channel of the guild, there before the bot connects (and caches them)."""
    standin.text_channel(OTHER, "elsewhere")
    return OTHER


async def answer(bot: DiscordBot, user: dict, message: Message, custom_id: str) -> str:
    """Press a button carrying `custom_id` under `message` (discord.py answers only a
    component the message carries, so the copy pressed carries it: a forged message)."""
    button = {"type": 2, "style": 2, "label": "Forged", "custom_id": custom_id}
    forged = dataclasses.replace(message, components=[{"type": 1, "components": [button]}])
    record = await bot.server.push(bot.server.click_payload(user, forged, custom_id))
    await bot.server.wait_for(lambda: bot.answers(record))
    (said,) = bot.answers(record)
    assert said.ephemeral, "a refusal is the presser's alone"
    return said.content


async def test_strangers_pressing_every_kind_and_typing_admin_commands_are_refused(
    other_channel, discord_bot
):
    bot = discord_bot
    board = await open_ghosts(bot)  # Ann and Bob play table 1
    version = (await bot.service.live(board_chat(bot, board))).version

    start = await bot.slash(CID, "start", {"game": "ghosts18"}, channel=OTHER)  # Cid's table
    (other,) = bot.answers(start)

    def data(kind: str) -> str:
        return "escape:" + kind.format(v=version)

    in_other = {k: await answer(bot, CID, other, data(k)) for k in [*KINDS, "y:1", "p:1:0"]}
    assert in_other == dict.fromkeys(in_other, NO_GAME_HERE)

    here = {k: await answer(bot, CID, board, data(k)) for k in KINDS if k not in ("j:1", "w:1")}
    assert here == dict.fromkeys(here, NOT_PLAYING)
    assert await answer(bot, CID, board, data("j:1")) == "The game has already begun."
    review = await answer(bot, CID, board, data("w:1"))
    assert review == "That game is still being played: its review comes once it has ended."

    for forged in ("escape:z:1", "escape:a:1:0:0:99999", "escape:j:" + "9" * 40):
        assert await answer(bot, CID, board, forged) == NOT_OURS
    assert (await bot.service.live(board_chat(bot, board))).version == version

    abort = await bot.slash(CID, "abort")  # a bystander without Manage Messages
    assert "Only the player who started" in bot.answers(abort)[0].content
    season = await bot.slash(CID, "season", {"what": "start 3mo"})
    assert "admin" in bot.answers(season)[0].content.lower()
    assert await bot.service.live(board_chat(bot, board)) is not None


def board_chat(bot: DiscordBot, board: Message):
    from bot.service import ChatRef

    row_chat = str(board.channel_id)
    return ChatRef("discord", row_chat)


async def test_a_command_as_it_was_before_the_groups_is_told_it_changed(discord_bot, caplog):
    """A Discord app that still holds the commands as published before they were grouped
    sends `/escape log` flat (now `/escape records log`): it is told to pick the command
    anew, and nothing is logged as an error (discord.py raised CommandNotFound there)."""
    bot = discord_bot
    stale = bot.server.slash_payload(CID, CHANNEL, "log", {})
    record = await bot.push_and_settle(stale)
    [said] = await until(lambda: bot.answers(record), timeout=10)
    assert "has changed" in said.content and said.ephemeral
    assert not [r for r in caplog.records if r.levelname == "ERROR" and "bot" in r.name]
