"""Button data: compact, ASCII, at most 48 bytes, and checked like any other input.

Forms (session id, version, seat, index are decimal):
  a:S:V:SEAT:I   take the I-th legal action of SEAT at version V
  j:S  l:S  b:S  join, leave, begin the lobby of session S
  v:S            show me my private view
  g:S            show the board again
  k:S            vote to hand the late player's seat to a stand-in
  o:S  x:S       add a bot to the lobby of session S, remove one
  y:S            the animated replay of session S
  w:S            my review of session S, a finished game
  r:S            a rematch of session S (same players and options)
  p:S:I          page I of the replay of S (board by board)
  n:S:I          page I of the log of S
  h:S:I          page I of the finished games of the chat of S
  u:S:V  d:S:V   accept, decline the undo asked at version V of S
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.service.requests import UserError
from engines.text import msg

_PATTERN = re.compile(
    r"^(?:(a):(\d{1,12}):(\d{1,9}):(\d{1,2}):(\d{1,4})|([jlbvgkoxw]):(\d{1,12}))$"
)
_PAGED = re.compile(r"^(?:([phnud]):(\d{1,12}):(\d{1,9})|([yr]):(\d{1,12}))$")
MAX_BYTES = 48
MEMORY = frozenset("yrphnud")  # the table's memory (bot/service/memory.py) answers these


@dataclass(frozen=True)
class Button:
    kind: str
    session_id: int
    version: int | None = None
    seat: int | None = None
    index: int | None = None


def act(session_id: int, version: int, seat: int, index: int) -> str:
    return f"a:{session_id}:{version}:{seat}:{index}"


def simple(kind: str, session_id: int) -> str:
    return f"{kind}:{session_id}"


def paged(kind: str, session_id: int, number: int) -> str:
    """Replay and log pages, history pages, undo answers: a kind, a session, a number."""
    return f"{kind}:{session_id}:{number}"


def parse(data: str) -> Button:
    paged_match = _PAGED.match(data) if isinstance(data, str) and len(data) <= MAX_BYTES else None
    if paged_match is not None:
        if paged_match.group(1):
            kind, sid, number = paged_match.group(1, 2, 3)
            return Button(kind, int(sid), version=int(number), index=int(number))
        return Button(paged_match.group(4), int(paged_match.group(5)))
    match = _PATTERN.match(data or "") if isinstance(data, str) else None
    if match is None or len(data) > MAX_BYTES:
        raise UserError(
            msg("That button is not one of ours; use the buttons under the latest board.")
        )
    if match.group(1):
        sid, ver, seat, idx = (int(match.group(i)) for i in range(2, 6))
        return Button("a", sid, ver, seat, idx)
    return Button(match.group(6), int(match.group(7)))
