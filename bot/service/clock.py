"""The turn clock of a game played over days: pure functions over a JSON-able dict.

A clock is stored with its session (sessions.clock) and restarted whenever the board
changes. It knows when the players to act must move (the deadline), when to remind them
(escalating, then silent), and what happens at the deadline. Nothing here reads the time:
`now` is always passed in, so tests drive it without sleeping.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

HOUR = 3600.0
DAY = 24 * HOUR


@dataclass(frozen=True)
class Pace:
    turn: float  # seconds to act
    window: float  # seconds for a reaction window (a cat, a ghost against an escape)
    reminders: tuple[float, ...]  # when to remind, as fractions of the time to act
    idle_days: float  # a game with no move for this long is ended
    vacation_days: float  # each player's pause budget in one game


PACES: dict[str, Pace] = {
    "fast": Pace(turn=10 * 60, window=2 * 60, reminders=(0.5,), idle_days=2, vacation_days=0),
    "normal": Pace(turn=DAY, window=2 * HOUR, reminders=(0.5, 0.85), idle_days=14, vacation_days=7),
    "relaxed": Pace(
        turn=3 * DAY,
        window=12 * HOUR,
        reminders=(1 / 3, 2 / 3, 0.92),
        idle_days=30,
        vacation_days=14,
    ),
}
DEFAULT_PACE = "normal"
TIMEOUTS = ("skip", "vote")  # skip: the game's default move; vote: warn, then others may vote
SERVICE_OPTIONS = ("pace", "turn", "timeout")


class ClockError(ValueError):
    """A clock setting that does not exist; the message names what does."""


def parse_duration(text: str) -> float:
    """`90s`, `30m`, `12h`, `2d` (or a bare number of minutes) into seconds."""
    units = {"s": 1, "m": 60, "h": HOUR, "d": DAY}
    text = text.strip().lower()
    unit = text[-1] if text and text[-1] in units else "m"
    number = text[:-1] if text and text[-1] in units else text
    try:
        value = float(number) * units[unit]
    except ValueError:
        raise ClockError(f"A time is written like 30m, 12h or 2d, not {text!r}.") from None
    if not 60 <= value <= 30 * DAY or math.isnan(value):
        raise ClockError("The time to act must be between 1 minute and 30 days.")
    return value


def new_clock(settings: dict[str, str]) -> dict:
    """The clock settings chosen at start: pace preset, optional time to act, timeout rule."""
    pace_name = settings.get("pace", DEFAULT_PACE)
    if pace_name not in PACES:
        raise ClockError(f"Option pace cannot be {pace_name!r}; choose one of: {', '.join(PACES)}.")
    timeout = settings.get("timeout", "skip")
    if timeout not in TIMEOUTS:
        raise ClockError(
            f"Option timeout cannot be {timeout!r}; choose one of: {', '.join(TIMEOUTS)}."
        )
    pace = PACES[pace_name]
    turn = parse_duration(settings["turn"]) if "turn" in settings else pace.turn
    return {
        "pace": pace_name,
        "turn": turn,
        "window": min(pace.window, turn),
        "reminders": list(pace.reminders),
        "timeout": timeout,
        "idle_days": pace.idle_days,
        "vacation_days": pace.vacation_days,
        "vacation_used": {},  # user id -> seconds used
        "vacation": {},  # user id -> until
        "paused": None,  # seconds that were left when the table paused
        "pause_votes": [],
    }


def start_turn(clock: dict, now: float, waiting: list[str], window: bool) -> dict:
    """A new board: the players in `waiting` (user ids) get the full time again."""
    c = dict(clock)
    span = c["window"] if window else c["turn"]
    c.update(since=now, span=span, deadline=now + span, sent=0, muted=[], warned=False,
             votes=[], waiting=list(waiting), window=c["window"])  # fmt: skip
    c["deadline"] = _extend_for_vacations(c, c["deadline"])
    return c


def _extend_for_vacations(c: dict, deadline: float) -> float:
    """A waiting player on vacation gets their full time after the vacation ends."""
    for user in c.get("waiting", []):
        until = c.get("vacation", {}).get(user)
        if until and until > c["since"]:
            deadline = max(deadline, until + c["span"])
    return deadline


def reminder_times(c: dict) -> list[float]:
    """When each reminder falls; shifted with the deadline when it was extended."""
    start = c["deadline"] - c["span"]
    return [start + f * c["span"] for f in c.get("reminders", [])]


def next_wake(c: dict) -> float | None:
    """When the timer loop must look at this session next (None: paused or no clock)."""
    if not c or c.get("paused") is not None or "deadline" not in c:
        return None
    pending = [t for t in reminder_times(c)[c.get("sent", 0) :]]
    candidates = [*pending, c["deadline"]]
    return min(candidates)


def due_reminder(c: dict, now: float) -> bool:
    times = reminder_times(c)
    sent = c.get("sent", 0)
    return sent < len(times) and times[sent] <= now < c["deadline"]


def time_left(c: dict, now: float) -> float | None:
    if not c or "deadline" not in c:
        return None
    if c.get("paused") is not None:
        return c["paused"]
    return max(0.0, c["deadline"] - now)


def describe_left(seconds: float | None) -> str:
    if seconds is None:
        return ""
    if seconds >= DAY:
        return f"{int(seconds // DAY)}d {int(seconds % DAY // HOUR)}h"
    if seconds >= HOUR:
        return f"{int(seconds // HOUR)}h {int(seconds % HOUR // 60)}m"
    return f"{max(1, int(seconds // 60))}m"


def pause(c: dict, now: float) -> dict:
    c = dict(c)
    c["paused"] = max(0.0, c.get("deadline", now) - now)
    c["pause_votes"] = []
    return c


def resume(c: dict, now: float) -> dict:
    c = dict(c)
    left = c.get("paused") or 0.0
    c["paused"] = None
    c["pause_votes"] = []
    if "deadline" in c:
        shift = now + left - c["deadline"]
        c["deadline"] += shift
        c["since"] = c.get("since", now) + shift
    return c


def shift(c: dict, seconds: float) -> dict:
    """Move every pending time later: the bot was down and that time is not the players'."""
    c = dict(c)
    for key in ("deadline", "since"):
        if key in c:
            c[key] += seconds
    c["vacation"] = {u: t + seconds for u, t in c.get("vacation", {}).items()}
    return c


