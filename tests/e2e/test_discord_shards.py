"""Discord sharding (issue 13): a process serves the shards ESCAPE_SHARDS and
ESCAPE_SHARD_IDS give it, identifies as them on the gateway, and plays as usual."""

from __future__ import annotations

import discord
import pytest

from bot.discord.client import EscapeClient
from bot.discord.shards import ShardedEscapeClient, client_for
from bot.settings import Settings
from tests.e2e.discord_fixtures import *  # noqa: F403
from tests.e2e.discord_fixtures import ANN, CHANNEL, DiscordBot


async def test_a_process_identifies_as_its_shard_and_answers(standin, tmp_path):
    bot = DiscordBot(
        standin,
        tmp_path / "escape.sqlite3",
        overrides={"discord_shards": "4", "discord_shard_ids": [2]},
    )
    await bot.start()
    try:
        assert standin.identifies[-1]["shard"] == [2, 4]
        record = await standin.push(
            standin.slash_payload(ANN, CHANNEL, "start", {"game": "ghosts18"})
        )
        answers = await standin.wait_for(
            lambda: [m for m in standin.messages_for(record.token) if not m.thinking]
        )
        assert "18 Ghosts" in answers[0].content
    finally:
        await bot.stop()


def test_the_client_follows_the_shard_settings():
    env = {"ESCAPE_SHARDS": "8", "ESCAPE_SHARD_IDS": "4,5,6,7"}
    kind, options = client_for(Settings.from_env(env))
    assert kind is ShardedEscapeClient and issubclass(kind, discord.AutoShardedClient)
    assert options == {"shard_ids": [4, 5, 6, 7], "shard_count": 8}
    assert client_for(Settings.from_env({"ESCAPE_SHARDS": "auto"})) == (ShardedEscapeClient, {})
    assert client_for(Settings.from_env({})) == (EscapeClient, {})
    kind, options = client_for(Settings.from_env({"ESCAPE_SHARDS": "2"}))
    assert options == {"shard_ids": [0, 1], "shard_count": 2}


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"ESCAPE_SHARDS": "two"}, "number of shards"),
        ({"ESCAPE_SHARDS": "2", "ESCAPE_SHARD_IDS": "2"}, "below ESCAPE_SHARDS"),
        ({"ESCAPE_SHARD_IDS": "1"}, "needs ESCAPE_SHARDS"),
    ],
)
def test_bad_shard_settings_are_refused_with_the_setting_named(env, message):
    with pytest.raises(ValueError, match=message):
        Settings.from_env(env)
