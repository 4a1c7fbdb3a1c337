"""The metrics a played game moves (issue 27): moves accepted and refused with why, the
move and picture histograms, AI decisions, store transactions and errors, the timer loop's
lag and what it served, and the exposition as Prometheus' own parser reads it.

The registry is the process's, so each test reads differences from before it acted."""

from __future__ import annotations

import random

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.probes import describe_process
from bot.service import GameService, UserError
from bot.service.base import buttons as B
from bot.service.timer_loop import Timers
from bot.settings import Settings
from bot.store import Store, StoreError
from bot.telemetry import metrics
from tests.bot.conftest import ANN, BOB, CHAT, CY
from tests.bot.service.clock.test_timers import HOUR, T0, FakeClock
from tests.bot.service.tables.test_bots import play_as_human


def value(name: str, **labels: str) -> float:
    return metrics.REGISTRY.get_sample_value(name, labels) or 0.0


class Reading:
    """The samples named, read now; `.moved()` gives how much each changed since."""

    def __init__(self, *samples: tuple[str, dict[str, str]]) -> None:
        self.samples = samples
        self.before = [value(name, **labels) for name, labels in samples]

    def moved(self) -> list[float]:
        return [value(n, **lbl) - b for (n, lbl), b in zip(self.samples, self.before, strict=True)]


GAME = {"game": "ghosts18", "platform": "test"}


async def test_a_played_game_counts_its_moves_their_time_and_their_pictures(drawn):
    service = drawn
    reading = Reading(
        ("escape_moves_accepted_total", GAME),
        ("escape_move_seconds_count", GAME),
        ("escape_picture_draw_seconds_count", {"game": "ghosts18"}),
        ("escape_picture_encode_seconds_count", {"game": "ghosts18"}),
        ("escape_store_transaction_seconds_count", {"db": "sqlite"}),
    )
    await service.start(CHAT, ANN, "ghosts18", "variant=short")
    await service.join(CHAT, BOB)  # a full table begins: its first board is drawn
    users = {ANN.id: ANN, BOB.id: BOB}
    for _ in range(4):
        row = await service.live(CHAT)
        actor = users[row.seats[await _to_act(service)].user_id]
        action, _label = (await service.choices(CHAT, actor))[0]
        await service.move(CHAT, actor, action)
    accepted, timed, drawn_, encoded, transactions = reading.moved()
    assert accepted == 4 and timed == 4
    assert drawn_ == encoded == 5  # the first board and one a move
    assert transactions >= 6  # the start, the join, four moves
    assert value("escape_move_seconds_sum", **GAME) > 0


async def _to_act(service: GameService) -> int:
    row = await service.live(CHAT)
    loaded = service.table.load(row)
    return loaded.game.to_act(loaded.state)[0]


async def test_refused_moves_are_counted_with_their_reason(service):
    await service.start(CHAT, ANN, "ghosts18", "variant=short")
    [board] = await service.join(CHAT, BOB)
    refused = {
        reason: ("escape_moves_refused_total", {**GAME, "reason": reason})
        for reason in ("illegal", "not_a_player", "stale")
    }
    reading = Reading(*refused.values(), ("escape_moves_accepted_total", GAME))
    actor = board.mention[0]
    with pytest.raises(UserError):
        await service.move(CHAT, actor, "fly to the moon")
    with pytest.raises(UserError):
        await service.move(CHAT, CY, "anything")
    pressed = board.choices[0].data
    await service.press(CHAT, actor, pressed)  # accepted: the board moves on
    with pytest.raises(UserError, match="moved on"):
        await service.press(CHAT, actor, pressed)
    assert reading.moved() == [1, 1, 1, 1]

    nowhere = Reading(
        (
            "escape_moves_refused_total",
            {"game": "none", "platform": "test", "reason": "not_running"},
        )
    )
    elsewhere = CHAT.__class__(CHAT.platform, "another-chat", "", CHAT.scope)
    with pytest.raises(UserError, match="no game running"):
        await service.move(elsewhere, ANN, "c3 up")
    assert nowhere.moved() == [1]


