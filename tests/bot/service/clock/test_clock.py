"""The turn clock's pure rules: paces, durations, reminders, pauses, vacations, quiet hours."""

from __future__ import annotations

import pytest

from bot.service.base import deadlines as C

DAY, HOUR = C.DAY, C.HOUR
T0 = 1_800_000_000.0  # 2027-01-15 08:00 UTC


def turn(settings: dict | None = None, waiting=("ann",), now: float = T0, reaction=False) -> dict:
    return C.start_turn(C.new_clock(settings or {}), now, list(waiting), reaction)


def test_paces_and_overrides():
    assert C.new_clock({})["turn"] == DAY and C.new_clock({})["timeout"] == "skip"
    fast = C.new_clock({"pace": "fast"})
    assert fast["turn"] == 600 and fast["window"] == 120 and fast["vacation_days"] == 0
    relaxed = C.new_clock({"pace": "relaxed", "turn": "2d", "timeout": "vote"})
    assert relaxed["turn"] == 2 * DAY and relaxed["timeout"] == "vote"
    assert C.new_clock({}, default_pace="fast")["turn"] == 600


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"pace": "slow"}, "fast, normal, relaxed"),
        ({"timeout": "kick"}, "skip, vote"),
        ({"turn": "soon"}, "30m, 12h or 2d"),
        ({"turn": "10s"}, "between 1 minute and 30 days"),
        ({"turn": "nan"}, "30m, 12h or 2d"),  # (not a number: ASCII digits only)
    ],
)
def test_bad_settings_name_what_exists(settings, message):
    with pytest.raises(C.ClockError, match=message):
        C.new_clock(settings)


def test_durations():
    assert [C.parse_duration(t) for t in ("90s", "30m", "45", "12h", "2d")] == [
        90,
        1800,
        2700,
        12 * HOUR,
        2 * DAY,
    ]


def test_reminders_escalate_then_stop():
    c = turn()
    assert C.reminder_times(c) == [T0 + 0.5 * DAY, T0 + 0.85 * DAY]
    assert C.next_wake(c) == T0 + 0.5 * DAY
    assert C.due_reminders(c, T0 + 0.5 * DAY - 1) == []
    assert C.due_reminders(c, T0 + 0.5 * DAY) == ["ann"]
    assert not C.is_last_reminder(c, "ann")
    c = C.mark_reminded(c, "ann", T0 + 0.5 * DAY)
    assert C.is_last_reminder(c, "ann") and C.next_wake(c) == T0 + 0.85 * DAY
    c = C.mark_reminded(c, "ann", T0 + 0.85 * DAY)
    assert C.next_wake(c) == T0 + DAY  # only the deadline is left
    assert C.due_reminders(c, T0 + DAY - 1) == []
    assert C.deadline_due(c, T0 + DAY) and not C.deadline_due(c, T0 + DAY - 1)


def test_a_late_catch_up_counts_every_passed_reminder_once():
    c = C.mark_reminded(turn(), "ann", T0 + 0.9 * DAY)
    assert C.due_reminders(c, T0 + 0.95 * DAY) == [] and C.next_wake(c) == T0 + DAY


def test_mute_silences_one_turn_only():
    c = C.mute(turn(), "ann")
    assert C.next_wake(c) == T0 + DAY and C.due_reminders(c, T0 + 0.9 * DAY) == []
    again = C.start_turn(c, T0 + DAY, ["ann"], False)
    assert C.due_reminders(again, T0 + 1.5 * DAY) == ["ann"]


def test_reaction_window_uses_the_short_time():
    c = turn(reaction=True)
    assert c["deadline"] == T0 + 2 * HOUR and c["reaction"]


def test_pause_keeps_the_time_left_and_resume_restores_it():
    c = C.pause(turn(), T0 + 10 * HOUR)
    assert C.next_wake(c) is None and C.time_left(c, T0 + 5 * DAY) == 14 * HOUR
    assert not C.deadline_due(c, T0 + 5 * DAY)
    c = C.resume(c, T0 + 5 * DAY)
    assert c["deadline"] == T0 + 5 * DAY + 14 * HOUR and C.next_wake(c) is not None


def test_shift_moves_every_pending_time():
    c = C.shift(C.hold_reminder(turn(), "ann", T0 + HOUR), 3 * HOUR)
    assert c["deadline"] == T0 + DAY + 3 * HOUR
    assert C.reminder_times(c)[0] == T0 + 0.5 * DAY + 3 * HOUR
    assert c["hold"]["ann"] == T0 + 4 * HOUR


