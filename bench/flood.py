"""`python -m bench.flood`: a minute's flood over one bot's processes at the platforms'
published rates (issue 58).

Two Telegram webhook workers and two Discord shard processes (real `escape-bot run`
processes in working directories of their own) on one PostgreSQL, against stand-ins that
enforce Telegram's 30 messages a second, 20 a minute in a group and one a second in a chat,
and Discord's 50 requests a second and its route buckets, counting every breach; users
flood one group hard and five others, and four Discord channels, for `--seconds`; Telegram
worker 0 is killed with kill -9 a third of the way in and started again
(tests/e2e/flood.py, which the suite runs for 20 seconds at lowered rates). Prints what
happened and what went wrong. PostgreSQL is a throwaway server started here from the
Debian package (as the tests do), or `--postgresql URL` (an empty schema).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from tests.e2e.flood import PUBLISHED, run_flood


async def _run(seconds: float, url: str | None) -> None:
    server = None
    if url is None:
        from tests.postgres import PostgresServer

        server = PostgresServer().start()
        url = await server.new_schema()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            started = time.monotonic()
            flood = await run_flood(
                Path(tmp), url, seconds, PUBLISHED, PUBLISHED["DISCORD_RATE_GLOBAL"]
            )
            took = time.monotonic() - started
    finally:
        if server is not None:
            server.stop()
    print(f"flood of {seconds:.0f} s at the published rates ({took:.0f} s in all)")
    print(f"  telegram updates acknowledged: {flood.acknowledged} ({flood.presses} presses)")
    print(f"  discord interactions: {flood.interactions}")
    print(f"  calls: telegram {flood.telegram_calls}, discord {flood.discord_calls}")
    print(f"  moves in the games' logs: {flood.moves}")
    print(f"  updates taken over after the kill: {flood.taken_over}")
    print(f"  webhook posts a dead worker did not take: {flood.posts_refused}")
    print(f"  breaches counted by the stand-ins: {len(flood.breaches)}")
    for line in flood.breaches[:10]:
        print(f"    {line}")
    print(f"  problems: {len(flood.problems)}")
    for line in flood.problems[:10]:
        print(f"    {line}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.flood", description=__doc__)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--postgresql", help="an existing server's URL (an empty database)")
    args = parser.parse_args()
    asyncio.run(_run(args.seconds, args.postgresql))


if __name__ == "__main__":
    main()
