"""Finding a table by the one channel id a platform gives (a Discord Activity knows only
the channel or thread it was opened in, not whether it is a thread).

A mixin of `Store`, like `MemoryQueries`: plain SQL both databases read.
"""

from __future__ import annotations

from bot.store.errors import driver_errors_translated
from bot.store.query_base import QueryBase
from bot.store.session_rows import LIVE, SESSION_COLUMNS, SessionRow


@driver_errors_translated
class ChannelQueries(QueryBase):
    async def live_session_in_channel(self, platform: str, channel: str) -> SessionRow | None:
        """The lobby or running game of a channel, or of a thread with that id."""
        rows = await self.select_sessions(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE platform = ? "
            "AND ((chat = ? AND thread = '') OR thread = ?) AND status IN (?, ?) ORDER BY id",
            (platform, channel, channel, *LIVE),
        )
        return rows[0] if rows else None