def test_vacation_budget_and_extension():
    c = C.take_vacation(turn(), "ann", 2, T0)
    assert C.on_vacation(c, "ann", T0 + DAY) and not C.on_vacation(c, "ann", T0 + 2 * DAY)
    assert c["deadline"] == T0 + 3 * DAY  # the vacation, then a full turn
    assert C.due_reminders(c, T0 + 1.9 * DAY) == []
    assert C.vacation_left(c, "ann") == 5 * DAY
    with pytest.raises(C.ClockError, match="already on vacation"):
        C.take_vacation(c, "ann", 1, T0 + DAY)
    c = C.end_vacation(c, "ann", T0 + DAY)  # back a day early: that day returns
    assert C.vacation_left(c, "ann") == 6 * DAY
    with pytest.raises(C.ClockError, match="6 more vacation days"):
        C.take_vacation(c, "ann", 7, T0 + DAY)
    with pytest.raises(C.ClockError, match="number of days"):
        C.take_vacation(c, "ann", -1, T0 + DAY)
    assert C.vacation_left(C.new_clock({"pace": "fast"}), "ann") == 0


def test_quiet_hours_in_the_players_time_zone():
    prefs = {"tz": 2.0, "quiet": [22, 7]}  # T0 is 08:00 UTC = 10:00 at UTC+2
    assert not C.in_quiet_hours(prefs, T0)
    night = T0 + 13 * HOUR  # 21:00 UTC = 23:00 local
    assert C.in_quiet_hours(prefs, night)
    assert C.quiet_until(prefs, night) == T0 + 21 * HOUR  # 07:00 local = 05:00 UTC
    assert C.quiet_until(prefs, T0) == T0
    assert C.in_quiet_hours({"quiet": [1, 5]}, T0 - 5 * HOUR)  # 03:00 UTC
    assert C.parse_tz("+5:30") == 5.5 and C.parse_tz("UTC-3") == -3
    assert C.parse_quiet("22-7") == [22, 7] and C.parse_quiet("off") is None
    for bad in ("25", "x"):
        with pytest.raises(C.ClockError):
            C.parse_tz(bad)
    for bad in ("22", "9-9", "1-30"):
        with pytest.raises(C.ClockError):
            C.parse_quiet(bad)


def _utc(text: str) -> float:
    from datetime import UTC, datetime

    return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()


@pytest.mark.parametrize("typed", ["Europe/Berlin", "europe/berlin"])
def test_quiet_hours_by_zone_name_follow_daylight_saving(typed):
    """Berlin is UTC+1 in winter and UTC+2 in summer (the change: 29 March 2026, 01:00 UTC):
    quiet hours 22-7 stay 22-7 on the player's wall clock on both sides of it."""
    zone = C.parse_tz(typed)
    assert zone == "Europe/Berlin"
    prefs = {"tz": zone, "quiet": [22, 7]}
    # winter: 21:30 UTC is 22:30 in Berlin, quiet; the night ends at 07:00 summer time
    # (05:00 UTC), since the clocks go forward that night: a fixed +1 would say 06:00 UTC
    assert C.in_quiet_hours(prefs, _utc("2026-03-28T21:30"))
    assert C.quiet_until(prefs, _utc("2026-03-28T21:30")) == _utc("2026-03-29T05:00")
    fixed = {"tz": C.parse_tz("+1"), "quiet": [22, 7]}
    assert C.quiet_until(fixed, _utc("2026-03-28T21:30")) == _utc("2026-03-29T06:00")
    # summer: 20:30 UTC is already 22:30 in Berlin (a fixed +1 still says 21:30, awake)
    assert C.in_quiet_hours(prefs, _utc("2026-07-01T20:30"))
    assert not C.in_quiet_hours(fixed, _utc("2026-07-01T20:30"))
    assert not C.in_quiet_hours(prefs, _utc("2026-07-01T05:00"))  # 07:00 in Berlin
    # autumn (25 October 2026, back to UTC+1): that night's quiet ends at 06:00 UTC
    assert C.quiet_until(prefs, _utc("2026-10-24T23:00")) == _utc("2026-10-25T06:00")


def test_zone_names_that_do_not_exist_are_refused_with_the_syntax():
    for bad in ("Mars/Olympus", "Berlin", "+25"):
        with pytest.raises(C.ClockError, match=r"Europe/Berlin|between -12 and \+14"):
            C.parse_tz(bad)
    assert C.parse_tz("UTC") == 0 and C.parse_tz("utc+2") == 2


def test_settings_for_the_clock():
    from bot.settings import Settings

    s = Settings.from_env({"ESCAPE_PACE": "Relaxed", "ESCAPE_TIMER_INTERVAL": "10"})
    assert (s.default_pace, s.timer_interval) == ("relaxed", 10.0)
    assert Settings.from_env({}).default_pace == "normal"
    with pytest.raises(ValueError, match="ESCAPE_PACE"):
        Settings.from_env({"ESCAPE_PACE": "slow"})
    with pytest.raises(ValueError, match="ESCAPE_TIMER_INTERVAL"):
        Settings.from_env({"ESCAPE_TIMER_INTERVAL": "often"})


def test_a_clock_describes_its_pace_and_timeout():
    assert C.describe(C.new_clock({"pace": "fast", "timeout": "vote"}), T0) == (
        "pace fast: 10m a turn, then the others may vote to replace the player"
    )
