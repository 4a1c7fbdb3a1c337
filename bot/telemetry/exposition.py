"""Prometheus metrics and their text exposition (format 0.0.4), written here.

The bot used prometheus_client for this. Importing it took 43-50 ms of a start-up of
0.4-0.5 s (measured here), most of it modules for serving and pushing metrics that the bot
does not use (http.server, email, wsgiref, urllib, platform): /metrics is served by
bot/probes.py. What the bot needs is small: counters, gauges, histograms and one info
metric, with labels; the process's CPU, memory and file descriptors; the garbage
collector's counts. The text is the one prometheus_client writes for the same metrics
(tests/bot/telemetry/test_exposition.py holds the two side by side and reads ours with Prometheus'
own parser), so Prometheus, the dashboards and the alerts see the same series.
"""

from __future__ import annotations

import gc
import math
import os
import threading
import time
from collections.abc import Iterable, Iterator
from typing import NamedTuple

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
INF = float("inf")


class Sample(NamedTuple):
    name: str
    labels: dict[str, str]
    value: float


class Family(NamedTuple):
    """One metric as Prometheus sees it: its name, help, type and samples."""

    name: str
    documentation: str
    type: str
    samples: list[Sample]


class Registry:
    """What a process exposes: each registered collector's families, in order."""

    def __init__(self) -> None:
        self._collectors: list = []

    def register(self, collector) -> None:
        self._collectors.append(collector)

    def collect(self) -> Iterator[Family]:
        for collector in self._collectors:
            yield from collector.collect()

    def get_sample_value(self, name: str, labels: dict[str, str] | None = None) -> float | None:
        """A sample's value now, or None if there is no such sample (for tests)."""
        wanted = labels or {}
        for family in self.collect():
            for sample in family.samples:
                if sample.name == name and sample.labels == wanted:
                    return sample.value
        return None

    def text(self) -> bytes:
        return "".join(_family_text(family) for family in self.collect()).encode()


# ----- the metrics ------------------------------------------------------------------------
class _Metric:
    """A named metric and its children, one for each set of label values used so far (the
    one child of a metric without labels exists from the start)."""

    kind = ""

    def __init__(
        self,
        name: str,
        documentation: str,
        labelnames: Iterable[str] = (),
        registry: Registry | None = None,
    ) -> None:
        self.name = name
        self.documentation = documentation
        self._labelnames = tuple(labelnames)
        self._lock = threading.Lock()
        self._children: dict[tuple[str, ...], _Child] = {}
        if not self._labelnames:
            self._children[()] = self._child()
        if registry is not None:
            registry.register(self)

    def _child(self) -> _Child:
        raise NotImplementedError

    def labels(self, *values: object, **named: object):
        if named:
            values = tuple(named[label] for label in self._labelnames)
        if len(values) != len(self._labelnames):
            raise ValueError(f"{self.name} takes the labels {self._labelnames}")
        key = tuple(str(value) for value in values)
        with self._lock:
            child = self._children.get(key)
            if child is None:
                child = self._children[key] = self._child()
        return child

    def clear(self) -> None:
        """Forget every labelled child (a gauge whose label values have gone)."""
        with self._lock:
            self._children.clear()

    def collect(self) -> Iterator[Family]:
        with self._lock:
            children = list(self._children.items())
        samples = []
        for values, child in children:
            samples += child.samples(self.name, dict(zip(self._labelnames, values, strict=True)))
        yield Family(self.name, self.documentation, self.kind, samples)

    def _only(self):
        if self._labelnames:
            raise ValueError(f"{self.name} is counted by its labels: use .labels(...)")
        return self._children[()]


class _Child:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.created = time.time()

    def samples(self, name: str, labels: dict[str, str]) -> list[Sample]:
        raise NotImplementedError


class _Count(_Child):
    def __init__(self) -> None:
        super().__init__()
        self.value = 0.0

    def inc(self, amount: float = 1) -> None:
        if amount < 0:
            raise ValueError("a counter only goes up")
        with self._lock:
            self.value += amount

    def samples(self, name: str, labels: dict[str, str]) -> list[Sample]:
        return [
            Sample(f"{name}_total", labels, self.value),
            Sample(f"{name}_created", labels, self.created),
        ]


