"""`python -m bench.load`: many tables moving as fast as they can, on SQLite and PostgreSQL.

N processes x M tables: each process drives its M games of 18 Ghosts at once through
GameService (the board, then the press of a button the player to act has), each game
`--moves` moves. Prints accepted moves per second, refusals (a move refused although
nothing conflicted: must be 0) and the p50/p99 time of a press.

`--shared` adds to each move the store's work a Telegram webhook worker does around it
since issue 58 (bot/service/shared/): the update kept before it is acknowledged, claimed
in chat order, marked served and finished; the live board's record read and its edit
recorded; the call's turn in the token's, chat's and group's rate windows (no limit: the
round trip alone). Each process has a queue of its own (another platform name), so it
runs its own updates. PostgreSQL is a throwaway
server started here from the Debian package (as the tests do), or `--postgresql URL`.
Measurements on whatever machine runs it, not test assertions: say how loaded it was.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import statistics
import tempfile
import time
from pathlib import Path

from bot.service import ChatRef, GameService, UserError, UserRef
from bot.store import Store

PLAYERS = (UserRef("bench", "u-ann", "Ann"), UserRef("bench", "u-bob", "Bob"))


def _chat(process: int, table: int) -> ChatRef:
    return ChatRef("bench", f"p{process}-t{table}", "", "guild")


async def _setup(target: str, processes: int, tables: int) -> None:
    store = await Store.open(target)
    service = GameService(store, seed_source=lambda: 7, pictures=False)
    try:
        for p in range(processes):
            for t in range(tables):
                await service.start(_chat(p, t), PLAYERS[0], "ghosts18")
                await service.join(_chat(p, t), PLAYERS[1])
    finally:
        await store.close()


def _worker(
    target: str, process: int, tables: int, moves: int, barrier, results, shared: bool = False
) -> None:
    from bot.service import Rate

    updates = iter(range(process * 10_000_000, (process + 1) * 10_000_000))

    async def around(service: GameService, chat: ChatRef, queue, press) -> None:
        """The move with the shared store work of a webhook worker around it."""
        update = next(updates)
        await queue.put(update, chat.chat, "{}")
        claimed = await queue.claim(64)
        await press()
        for held in claimed:
            await queue.served(held.update_id)
        session = (await service.live(chat)).id
        shown = await service.deliveries.board("bench", session)
        unlimited = Rate(0)
        windows = [("b:all", unlimited), (f"b:chat:{chat.chat}", unlimited)]
        await service.rates.turn(windows, "bench")
        if shown is None:
            await service.deliveries.put_board("bench", session, chat, "board", 1, 1, "{}", None)
        else:
            await service.deliveries.edited("bench", session, 1, shown.version)
        for held in claimed:
            await queue.finish(held.update_id)

    async def table(service: GameService, chat: ChatRef, times: list, refused: list, queue) -> None:
        users = {u.id: u for u in PLAYERS}
        for _ in range(moves):
            board = (await service.board(chat))[0]
            mine = [c for c in board.choices if c.for_user in users]
            if not mine:
                return  # the game ended
            start = time.perf_counter()

            async def press(mine=mine) -> None:
                await service.press(chat, users[mine[0].for_user], mine[0].data)

            try:
                await (around(service, chat, queue, press) if shared else press())
            except UserError as exc:
                refused.append(str(exc))
                continue
            times.append(time.perf_counter() - start)

    async def main() -> tuple[list[float], list[str], float]:
        store = await Store.open(target, busy_timeout=5)
        service = GameService(store, seed_source=lambda: 7, pictures=False)
        queue = service.update_queue(f"bench{process}", 30.0)
        times: list[float] = []
        refused: list[str] = []
        try:
            await asyncio.to_thread(barrier.wait, 120)
            start = time.perf_counter()
            await asyncio.gather(
                *(table(service, _chat(process, t), times, refused, queue) for t in range(tables))
            )
            return times, refused, time.perf_counter() - start
        finally:
            await queue.close()
            await store.close()

    results.put(asyncio.run(main()))


def run(
    target: str, processes: int, tables: int, moves: int, shared: bool = False
) -> dict[str, str]:
    asyncio.run(_setup(target, processes, tables))
    ctx = mp.get_context("spawn")
    barrier, results = ctx.Barrier(processes), ctx.Queue()
    procs = [
        ctx.Process(target=_worker, args=(target, p, tables, moves, barrier, results, shared))
        for p in range(processes)
    ]
    for p in procs:
        p.start()
    outs = [results.get(timeout=600) for _ in procs]
    for p in procs:
        p.join()
    times = sorted(t for out in outs for t in out[0])
    refused = [r for out in outs for r in out[1]]
    wall = max(out[2] for out in outs)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))] if times else float("nan")
    return {
        "accepted": str(len(times)),
        "moves/s": f"{len(times) / wall:.0f}",
        "refused": str(len(refused)),
        "p50 ms": f"{statistics.median(times) * 1000:.1f}" if times else "-",
        "p99 ms": f"{p99 * 1000:.1f}",
    }


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__)
    parser.add_argument("--processes", default="1,4", help="comma-separated counts")
    parser.add_argument("--tables", type=int, default=25, help="tables per process")
    parser.add_argument("--moves", type=int, default=10, help="moves per table")
    parser.add_argument("--db", default="sqlite,postgresql", help="which stores")
    parser.add_argument("--postgresql", help="an existing server's URL (an empty database)")
    parser.add_argument(
        "--shared", action="store_true", help="with a webhook worker's shared store work"
    )
    args = parser.parse_args()
    counts = [int(n) for n in args.processes.split(",")]
    server = None
    print(
        f"{'store':<11} {'procs':>5} {'tables':>6} {'accepted':>8} {'moves/s':>8} "
        f"{'refused':>7} {'p50 ms':>7} {'p99 ms':>7}"
    )
    try:
        for kind in args.db.split(","):
            for n in counts:
                with tempfile.TemporaryDirectory() as tmp:
                    if kind == "sqlite":
                        target = str(Path(tmp) / "load.sqlite3")
                    else:
                        if server is None and not args.postgresql:
                            from tests.postgres import PostgresServer

                            server = PostgresServer().start()
                        target = (
                            args.postgresql if args.postgresql else asyncio.run(server.new_schema())
                        )
                    r = run(target, n, args.tables, args.moves, args.shared)
                print(
                    f"{kind:<11} {n:>5} {n * args.tables:>6} {r['accepted']:>8} "
                    f"{r['moves/s']:>8} {r['refused']:>7} {r['p50 ms']:>7} {r['p99 ms']:>7}",
                    flush=True,
                )
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
