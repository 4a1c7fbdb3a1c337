"""The turn clock of a game played over days: pure functions over a JSON-able dict.

A clock is stored with its session (sessions.clock) and restarted whenever the board
changes. It knows when the players to act must move (the deadline), when to remind each
of them (escalating, then silent), and what happens at the deadline. Nothing here reads
the time: `now` is always passed in, so tests drive it without sleeping.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.service.base import time_zones
from bot.service.base.platform_input import amount, whole
from bot.service.base.time_zones import Zone
from engines.text import Span, Text, command, msg, plural

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
TIMEOUTS = ("skip", "vote", "ai")  # skip: the game's default move; vote: warn, then others
# may vote; ai: the AI plays the late player's turn (they take over again by acting)
SERVICE_OPTIONS = ("pace", "turn", "timeout")
# A table left with bots to act is looked at again this long after its last stored move: a
# run of bot turns stores a move every few seconds, so only a run that stopped (a crash, a
# restart) leaves it due, and the timer loop plays the bots on from there.
BOTS_WAKE = 60.0


class ClockError(ValueError):
    """A clock setting or request that cannot be; the message says what can."""


def parse_duration(text: str) -> float:
    """`90s`, `30m`, `12h`, `2d` (or a bare number of minutes) into seconds."""
    units = {"s": 1, "m": 60, "h": HOUR, "d": DAY}
    text = text.strip().lower()
    unit = text[-1] if text and text[-1] in units else "m"
    number = text[:-1] if text and text[-1] in units else text
    count = amount(number)
    if count is None:  # (ASCII digits only: `float` would read `٣`, `1_0`, `+3`, `inf`)
        raise ClockError(msg("A time is written like 30m, 12h or 2d, not {text}.", text=repr(text)))
    value = count * units[unit]
    if not 60 <= value <= 30 * DAY:
        raise ClockError(msg("The time to act must be between 1 minute and 30 days."))
    return value


def new_clock(settings: dict[str, str], default_pace: str = DEFAULT_PACE) -> dict:
    """The clock settings chosen at start: pace preset, optional time to act, timeout rule."""
    pace_name = settings.get("pace", default_pace)
    if pace_name not in PACES:
        raise ClockError(
            msg(
                "Option {name} cannot be {value}; choose one of: {choices}.",
                name="pace",
                value=repr(pace_name),
                choices=", ".join(PACES),
            )
        )
    timeout = settings.get("timeout", "skip")
    if timeout not in TIMEOUTS:
        raise ClockError(
            msg(
                "Option {name} cannot be {value}; choose one of: {choices}.",
                name="timeout",
                value=repr(timeout),
                choices=", ".join(TIMEOUTS),
            )
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


def start_turn(
    clock: dict, now: float, waiting: list[str], reaction: bool, bots: bool = False
) -> dict:
    """A new board: the players in `waiting` (user ids) get the full time again. `bots`:
    the bots are to act now (their run stores their moves; see `next_wake`)."""
    c = dict(clock)
    span = c["window"] if reaction else c["turn"]
    c.update(
        since=now,
        span=span,
        deadline=now + span,
        sent={},
        hold={},
        muted=[],
        warned=False,
        late=[],
        votes=[],
        waiting=list(waiting),
        reaction=reaction,
    )
    c.pop("bots", None)
    if bots:
        c["bots"] = True
    c["deadline"] = _extend_for_vacations(c, c["deadline"])
    if c.get("paused") is not None:
        c["paused"] = c["deadline"] - now  # a move while paused: the full time on resume
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


def next_reminder(c: dict, user: str) -> float | None:
    """When `user` is next reminded (None: muted, all sent, or none before the deadline)."""
    times = reminder_times(c)
    sent = c.get("sent", {}).get(user, 0)
    if user in c.get("muted", []) or sent >= len(times):
        return None
    at = max(times[sent], c.get("hold", {}).get(user, 0.0), c.get("vacation", {}).get(user, 0.0))
    return at if at < c["deadline"] else None


def running(c: dict) -> bool:
    """A clock that counts: a turn with a deadline, not paused, not waiting for votes."""
    return bool(c) and "deadline" in c and c.get("paused") is None and not c.get("warned")


def next_wake(c: dict) -> float | None:
    """When the timer loop must look at this session next (None: nothing to do by time):
    with bots to act, soon after the last move (paused or not: bots need no clock)."""
    if c.get("bots") and "since" in c:
        return c["since"] + BOTS_WAKE
    if not running(c):
        return None
    pending = [t for u in c.get("waiting", []) if (t := next_reminder(c, u)) is not None]
    return min([*pending, c["deadline"]])


def due_reminders(c: dict, now: float) -> list[str]:
    """The waiting players whose reminder has come (before the deadline)."""
    if not running(c) or now >= c["deadline"]:
        return []
    return [u for u in c.get("waiting", []) if (t := next_reminder(c, u)) is not None and t <= now]


def is_last_reminder(c: dict, user: str) -> bool:
    return c.get("sent", {}).get(user, 0) >= len(c.get("reminders", [])) - 1


def mark_reminded(c: dict, user: str, now: float) -> dict:
    """Count every reminder time already passed as sent: a late catch-up pings once."""
    c = dict(c)
    passed = sum(1 for t in reminder_times(c) if t <= now)
    c["sent"] = {**c.get("sent", {}), user: max(passed, c.get("sent", {}).get(user, 0) + 1)}
    c["hold"] = {k: v for k, v in c.get("hold", {}).items() if k != user}
    return c


def hold_reminder(c: dict, user: str, until: float) -> dict:
    """Quiet hours: the reminder waits until `until`."""
    c = dict(c)
    c["hold"] = {**c.get("hold", {}), user: until}
    return c


def mute(c: dict, user: str) -> dict:
    """No more reminders for `user` this turn (the next board starts them again)."""
    c = dict(c)
    c["muted"] = sorted({*c.get("muted", []), user})
    return c


def deadline_due(c: dict, now: float) -> bool:
    return running(c) and c["deadline"] <= now


def warn(c: dict, late: list[str]) -> dict:
    """The deadline passed and no default move fits: the others may now vote."""
    c = dict(c)
    c.update(warned=True, late=list(late), votes=[])
    return c


def add_vote(c: dict, voter: str) -> dict:
    c = dict(c)
    c["votes"] = sorted({*c.get("votes", []), voter})
    return c


def time_left(c: dict, now: float) -> float | None:
    if not c or "deadline" not in c:
        return None
    if c.get("paused") is not None:
        return c["paused"]
    return max(0.0, c["deadline"] - now)


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
        moved = now + left - c["deadline"]
        c["deadline"] += moved
        c["since"] = c.get("since", now) + moved
        c["hold"] = {}
    return c


def shift(c: dict, seconds: float) -> dict:
    """Move every pending time later: the bot was down and that time is not the players'."""
    c = dict(c)
    for key in ("deadline", "since"):
        if key in c:
            c[key] += seconds
    c["vacation"] = {u: t + seconds for u, t in c.get("vacation", {}).items()}
    c["hold"] = {u: t + seconds for u, t in c.get("hold", {}).items()}
    return c