class Counter(_Metric):
    kind = "counter"
    _child = _Count

    def inc(self, amount: float = 1) -> None:
        self._only().inc(amount)


class _Level(_Child):
    def __init__(self) -> None:
        super().__init__()
        self.value = 0.0

    def inc(self, amount: float = 1) -> None:
        with self._lock:
            self.value += amount

    def dec(self, amount: float = 1) -> None:
        with self._lock:
            self.value -= amount

    def set(self, value: float) -> None:
        self.value = float(value)

    def set_to_current_time(self) -> None:
        self.value = time.time()

    def samples(self, name: str, labels: dict[str, str]) -> list[Sample]:
        return [Sample(name, labels, self.value)]


class Gauge(_Metric):
    kind = "gauge"
    _child = _Level

    def inc(self, amount: float = 1) -> None:
        self._only().inc(amount)

    def dec(self, amount: float = 1) -> None:
        self._only().dec(amount)

    def set(self, value: float) -> None:
        self._only().set(value)

    def set_to_current_time(self) -> None:
        self._only().set_to_current_time()


class _Spread(_Child):
    def __init__(self, bounds: tuple[float, ...]) -> None:
        super().__init__()
        self.bounds = bounds
        self.counts = [0.0] * len(bounds)
        self.sum = 0.0

    def observe(self, amount: float) -> None:
        with self._lock:
            self.sum += amount
            for i, bound in enumerate(self.bounds):
                if amount <= bound:
                    self.counts[i] += 1
                    break

    def samples(self, name: str, labels: dict[str, str]) -> list[Sample]:
        with self._lock:
            counts, total = list(self.counts), self.sum
        out, seen = [], 0.0
        for bound, count in zip(self.bounds, counts, strict=True):
            seen += count
            out.append(Sample(f"{name}_bucket", {**labels, "le": _number(bound)}, seen))
        out += [Sample(f"{name}_count", labels, seen), Sample(f"{name}_sum", labels, total)]
        return [*out, Sample(f"{name}_created", labels, self.created)]


class Histogram(_Metric):
    kind = "histogram"

    def __init__(
        self,
        name: str,
        documentation: str,
        labelnames: Iterable[str] = (),
        buckets: Iterable[float] = (),
        registry: Registry | None = None,
    ) -> None:
        bounds = sorted(float(b) for b in buckets)
        if not bounds or bounds[-1] != INF:
            bounds.append(INF)
        self._bounds = tuple(bounds)
        super().__init__(name, documentation, labelnames, registry)

    def _child(self) -> _Spread:
        return _Spread(self._bounds)

    def observe(self, amount: float) -> None:
        self._only().observe(amount)


class Info(_Metric):
    """Constant facts about the process, as the labels of one sample of value 1."""

    kind = "info"

    def __init__(self, name: str, documentation: str, registry: Registry | None = None) -> None:
        self._facts: dict[str, str] = {}
        super().__init__(name, documentation, (), registry)

    def _child(self) -> _Child:
        return _Child()

    def info(self, facts: dict[str, str]) -> None:
        self._facts = {str(k): str(v) for k, v in facts.items()}

    def collect(self) -> Iterator[Family]:
        yield Family(
            self.name,
            self.documentation,
            "info",
            [Sample(f"{self.name}_info", dict(self._facts), 1.0)],
        )


