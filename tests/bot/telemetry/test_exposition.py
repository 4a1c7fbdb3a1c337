"""bot/telemetry/exposition.py against prometheus_client, which the bot used before: the same
metrics, the same operations, the same text (but for the creation times), and Prometheus'
own parser reads ours back."""

from __future__ import annotations

import gc
import threading

import prometheus_client as pc
import pytest
from prometheus_client.exposition import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from bot.telemetry import exposition as ours
from bot.telemetry import metrics

BUCKETS = (0.005, 0.01, 0.025, 0.5, 1.0, 2.5, 10.0, 30.0)
AWKWARD = 'a "quoted" name \\ with a\nnew line, ünïcode and 山田'


def _both(lib) -> tuple:
    """The same metrics made with either library, in a registry of their own."""
    registry = lib.CollectorRegistry() if lib is pc else ours.Registry()
    made = (
        lib.Counter(
            "t_moves", "Moves.\nSecond line \\ here.", ["game", "platform"], registry=registry
        ),
        lib.Counter("t_plain", "No labels.", registry=registry),
        lib.Gauge("t_queue", "A level.", registry=registry),
        lib.Gauge("t_up", "Per shard.", ["platform", "shard"], registry=registry),
        lib.Histogram("t_seconds", "Times.", ["game"], buckets=BUCKETS, registry=registry),
        lib.Histogram("t_scan", "One.", buckets=BUCKETS, registry=registry),
        lib.Info("t_process", "Facts.", registry=registry),
    )
    return registry, made


def _play(made) -> None:
    moves, plain, queue, up, seconds, scan, info = made
    moves.labels("ghosts18", "discord").inc()
    moves.labels("ghosts18", "discord").inc(2.5)
    moves.labels(game=AWKWARD, platform="telegram").inc(0)
    plain.inc()
    queue.set(7)
    queue.inc(3)
    queue.dec(1.5)
    up.labels("discord", "0").set(1)
    up.labels("discord", "1").set(0)
    up.labels("telegram", "-").set(12345678.9)
    up.clear()
    up.labels("discord", "2").set(1)
    for amount in (0.001, 0.005, 0.0050001, 0.01, 0.7, 1.0, 29.9, 30.0, 31.0, 1e9):
        seconds.labels("ghosts18").observe(amount)
    seconds.labels("dark_castle").observe(0.02)
    scan.observe(0.3)
    info.info({"role": "discord-shards-2,3-of-4", "version": AWKWARD})


def _without_created(text: str) -> list[str]:
    lines = text.splitlines()
    return [line for line in lines if "_created" not in line]


def test_the_same_text_as_prometheus_client_but_the_creation_times() -> None:
    theirs, made = _both(pc)
    _play(made)
    mine, made = _both(ours)
    _play(made)
    assert _without_created(mine.text().decode()) == _without_created(
        generate_latest(theirs).decode()
    )


def test_creation_times_come_where_prometheus_client_puts_them() -> None:
    theirs, made = _both(pc)
    _play(made)
    mine, made = _both(ours)
    _play(made)
    created = [
        line.split(" ")[0].split("{")[0]
        for line in generate_latest(theirs).decode().splitlines()
        if "_created" in line
    ]
    assert created == [
        line.split(" ")[0].split("{")[0]
        for line in mine.text().decode().splitlines()
        if "_created" in line
    ]


def test_prometheus_parser_reads_ours_back() -> None:
    mine, made = _both(ours)
    _play(made)
    families = {f.name: f for f in text_string_to_metric_families(mine.text().decode())}
    assert families["t_moves"].type == "counter"
    values = {
        tuple(sorted(s.labels.items())): s.value
        for s in families["t_moves"].samples
        if s.name == "t_moves_total"
    }
    assert values[(("game", "ghosts18"), ("platform", "discord"))] == 3.5
    assert values[(("game", AWKWARD), ("platform", "telegram"))] == 0
    buckets = {
        s.labels["le"]: s.value
        for s in families["t_seconds"].samples
        if s.name == "t_seconds_bucket" and s.labels["game"] == "ghosts18"
    }
    assert buckets == {
        "0.005": 2,
        "0.01": 4,
        "0.025": 4,
        "0.5": 4,
        "1.0": 6,
        "2.5": 6,
        "10.0": 6,
        "30.0": 8,
        "+Inf": 10,
    }
    [info] = families["t_process_info"].samples
    assert info.labels["version"] == AWKWARD
    assert {s.labels["shard"] for s in families["t_up"].samples} == {"2"}  # cleared, then one


def test_the_process_and_gc_families_are_prometheus_clients() -> None:
    theirs = pc.CollectorRegistry()
    pc.ProcessCollector(registry=theirs)
    theirs.register(pc.GC_COLLECTOR)
    mine = ours.Registry()
    ours.ProcessCollector(registry=mine)
    mine.register(ours.GcCollector())
    gc.collect()
    shape = [
        (f.name, f.type, f.documentation, [s.name for s in f.samples]) for f in theirs.collect()
    ]
    assert shape == [
        (f.name, f.type, f.documentation, [s.name for s in f.samples]) for f in mine.collect()
    ]
    cpu = mine.get_sample_value("process_cpu_seconds_total")
    rss = mine.get_sample_value("process_resident_memory_bytes")
    assert cpu == pytest.approx(theirs.get_sample_value("process_cpu_seconds_total"), abs=0.5)
    assert rss == pytest.approx(theirs.get_sample_value("process_resident_memory_bytes"), rel=0.2)


def test_wrong_use_is_refused() -> None:
    _registry, (moves, plain, *_rest) = _both(ours)
    with pytest.raises(ValueError):
        plain.inc(-1)
    with pytest.raises(ValueError):
        moves.labels("only one")
    with pytest.raises(ValueError, match="labels"):
        moves.inc()


def test_counts_from_many_threads_are_all_kept() -> None:
    counter = ours.Counter("t_threads", "Threads.", ["n"])
    child = counter.labels("1")

    def add() -> None:
        for _ in range(20_000):
            child.inc()

    threads = [threading.Thread(target=add) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    [family] = counter.collect()
    assert family.samples[0].value == 80_000


def test_the_bot_exposes_its_metrics_in_this_format() -> None:
    assert metrics.CONTENT_TYPE == "text/plain; version=0.0.4; charset=utf-8"
    text = metrics.exposition().decode()
    assert "# TYPE escape_moves_accepted_total counter" in text
    assert "# TYPE process_resident_memory_bytes gauge" in text
