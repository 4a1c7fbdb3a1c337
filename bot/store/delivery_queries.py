"""Delivery's records in SQL: which message is each table's live board on a platform, and
the notes a game leaves (notices to tidy at its end, each player's newest private moves,
the players told they cannot be reached).

Kept with the table, in the one database every process shares, so whichever process
delivers a table's next board edits the same message (issue 58): the board's message, its
version, when it last changed (wall-clock time, the same for every process) and how many
messages its chat or thread has had since (`later`: the chat has moved on past it). A new
live board replaces the record by compare-and-set on the message it replaced, so two
processes posting at once leave one record, and the loser knows to retire its post.

A mixin of `Store`, like `MemoryQueries`: plain SQL both databases read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.errors import driver_errors_translated
from bot.store.query_base import QueryBase

# the kinds of delivery notes: notices to tidy, a player's newest private moves, a player
# told they cannot be reached, a live board replaced and still to be retired
# (and a board owed to its chat, noted when it was owed: any process shows it if its own
# process died before it could)
LITTER, MOVES, WARNED, RETIRING, OWED = "litter", "moves", "warned", "retiring", "owed"


@dataclass(frozen=True)
class BoardRecord:
    """A table's live message on one platform."""

    session_id: int
    platform: str
    chat: str  # the table's chat and thread (where `later` is counted)
    thread: str
    kind: str  # lobby or board
    version: int | None
    message: int  # the platform's id of the message (the compare-and-set's key)
    sent: str  # the front end's own record of the message (JSON)
    touched: float  # Unix time of its last change (posted or edited)
    later: int  # messages in its chat or thread since it was posted


@dataclass(frozen=True)
class DeliveryNote:
    kind: str  # LITTER, MOVES or WARNED
    who: str  # the user of MOVES and WARNED, '' for LITTER
    sent: str  # the message (JSON), '' for WARNED


_BOARD_COLUMNS = "session_id, platform, chat, thread, kind, version, message, sent, touched, later"