# ----- the process and its garbage collector ---------------------------------------------
class ProcessCollector:
    """CPU seconds, memory, start time and file descriptors from /proc (Linux); nothing
    where there is no /proc."""

    def __init__(self, registry: Registry | None = None) -> None:
        self._ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        self._page = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
        self._boot = _boot_time()
        if registry is not None:
            registry.register(self)

    def collect(self) -> Iterator[Family]:
        if self._boot is None:
            return
        try:
            with open("/proc/self/stat", "rb") as f:
                stat = f.read().decode()
            fields = stat[stat.rfind(")") + 2 :].split()
            open_fds = len(os.listdir("/proc/self/fd"))
        except OSError:
            return
        started = float(fields[19]) / self._ticks + self._boot
        gauges = [
            ("process_virtual_memory_bytes", "Virtual memory size in bytes.", float(fields[20])),
            (
                "process_resident_memory_bytes",
                "Resident memory size in bytes.",
                float(fields[21]) * self._page,
            ),
            (
                "process_start_time_seconds",
                "Start time of the process since unix epoch in seconds.",
                started,
            ),
        ]
        for name, doc, value in gauges:
            yield Family(name, doc, "gauge", [Sample(name, {}, value)])
        cpu = (float(fields[11]) + float(fields[12])) / self._ticks
        yield Family(
            "process_cpu_seconds",
            "Total user and system CPU time spent in seconds.",
            "counter",
            [Sample("process_cpu_seconds_total", {}, cpu)],
        )
        yield Family(
            "process_open_fds",
            "Number of open file descriptors.",
            "gauge",
            [Sample("process_open_fds", {}, float(open_fds))],
        )
        most = _max_fds()
        if most is not None:
            yield Family(
                "process_max_fds",
                "Maximum number of open file descriptors.",
                "gauge",
                [Sample("process_max_fds", {}, most)],
            )


def _boot_time() -> float | None:
    try:
        with open("/proc/stat", "rb") as f:
            for line in f:
                if line.startswith(b"btime "):
                    return float(line.split()[1])
    except OSError:
        return None
    return None


def _max_fds() -> float | None:
    try:
        with open("/proc/self/limits", "rb") as f:
            for line in f:
                if line.startswith(b"Max open files"):
                    return float(line.split()[3])
    except (OSError, ValueError, IndexError):
        return None
    return None


_GC_FAMILIES = (
    ("collected", "python_gc_objects_collected", "Objects collected during gc"),
    ("uncollectable", "python_gc_objects_uncollectable", "Uncollectable objects found during GC"),
    ("collections", "python_gc_collections", "Number of times this generation was collected"),
)


class GcCollector:
    """Python's garbage collector: objects collected and uncollectable, and collections,
    by generation."""

    def collect(self) -> Iterator[Family]:
        stats = gc.get_stats()
        for key, name, doc in _GC_FAMILIES:
            samples = [
                Sample(f"{name}_total", {"generation": str(generation)}, float(stat[key]))
                for generation, stat in enumerate(stats)
            ]
            yield Family(name, doc, "counter", samples)


# ----- the text ---------------------------------------------------------------------------
def _number(value: float) -> str:
    """A float as Prometheus' Go code writes it (an exponent past a million)."""
    value = float(value)
    if value == INF:
        return "+Inf"
    if value == -INF:
        return "-Inf"
    if math.isnan(value):
        return "NaN"
    text = repr(value)
    dot = text.find(".")
    if value > 0 and dot > 6:
        mantissa = f"{text[0]}.{text[1:dot]}{text[dot + 1 :]}".rstrip("0.")
        return f"{mantissa}e+0{dot - 1}"
    return text


def _help(text: str) -> str:
    return text.replace("\\", r"\\").replace("\n", r"\n")


def _line(sample: Sample) -> str:
    labels = ""
    if sample.labels:
        pairs = ",".join(
            '{}="{}"'.format(k, v.replace("\\", r"\\").replace("\n", r"\n").replace('"', r"\""))
            for k, v in sample.labels.items()
        )
        labels = "{" + pairs + "}"
    return f"{sample.name}{labels} {_number(sample.value)}\n"


def _family_text(family: Family) -> str:
    name, kind = family.name, family.type
    if kind == "counter":
        name = f"{family.name}_total"
    elif kind == "info":
        name, kind = f"{family.name}_info", "gauge"
    out = [f"# HELP {name} {_help(family.documentation)}\n", f"# TYPE {name} {kind}\n"]
    created = []
    for sample in family.samples:
        if sample.name == f"{family.name}_created":
            created.append(_line(sample))
        else:
            out.append(_line(sample))
    if created:  # as prometheus_client writes them: a gauge of their own after the family
        out.append(f"# HELP {family.name}_created {_help(family.documentation)}\n")
        out.append(f"# TYPE {family.name}_created gauge\n")
        out += created
    return "".join(out)
