"""Every Prometheus metric the bot exposes, defined once (docs/operations.md), with
prometheus_client.

The code that knows a fact records it here (`MOVES_ACCEPTED.labels(game, platform).inc()`);
`/metrics` (bot/probes.py) writes them out. One process, one registry of its own: with
several processes (Discord shards, Telegram webhook workers) each exposes its own numbers
and Prometheus scrapes each (`escape_process_info` names its role). Pictures and AI
decisions run in worker processes but are timed in this one (the workers return their
timings, or the pool call is timed), so no multiprocess mode is needed.

This module imports nothing of the project: every layer may use it.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

from prometheus_client import (
    GC_COLLECTOR,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Info,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4

# what /metrics sends: the text format every Prometheus reads (its names are all ASCII)
CONTENT_TYPE = CONTENT_TYPE_PLAIN_0_0_4

REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)  # process_cpu_seconds_total, process_resident_memory_bytes
REGISTRY.register(GC_COLLECTOR)

# seconds: a move answered at once, a picture, a move that waits on bots or a busy store
FAST = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
THINKING = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0, 60.0)

# ----- the process ------------------------------------------------------------------------
PROCESS = Info(
    "escape_process",
    "This process: its role (platforms, Discord shards, Telegram mode) and version.",
    registry=REGISTRY,
)

# ----- moves ------------------------------------------------------------------------------
MOVES_ACCEPTED = Counter(
    "escape_moves_accepted",
    "Moves stored, typed or pressed, by game and platform.",
    ["game", "platform"],
    registry=REGISTRY,
)
MOVES_REFUSED = Counter(
    "escape_moves_refused",
    "Moves refused, by game, platform and reason: illegal (the rules), stale (an old "
    "board's button), not_a_player, not_running (no game, or it ended), race (someone "
    "else moved first, twice), store (the store was busy or damaged).",
    ["game", "platform", "reason"],
    registry=REGISTRY,
)
MOVE_SECONDS = Histogram(
    "escape_move_seconds",
    "Service time of an accepted move: check, bot replies, store, picture, until the plan "
    "is ready to deliver (the platform's own time is not in it).",
    ["game", "platform"],
    buckets=FAST,
    registry=REGISTRY,
)

# ----- pictures and computer players ------------------------------------------------------
PICTURE_DRAW_SECONDS = Histogram(
    "escape_picture_draw_seconds",
    "Drawing a board picture from a view, in a worker process, by game.",
    ["game"],
    buckets=FAST,
    registry=REGISTRY,
)
PICTURE_ENCODE_SECONDS = Histogram(
    "escape_picture_encode_seconds",
    "Encoding a board picture as PNG, in a worker process, by game.",
    ["game"],
    buckets=FAST,
    registry=REGISTRY,
)
AI_DECISION_SECONDS = Histogram(
    "escape_ai_decision_seconds",
    "A computer player's decision, from asking the worker pool to its answer, by game and level.",
    ["game", "level"],
    buckets=THINKING,
    registry=REGISTRY,
)
CPU_POOL_QUEUE = Gauge(
    "escape_cpu_pool_queue_length",
    "Jobs (pictures, AI decisions) waiting for a free worker process, read at scrape time.",
    registry=REGISTRY,
)
CPU_POOL_WORKERS = Gauge(
    "escape_cpu_pool_workers",
    "Worker processes drawing pictures and thinking for bots (0: a thread in this process).",
    registry=REGISTRY,
)

# ----- games ------------------------------------------------------------------------------
GAMES = Gauge(
    "escape_games",
    "Games in the store by platform and status (lobby, active, finished, aborted): one "
    "grouped count at scrape time, kept a few seconds. Every process sees the same store.",
    ["platform", "status"],
    registry=REGISTRY,
)

# ----- the timer loop ---------------------------------------------------------------------
TIMER_LAG = Gauge(
    "escape_timer_lag_seconds",
    "How far the timer loop was behind at its last scan: now less the oldest reminder or "
    "deadline time it found due (0 when nothing was overdue).",
    registry=REGISTRY,
)
TIMER_LAST_SCAN = Gauge(
    "escape_timer_last_scan_timestamp_seconds",
    "When the timer loop last finished a scan (Unix time).",
    registry=REGISTRY,
)
TIMER_SCAN_SECONDS = Histogram(
    "escape_timer_scan_seconds",
    "One scan of the timer loop: reminders, deadlines and idle games served.",
    buckets=FAST,
    registry=REGISTRY,
)
REMINDERS_SENT = Counter(
    "escape_reminders_sent",
    "Reminders sent (one message may remind a player of several games).",
    ["platform"],
    registry=REGISTRY,
)
DEADLINES_SERVED = Counter(
    "escape_deadlines_served",
    "Turn deadlines served: a default move played, a vote opened, the AI playing for a late player.",
    ["platform"],
    registry=REGISTRY,
)
IDLE_ENDED = Counter(
    "escape_idle_games_ended",
    "Games ended for having no player action for their idle limit.",
    ["platform"],
    registry=REGISTRY,
)

# ----- the chat platforms -----------------------------------------------------------------
PLATFORM_CALLS = Counter(
    "escape_platform_calls",
    "Calls to a platform's API by result: ok, rate_limited (429), failed (any other "
    "refusal or a network error). Telegram's long poll is not counted.",
    ["platform", "result"],
    registry=REGISTRY,
)
PLATFORM_RETRIES = Counter(
    "escape_platform_retries",
    "Calls sent again after a refusal for now (Telegram: each try after a 429; Discord: "
    "the bot's rounds after discord.py's own five tries, which show as rate_limited calls).",
    ["platform"],
    registry=REGISTRY,
)
BOARDS_OWED = Gauge(
    "escape_boards_owed",
    "Boards and notices owed to chats now: refused for a passing reason, to be posted later.",
    ["platform"],
    registry=REGISTRY,
)
POSTS_OWED = Counter(
    "escape_posts_owed",
    "Posts that became owed (a platform refused them for now).",
    ["platform"],
    registry=REGISTRY,
)
OWED_GIVEN_UP = Counter(
    "escape_owed_posts_given_up",
    "Owed posts given up after every retry (the chat still sees the next board).",
    ["platform"],
    registry=REGISTRY,
)
RATE_WAIT_SECONDS = Histogram(
    "escape_rate_wait_seconds",
    "How long a call to a platform waited for its turn under the limits every process of "
    "the bot shares (per token, chat and group; Discord's route buckets), by platform.",
    ["platform"],
    buckets=(0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0),
    registry=REGISTRY,
)
RATE_LIMITED = Counter(
    "escape_rate_limited",
    "Answers 429 from a platform, by platform and scope (chat, global, route): each is "
    "waited out by every process of the bot and the call tried again.",
    ["platform", "scope"],
    registry=REGISTRY,
)
NOTICES_DROPPED = Counter(
    "escape_notices_dropped",
    "Notices not posted because their chat could not take them within the wait a notice "
    "is given (a flood of commands in one group); boards are never dropped.",
    ["platform"],
    registry=REGISTRY,
)
UPDATES_RECEIVED = Counter(
    "escape_updates_received",
    "Platform updates stored before they were acknowledged: new, or repeated (a retry of "
    "an update id already stored, dropped).",
    ["platform", "kind"],
    registry=REGISTRY,
)
UPDATES_TAKEN_OVER = Counter(
    "escape_updates_taken_over",
    "Updates taken over from a process whose lease ran out (it died or stalled mid-update).",
    ["platform"],
    registry=REGISTRY,
)
UPDATES_WAITING = Gauge(
    "escape_updates_waiting",
    "Updates stored and not yet finished by any process (read every third of a lease).",
    ["platform"],
    registry=REGISTRY,
)
PLATFORM_UP = Gauge(
    "escape_platform_up",
    "1 while a platform connection of this process is up (Discord: each shard's gateway; "
    "Telegram: its updater and last poll), read at scrape time.",
    ["platform", "shard"],
    registry=REGISTRY,
)
GATEWAY_LATENCY = Gauge(
    "escape_gateway_latency_seconds",
    "Discord's gateway latency (heartbeat to acknowledgement) per shard, read at scrape time.",
    ["platform", "shard"],
    registry=REGISTRY,
)

# ----- the store --------------------------------------------------------------------------
STORE_TRANSACTION_SECONDS = Histogram(
    "escape_store_transaction_seconds",
    "A write transaction, from its first try to its commit (busy retries included).",
    ["db"],
    buckets=FAST,
    registry=REGISTRY,
)
STORE_BUSY_RETRIES = Counter(
    "escape_store_busy_retries",
    "Write transactions tried again because the database was busy, locked or deadlocked.",
    ["db"],
    registry=REGISTRY,
)
STORE_ERRORS = Counter(
    "escape_store_errors",
    "Store failures by kind: busy (still busy after the retries), damaged (a corrupt "
    "file), error (anything else: full, unreachable, closed). A lost race is not one.",
    ["db", "kind"],
    registry=REGISTRY,
)

# ----- the event loop ---------------------------------------------------------------------
LOOP_LAG = Gauge(
    "escape_event_loop_lag_seconds",
    "How late the event loop woke a half-second sleep, at the last check: a blocked loop "
    "delays every chat this process serves (/healthz fails past its bound).",
    registry=REGISTRY,
)

# ----- logs -------------------------------------------------------------------------------
LOG_MESSAGES = Counter(
    "escape_log_messages",
    "Log lines of level WARNING and above, by level and logger: the errors a process met.",
    ["level", "logger"],
    registry=REGISTRY,
)


def exposition() -> bytes:
    """The registry in Prometheus' text format."""
    return generate_latest(REGISTRY)


@contextlib.contextmanager
def switched_off() -> Iterator[None]:
    """Every metric of this module replaced by one that records nothing, for the span of
    the block: what bench/ uses to measure what recording costs a move. Call sites read
    the module's attributes at each use, so they record nothing meanwhile."""
    module = sys.modules[__name__]
    real = {
        name: value
        for name, value in vars(module).items()
        if isinstance(value, Counter | Gauge | Histogram)
    }
    try:
        for name in real:
            setattr(module, name, _NOTHING)
        yield
    finally:
        for name, value in real.items():
            setattr(module, name, value)


class _Nothing:
    """A metric that takes labels and values and keeps none."""

    def labels(self, *_args, **_kwargs) -> _Nothing:
        return self

    def inc(self, *_args) -> None: ...
    def dec(self, *_args) -> None: ...
    def set(self, *_args) -> None: ...
    def observe(self, *_args) -> None: ...
    def clear(self) -> None: ...
    def set_to_current_time(self) -> None: ...


_NOTHING = _Nothing()