@driver_errors_translated
class DeliveryQueries(QueryBase):
    """A table's live message and delivery notes (mixed into `Store`)."""

    async def live_board(self, platform: str, session_id: int) -> BoardRecord | None:
        rows = await self.rows(
            f"SELECT {_BOARD_COLUMNS} FROM live_boards WHERE session_id = ? AND platform = ?",
            (session_id, platform),
        )
        return BoardRecord(*rows[0]) if rows else None

    async def put_live_board(
        self, record: BoardRecord, replaces: int | None, retiring: str = ""
    ) -> bool:
        """The table's live message is now `record`, if it still was the message
        `replaces` (None: there was none); False when another process changed it first.
        `retiring`: the message it replaces, noted in the same transaction until it is
        retired (a process that dies in between leaves it for the next to retire)."""

        async def work(conn) -> bool:
            values = (
                record.chat,
                record.thread,
                record.kind,
                record.version,
                record.message,
                record.sent,
                record.touched,
            )
            if replaces is None:
                cur = await conn.execute(
                    f"INSERT INTO live_boards ({_BOARD_COLUMNS}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0) "
                    "ON CONFLICT (session_id, platform) DO NOTHING",
                    (record.session_id, record.platform, *values),
                )
            else:
                cur = await conn.execute(
                    "UPDATE live_boards SET chat = ?, thread = ?, kind = ?, version = ?, "
                    "message = ?, sent = ?, touched = ?, later = 0 "
                    "WHERE session_id = ? AND platform = ? AND message = ?",
                    (*values, record.session_id, record.platform, replaces),
                )
            if cur.rowcount == 1 and retiring and replaces is not None:
                await conn.execute(
                    "INSERT INTO delivery_notes (session_id, platform, kind, who, sent) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (record.session_id, record.platform, RETIRING, str(replaces), retiring),
                )
            return cur.rowcount == 1

        return await self.write(work)

    async def live_board_edited(
        self, platform: str, session_id: int, message: int, version: int | None, at: float
    ) -> bool:
        """The live message was edited to show `version` (never moved back to an older
        one); False when it is no longer the live message."""

        async def work(conn) -> bool:
            if version is None:
                cur = await conn.execute(
                    "UPDATE live_boards SET touched = ? "
                    "WHERE session_id = ? AND platform = ? AND message = ?",
                    (at, session_id, platform, message),
                )
                return cur.rowcount == 1
            cur = await conn.execute(
                "UPDATE live_boards SET version = CASE WHEN version IS NULL "
                "OR version < CAST(? AS BIGINT) THEN CAST(? AS BIGINT) ELSE version END, "
                "touched = ? WHERE session_id = ? AND platform = ? AND message = ?",
                (version, version, at, session_id, platform, message),
            )
            return cur.rowcount == 1

        return await self.write(work)

    async def message_in_place(self, platform: str, chat: str, thread: str) -> None:
        """A message came in a chat or thread (a member's, or the bot's own): the live
        board there is one message further back."""

        async def work(conn) -> None:
            await conn.execute(
                "UPDATE live_boards SET later = later + 1 "
                "WHERE platform = ? AND chat = ? AND thread = ?",
                (platform, chat, thread),
            )

        await self.write(work)

    async def delivery_notes(self, platform: str, session_id: int) -> list[DeliveryNote]:
        rows = await self.rows(
            "SELECT kind, who, sent FROM delivery_notes WHERE session_id = ? AND platform = ? "
            "ORDER BY id",
            (session_id, platform),
        )
        return [DeliveryNote(*row) for row in rows]

    async def add_delivery_notes(
        self, platform: str, session_id: int, kind: str, who: str, sent: list[str]
    ) -> None:
        async def work(conn) -> None:
            await conn.executemany(
                "INSERT INTO delivery_notes (session_id, platform, kind, who, sent) "
                "VALUES (?, ?, ?, ?, ?)",
                [(session_id, platform, kind, who, s) for s in sent],
            )

        await self.write(work)

    async def swap_delivery_note(
        self, platform: str, session_id: int, kind: str, who: str, sent: str | None
    ) -> list[str]:
        """`who`'s note of `kind` is now `sent` (None: none); the ones it replaced."""

        async def work(conn) -> list[str]:
            async with conn.execute(
                "SELECT sent FROM delivery_notes "
                "WHERE session_id = ? AND platform = ? AND kind = ? AND who = ? ORDER BY id",
                (session_id, platform, kind, who),
            ) as cur:
                old = [row[0] for row in await cur.fetchall()]
            await conn.execute(
                "DELETE FROM delivery_notes "
                "WHERE session_id = ? AND platform = ? AND kind = ? AND who = ?",
                (session_id, platform, kind, who),
            )
            if sent is not None:
                await conn.execute(
                    "INSERT INTO delivery_notes (session_id, platform, kind, who, sent) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (session_id, platform, kind, who, sent),
                )
            return old

        return await self.write(work)

    async def forget_delivery(
        self, platform: str, session_id: int
    ) -> tuple[BoardRecord | None, list[DeliveryNote]]:
        """The game is over: its record and notes go, and are returned (for tidying) to
        the one process that removed them."""

        async def work(conn):
            async with conn.execute(
                f"SELECT {_BOARD_COLUMNS} FROM live_boards WHERE session_id = ? AND platform = ?",
                (session_id, platform),
            ) as cur:
                found = await cur.fetchone()
            async with conn.execute(
                "SELECT kind, who, sent FROM delivery_notes "
                "WHERE session_id = ? AND platform = ? ORDER BY id",
                (session_id, platform),
            ) as cur:
                notes = [DeliveryNote(*row) for row in await cur.fetchall()]
            cur = await conn.execute(
                "DELETE FROM live_boards WHERE session_id = ? AND platform = ?",
                (session_id, platform),
            )
            gone = cur.rowcount == 1
            cur = await conn.execute(
                "DELETE FROM delivery_notes WHERE session_id = ? AND platform = ?",
                (session_id, platform),
            )
            if cur.rowcount < len(notes):  # another process took them meanwhile
                notes = []
            return (BoardRecord(*found) if found and gone else None), notes

        return await self.write(work)

    async def owed_boards(
        self, platforms: Sequence[str]
    ) -> list[tuple[int, str, float, float | None]]:
        """Boards owed to their chats on these platforms: (session, platform, when owed,
        when its live board last changed, if it has one)."""
        if not platforms:
            return []
        marks = ", ".join("?" for _ in platforms)
        rows = await self.rows(
            "SELECT n.session_id, n.platform, n.sent, b.touched FROM delivery_notes n "
            "LEFT JOIN live_boards b ON b.session_id = n.session_id AND b.platform = n.platform "
            f"WHERE n.kind = ? AND n.platform IN ({marks})",
            (OWED, *platforms),
        )
        return [(sid, platform, float(at or 0), touched) for sid, platform, at, touched in rows]

    async def take_owed_board(self, platform: str, session_id: int) -> bool:
        """This process shows the owed board (no other process will)."""

        async def work(conn) -> bool:
            cur = await conn.execute(
                "DELETE FROM delivery_notes WHERE session_id = ? AND platform = ? AND kind = ?",
                (session_id, platform, OWED),
            )
            return cur.rowcount > 0

        return await self.write(work)
