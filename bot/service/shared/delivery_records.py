"""Delivery's records, kept with the table in the store (bot/store/delivery_queries.py).

Delivery (bot/delivery/live_boards.py) reads and writes a table's live message and its
notes through this object, which `GameService` hands out as `deliveries`: whichever process
delivers a table's next board finds the message the last one posted, when it last changed
and whether its chat or thread has moved on since. The records' messages are the front
end's own (JSON text): the service keeps them and never reads them.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.service.base.requests import ChatRef
from bot.store import BoardRecord, DeliveryNote, Store


class DeliveryRecords:
    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    async def board(self, platform: str, session_id: int) -> BoardRecord | None:
        return await self.store.live_board(platform, session_id)

    async def put_board(
        self,
        platform: str,
        session_id: int,
        chat: ChatRef,
        kind: str,
        version: int | None,
        message: int,
        sent: str,
        replaces: int | None,
        retiring: str = "",
    ) -> bool:
        """The table's live message is now `message`, if it still was `replaces` (None:
        there was none); False when another process changed it first. `retiring`: the
        replaced message, noted until it is retired."""
        record = BoardRecord(
            session_id,
            platform,
            chat.chat,
            chat.thread,
            kind,
            version,
            message,
            sent,
            self.clock(),
            0,
        )
        return await self.store.put_live_board(record, replaces, retiring)

    async def edited(
        self, platform: str, session_id: int, message: int, version: int | None
    ) -> bool:
        return await self.store.live_board_edited(
            platform, session_id, message, version, self.clock()
        )

    async def message_in(self, chat: ChatRef) -> None:
        """A message came in `chat` (its thread): the live board there is one further back."""
        await self.store.message_in_place(chat.platform, chat.chat, chat.thread)

    async def notes(self, platform: str, session_id: int) -> list[DeliveryNote]:
        return await self.store.delivery_notes(platform, session_id)

    async def add_notes(
        self, platform: str, session_id: int, kind: str, who: str, sent: list[str]
    ) -> None:
        if sent:
            await self.store.add_delivery_notes(platform, session_id, kind, who, sent)

    async def swap_note(
        self, platform: str, session_id: int, kind: str, who: str, sent: str | None
    ) -> list[str]:
        return await self.store.swap_delivery_note(platform, session_id, kind, who, sent)

    async def forget(
        self, platform: str, session_id: int
    ) -> tuple[BoardRecord | None, list[DeliveryNote]]:
        return await self.store.forget_delivery(platform, session_id)
