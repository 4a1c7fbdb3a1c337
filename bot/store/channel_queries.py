"""Finding a table by the one channel id a platform gives (a Discord Activity knows only
the channel or thread it was opened in, not whether it is a thread).

A mixin of `Store`, like `MemoryQueries`: plain SQL both databases read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.store.errors import driver_errors_translated

if TYPE_CHECKING:
    from bot.store.db import SessionRow

LIVE = ("lobby", "active")


@driver_errors_translated
class ChannelQueries:
    async def live_session_in_channel(self, platform: str, channel: str) -> SessionRow | None:
        """The lobby or running game of a channel, or of a thread with that id."""
        from bot.store.db import _SESSION_COLUMNS

        rows = await self._sessions(
            f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE platform = ? "
            "AND ((chat = ? AND thread = '') OR thread = ?) AND status IN (?, ?) ORDER BY id",
            (platform, channel, channel, *LIVE),
        )
        return rows[0] if rows else None