def vacation_left(c: dict, user: str) -> float:
    """Seconds of vacation `user` may still take in this game."""
    return max(0.0, c.get("vacation_days", 0) * DAY - c.get("vacation_used", {}).get(user, 0.0))


def take_vacation(c: dict, user: str, days: float, now: float) -> dict:
    wanted = days * DAY
    if not wanted > 0 or math.isinf(wanted):
        raise ClockError(
            msg(
                "A vacation is a number of days, e.g. {clock_vacation}.",
                clock_vacation=command("clock", "vacation", "2"),
            )
        )
    if wanted > vacation_left(c, user) + 1:
        left = vacation_left(c, user) / DAY
        days_left = int(left) if left == int(left) else round(left, 2)
        raise ClockError(
            plural(
                "This game allows you {count} more vacation day.",
                "This game allows you {count} more vacation days.",
                days_left,
            )
        )
    if on_vacation(c, user, now):
        raise ClockError(msg("You are already on vacation in this game; `vacation end` ends it."))
    c = dict(c)
    c["vacation"] = {**c.get("vacation", {}), user: now + wanted}
    c["vacation_used"] = {
        **c.get("vacation_used", {}),
        user: c.get("vacation_used", {}).get(user, 0.0) + wanted,
    }
    if user in c.get("waiting", []) and "deadline" in c:
        c["deadline"] = _extend_for_vacations(c, c["deadline"])
    return c


