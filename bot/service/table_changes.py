"""The newest change of each table stored by this process, as the table core made it: the
row as written and the log rows it appended. Whoever hears the table signal for that
version (the web board's pages) takes the change from here instead of reading the table
and its log again; a change made by another process, or not made by a move (a seat, the
clock, an undo), is not here, and is read from the store once for all who want it."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from bot.store import NewEntry, SessionRow

KEEP = 1024  # tables whose newest change is kept


@dataclass(frozen=True)
class Change:
    row: SessionRow  # the table after the change
    entries: tuple[NewEntry, ...]  # what it appended to the log, in order


class RecentChanges:
    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self._newest: OrderedDict[int, Change] = OrderedDict()

    def note(self, change: Change) -> None:
        self._newest[change.row.id] = change
        self._newest.move_to_end(change.row.id)
        while len(self._newest) > self.keep:
            self._newest.popitem(last=False)

    def at(self, table: int, version: int) -> Change | None:
        change = self._newest.get(table)
        return change if change is not None and change.row.version == version else None
