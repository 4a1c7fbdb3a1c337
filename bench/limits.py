"""`python -m bench.limits`: how long a message waits under the limits every process of a
bot shares (issue 58), at the platforms' published rates, with 1, 2 and 4 processes on
one PostgreSQL.

Each process sends for `--seconds` what a busy bot sends (its share of it): a message to
each of `--chats` private chats every `--every` seconds, and one to each of `--groups`
groups every `--group-every` seconds, at Telegram's rates (30 a second in all, one a second
in a chat, 20 a minute in a group), each waiting for its turn in the shared windows
(bot/service/shared/rates.py) as the Telegram pacer does. A message's latency is from when
it was wanted to its turn. Prints the p50/p99/max latency, the messages a second, and the
worst count of the send times in any window (which must stay within its rate: the
windows' own check, apart from any stand-in). Measurements on whatever machine runs it.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import random
import time

from bot.service import Rate, SharedRates
from bot.store import Store

GLOBAL, GROUP, CHAT = Rate(30, 1.0), Rate(20, 60.0), Rate(1, 1.0)


def _worker(target: str, n: int, processes: int, args, barrier, results) -> None:
    async def send(rates: SharedRates, wanted: float, windows, log: list) -> None:
        await rates.turn(windows, "bench")
        log.append((wanted, time.time(), [key for key, _ in windows]))

    async def main() -> list:
        store = await Store.open(target)
        rates = SharedRates(store)
        rng = random.Random(n)
        log: list = []
        sending: list[asyncio.Task] = []
        try:
            await asyncio.to_thread(barrier.wait, 120)
            started = time.monotonic()
            chats = [c for c in range(args.chats) if c % processes == n]
            groups = [g for g in range(args.groups) if g % processes == n]
            due = [(rng.uniform(0, args.every), "c", c) for c in chats]
            due += [(rng.uniform(0, args.group_every), "g", g) for g in groups]
            while due:
                due.sort()
                at, kind, who = due.pop(0)
                if at > args.seconds:
                    continue
                await asyncio.sleep(max(0.0, started + at - time.monotonic()))
                key = f"telegram:chat:{kind}{who}"
                windows = [("telegram:all", GLOBAL), (key, CHAT)]
                if kind == "g":
                    windows.append((f"telegram:group:{who}", GROUP))
                sending.append(asyncio.create_task(send(rates, time.time(), windows, log)))
                due.append((at + (args.every if kind == "c" else args.group_every), kind, who))
            await asyncio.gather(*sending)
            return log
        finally:
            await store.close()

    results.put(asyncio.run(main()))


def _worst(times: list[float], rate: Rate) -> int:
    times = sorted(times)
    worst, first = 0, 0
    for last, t in enumerate(times):
        while t - times[first] >= rate.per:
            first += 1
        worst = max(worst, last - first + 1)
    return worst


def run(target: str, processes: int, args) -> str:
    ctx = mp.get_context("spawn")
    barrier, results = ctx.Barrier(processes), ctx.Queue()
    procs = [
        ctx.Process(target=_worker, args=(target, n, processes, args, barrier, results))
        for n in range(processes)
    ]
    for p in procs:
        p.start()
    log = [entry for _ in procs for entry in results.get(timeout=args.seconds * 10 + 600)]
    for p in procs:
        p.join()
    waits = sorted(sent - wanted for wanted, sent, _ in log)
    span = max(sent for _, sent, _ in log) - min(wanted for wanted, _, _ in log)
    by_window: dict[str, list[float]] = {}
    for _, sent, keys in log:
        for key in keys:
            by_window.setdefault(key, []).append(sent)
    rates = {"telegram:all": GLOBAL, "telegram:chat": CHAT, "telegram:group": GROUP}
    worst = {}
    for key, times in by_window.items():
        kind = key if key == "telegram:all" else key.rsplit(":", 1)[0]
        worst[kind] = max(worst.get(kind, 0), _worst(times, rates[kind]))
    return (
        f"{processes:>5} {len(log):>8} {len(log) / span:>7.1f} "
        f"{waits[len(waits) // 2] * 1000:>8.0f} {waits[int(len(waits) * 0.99)] * 1000:>8.0f} "
        f"{waits[-1] * 1000:>8.0f}   "
        + ", ".join(f"{k.split(':')[1]} {worst[k]} of {rates[k]}" for k in sorted(worst))
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.limits", description=__doc__)
    parser.add_argument("--processes", default="1,2,4")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--chats", type=int, default=100, help="private chats")
    parser.add_argument("--every", type=float, default=5.0, help="seconds between two to a chat")
    parser.add_argument("--groups", type=int, default=10)
    parser.add_argument("--group-every", type=float, default=4.0, help="seconds, to a group")
    parser.add_argument("--postgresql", help="an existing server's URL (an empty database)")
    args = parser.parse_args()
    server = None
    print(
        f"{'procs':>5} {'messages':>8} {'per s':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}"
        "   worst count in a window / its rate"
    )
    try:
        for processes in [int(n) for n in args.processes.split(",")]:
            if args.postgresql:
                target = args.postgresql
            else:
                if server is None:
                    from tests.postgres import PostgresServer

                    server = PostgresServer().start()
                target = asyncio.run(server.new_schema())
            asyncio.run(_migrated(target))
            print(run(target, processes, args), flush=True)
    finally:
        if server is not None:
            server.stop()


async def _migrated(target: str) -> None:
    store = await Store.open(target)
    await store.close()


if __name__ == "__main__":
    main()
