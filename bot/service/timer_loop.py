"""The one scan loop that serves time: reminders, deadlines, idle games, bot downtime,
bots whose run of turns stopped (a crash mid-run: they play on from there), tournaments'
rounds and seasons' ends, and (hourly) finished games past the operator's retention.

Everything it acts on is in SQLite (sessions.wake_at, the clock JSON, meta's heartbeat), so
a restart loses nothing and re-arms every deadline by simply scanning again. Each change
is a compare-and-set on the stored row, so two processes (or a move racing the loop) never
serve one reminder or deadline twice. Time comes from the service's injected clock: tests
call `tick()` after moving that clock and never sleep.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.service.base import deadlines
from bot.service.base.delivery_plan import Plan, Reply
from bot.service.base.requests import UserError, UserRef
from bot.service.game_service import GameService
from bot.service.tables.table import chat_of, title_of
from bot.store import DamagedStore, SessionRow, StoreError
from bot.store.errors import RESTORE_STEPS
from bot.telemetry import metrics
from engines.text import Span, Text, command, joined, msg, plural

log = logging.getLogger(__name__)

HEARTBEAT = "timers.heartbeat"
# seconds an owed board may go unshown before any process shows it: its own process's
# retries (bot/delivery/deliverer.py) come sooner, unless that process died
OWED_GRACE = 180.0
MIN_DELAY = 5.0  # seconds: a session that cannot be served now is retried at most this often
DIGEST_AHEAD = 2 * deadlines.HOUR  # a reminder due this soon in another game joins the digest


@dataclass
class TickReport:
    """What one scan did (for logs and tests)."""

    reminders: list[tuple[str, int]] = field(default_factory=list)  # (user id, session id)
    deadlines: list[int] = field(default_factory=list)
    ended: list[int] = field(default_factory=list)
    woken: list[int] = field(default_factory=list)  # tables whose bots played on
    reshown: list[int] = field(default_factory=list)  # boards owed by a process that died
    tournaments: dict = field(default_factory=dict)  # tournament id -> what moved on
    seasons: object = None  # the seasons ended and posted (`seasons.SeasonsDone`)
    retired: int = 0  # finished games deleted, past the operator's retention
    downtime: float = 0.0


class Timers:
    def __init__(
        self,
        service: GameService,
        *,
        interval: float = 30.0,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.service = service
        self.store = service.store
        self.interval = interval
        self.gap = max(3 * interval, 120.0)  # a heartbeat older than this means we were down
        self._sleep = sleep
        self._said_damaged = False
        self.last_scan: float | None = None  # time.monotonic() of the last whole scan

    async def run(self) -> None:
        """Scan, then sleep until the next wake (at most `interval`), for ever. The first
        scan waits one interval so the platforms are connected to deliver what it sends."""
        await self._sleep(self.interval)
        while True:
            try:
                await self.tick()
                delay = await self.next_delay()
            except DamagedStore as exc:  # said once: it stays damaged until it is restored
                if not self._said_damaged:
                    log.error(
                        "the database is damaged, so no reminder or deadline is served "
                        "until it is restored (%s): %s",
                        RESTORE_STEPS,
                        exc,
                    )
                self._said_damaged = True
                delay = self.interval
            except StoreError as exc:  # a busy database: try again next round
                log.warning("timer scan failed: %s", exc)
                delay = self.interval
            except Exception:  # a bug must not stop the timers of every other game
                log.exception("timer scan failed")
                delay = self.interval
            await self._sleep(delay)

    async def next_delay(self) -> float:
        at = await self.store.next_wake(self.service.platforms())
        now = self.service.now()
        return self.interval if at is None else min(self.interval, max(MIN_DELAY, at - now))

    async def tick(self) -> TickReport:
        """One scan. Only games on platforms that can be sent messages (a registered
        notifier) are served: a terminal game in the same database is left alone, and a
        process running one platform serves that platform's games."""
        started = time.perf_counter()
        report = TickReport()
        now = self.service.now()
        platforms = self.service.platforms()
        for platform in platforms:
            report.downtime = max(report.downtime, await self._heartbeat(platform, now))
        due = await self.store.due_sessions(now, platforms)  # the oldest wake time first
        metrics.TIMER_LAG.set(max(0.0, now - due[0].wake_at) if due and due[0].wake_at else 0.0)
        for row in due:
            if row.clock.get("bots"):  # bots to act, and no move stored for a while
                replies = await self._guarded(row.id, self.service.wake_bots(row.id))
                if replies:
                    report.woken.append(row.id)
                    await self.service.notify(chat_of(row), replies)
                else:  # a run of this process still plays them: look again later
                    with contextlib.suppress(StoreError):
                        await self.store.postpone_wake(row.id, now + self.interval)
            elif deadlines.deadline_due(row.clock, now):
                replies = await self._guarded(row.id, self.service.time_up(row.id))
                if replies:
                    report.deadlines.append(row.id)
                    metrics.DEADLINES_SERVED.labels(row.platform).inc()
                    await self.service.notify(chat_of(row), replies)
        await self._remind(now, platforms, report)
        await self._end_idle(now, platforms, report)
        await self._owed_boards(platforms, report)
        report.tournaments = await self.service.tournaments.tick(now, platforms)
        report.seasons = await self.service.seasons.tick(now, platforms)
        report.retired = await self.service.personal.retire()  # ESCAPE_KEEP_GAMES_DAYS
        metrics.TIMER_SCAN_SECONDS.observe(time.perf_counter() - started)
        metrics.TIMER_LAST_SCAN.set(time.time())
        self.last_scan = time.monotonic()
        return report

    # ----- boards owed by a process that died -------------------------------------
    async def _owed_boards(self, platforms: list[str], report: TickReport) -> None:
        """A board owed to a flooded chat is posted by its process when the chat takes it;
        one owed for `OWED_GRACE` with no board of the game shown since (its process died)
        is shown anew here, by one process. (Unix time, as delivery notes it.)"""
        now = time.time()
        for session_id, platform, at, touched in await self.store.owed_boards(platforms):
            if now - at < OWED_GRACE or not await self.store.take_owed_board(platform, session_id):
                continue
            row = await self.store.session(session_id)
            if (touched is not None and touched >= at) or row is None:
                continue  # shown since
            if row.status not in ("lobby", "active"):
                continue
            plan = await self._guarded(session_id, self.service.board_again(chat_of(row)))
            if plan:
                report.reshown.append(session_id)
                await self.service.notify(chat_of(row), plan)

    # ----- downtime ---------------------------------------------------------------
    async def _heartbeat(self, platform: str, now: float) -> float:
        """Swap in the platform's new heartbeat; if the old one is stale its timers were
        down that long, and every running clock there moves later by as much."""
        old = await self.store.swap_meta(f"{HEARTBEAT}.{platform}", repr(now))
        if old is None or now - float(old) <= self.gap:
            return 0.0
        down = now - float(old)
        log.info(
            "%s timers were down for %.0f s; moving its running clocks by that", platform, down
        )
        for row in await self.store.active_sessions():
            if row.platform == platform and "deadline" in row.clock:
                await self.service.save_clock(row, deadlines.shift(row.clock, down))
        await self.store.discount_idle(down, [platform])
        return down

    # ----- reminders and the digest -----------------------------------------------
    async def _remind(self, now: float, platforms: list[str], report: TickReport) -> None:
        due: dict[tuple[str, str], list[SessionRow]] = {}
        for row in await self.store.due_sessions(now, platforms):
            for user in deadlines.due_reminders(row.clock, now):
                due.setdefault((row.platform, user), []).append(row)
        for (platform, user_id), rows in due.items():
            await self._guarded(rows[0].id, self._remind_user(platform, user_id, rows, now, report))

    async def _remind_user(
        self, platform: str, user_id: str, rows: list[SessionRow], now: float, report: TickReport
    ) -> None:
        known = await self.store.user(platform, user_id)
        prefs = known["prefs"] if known else {}
        if deadlines.in_quiet_hours(prefs, now):
            until = deadlines.quiet_until(prefs, now)
            for row in rows:
                await self.service.save_clock(
                    row, deadlines.hold_reminder(row.clock, user_id, until)
                )
            return
        # Every other game waiting for this player: named in the one message; those with a
        # reminder due soon are counted as reminded (one digest, not a ping per game).
        others = [
            r
            for r in await self.store.sessions_of_user(platform, user_id)
            if r.status == "active"
            and r.id not in {x.id for x in rows}
            and user_id in r.clock.get("waiting", [])
            and deadlines.running(r.clock)
        ]
        claimed: list[SessionRow] = []
        for row in rows:
            if await self.service.save_clock(row, deadlines.mark_reminded(row.clock, user_id, now)):
                claimed.append(row)
        if not claimed:
            return  # another process (or a move) got there first
        for row in others:
            nxt = deadlines.next_reminder(row.clock, user_id)
            if nxt is not None and nxt <= now + DIGEST_AHEAD:
                await self.service.save_clock(row, deadlines.mark_reminded(row.clock, user_id, now))
        claimed.sort(key=lambda r: r.clock["deadline"])
        name = next((s.name for s in claimed[0].seats if s.user_id == user_id), "")
        user = UserRef(platform, user_id, name)
        text = reminder_text(claimed[0], [*claimed[1:], *others], user, now, self.service.place)
        home = chat_of(claimed[0])
        replies = [Reply(text, kind="reminder", mention=[user], session_id=claimed[0].id)]
        if prefs.get("dm"):
            replies.append(Reply(text, kind="reminder", to=user, session_id=claimed[0].id))
        await self.service.notify(home, Plan(replies))
        metrics.REMINDERS_SENT.labels(platform).inc()
        report.reminders += [(user_id, r.id) for r in claimed]

    # ----- idle games -------------------------------------------------------------
    async def _end_idle(self, now: float, platforms: list[str], report: TickReport) -> None:
        default = deadlines.PACES[deadlines.DEFAULT_PACE].idle_days
        shortest = min(pace.idle_days for pace in deadlines.PACES.values())
        for row in await self.store.idle_sessions(now, default, platforms, shortest):
            replies = await self._guarded(row.id, self.service.end_idle(row.id))
            if replies:
                report.ended.append(row.id)
                metrics.IDLE_ENDED.labels(row.platform).inc()
                await self.service.notify(chat_of(row), replies)

    async def _guarded(self, session_id: int, work: Awaitable[Plan | None]) -> Plan:
        """A game the loop cannot serve now (store busy, a game removed, a bug) is looked
        at again one interval later; the other games are served regardless."""
        try:
            return await work or Plan()
        except UserError as exc:
            log.warning("timer could not serve session %s: %s", session_id, exc)
        except Exception:
            log.exception("timer failed on session %s", session_id)
        with contextlib.suppress(StoreError):
            await self.store.postpone_wake(session_id, self.service.now() + self.interval)
        return Plan()


