"""Which message is each table's live board, and what a front end must tidy at its end.

A session has one live message (its lobby, then its board). Which one it is survives a
restart (a small record kept through the service); how recently it changed does not, so
the first board after a restart is posted anew. The notices a game leaves in a chat that
tidies (Telegram) are recorded the same way, so they are deleted at the game's end even
after a restart.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import asdict, dataclass, field

from bot.delivery.service_needs import ServiceNeeds
from bot.delivery.transport import Sent

log = logging.getLogger(__name__)

LIVE_FOR = 300.0  # seconds since the board last changed during which a move edits it


@dataclass
class Slot:
    """The live message of a session."""

    sent: Sent
    kind: str  # lobby or board
    version: int | None = None
    touched: float | None = None  # time.monotonic() of its last change in this run

    def fresh_enough(self, now: float) -> bool:
        return self.touched is not None and now - self.touched <= LIVE_FOR


@dataclass
class DeliveryRecord:
    """What delivery keeps of one session in one front end."""

    slot: Slot | None = None
    litter: list[Sent] = field(default_factory=list)  # notices to delete at the end
    moves: dict[str, Sent] = field(default_factory=dict)  # user -> their newest private moves
    warned: set[str] = field(default_factory=set)  # users told they cannot be reached
    recalled: bool = False


class LiveBoards:
    def __init__(self, service: ServiceNeeds | None, platform: str) -> None:
        self.service = service
        self.platform = platform
        self.tables: dict[int, DeliveryRecord] = {}

    async def table(self, session_id: int) -> DeliveryRecord:
        """The session's record, read back from the service after a restart."""
        t = self.tables.setdefault(session_id, DeliveryRecord())
        if t.recalled or self.service is None:
            return t
        t.recalled = True
        try:
            raw = await self.service.recall(self._key("live", session_id))
            if raw:
                d = json.loads(raw)
                t.slot = Slot(Sent(**d["sent"]), d["kind"], d.get("version"))
            raw = await self.service.recall(self._key("litter", session_id))
            if raw:
                t.litter = [Sent(**s) for s in json.loads(raw)] + t.litter
        except Exception:  # a lost record costs one stale message, never the game
            log.exception("could not read the delivery record of session %s", session_id)
        return t

    async def set_live(self, session_id: int, slot: Slot | None) -> None:
        t = await self.table(session_id)
        t.slot = slot
        value = ""
        if slot is not None:
            slot.touched = time.monotonic()
            value = json.dumps(
                {"sent": asdict(slot.sent), "kind": slot.kind, "version": slot.version}
            )
        await self._write(self._key("live", session_id), value)

    async def add_litter(self, session_id: int, sent: list[Sent]) -> None:
        if not sent:
            return
        t = await self.table(session_id)
        t.litter += sent
        await self._write(
            self._key("litter", session_id), json.dumps([asdict(s) for s in t.litter])
        )

    async def forget(self, session_id: int) -> DeliveryRecord:
        """The game is over: its record goes; what it held is returned for tidying."""
        t = await self.table(session_id)
        self.tables.pop(session_id, None)
        await self._write(self._key("live", session_id), "")
        await self._write(self._key("litter", session_id), "")
        return t

    def _key(self, what: str, session_id: int) -> str:
        return f"{self.platform}.{what}.{session_id}"

    async def _write(self, key: str, value: str) -> None:
        if self.service is None:
            return
        try:
            await self.service.remember(key, value)
        except Exception:
            log.exception("could not record %s", key)