def take_vacation(c: dict, user: str, days: float, now: float) -> dict:
    budget = c.get("vacation_days", 0) * DAY - c.get("vacation_used", {}).get(user, 0.0)
    wanted = days * DAY
    if wanted <= 0:
        raise ClockError("A vacation is at least part of a day, e.g. /escape vacation 2.")
    if wanted > budget + 1:
        left = max(0.0, budget) / DAY
        raise ClockError(f"This game allows {left:g} more vacation days for you.")
    c = dict(c)
    c["vacation"] = {**c.get("vacation", {}), user: now + wanted}
    c["vacation_used"] = {
        **c.get("vacation_used", {}),
        user: c.get("vacation_used", {}).get(user, 0.0) + wanted,
    }
    if user in c.get("waiting", []):
        c["deadline"] = _extend_for_vacations(c, c["deadline"])
    return c


def on_vacation(c: dict, user: str, now: float) -> bool:
    return c.get("vacation", {}).get(user, 0.0) > now


def in_quiet_hours(prefs: dict, now: float) -> bool:
    """prefs: {"tz": hours from UTC, "quiet": [start hour, end hour]} in the player's local time."""
    quiet = prefs.get("quiet")
    if not quiet:
        return False
    start, end = quiet
    local_hour = ((now / HOUR) + float(prefs.get("tz", 0))) % 24
    if start <= end:
        return start <= local_hour < end
    return local_hour >= start or local_hour < end


def quiet_until(prefs: dict, now: float) -> float:
    """The first moment at or after `now` outside the player's quiet hours."""
    t = now
    for _ in range(48 * 4):
        if not in_quiet_hours(prefs, t):
            return t
        t += 15 * 60
    return t
