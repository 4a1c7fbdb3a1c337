"""The timer loop with an injected clock (no sleeping): reminders, deadlines, votes,
vacations, quiet hours, the digest, downtime, restarts and idle games."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.service import ChatRef, GameService, UserError, UserRef
from bot.service.base import deadlines as C
from bot.service.timer_loop import Timers
from bot.store import Store
from engines import REGISTRY

DAY, HOUR = C.DAY, C.HOUR
T0 = 1_800_000_000.0  # 08:00 UTC
ANN = UserRef("test", "u-ann", "Ann")
BOB = UserRef("test", "u-bob", "Bob")
CY = UserRef("test", "u-cy", "Cy")
CHAT = ChatRef("test", "chan-1", "", "guild-1")


class FakeClock:
    def __init__(self, t: float = T0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


class Bot:
    """One running bot process: a store, a service and its timer loop on one database file."""

    def __init__(self, path, clock: FakeClock, interval: float = 3600) -> None:
        self.path, self.clock, self.interval = path, clock, interval
        self.sent: list[tuple[ChatRef, object]] = []
        self.sent_at: list[float] = []

    async def open(self) -> Bot:
        self.store = await Store.open(self.path, clock=self.clock, busy_timeout=0.5)
        self.service = GameService(
            self.store, seed_source=lambda: 1234, pictures=False, clock=self.clock
        )

        async def deliver(chat, replies):
            self.sent += [(chat, r) for r in replies]
            self.sent_at += [self.clock.t for _ in replies]

        self.service.add_notifier("test", deliver)
        self.timers = Timers(self.service, interval=self.interval)
        return self

    async def close(self) -> None:
        await self.store.close()

    async def run_until(self, until: float) -> None:
        """What Timers.run does, with the clock moved instead of sleeping."""
        while True:
            await self.timers.tick()
            if self.clock.t >= until:
                return
            self.clock.t = min(until, self.clock.t + await self.timers.next_delay())

    def reminders(self, user: UserRef | None = None) -> list:
        return [
            (chat, r)
            for chat, r in self.sent
            if r.kind == "reminder" and r.to is None and (user is None or user in r.mention)
        ]

    def texts(self) -> list[str]:
        return [r.text for _, r in self.sent]


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
async def bot(tmp_path, clock):
    b = await Bot(tmp_path / "escape.sqlite3", clock).open()
    yield b
    await b.close()


async def two_player(bot: Bot, game="ghosts18", options="", chat=CHAT, users=(ANN, BOB)) -> int:
    await bot.service.start(chat, users[0], game, options)
    replies = await bot.service.join(chat, users[1])
    return replies[0].session_id


async def log_of(bot: Bot, sid: int):
    return [(e.seat, e.action, e.user_id) for e in await bot.store.log(sid) if e.seat >= 0]


# ----- reminders ----------------------------------------------------------------------
async def test_reminders_at_the_right_times_and_no_more(bot, clock):
    sid = await two_player(bot, options="timeout=vote")  # Ann to place; normal pace: 1 day
    await bot.run_until(T0 + 2 * DAY)
    times = [t for t in (await bot.store.session(sid)).clock.get("sent", {}).values()]
    got = bot.reminders()
    assert len(got) == 2 and times == [2]
    assert all(r.mention == [ANN] for _, r in got)  # only the waiting player
    assert got[0][1].text.startswith("Reminder: Ann") and "12h 0m left" in got[0][1].text
    assert got[1][1].text.startswith("Last reminder: Ann") and "vote" in got[1][1].text
    # the deadline then warned once; nothing else was sent in two days
    warnings = [t for t in bot.texts() if t.startswith("Time is up for Ann")]
    assert len(warnings) == 1 and len(bot.sent) == 3


async def test_reminders_are_sent_at_their_time(bot, clock):
    await two_player(bot, options="timeout=vote")
    await bot.run_until(T0 + 0.5 * DAY - 1)
    assert bot.reminders() == []
    await bot.run_until(T0 + 0.5 * DAY)
    assert len(bot.reminders()) == 1
    await bot.run_until(T0 + 0.85 * DAY - 1)
    assert len(bot.reminders()) == 1
    await bot.run_until(T0 + 0.85 * DAY)
    assert len(bot.reminders()) == 2


async def test_a_move_restarts_the_clock_and_reminders(bot, clock):
    await two_player(bot, options="timeout=vote")
    await bot.run_until(T0 + 0.6 * DAY)
    await bot.service.move(CHAT, ANN, "place a1")
    assert (await bot.service.live(CHAT)).clock["waiting"] == [BOB.id]
    await bot.run_until(T0 + 1.1 * DAY)  # Bob's first reminder is at 0.6 + 0.5 days
    assert [r.mention for _, r in bot.reminders()] == [[ANN], [BOB]]


async def test_mute_for_one_turn(bot, clock):
    await two_player(bot, options="timeout=vote")
    with pytest.raises(UserError, match="not your turn"):
        await bot.service.clock_command(CHAT, BOB, "mute")
    [said] = await bot.service.clock_command(CHAT, ANN, "mute")
    assert said.text == "No more reminders for Ann this turn."
    await bot.run_until(T0 + 0.99 * DAY)
    assert bot.reminders() == []
    await bot.service.move(CHAT, ANN, "place a1")
    while (await bot.service.live(CHAT)).clock["waiting"] != [ANN.id]:
        await bot.service.move(CHAT, BOB, (await bot.service.choices(CHAT, BOB))[0][0])
    await bot.run_until(T0 + 1.5 * DAY)  # Ann's new turn reminds her again
    assert [r.mention for _, r in bot.reminders()] == [[ANN]]


async def test_dm_opt_in_adds_a_private_copy(bot, clock):
    await two_player(bot, options="timeout=vote")
    await bot.service.clock_command(CHAT, ANN, "dm on")
    await bot.run_until(T0 + 0.5 * DAY)
    assert [r.to for _, r in bot.sent if r.kind == "reminder"] == [None, ANN]


async def test_quiet_hours_hold_a_reminder_until_morning(bot, clock):
    # Ann lives at UTC+2 and sleeps 22-7; the game starts 14:00 UTC, her reminder (12 h)
    # would fall at 02:00 UTC = 04:00 her time: it waits until 07:00 her time (05:00 UTC).
    clock.t = T0 + 6 * HOUR
    await bot.service.clock_command(CHAT, ANN, "tz +2")
    await bot.service.clock_command(CHAT, ANN, "quiet 22-7")
    await two_player(bot, options="timeout=vote")
    await bot.run_until(T0 + 21 * HOUR - 1)
    assert bot.reminders() == []
    await bot.run_until(T0 + 21 * HOUR)
    assert len(bot.reminders()) == 1


async def test_quiet_hours_by_zone_name_across_the_spring_change(bot, clock):
    # Ann lives in Berlin and sleeps 22-7. The game starts 28 March 2026, 14:00 UTC; her
    # reminder (12 h) falls at 02:00 UTC, after the clocks went forward (01:00 UTC): 04:00
    # summer time there. It waits until 07:00 summer time, 05:00 UTC (with a fixed +1 it
    # would wait until 06:00 UTC).
    from datetime import UTC, datetime

    start = datetime(2026, 3, 28, 14, tzinfo=UTC).timestamp()
    clock.t = start
    [said] = await bot.service.clock_command(CHAT, ANN, "tz Europe/Berlin")
    assert said.text == "Your time zone: Europe/Berlin."
    await bot.service.clock_command(CHAT, ANN, "quiet 22-7")
    await two_player(bot, options="timeout=vote")
    [status] = await bot.service.clock_command(CHAT, ANN, "")
    assert "time zone Europe/Berlin, quiet hours 22-7" in status.text
    await bot.run_until(start + 15 * HOUR - 1)
    assert bot.reminders() == []
    await bot.run_until(start + 15 * HOUR)
    assert len(bot.reminders()) == 1


async def test_the_digest_names_every_game_in_one_message(bot, clock):
    chats = [ChatRef("test", f"chan-{i}", "", "guild-1") for i in range(3)]
    for i, chat in enumerate(chats):
        clock.t = T0 + i * 10 * 60  # three games, ten minutes apart: Ann to move in each
        await two_player(bot, options="timeout=vote", chat=chat)
    await bot.run_until(T0 + 0.5 * DAY + 25 * 60)
    got = bot.reminders(ANN)
    assert len(got) == 1
    chat, reply = got[0]
    assert chat == chats[0] and "your move in 3 games" in reply.text
    await bot.run_until(T0 + 0.85 * DAY + 25 * 60)  # the second round: again one message
    assert len(bot.reminders(ANN)) == 2


# ----- deadlines ----------------------------------------------------------------------
async def test_skip_plays_the_default_move_at_the_deadline(bot, clock):
    sid = await two_player(bot)  # timeout=skip; ghosts18 places ghosts by default
    await bot.run_until(T0 + DAY - 1)
    assert await log_of(bot, sid) == []
    await bot.run_until(T0 + DAY)
    assert await log_of(bot, sid) == [(0, "place a1", None)]
    board = [r for _, r in bot.sent if r.kind == "board"]
    assert board and "Time is up for Ann: the bot plays" in board[0].text
    assert board[0].mention == [BOB]


async def test_vote_removal_hands_the_seat_to_a_stand_in(bot, clock):
    sid = await two_player(bot, options="timeout=vote")
    with pytest.raises(UserError, match="nothing to vote on"):
        await bot.service.clock_command(CHAT, BOB, "vote")
    await bot.run_until(T0 + DAY)
    [warning] = [r for _, r in bot.sent if r.text.startswith("Time is up for Ann")]
    assert [c.label for c in warning.choices] == ["Vote to replace Ann"]
    assert (await bot.store.session(sid)).wake_at is None  # nothing more to do by time
    with pytest.raises(UserError, match="others vote"):
        await bot.service.press(CHAT, ANN, warning.choices[0].data)
    with pytest.raises(UserError, match="players"):
        await bot.service.press(CHAT, CY, warning.choices[0].data)
    [board] = await bot.service.press(CHAT, BOB, warning.choices[0].data)
    assert "a stand-in takes over from Ann" in board.text and board.mention == [BOB]
    row = await bot.store.session(sid)
    assert [s.kind for s in row.seats] == ["placeholder", "human"]
    assert (await log_of(bot, sid))[0] == (0, "place a1", None)
    with pytest.raises(UserError, match="stand-in"):
        await bot.service.move(CHAT, ANN, "place b1")


async def test_a_late_player_can_still_move_before_the_vote(bot, clock):
    await two_player(bot, options="timeout=vote")
    await bot.run_until(T0 + DAY + HOUR)
    await bot.service.move(CHAT, ANN, "place a1")
    with pytest.raises(UserError, match="nothing to vote on"):
        await bot.service.clock_command(CHAT, BOB, "vote")


async def test_three_players_need_a_majority_of_the_others(bot, clock):
    await bot.service.start(CHAT, ANN, "castle_doors", "timeout=vote")
    await bot.service.join(CHAT, BOB)
    await bot.service.join(CHAT, CY)
    await bot.service.begin(CHAT, ANN)
    await bot.run_until(T0 + DAY)
    [said] = await bot.service.clock_command(CHAT, BOB, "vote")
    assert "1 of 2" in said.text
    with pytest.raises(UserError, match="already voted"):
        await bot.service.clock_command(CHAT, BOB, "vote")
    board = (await bot.service.clock_command(CHAT, CY, "vote"))[0]
    assert board.kind == "board" and "stand-in" in board.text


async def test_default_action_at_the_deadline_in_every_game_that_has_one(tmp_path, clock):
    """Each game is played at random until a human must act and the game offers a default
    for that seat; then the clock runs out and the loop must play exactly that default."""
    rng = random.Random(5)
    served = []
    for n, (game_id, game) in enumerate(sorted(REGISTRY.items())):
        bot = await Bot(tmp_path / f"{game_id}.sqlite3", clock).open()
        try:
            chat = ChatRef("test", f"d-{n}", "", "g")
            users = [UserRef("test", f"p{i}", f"P{i}") for i in range(max(2, game.min_players))]
            replies = await bot.service.start(chat, users[0], game_id)
            for user in users[1:]:
                if replies[0].kind == "lobby":
                    replies = await bot.service.join(chat, user)
            if replies[0].kind == "lobby":
                replies = await bot.service.begin(chat, users[0])
            by_id = {u.id: u for u in users}
            for _ in range(300):
                row = await bot.service.live(chat)
                if row is None or row.status != "active":
                    break
                loaded = bot.service.table.load(row)
                acting = [s for s in loaded.game.to_act(loaded.state) if s >= 0]
                defaults = {s: loaded.game.default_action(loaded.state, s) for s in acting}
                if acting and all(a is not None for a in defaults.values()):
                    break
                seat = acting[0]
                legal = loaded.game.legal_actions(loaded.state, seat)
                await bot.service.move(chat, by_id[row.seats[seat].user_id], rng.choice(legal))
            else:
                pytest.fail(f"{game_id}: no state with a default move was reached")
            before = len(await bot.store.log(row.id))
            clock.t = row.clock["deadline"]
            report = await bot.timers.tick()
            assert report.deadlines == [row.id], game_id
            new = [e for e in await bot.store.log(row.id) if e.n > before and e.seat >= 0]
            first = acting[0] if len(acting) == 1 else new[0].seat
            assert (new[0].seat, new[0].action, new[0].user_id) == (first, defaults[first], None)
            served.append(game_id)
        finally:
            await bot.close()
    assert served == sorted(REGISTRY)


async def test_reaction_windows_close_by_timer_with_pass(tmp_path, clock):
    """Haunted House: play until the engine opens a reaction window (a cat against a ghost,
    a ghost against an escape); it gets the short window time and the loop closes it with `pass`."""
    rng = random.Random(3)
    bot = await Bot(tmp_path / "hh.sqlite3", clock).open()
    users = [ANN, BOB, CY]
    try:
        await bot.service.start(CHAT, ANN, "haunted_house")
        await bot.service.join(CHAT, BOB)
        await bot.service.join(CHAT, CY)
        await bot.service.begin(CHAT, ANN)
        by_id = {u.id: u for u in users}
        for _ in range(2000):
            row = await bot.service.live(CHAT)
            assert row is not None and row.status == "active", "the game ended before a window"
            loaded = bot.service.table.load(row)
            in_window = loaded.game.reaction_window(loaded.state)
            assert bool(row.clock.get("reaction")) == in_window, "the clock follows the engine"
            if in_window:
                break
            seat = next(s for s in loaded.game.to_act(loaded.state) if s >= 0)
            legal = loaded.game.legal_actions(loaded.state, seat)
            await bot.service.move(CHAT, by_id[row.seats[seat].user_id], rng.choice(legal))
        else:
            pytest.fail("no reaction window opened")
        assert row.clock["span"] == 2 * HOUR
        waiting = [s.seat for s in row.seats if s.user_id in row.clock["waiting"]]
        before = len(await bot.store.log(row.id))
        clock.t = row.clock["deadline"] - 1
        assert (await bot.timers.tick()).deadlines == []
        clock.t += 1
        assert (await bot.timers.tick()).deadlines == [row.id]
        new = [
            (e.seat, e.action) for e in await bot.store.log(row.id) if e.n > before and e.seat >= 0
        ]
        assert new[: len(waiting)] == [(s, "pass") for s in waiting]
    finally:
        await bot.close()


# ----- vacation and pause -------------------------------------------------------------
async def test_vacation_pauses_ones_own_clock(bot, clock):
    sid = await two_player(bot)
    [said] = await bot.service.clock_command(CHAT, ANN, "vacation 2")
    assert said.to is None and "vacation for 2 days" in said.text
    await bot.run_until(T0 + 2 * DAY + 0.5 * DAY - 1)
    assert bot.reminders() == [] and await log_of(bot, sid) == []
    await bot.run_until(T0 + 3 * DAY)  # vacation, then a full day: then the default
    assert len(bot.reminders()) == 2 and await log_of(bot, sid) == [(0, "place a1", None)]
    [status] = await bot.service.clock_command(CHAT, ANN, "")
    assert "5 days left" in status.text
    with pytest.raises(UserError, match="5 more vacation days"):
        await bot.service.clock_command(CHAT, ANN, "vacation 6")
    with pytest.raises(UserError, match="vacation DAYS"):
        await bot.service.clock_command(CHAT, ANN, "vacation soon")


async def test_the_table_pauses_only_by_agreement(bot, clock):
    sid = await two_player(bot)
    [asked] = await bot.service.clock_command(CHAT, ANN, "pause")
    assert "waiting for Bob" in asked.text
    assert (await bot.store.session(sid)).wake_at is not None
    [done] = await bot.service.clock_command(CHAT, BOB, "pause")
    assert "paused" in done.text and (await bot.store.session(sid)).wake_at is None
    [board] = await bot.service.board(CHAT)
    assert "the table is paused; 1d 0h left" in board.text
    await bot.run_until(T0 + 10 * DAY)
    assert bot.sent == [] and await log_of(bot, sid) == []
    await bot.service.clock_command(CHAT, BOB, "resume")
    await bot.run_until(T0 + 11 * DAY)
    assert await log_of(bot, sid) == [(0, "place a1", None)]
    with pytest.raises(UserError, match="not playing"):
        await bot.service.clock_command(CHAT, CY, "pause")


async def test_bad_clock_commands_change_nothing(bot, clock):
    sid = await two_player(bot)
    before = await bot.store.session(sid)
    for text, message in [
        ("dance", "no clock command 'dance'"),
        ("tz 99", "between -12 and"),
        ("tz mars/olympus", "Europe/Berlin"),
        ("quiet 8", "22-7"),
        ("dm maybe", "dm on"),
        ("resume", "not paused"),
    ]:
        with pytest.raises(UserError, match=message):
            await bot.service.clock_command(CHAT, ANN, text)
    after = await bot.store.session(sid)
    assert (after.version, after.clock) == (before.version, before.clock)


# ----- restarts and downtime ----------------------------------------------------------
async def test_a_restart_before_the_deadline_still_fires_exactly_once(tmp_path, clock):
    first = await Bot(tmp_path / "db.sqlite3", clock).open()
    sid = await two_player(first)
    await first.run_until(T0 + 0.5 * DAY)
    await first.close()
    # back a few minutes later: two processes share the file (say, an overlapping deploy)
    clock.t += 300
    a = await Bot(tmp_path / "db.sqlite3", clock).open()
    b = await Bot(tmp_path / "db.sqlite3", clock).open()
    try:
        await a.run_until(T0 + DAY - 60)
        clock.t = T0 + DAY
        await a.timers.tick()
        await b.timers.tick()
        await a.run_until(T0 + DAY + HOUR)
        assert await log_of(a, sid) == [(0, "place a1", None)]
        boards = [r for bot in (a, b) for _, r in bot.sent if r.kind == "board"]
        assert len(boards) == 1
        assert len(first.reminders()) == 1 and len(a.reminders()) + len(b.reminders()) == 1
    finally:
        await a.close()
        await b.close()


async def test_time_the_bot_was_down_is_not_counted(tmp_path, clock):
    first = await Bot(tmp_path / "db.sqlite3", clock).open()
    sid = await two_player(first)
    await first.run_until(T0 + 6 * HOUR)
    await first.close()
    clock.t = T0 + 3 * DAY  # down for 66 hours
    second = await Bot(tmp_path / "db.sqlite3", clock).open()
    try:
        touched = (await second.store.session(sid)).updated_at
        report = await second.timers.tick()
        assert report.downtime == 66 * HOUR and report.deadlines == []
        assert (await second.store.session(sid)).updated_at == touched + 66 * HOUR
        row = await second.store.session(sid)
        assert row.clock["deadline"] == T0 + DAY + 66 * HOUR  # still 18 h for Ann
        [board] = await second.service.board(CHAT)
        assert "(18h 0m left)" in board.text
        await second.run_until(T0 + 3 * DAY + 18 * HOUR - 1)
        assert await log_of(second, sid) == []
        await second.run_until(T0 + 3 * DAY + 18 * HOUR)
        assert await log_of(second, sid) == [(0, "place a1", None)]
    finally:
        await second.close()


# ----- idle games ---------------------------------------------------------------------
async def test_untouched_games_end_with_a_note_kept_in_the_log(bot, clock):
    sid = await two_player(bot, options="timeout=vote pace=fast")
    lobby = ChatRef("test", "chan-2", "", "guild-1")
    await bot.service.start(lobby, ANN, "ghosts18")  # a lobby of normal pace: 14 days
    await bot.run_until(T0 + 2 * DAY + 60)
    row = await bot.store.session(sid)
    assert row.status == "aborted"
    note = (await bot.store.log(sid))[-1]
    assert "no move for 2 days" in note.events[0]["text"]
    assert any(r.final and "no move for 2 days" in r.text for _, r in bot.sent)
    assert (await bot.service.live(lobby)).status == "lobby"
    await bot.run_until(T0 + 15 * DAY)
    assert await bot.service.live(lobby) is None


async def test_games_and_board_show_the_clock(bot, clock):
    await two_player(bot, options="turn=12h")
    clock.t += 2 * HOUR
    [board] = await bot.service.board(CHAT)
    assert "Waiting for Ann (10h 0m left)." in board.text
    games = await bot.service.games_here("test", "guild-1")
    assert "waiting for Ann (10h 0m left)" in games.text


async def test_moves_the_clock_made_do_not_keep_a_game_alive(bot, clock):
    """18 Ghosts at the fast pace with both players gone: every ten minutes the bot places a
    ghost for them; those moves are not a player's, so the idle limit (2 days) still runs
    from the last thing a player did (Bob joining at the start)."""
    sid = await two_player(bot, options="pace=fast")
    await bot.run_until(T0 + 2 * DAY - 60)
    played = await log_of(bot, sid)
    assert len(played) > 10 and {user for _, _, user in played} == {None}
    assert all(action.startswith("place") for _, action, _ in played)
    assert (await bot.store.session(sid)).status == "active"
    await bot.run_until(T0 + 2 * DAY + 60)
    assert (await bot.store.session(sid)).status == "aborted"


async def test_run_sleeps_until_each_wake_and_a_broken_game_stops_no_other(bot, clock, caplog):
    await two_player(bot, options="timeout=vote")  # session 1: Ann reminded at 12 h
    other = ChatRef("test", "chan-2", "", "guild-1")
    broken = await two_player(bot, options="turn=1h", chat=other)  # its deadline comes first
    time_up = bot.service.time_up

    async def failing(session_id):
        if session_id == broken:
            raise RuntimeError("a bug in one game")
        return await time_up(session_id)

    bot.service.time_up = failing
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock.t += seconds
        if clock.t >= T0 + 0.5 * DAY + 60:
            raise asyncio.CancelledError

    timers = Timers(bot.service, interval=3600, sleep=sleep)
    with pytest.raises(asyncio.CancelledError):
        await timers.run()
    assert len(bot.reminders(ANN)) == 1  # the other game was served regardless
    assert len(slept) < 30  # the broken game is retried once an interval, not in a spin
    assert "a bug in one game" in caplog.text
    assert all(5 <= s <= 3600 for s in slept) and T0 + 0.5 * DAY in {
        T0 + sum(slept[:i]) for i in range(len(slept) + 1)
    }  # it woke exactly at the reminder's time


async def test_games_on_a_platform_nobody_can_message_are_left_alone(bot, clock):
    """A terminal game in the same database: no notifier, so no reminders, no default
    moves and no idle end while the chat bot runs; the chat game is served."""
    here = ChatRef("console", "terminal")
    ann, bob = UserRef("console", "local:ann", "Ann"), UserRef("console", "local:bob", "Bob")
    await bot.service.start(here, ann, "ghosts18")
    [board] = await bot.service.join(here, bob)
    served = await two_player(bot)
    await bot.run_until(T0 + 30 * DAY)
    assert await log_of(bot, board.session_id) == []
    assert (await bot.store.session(board.session_id)).status == "active"
    assert await log_of(bot, served) and all(chat != here for chat, _ in bot.sent)
    assert bot.timers.interval == await bot.timers.next_delay()  # the terminal game is no wake
    [shown] = await bot.service.board(here)
    assert shown.text.endswith("Waiting for Ann.")  # and it shows no clock


async def test_a_movers_own_optional_step_is_not_a_reaction_window(tmp_path, clock):
    """Castle Doors: an extra key the mover may skip (`pass`) continues their turn, so it
    gets the full time to act, not the short reaction window."""
    rng = random.Random(4)
    bot = await Bot(tmp_path / "cd.sqlite3", clock).open()
    try:
        await bot.service.start(CHAT, ANN, "castle_doors")
        await bot.service.join(CHAT, BOB)
        await bot.service.begin(CHAT, ANN)
        by_id = {u.id: u for u in (ANN, BOB)}
        for _ in range(3000):
            row = await bot.service.live(CHAT)
            assert row is not None, "the game ended before an optional step"
            loaded = bot.service.table.load(row)
            [seat] = [s for s in loaded.game.to_act(loaded.state) if s >= 0]
            log = await bot.store.log(row.id)
            last = next((e.seat for e in reversed(log) if e.seat >= 0), None)
            if last == seat and loaded.game.default_action(loaded.state, seat) == "pass":
                break
            legal = loaded.game.legal_actions(loaded.state, seat)
            await bot.service.move(CHAT, by_id[row.seats[seat].user_id], rng.choice(legal))
        else:
            pytest.fail("no optional step of the mover was reached")
        assert not row.clock["reaction"] and row.clock["span"] == DAY
    finally:
        await bot.close()


async def test_a_reminder_under_a_minute_before_the_deadline_says_the_seconds(bot, clock):
    """Issue 59: 30 s before a one-minute deadline the reminder said "(1m left)"."""
    await two_player(bot, options="timeout=vote turn=1m")
    await bot.run_until(T0 + 30)
    [(_, first)] = bot.reminders()
    assert "30s left" in first.text and "1m left" not in first.text


async def test_a_loss_on_time_says_so_rated_and_waits_for_nobody(bot, clock):
    """Issue 59: a game lost on time (a tournament's clock, `timeout=forfeit`) ended every
    board with "Waiting for Ann. / Not rated: a seat was played by the bot." where no bot
    played. It is the late player's loss: said, rated, and nobody is waited for."""
    from bot.service.base import deadlines

    sid = await two_player(bot, options="turn=1h")
    row = await bot.store.session(sid)
    clock_ = row.clock | {"timeout": "forfeit"}
    await bot.store.set_clock(
        sid, row.version, clock_, clock_.get("deadline"), deadlines.next_wake(clock_)
    )
    await bot.run_until(T0 + 2 * 3600)
    row = await bot.store.session(sid)
    assert row.status == "finished" and row.seats[0].lost
    [final] = [r for _, r in bot.sent if r.kind == "board" and r.final]
    assert "Time is up for Ann: they lose this game on time." in final.text
    assert "Waiting for" not in final.text and "played by the bot" not in final.text
    assert "Ratings: Ann" in final.text
