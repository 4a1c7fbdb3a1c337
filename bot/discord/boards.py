"""One live board per game in a Discord channel, as the Telegram outbox keeps one per group.

A session has one live message (its lobby, then its board). While the game is played live
(the board changed in the last few minutes) and nothing has been posted in the channel
after it, a new board edits that message in place: a click gives no new message. Otherwise
the board is posted anew and the old message deleted (or, if Discord will not, stripped of
its buttons), so older boards never show live buttons and the player to act is notified
(an edit notifies nobody): after a pause, once the channel has moved on, for a board asked
for by a typed command, and for one the bot posts on its own (reminders, timeouts).

Which message is live survives a restart (a small record in the store's meta table); its
age does not, so the first board after a restart is posted anew.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import discord

from bot.store import Store

log = logging.getLogger(__name__)

LIVE_FOR = 300.0  # seconds since the board last changed during which a move edits it
LIVE_KEY = "discord.live.{}"  # store meta: the live message of a session, across restarts

Post = Callable[[dict], Awaitable[discord.Message]]
Edit = Callable[[dict], Awaitable[object]]


@dataclass
class Live:
    channel_id: int
    message_id: int
    kind: str  # lobby or board
    version: int | None = None
    touched: float | None = None  # time.monotonic() of its last change in this run


def edit_kwargs(kwargs: dict) -> dict:
    """A message's keyword arguments (see `bridge.messages`) as those of an edit: the
    picture replaces the old one, and no view means no buttons any more."""
    out = {
        "content": kwargs["content"],
        "allowed_mentions": kwargs["allowed_mentions"],
        "view": kwargs.get("view"),
    }
    if "file" in kwargs:
        kwargs["file"].reset()
        out["attachments"] = [kwargs["file"]]
    return out


class LiveBoards:
    def __init__(self, client: discord.Client, store: Store | None) -> None:
        self.client = client
        self.store = store
        self.live: dict[int, Live] = {}
        self._recalled: set[int] = set()
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, channel_id: int) -> asyncio.Lock:
        return self._locks.setdefault(channel_id, asyncio.Lock())

    async def show(
        self,
        session_id: int,
        kind: str,
        parts: list[dict],
        *,
        channel_id: int,
        post: Post,
        fresh: bool,
        last_message_id: int | None = None,
        clicked_id: int | None = None,
        edit_clicked: Edit | None = None,
        final: bool = False,
        version: int | None = None,
    ) -> bool:
        """Show a session's lobby or board (`parts`: its messages' keyword arguments, the
        last one carrying the picture and buttons). Returns whether it was posted anew.
        `fresh`: post anew whatever the live message is (a typed command, the notifier).
        `last_message_id`: the channel's newest message as Discord told us, if it did.
        `edit_clicked`: edits the message whose button was clicked (`clicked_id`)."""
        live = await self._recall(session_id)
        if live is not None and None not in (version, live.version) and version < live.version:
            return False  # overtaken by a newer board (two clicks racing): never show it
        moved_on = (
            live is not None and last_message_id is not None and last_message_id > live.message_id
        )
        if (
            live is not None
            and not fresh
            and not moved_on
            and len(parts) == 1
            and live.kind == kind
            and live.channel_id == channel_id
            and live.touched is not None
            and time.monotonic() - live.touched <= LIVE_FOR
        ):
            try:
                if edit_clicked is not None and clicked_id == live.message_id:
                    await edit_clicked(edit_kwargs(parts[0]))
                else:
                    message = self.client.get_partial_messageable(channel_id).get_partial_message(
                        live.message_id
                    )
                    await message.edit(**edit_kwargs(parts[0]))
                live.touched, live.version = time.monotonic(), version
                if final:
                    await self.forget(session_id)
                return False
            except discord.HTTPException as exc:
                log.info("could not edit board %s, posting anew: %s", live.message_id, exc)
        sent = None
        for kwargs in parts:
            sent = await post(kwargs)
        if sent is None:
            return False
        self.live[session_id] = Live(channel_id, sent.id, kind, version, time.monotonic())
        if final:
            await self.forget(session_id)
        else:
            await self._keep(session_id)
        if live is not None and live.message_id != sent.id:
            await self.retire(live)
        return True

    async def forget(self, session_id: int) -> None:
        """The game is over: its last board stays as it is, live no more."""
        self.live.pop(session_id, None)
        await self._write(session_id, "")

    async def retire(self, live: Live) -> None:
        """A replaced live message: deleted (a bot may delete its own), else disarmed."""
        message = self.client.get_partial_messageable(live.channel_id).get_partial_message(
            live.message_id
        )
        try:
            await message.delete()
            return
        except discord.NotFound:
            return
        except discord.HTTPException as exc:
            log.info("could not delete old board %s: %s", live.message_id, exc)
        try:
            await message.edit(view=None)
        except discord.HTTPException as exc:
            log.info("could not disarm old board %s: %s", live.message_id, exc)

    async def _recall(self, session_id: int) -> Live | None:
        if session_id in self.live or session_id in self._recalled or self.store is None:
            return self.live.get(session_id)
        self._recalled.add(session_id)
        try:
            raw = await self.store.get_meta(LIVE_KEY.format(session_id))
            if raw:
                d = json.loads(raw)
                self.live[session_id] = Live(d["channel"], d["message"], d["kind"])
        except Exception:  # a lost record costs one stale message, never the game
            log.exception("could not read the live board of session %s", session_id)
        return self.live.get(session_id)

    async def _keep(self, session_id: int) -> None:
        live = self.live[session_id]
        await self._write(
            session_id,
            json.dumps({"channel": live.channel_id, "message": live.message_id, "kind": live.kind}),
        )

    async def _write(self, session_id: int, value: str) -> None:
        if self.store is None:
            return
        try:
            await self.store.set_meta(LIVE_KEY.format(session_id), value)
        except Exception:
            log.exception("could not record the live board of session %s", session_id)
