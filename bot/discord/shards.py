"""Discord sharding (Discord requires it past 2,500 servers): which client a process runs.

ESCAPE_SHARDS empty: one unsharded connection (small bots). `auto`: one process, every
shard Discord recommends (discord.py's AutoShardedClient). A number N: N shards in all,
and ESCAPE_SHARD_IDS the ones this process serves (default all of them), so N shards can be
spread over several processes that share one PostgreSQL (docs/deployment.md, "Running at scale").
"""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.client import EscapeClient, latency_seconds
from bot.service import Link
from bot.settings import Settings


class ShardedEscapeClient(EscapeClient, discord.AutoShardedClient):
    """The same client over several shards in one process."""

    def links(self) -> list[Link]:
        """Each shard this process serves: up while its websocket is open (after READY)."""
        shards = self.shards
        if not shards:  # not launched yet
            return [Link(str(i), False) for i in (self.shard_ids or [0])]
        ready = self.is_ready() and not self.is_closed()
        out = []
        for shard_id, shard in sorted(shards.items()):
            up = ready and not shard.is_closed()
            out.append(Link(str(shard_id), up, latency_seconds(shard.latency) if up else None))
        return out


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
