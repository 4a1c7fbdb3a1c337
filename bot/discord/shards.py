"""Discord sharding (Discord requires it past 2,500 servers): which client a process runs.

ESCAPE_SHARDS empty: one unsharded connection (small bots). `auto`: one process, every
shard Discord recommends (discord.py's AutoShardedClient). A number N: N shards in all,
and ESCAPE_SHARD_IDS the ones this process serves (default all of them), so N shards can be
spread over several processes that share one PostgreSQL (README, "Running at scale").
"""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.client import EscapeClient
from bot.settings import Settings


class ShardedEscapeClient(EscapeClient, discord.AutoShardedClient):
    """The same client over several shards in one process."""


def client_for(settings: Settings) -> tuple[type[EscapeClient], dict[str, Any]]:
    """The client class and its shard options for these settings."""
    shards, ids = settings.discord_shards, settings.discord_shard_ids
    if not shards:
        return EscapeClient, {}
    if shards == "auto":
        return ShardedEscapeClient, {}
    count = int(shards)
    ids = ids or list(range(count))
    if len(ids) == 1:
        return EscapeClient, {"shard_id": ids[0], "shard_count": count}
    return ShardedEscapeClient, {"shard_ids": ids, "shard_count": count}