def reminder_text(
    row: SessionRow, others: list[SessionRow], user: UserRef, now: float, place=None
) -> Text:
    """Escalating: a plain reminder, then a last one that says what the deadline will do.
    `place(chat, session_id)`: how the front end names another game's chat."""
    title = title_of(row.game)
    left = Span(deadlines.time_left(row.clock, now) or 0, left=True)
    last = (
        deadlines.is_last_reminder(row.clock, user.id) or len(row.clock.get("reminders", [])) <= 1
    )
    parts: list[Text] = []
    if others:
        games: list[Text] = [msg("{game} here ({left} left)", game=title, left=left)] + [
            msg(
                "{game} in {where} ({left} left)",
                game=title_of(r.game),
                where=place(chat_of(r), r.id) if place else f"#{r.id}",
                left=Span(deadlines.time_left(r.clock, now) or 0, left=True),
            )
            for r in others
        ]
        parts.append(
            plural(
                "{name}, your move in {count} game: {games}.",
                "{name}, your move in {count} games: {games}.",
                len(games),
                name=user.name,
                games=joined(games, "; "),
            )
        )
    elif last:
        parts.append(
            msg(
                "Last reminder: {name}, your move in {game} ({left} left).",
                name=user.name,
                game=title,
                left=left,
            )
        )
    else:
        parts.append(
            msg(
                "Reminder: {name}, your move in {game} ({left} left).",
                name=user.name,
                game=title,
                left=left,
            )
        )
    if last and not row.clock.get("reaction"):
        parts.append(
            {
                "skip": msg("At the deadline the bot plays the game's default move if it has one."),
                "ai": msg("At the deadline the computer plays your turn (act to take it back)."),
                "forfeit": msg("At the deadline you lose this game on time."),
            }.get(
                row.clock.get("timeout", "skip"),
                msg("At the deadline the others may vote to hand your seat to a stand-in."),
            )
        )
    parts.append(msg("({clock_mute}: no more this turn.)", clock_mute=command("clock", "mute")))
    return joined(parts, " ")
