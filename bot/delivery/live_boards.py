"""Which message is each table's live board, and what a front end must tidy at its end.

A session has one live message (its lobby, then its board). Its record is kept with the
table in the store every process shares (the service's `deliveries`), so whichever process
delivers the next board finds it: the message, the version it shows, when it last changed
(Unix time, the same clock for every process and after a restart) and how many messages
its chat or thread has had since. A new live message replaces the record by
compare-and-set on the one it replaced: of two processes posting at once, the one holding
the older board retires its post, so a chat never keeps two live boards of one game. The
notices a game leaves in a chat that tidies (Telegram), each player's newest private
moves and who was told they cannot be reached are notes of the same record.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import asdict, dataclass, field

from bot.delivery.service_needs import ServiceNeeds
from bot.delivery.transport import Sent
from bot.service import ChatRef

log = logging.getLogger(__name__)

LIVE_FOR = 300.0  # seconds since the board last changed during which a move edits it
# the notes a game leaves: notices to tidy, a player's newest private moves, who was told
# they cannot be reached, a replaced board still to retire, a board owed to its chat
LITTER, MOVES, WARNED, RETIRING, OWED = "litter", "moves", "warned", "retiring", "owed"


@dataclass
class Slot:
    """The live message of a session."""

    sent: Sent
    kind: str  # lobby or board
    version: int | None = None
    touched: float | None = None  # Unix time of its last change (posted or edited)
    later: int = 0  # messages in its chat or thread since it was posted

    def fresh_enough(self, now: float) -> bool:
        return self.touched is not None and now - self.touched <= LIVE_FOR


@dataclass
class Ended:
    """What a finished game's record held, for tidying."""

    slot: Slot | None = None
    litter: list[Sent] = field(default_factory=list)  # notices to delete
    moves: list[Sent] = field(default_factory=list)  # private moves to disarm
    retiring: list[Sent] = field(default_factory=list)  # replaced boards a process left


def _text(sent: Sent) -> str:
    return json.dumps(asdict(sent))


def _sent(text: str) -> Sent:
    return Sent(**json.loads(text))