def end_vacation(c: dict, user: str, now: float) -> dict:
    """Back early: the unused days return to the budget; the turn keeps its deadline."""
    until = c.get("vacation", {}).get(user, 0.0)
    if until <= now:
        raise ClockError(msg("You are not on vacation in this game."))
    c = dict(c)
    c["vacation"] = {k: v for k, v in c.get("vacation", {}).items() if k != user}
    used = c.get("vacation_used", {}).get(user, 0.0) - (until - now)
    c["vacation_used"] = {**c.get("vacation_used", {}), user: max(0.0, used)}
    return c


def on_vacation(c: dict, user: str, now: float) -> bool:
    return c.get("vacation", {}).get(user, 0.0) > now


def parse_tz(text: str) -> Zone:
    """`Europe/Berlin` (a zone name, daylight saving included) or `+2`, `-5`, `+5:30`."""
    try:
        return time_zones.parse_tz(text)
    except time_zones.ZoneError as exc:
        raise ClockError(exc.args[0]) from None


def parse_quiet(text: str) -> list[int] | None:
    """`22-7` (local hours, start and end) or `off`."""
    if text.strip().lower() in ("off", "none", "no"):
        return None
    start, sep, end = text.strip().partition("-")
    found = [whole(start.strip(), 0, 23), whole(end.strip(), 0, 23)] if sep else [None]
    hours = None if None in found else [h for h in found if h is not None]
    if hours is None or hours[0] == hours[1]:
        raise ClockError(
            msg(
                "Quiet hours are written like 22-7 (from 22:00 to 07:00), not {text}.",
                text=repr(text),
            )
        )
    return hours


def in_quiet_hours(prefs: dict, now: float) -> bool:
    """prefs: {"tz": a zone name or hours from UTC, "quiet": [start hour, end hour]} in the
    player's local time, daylight saving included for a zone name."""
    quiet = prefs.get("quiet")
    if not quiet:
        return False
    start, end = quiet
    local = time_zones.local_time(prefs.get("tz"), now)
    local_hour = local.hour + local.minute / 60
    if start <= end:
        return start <= local_hour < end
    return local_hour >= start or local_hour < end


def quiet_until(prefs: dict, now: float) -> float:
    """The first moment at or after `now` outside the player's quiet hours (whole hours)."""
    if not in_quiet_hours(prefs, now):
        return now
    return time_zones.next_local_hour(prefs.get("tz"), now, prefs["quiet"][1])


def describe(c: dict, now: float) -> Text:
    """The clock in one line, for `board`, `games` and `/escape clock`."""
    if not c:
        return ""
    rule = {
        "skip": msg(
            "the bot plays the game's default move (where it has none, the others may vote)"
        ),
        "ai": msg("the computer plays the late player's turn"),
    }.get(c.get("timeout", "skip"), msg("the others may vote to replace the player"))
    head = msg(
        "pace {pace}: {turn} a turn, then {rule}",
        pace=msg(c.get("pace", DEFAULT_PACE)),
        turn=Span(c["turn"]),
        rule=rule,
    )
    if c.get("paused") is not None:
        return msg("{clock}; paused ({left} left)", clock=head, left=Span(c["paused"], left=True))
    if c.get("warned"):
        return msg("{clock}; time is up, a vote is open", clock=head)
    left = time_left(c, now)
    if left is None:
        return head
    return msg("{clock}; {left} left", clock=head, left=Span(left, left=True))
