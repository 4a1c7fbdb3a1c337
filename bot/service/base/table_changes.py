"""The newest change of each table stored by this process, as the table core made it: the
row as written and the log rows it appended. Whoever hears the table signal for that
version (the web board's pages) takes the change from here instead of reading the table
and its log again; a change made by another process, or not made by a move (a seat, the
clock, an undo), is not here, and is read from the store once for all who want it."""

from __future__ import annotations

from collections import OrderedDict, deque
from dataclasses import dataclass

from bot.store import NewEntry, SessionRow

KEEP = 1024  # tables whose newest changes are kept
EACH = 16  # changes kept a table (a run of bot turns pushed as one)


@dataclass(frozen=True)
class Change:
    row: SessionRow  # the table after the change
    entries: tuple[NewEntry, ...]  # what it appended to the log, in order


class RecentChanges:
    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self._newest: OrderedDict[int, deque[Change]] = OrderedDict()

    def note(self, change: Change) -> None:
        kept = self._newest.setdefault(change.row.id, deque(maxlen=EACH))
        kept.append(change)
        self._newest.move_to_end(change.row.id)
        while len(self._newest) > self.keep:
            self._newest.popitem(last=False)

    def at(self, table: int, version: int) -> Change | None:
        kept = self._newest.get(table)
        return kept[-1] if kept and kept[-1].row.version == version else None

    def between(self, table: int, after: int, upto: int) -> list[Change] | None:
        """The changes that took the table from version `after` to `upto`, in order, if
        this process made every one of them (else None: read the table)."""
        kept = [c for c in self._newest.get(table, ()) if after < c.row.version <= upto]
        versions = [c.row.version for c in kept]
        return kept if versions == list(range(after + 1, upto + 1)) else None
