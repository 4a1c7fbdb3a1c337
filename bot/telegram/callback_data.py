"""Compact button data (Telegram allows 64 bytes), checked like any other input.

Every button the adapter draws carries one of these forms:
  e|<data>           a service choice, `data` handed back to `GameService.press` verbatim
  p|<sid>|<ver>|<n>  show page n of the choices of session sid at version ver
  m|<command>        a command from the bare `/escape` menu
  s|<game id>        start this game (from the menu's game list)

Deep-link payloads (`t.me/<bot>?start=<payload>`, 64 chars of A-Za-z0-9_-):
  h<sid>             send me my private view of session sid
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.service import BUTTON_BYTES, COMMANDS

MAX_BYTES = 64
MAX_PAYLOAD = 64
MENU_COMMANDS = frozenset(c.name for c in COMMANDS if c.menu)

# The service's own data is ASCII without "|" (it checks the details itself).
_CHOICE = re.compile(rf"^e\|([\x21-\x7b\x7d\x7e]{{1,{BUTTON_BYTES}}})$")
_PAGE = re.compile(r"^p\|([0-9]{1,12})\|([0-9]{1,9})\|([0-9]{1,3})$")  # ASCII digits
_MENU = re.compile(r"^m\|([a-z]{1,32})$")  # a menu command by name (Discord allows 32)
_START = re.compile(r"^s\|([a-z0-9_]{1,40})$")
_HAND_PAYLOAD = re.compile(r"^h([0-9]{1,12})$")
_PAYLOAD_CHARS = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class BadData(ValueError):
    """Button data that none of our buttons carries: forged, truncated or from another bot."""


@dataclass(frozen=True)
class Press:
    kind: str  # choice, page, menu, start
    data: str = ""  # the service's data, the menu command or the game id
    session_id: int = 0
    version: int = 0
    page: int = 0


def choice(data: str) -> str:
    out = f"e|{data}"
    if not _CHOICE.match(out):
        raise ValueError(f"service button data does not fit a Telegram button: {data!r}")
    return out


def page(session_id: int, version: int, number: int) -> str:
    return f"p|{session_id}|{version}|{number}"


def menu(command: str) -> str:
    return f"m|{command}"


def start(game_id: str) -> str:
    return f"s|{game_id}"


def parse(raw: object) -> Press:
    """Decode a callback query's data; anything unexpected raises `BadData`."""
    if not isinstance(raw, str) or not raw or len(raw.encode("utf-8", "replace")) > MAX_BYTES:
        raise BadData(raw)
    if m := _CHOICE.match(raw):
        return Press("choice", m.group(1))
    if m := _PAGE.match(raw):
        return Press(
            "page", session_id=int(m.group(1)), version=int(m.group(2)), page=int(m.group(3))
        )
    if (m := _MENU.match(raw)) and m.group(1) in MENU_COMMANDS:
        return Press("menu", m.group(1))
    if m := _START.match(raw):
        return Press("start", m.group(1))
    raise BadData(raw)


def hand_payload(session_id: int) -> str:
    return f"h{session_id}"


def parse_payload(payload: str) -> int | None:
    """The session id of a `/start h<sid>` deep link, or None for any other payload."""
    if not isinstance(payload, str) or not _PAYLOAD_CHARS.match(payload):
        return None
    m = _HAND_PAYLOAD.match(payload)
    return int(m.group(1)) if m else None


def deep_link(bot_username: str, payload: str) -> str:
    if not _PAYLOAD_CHARS.match(payload) or len(payload) > MAX_PAYLOAD:
        raise ValueError(f"not a deep-link payload: {payload!r}")
    return f"https://t.me/{bot_username}?start={payload}"