async def test_a_bot_decision_is_timed_by_game_and_level(store):
    service = GameService(store, seed_source=lambda: 1234, pictures=False, ai_scale=0.02)
    reading = Reading(("escape_ai_decision_seconds_count", {"game": "ghosts18", "level": "easy"}))
    await service.start(CHAT, ANN, "ghosts18", "bots=1 level=easy variant=short")
    await play_as_human(service, ANN, random.Random(2))
    [decisions] = reading.moved()
    row = (await store.sessions_in_scope("test", "guild-1", ("finished",)))[0]
    bot_moves = [e for e in await store.log(row.id) if e.seat == 1]
    assert decisions == len(bot_moves) > 0


async def test_store_errors_count_failures_not_lost_races(tmp_path):
    store = await Store.open(tmp_path / "closed.sqlite3")
    errors = Reading(("escape_store_errors_total", {"db": "sqlite", "kind": "error"}))
    service = GameService(store, seed_source=lambda: 1234, pictures=False)
    await service.start(CHAT, ANN, "ghosts18")
    row = await store.live_session(CHAT.platform, CHAT.chat, "")
    with pytest.raises(StoreError):  # a stale version: the lost race is an answer
        await store.set_seats(row.id, row.version - 1, [])
    assert errors.moved() == [0]
    await store.close()
    with pytest.raises(StoreError, match="closed"):
        await store.ping()
    assert errors.moved() == [1]


async def test_the_timer_loop_reports_its_lag_and_what_it_served(tmp_path):
    clock = FakeClock(T0)
    store = await Store.open(tmp_path / "timers.sqlite3", clock=clock)
    try:
        service = GameService(store, seed_source=lambda: 1234, pictures=False, clock=clock)
        sent = []

        async def deliver(chat, replies):
            sent.extend(replies)

        service.add_notifier("test", deliver)
        timers = Timers(service, interval=3600)
        await service.start(CHAT, ANN, "ghosts18", "pace=fast")  # 10 minutes a turn
        await service.join(CHAT, BOB)
        row = await service.live(CHAT)
        reading = Reading(
            ("escape_reminders_sent_total", {"platform": "test"}),
            ("escape_deadlines_served_total", {"platform": "test"}),
            ("escape_timer_scan_seconds_count", {}),
        )
        clock.t = row.wake_at + 7  # the reminder at half time, seen 7 s late
        await timers.tick()
        assert value("escape_timer_lag_seconds") == pytest.approx(7)
        assert reading.moved() == [1, 0, 1]
        clock.t = T0 + HOUR  # long past the deadline: the default move is played
        await timers.tick()
        assert value("escape_timer_lag_seconds") > 0
        assert reading.moved()[1:] == [1, 2]
        assert value("escape_timer_last_scan_timestamp_seconds") > 0 and timers.last_scan
        await timers.tick()  # nothing is due any more
        assert value("escape_timer_lag_seconds") == 0
    finally:
        await store.close()


def test_the_exposition_parses_with_prometheus_own_parser():
    metrics.MOVES_ACCEPTED.labels("ghosts18", "test").inc(0)
    describe_process(Settings(discord_token="x", discord_shards="4", discord_shard_ids=[2, 3]))
    families = {f.name: f for f in text_string_to_metric_families(metrics.exposition().decode())}
    for name in (
        "escape_moves_accepted",
        "escape_move_seconds",
        "escape_store_errors",
        "escape_timer_lag_seconds",
        "escape_platform_calls",
        "escape_boards_owed",
        "escape_process_info",
        "process_resident_memory_bytes",
    ):
        assert name in families, name
    assert families["escape_move_seconds"].type == "histogram"
    assert families["escape_moves_accepted"].type == "counter"
    [info] = families["escape_process_info"].samples
    assert info.labels["role"] == "discord-shards-2,3-of-4" and info.value == 1


async def test_switched_off_metrics_record_nothing(service):
    reading = Reading(("escape_moves_accepted_total", GAME))
    with metrics.switched_off():
        await service.start(CHAT, ANN, "ghosts18", "variant=short")
        [board] = await service.join(CHAT, BOB)
        await service.press(CHAT, board.mention[0], board.choices[0].data)
    assert reading.moved() == [0]
    assert isinstance(metrics.MOVES_ACCEPTED, type(metrics.MOVES_REFUSED))  # all back
    assert isinstance(B.parse(board.choices[0].data), B.Act)