class LiveBoards:
    def __init__(self, service: ServiceNeeds | None, platform: str) -> None:
        self.records = service.deliveries if service is not None else None
        self.platform = platform

    async def live(self, session_id: int) -> Slot | None:
        """The session's live message, as the last process to deliver it left it."""
        if self.records is None:
            return None
        try:
            found = await self.records.board(self.platform, session_id)
        except Exception:  # a lost record costs one stale message, never the game
            log.exception("could not read the live board of session %s", session_id)
            return None
        if found is None:
            return None
        return Slot(_sent(found.sent), found.kind, found.version, found.touched, found.later)

    async def replace(
        self, session_id: int, chat: ChatRef, slot: Slot, old: Slot | None
    ) -> tuple[bool, Slot | None]:
        """`slot` (just posted) is the live message now, in place of `old` or of what
        another process recorded meanwhile if `slot` is newer: (True, the message it
        displaced). (False, the other's): a newer one was recorded meanwhile."""
        if self.records is None:
            return True, old
        displaced = old
        for _ in range(5):
            replaces = displaced.sent.message if displaced is not None else None
            stored = await self.records.put_board(
                self.platform,
                session_id,
                chat,
                slot.kind,
                slot.version,
                slot.sent.message,
                _text(slot.sent),
                replaces,
                _text(displaced.sent) if displaced is not None else "",
            )
            if stored:
                return True, displaced
            displaced = await self.live(session_id)
            if displaced is not None and not _newer(slot, displaced):
                return False, displaced
        log.warning("session %s: its live board kept changing; left as it was", session_id)
        return False, None

    async def edited(self, session_id: int, slot: Slot, version: int | None) -> None:
        if self.records is not None:
            await self._quietly(
                self.records.edited(self.platform, session_id, slot.sent.message, version),
                "the edit of a live board",
            )

    async def adopt(self, session_id: int, chat: ChatRef, sent: Sent, kind: str) -> None:
        """A message taken as the live one where none is recorded."""
        if self.records is not None and await self.live(session_id) is None:
            await self._quietly(
                self.records.put_board(
                    self.platform, session_id, chat, kind, None, sent.message, _text(sent), None
                ),
                "an adopted live board",
            )

    async def message_in(self, chat: ChatRef) -> None:
        """A message came in `chat` (a member's, or one of ours): its live board is one
        further back."""
        if self.records is not None:
            await self._quietly(self.records.message_in(chat), "a message in a chat")

    async def add_litter(self, session_id: int, sent: list[Sent]) -> None:
        if self.records is not None and sent:
            await self._quietly(
                self.records.add_notes(
                    self.platform, session_id, LITTER, "", [_text(s) for s in sent]
                ),
                "notices to tidy",
            )

    async def newest_moves(self, session_id: int, user: str, sent: Sent) -> list[Sent]:
        """`sent` holds `user`'s newest private moves; the ones it replaces."""
        if self.records is None:
            return []
        try:
            old = await self.records.swap_note(self.platform, session_id, MOVES, user, _text(sent))
        except Exception:
            log.exception("could not record the private moves of session %s", session_id)
            return []
        return [s for s in map(_sent, old) if s != sent]

    async def owed(self, session_id: int) -> None:
        """A board of the session is owed to its chat (when, Unix time): shown by the
        timer loop of any process if no board of it is shown for a while (this process
        died)."""
        if self.records is not None:
            await self._quietly(
                self.records.swap_note(self.platform, session_id, OWED, "", repr(time.time())),
                "an owed board",
            )

    async def retired(self, session_id: int, sent: Sent) -> None:
        """A replaced board is retired: its note goes."""
        if self.records is not None:
            await self._quietly(
                self.records.swap_note(
                    self.platform, session_id, RETIRING, str(sent.message), None
                ),
                "a board retired",
            )

    async def left_to_retire(self, session_id: int) -> list[Sent]:
        """Replaced boards a process noted and did not retire (it died in between)."""
        if self.records is None:
            return []
        try:
            notes = await self.records.notes(self.platform, session_id)
        except Exception:
            log.exception("could not read the notes of session %s", session_id)
            return []
        return [_sent(n.sent) for n in notes if n.kind == RETIRING]

    async def warn_once(self, session_id: int, user: str) -> bool:
        """Whether `user` is yet to be told they cannot be reached in this game (now they
        have been)."""
        if self.records is None:
            return True
        try:
            return not await self.records.swap_note(self.platform, session_id, WARNED, user, "")
        except Exception:
            log.exception("could not record a warning of session %s", session_id)
            return True

    async def reached(self, session_id: int, user: str) -> None:
        """`user` was reached: told again if they become unreachable."""
        if self.records is not None:
            await self._quietly(
                self.records.swap_note(self.platform, session_id, WARNED, user, None),
                "a player reached",
            )

    async def forget(self, session_id: int) -> Ended:
        """The game is over: its record goes; what it held is returned for tidying (to
        one process only)."""
        if self.records is None:
            return Ended()
        try:
            found, notes = await self.records.forget(self.platform, session_id)
        except Exception:
            log.exception("could not clear the delivery record of session %s", session_id)
            return Ended()
        slot = None
        if found is not None:
            slot = Slot(_sent(found.sent), found.kind, found.version, found.touched, found.later)
        return Ended(
            slot,
            [_sent(n.sent) for n in notes if n.kind == LITTER],
            [_sent(n.sent) for n in notes if n.kind == MOVES],
            [_sent(n.sent) for n in notes if n.kind == RETIRING],
        )

    @staticmethod
    async def _quietly(work, what: str):
        try:
            return await work
        except Exception:
            log.exception("could not record %s", what)
            return None


def _newer(ours: Slot, other: Slot) -> bool:
    """Whether our just-posted message should be the live one rather than `other`: a later
    version of the game, or (a lobby, or the same version) the later post."""
    if ours.version is not None and other.version is not None and ours.version != other.version:
        return ours.version > other.version
    return ours.sent.message > other.sent.message
