"""One bot on many processes and "machines" (issue 58): real `escape-bot run` processes, each
in a working directory of its own, on one real PostgreSQL, against stand-ins that enforce
the platforms' limits per bot token and per chat and count every breach."""

from __future__ import annotations

import contextlib
import itertools
from pathlib import Path

from tests.e2e.discord_standin import DiscordStandIn
from tests.e2e.flood import run_flood
from tests.e2e.telegram_fixtures import escape_bot_run, stop_escape_bot, tg_local_only  # noqa: F401
from tests.polling import until

IDENTIFY_EVERY = 5.0  # Discord: one IDENTIFY per max_concurrency bucket in 5 seconds


async def test_four_shard_processes_started_at_once_identify_apart(
    tmp_path: Path,
    postgres_server,
    tg_local_only,  # noqa: F811
):
    """Four processes of one bot, one shard each, started together (a deploy, a host's
    reboot): Discord's max_concurrency is 2, so shards 0 and 2 share a bucket, 1 and 3 the
    other; no two IDENTIFYs of one bucket come within 5 seconds."""
    standin = DiscordStandIn()
    await standin.start()
    standin.max_concurrency = 2
    db = await postgres_server.new_schema()
    processes = []
    try:
        for shard in range(4):
            workdir = tmp_path / f"machine-{shard}"
            workdir.mkdir()
            settings = {
                "ESCAPE_DB": db,
                "DISCORD_TOKEN": "standin-token",
                "DISCORD_API_BASE": standin.api_base,
                "DISCORD_GATEWAY": standin.gateway_url,
                "ESCAPE_SHARDS": "4",
                "ESCAPE_SHARD_IDS": str(shard),
                "ESCAPE_CPU_LAYOUT": "shared",  # processes sharing a machine, as at scale
            }
            processes.append(await escape_bot_run(workdir, settings))
        await until(lambda: len(standin.identified_at) >= 4, timeout=90)
        by_bucket: dict[int, list[float]] = {}
        for at, shard, count in standin.identified_at:
            assert count == 4
            by_bucket.setdefault(shard % standin.max_concurrency, []).append(at)
        assert sorted(len(times) for times in by_bucket.values()) == [2, 2]
        for times in by_bucket.values():
            times.sort()
            gaps = [b - a for a, b in itertools.pairwise(times)]
            assert all(gap >= IDENTIFY_EVERY for gap in gaps), gaps
        assert sorted(shard for _, shard, _ in standin.identified_at) == [0, 1, 2, 3]
    finally:
        outputs = []
        for process in processes:
            with contextlib.suppress(Exception):
                outputs.append(await stop_escape_bot(process))
        await standin.stop()
    for output in outputs:
        assert "Traceback" not in output, output


# Rates lowered from the platforms' figures by the settings, so that a flood of seconds
# meets every limit; each stand-in enforces the same. (bench/flood.py runs a minute at the
# published figures.)
TG_RATES = {
    "TELEGRAM_RATE_GLOBAL": "15/1",
    "TELEGRAM_RATE_GROUP": "8/10",
    "TELEGRAM_RATE_CHAT": "1/1",
}
DC_RATE = "10/1"
FLOOD = 10.0  # seconds


async def test_a_flood_over_two_telegram_workers_and_two_discord_shards(
    tmp_path: Path,
    postgres_server,
    tg_local_only,  # noqa: F811
):
    """Two Telegram webhook workers and two Discord shard processes on one PostgreSQL, each
    in its own working directory; users flood one group hard and five others, and four
    Discord channels on two shards, with presses and commands; a Telegram worker is killed
    with kill -9 in the middle and started again (tests/e2e/flood.py). The stand-ins count
    no breach of the limits; every acknowledged update is run once, in its chat's order;
    every press is answered once; each game shows one board, the latest; no move is lost."""
    flood = await run_flood(tmp_path, await postgres_server.new_schema(), FLOOD, TG_RATES, DC_RATE)
    assert flood.breaches == [], (flood.breaches[:5], flood.notable)
    assert flood.problems == [], (flood.problems[:10], flood.notable)
    assert flood.presses > 50 and flood.interactions > 50 and flood.moves > 20, flood
