"""/metrics as prometheus_client writes it: every family, name and type the bot exposed
before (the Grafana dashboard and the alerts in deploy/ read them; families added since
come after them), in the text Prometheus' own parser reads, with the values the bot
recorded."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

from bot.telemetry import metrics

# every family and its type, as /metrics wrote them before prometheus_client wrote them
FAMILIES_BEFORE = [
    ("process_virtual_memory_bytes", "gauge"),
    ("process_resident_memory_bytes", "gauge"),
    ("process_start_time_seconds", "gauge"),
    ("process_cpu_seconds_total", "counter"),
    ("process_open_fds", "gauge"),
    ("process_max_fds", "gauge"),
    ("python_gc_objects_collected_total", "counter"),
    ("python_gc_objects_uncollectable_total", "counter"),
    ("python_gc_collections_total", "counter"),
    ("escape_process_info", "gauge"),
    ("escape_moves_accepted_total", "counter"),
    ("escape_moves_refused_total", "counter"),
    ("escape_move_seconds", "histogram"),
    ("escape_picture_draw_seconds", "histogram"),
    ("escape_picture_encode_seconds", "histogram"),
    ("escape_ai_decision_seconds", "histogram"),
    ("escape_cpu_pool_queue_length", "gauge"),
    ("escape_cpu_pool_workers", "gauge"),
    ("escape_games", "gauge"),
    ("escape_timer_lag_seconds", "gauge"),
    ("escape_timer_last_scan_timestamp_seconds", "gauge"),
    ("escape_timer_scan_seconds", "histogram"),
    ("escape_timer_scan_seconds_created", "gauge"),
    ("escape_reminders_sent_total", "counter"),
    ("escape_deadlines_served_total", "counter"),
    ("escape_idle_games_ended_total", "counter"),
    ("escape_platform_calls_total", "counter"),
    ("escape_platform_retries_total", "counter"),
    ("escape_boards_owed", "gauge"),
    ("escape_posts_owed_total", "counter"),
    ("escape_owed_posts_given_up_total", "counter"),
    ("escape_platform_up", "gauge"),
    ("escape_gateway_latency_seconds", "gauge"),
    ("escape_store_transaction_seconds", "histogram"),
    ("escape_store_busy_retries_total", "counter"),
    ("escape_store_errors_total", "counter"),
    ("escape_event_loop_lag_seconds", "gauge"),
    ("escape_log_messages_total", "counter"),
]


def _families() -> dict:
    return {f.name: f for f in text_string_to_metric_families(metrics.exposition().decode())}


def test_every_family_and_type_of_before_is_written() -> None:
    text = metrics.exposition().decode()
    written = [tuple(line.split()[2:4]) for line in text.splitlines() if line.startswith("# TYPE")]

    # (a counter or histogram used with labels has its creation times too, as a gauge)
    def kept(families):
        return [f for f in families if not f[0].endswith("_created")]

    assert [f for f in kept(written) if f in FAMILIES_BEFORE] == kept(FAMILIES_BEFORE)


def test_the_content_type_is_the_text_format_every_prometheus_reads() -> None:
    assert metrics.CONTENT_TYPE == "text/plain; version=0.0.4; charset=utf-8"


def test_recorded_values_read_back_with_prometheus_own_parser() -> None:
    awkward = 'a "quoted" name \\ with a\nnew line, ünïcode and 山田'
    metrics.MOVES_ACCEPTED.labels("t_game", awkward).inc(2.5)
    for amount in (0.001, 0.02, 31.0):
        metrics.MOVE_SECONDS.labels("t_game", "t_platform").observe(amount)
    families = _families()
    moves = {
        s.labels["platform"]: s.value
        for s in families["escape_moves_accepted"].samples
        if s.name == "escape_moves_accepted_total" and s.labels["game"] == "t_game"
    }
    assert moves == {awkward: 2.5}
    buckets = {
        s.labels["le"]: s.value
        for s in families["escape_move_seconds"].samples
        if s.name == "escape_move_seconds_bucket" and s.labels["game"] == "t_game"
    }
    assert buckets["0.005"] == 1 and buckets["0.025"] == 2 and buckets["30.0"] == 2
    assert buckets["+Inf"] == 3


def test_the_process_and_gc_families_are_written() -> None:
    families = _families()
    [rss] = families["process_resident_memory_bytes"].samples
    assert rss.value > 10_000_000
    assert {s.labels["generation"] for s in families["python_gc_collections"].samples} == {
        "0",
        "1",
        "2",
    }
