"""A player's time zone for quiet hours: a zone name (`Europe/Berlin`, with its daylight-saving
changes, from the standard library's zoneinfo and the `tzdata` package) or a fixed offset
(`+2`, which never changes). Stored in the user's prefs as the name, or as hours east of UTC.
"""

from __future__ import annotations

import functools
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.service.base.platform_input import whole
from engines.text import msg

Zone = str | float  # what prefs["tz"] holds


class ZoneError(ValueError):
    """A time zone we cannot read; the message says how to write one."""


HOW = msg(
    "A time zone is a name like Europe/Berlin or America/New_York, or hours from UTC like +2, -5 or +5:30"
)


@functools.cache
def _names() -> dict[str, str]:
    """Every zone name, by its lower-case form (chat commands arrive lower-cased)."""
    return {name.lower(): name for name in available_timezones()}


def parse_tz(text: str) -> Zone:
    """`Europe/Berlin` (any case), `UTC`, `+2`, `-5`, `+5:30`, `UTC+1`."""
    raw = text.strip()
    if "/" in raw or (raw.isalpha() and raw.upper() not in ("UTC", "GMT")):
        name = _names().get(raw.lower())
        if name is None:
            raise ZoneError(msg("{how}; {text} is not one.", how=HOW, text=repr(text)))
        return name
    t = raw.upper().removeprefix("UTC").removeprefix("GMT") or "0"
    sign = -1 if t.startswith("-") else 1
    hours, colon, minutes = t[1:].partition(":") if t[:1] in "+-" else t.partition(":")
    h, m = whole(hours, 0, 99), whole(minutes, 0, 59) if colon else 0
    if h is None or m is None or t.count("-") + t.count("+") > 1:  # ASCII digits only
        raise ZoneError(msg("{how}, not {text}.", how=HOW, text=repr(text)))
    value = sign * (h + m / 60)
    if not -12 <= value <= 14:
        raise ZoneError(msg("A time zone lies between -12 and +14 hours from UTC."))
    return value


def tzinfo_of(zone: Zone | None) -> tzinfo:
    """The zone as a tzinfo; an unknown stored name (a zone since removed) counts as UTC."""
    if isinstance(zone, str):
        try:
            return ZoneInfo(zone)
        except (ZoneInfoNotFoundError, ValueError):
            return UTC
    return timezone(timedelta(hours=float(zone or 0)))


def describe_tz(zone: Zone | None) -> str:
    if isinstance(zone, str):
        return zone
    return f"UTC{float(zone or 0):+g}"


def local_time(zone: Zone | None, now: float) -> datetime:
    return datetime.fromtimestamp(now, tzinfo_of(zone))


def next_local_hour(zone: Zone | None, now: float, hour: int) -> float:
    """The first moment after `now` when the clock on the player's wall shows `hour`:00
    (on a day that skips that hour, the moment the clocks jump past it)."""
    local = local_time(zone, now)
    target = local.replace(hour=hour, minute=0, second=0, microsecond=0)
    if target <= local:
        target += timedelta(days=1)  # on the wall clock: a day of 23 or 25 hours
    return target.timestamp()
