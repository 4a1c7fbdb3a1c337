"""The web board's costs (`python -m bench.web`, in `make bench`): measurements, not tests.

1. **What a move costs the store and the picture pool**, with two players and three open
   pages (each player's, and a spectator's in German): moves pressed as in the chat, each
   page pushed the change and loading its pictures as a browser would. Per move: session
   reads, log reads and PNG drawings (each picture is drawn once per version, language and
   seat: the chat's board serves the pages of its language).
2. **A page's server time as the game grows**: the push of one change to three pages, and
   a whole page (a new socket's hello), at 20 and at 200 log rows (pictures off, as they
   are drawn apart from the page).
3. **Commit to page with 100 open pages**: moves made through the service on a table whose
   100 pages are open in another process; from the commit (the table signal's
   announcement) to each page's receipt of its push, median and p99.
4. **1,000 idle sockets on one process**: the server's RSS before and after (the sockets
   opened by a client in another process), and the event loop's lag meanwhile (how late a
   20 ms sleep wakes, p99).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import aiohttp
from aiohttp import web

from bot.service import ChatRef, GameService, UserRef, Visitor
from bot.service.base.web_links import WebSigner
from bot.service.web.web_tables import WebPass
from bot.store import Store
from bot.web import WebBoard, WebConfig, live_sockets

CHAT = ChatRef("telegram", "-100", "", "-100")
ANN, BOB = UserRef("telegram", "1", "Ann"), UserRef("telegram", "2", "Bob")


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


async def serve(service: GameService) -> tuple[WebBoard, web.AppRunner, str]:
    board = WebBoard(service, WebConfig("", WebSigner(b"bench secret, sixteen bytes+")))
    app = web.Application()
    board.part(app)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    port = runner.addresses[0][1]
    board.listening_on("127.0.0.1", port)
    return board, runner, f"http://127.0.0.1:{port}"


async def new_table(
    service: GameService, n: int, game: str = "ghosts18", options: str = "variant=short"
) -> tuple[ChatRef, int]:
    chat = ChatRef("telegram", f"-{100 + n}", "", "-100")
    await service.start(chat, ANN, game, options)
    await service.join(chat, BOB)
    row = await service.live(chat)
    if row.status == "lobby":
        await service.begin(chat, ANN)
    return chat, row.id


async def move(service: GameService, chat: ChatRef, rng: random.Random) -> bool:
    """One legal move of whoever is to act, pressed as its button in the chat would be."""
    row = await service.live(chat)
    if row is None or row.status != "active":
        return False
    for user in (ANN, BOB):
        buttons = await service.buttons_of(row.id, row.version, user)
        mine = [b for b in buttons if b.role == "move" and b.for_user == user.id]
        if mine:
            await service.press(chat, user, rng.choice(mine).data)
            return True
    return False


def counting(store: Store, counts: Counter) -> None:
    """Count the store's session and log reads from here on."""
    for name in ("session", "log"):
        real = getattr(store, name)

        async def counted(*args, _real=real, _name=name, **kwargs):
            counts[_name] += 1
            return await _real(*args, **kwargs)

        setattr(store, name, counted)


class BenchPage:
    """A page as a browser keeps it: its socket, and each pushed picture loaded."""

    def __init__(self, http: aiohttp.ClientSession, base: str, token: str | None, language: str):
        self.http, self.base, self.token, self.language = http, base, token, language
        self.pushes: asyncio.Queue = asyncio.Queue()

    async def open(self, table: int, watch: str | None = None) -> None:
        headers = {"Origin": self.base, "Accept-Language": self.language}
        self.ws = await self.http.ws_connect(self.base + "/api/live", headers=headers)
        await self.ws.send_json({"hello": {"table": table, "token": self.token, "watch": watch}})
        await self.load((await self.ws.receive_json())["page"])
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            said = json.loads(message.data)
            if "update" in said:
                await self.load(said["update"])
                await self.pushes.put(said["update"]["version"])

    async def load(self, page: dict) -> None:
        self.latest = page
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        for which in ("view", "board") if page.get("view") else ("board",):
            if page.get(which):
                async with self.http.get(self.base + page[which], headers=headers) as r:
                    await r.read()
                break  # a player of a game with secrets sees their view: the board drawn once

    async def close(self) -> None:
        self.reader.cancel()
        await self.ws.close()


async def costs(
    service: GameService, board: WebBoard, base: str, game: str, options: str, moves: int
) -> None:
    counts: Counter = Counter()
    chat, sid = await new_table(service, hash(game) % 1000, game, options)
    rng = random.Random(7)
    async with aiohttp.ClientSession() as http:
        pages = [
            BenchPage(http, base, board.signer.session(ANN), "en"),
            BenchPage(http, base, board.signer.session(BOB), "en"),
            BenchPage(http, base, None, "de"),
        ]
        for page in pages[:2]:
            await page.open(sid)
        await pages[2].open(sid, board.signer.watch(sid))
        counting(service.store, counts)
        draws_before, made = service.plans.drawn.draws, 0
        for _ in range(moves):
            # a player's move, pressed as its button in the chat (its data from their page)
            mover = next((p for p in pages[:2] if p.latest["moves"]), None)
            if mover is None or mover.latest["status"] != "active":
                break
            user = ANN if mover is pages[0] else BOB
            await service.press(chat, user, rng.choice(mover.latest["moves"])["data"])
            made += 1
            for page in pages:
                await asyncio.wait_for(page.pushes.get(), 10)
        draws = service.plans.drawn.draws - draws_before
        for page in pages:
            await page.close()
    print(
        f"{game}, 2 players and 3 open pages (en, en, de), {made} moves: per move "
        f"{counts['session'] / made:.2f} session reads, {counts['log'] / made:.2f} log reads, "
        f"{draws / made:.2f} PNG drawings"
    )


async def growth(service: GameService) -> None:
    """A page's server time at 20 and at 200 moves (pictures off): the push of a change this
    process made (no read), of one another process made (the table read once for its
    pages), and a whole page (a new socket's hello: the table and its recent log)."""
    chat, sid = await new_table(service, 30_000, "castle_doors", "")
    rng = random.Random(3)
    watch = service.web_tables.signer.watch(sid)
    pages = [
        WebPass(sid, Visitor(ANN)),
        WebPass(sid, Visitor(BOB)),
        WebPass(sid, Visitor(None, watch), language="de"),
    ]
    await service.web_board.page(pages[0])  # (the pages are open)
    said, made = [], 0
    for wanted in (20, 200):
        here, there, whole = [], [], []
        while made < wanted:
            versions: list[int] = []
            unsubscribe = service.on_table_change(
                lambda s, v, seen=versions: seen.append(v) if s == sid else None
            )
            if not await move(service, chat, rng):
                print(f"the game ended after {made} moves")
                return
            unsubscribe()
            made += 1
            if wanted - made < 30:
                started = time.perf_counter()
                await service.web_board.updates(sid, versions[-1], pages)
                here.append(time.perf_counter() - started)
        row = await service.live(chat)
        for _ in range(30):
            service.web_tables._known.pop(sid, None)  # as a process that did not make it
            started = time.perf_counter()
            await service.web_board.updates(sid, row.version, pages)
            there.append(time.perf_counter() - started)
            started = time.perf_counter()
            await service.web_board.page(pages[0])
            whole.append(time.perf_counter() - started)
        rows = len(await service.store.log(sid))
        said.append(
            f"{made} moves ({rows} log rows): a change made here {ms(statistics.median(here) / 3)} a page "
            f"(p99 {ms(p99(here) / 3)}), made by another process {ms(statistics.median(there) / 3)} a page, "
            f"a whole page {ms(statistics.median(whole))}"
        )
    print(
        "a page's server time, pushed to 3 pages (Castle Doors, pictures off), medians: "
        + "; ".join(said)
    )


# pages in another process: open, then (at a line on stdin) close and print what they heard
CLIENT = """
import asyncio, json, sys, time, aiohttp
async def main(base, n, table, watch):
    heard = []
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        sockets = []
        for _ in range(n):
            ws = await http.ws_connect(base + "/api/live", headers={"Origin": base})
            await ws.send_json({"hello": {"table": table, "watch": watch}})
            await ws.receive_json()
            sockets.append(ws)
        async def read(ws):
            async for message in ws:
                said = json.loads(message.data)
                if "update" in said:
                    heard.append((said["update"]["version"], time.perf_counter()))
        readers = [asyncio.create_task(read(ws)) for ws in sockets]
        print("open", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        for ws in sockets:
            await ws.close()
    print(json.dumps(heard), flush=True)
asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]))
"""


async def many_pages(
    service: GameService, board: WebBoard, base: str, pages: int, moves: int
) -> None:
    chat, sid = await new_table(service, 40_000, "castle_doors", "")
    commits: dict[int, float] = {}
    service.on_table_change(
        lambda s, v: commits.setdefault(v, time.perf_counter()) if s == sid else None
    )
    client = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        CLIENT,
        base,
        str(pages),
        str(sid),
        board.signer.watch(sid),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        limit=2**26,
    )
    assert (await asyncio.wait_for(client.stdout.readline(), 120)).strip() == b"open"
    rng = random.Random(5)
    for _ in range(moves):
        if not await move(service, chat, rng):
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(1)
    client.stdin.write(b"\n")
    await client.stdin.drain()
    heard = json.loads((await client.stdout.readline()).decode())
    await client.wait()
    delays = [at - commits[v] for v, at in heard if v in commits]
    print(
        f"commit to page with {pages} open pages ({len(delays)} pushes received): "
        f"median {ms(statistics.median(delays))}, p99 {ms(p99(delays))}"
    )


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def lag(seconds: float) -> list[float]:
    late = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        before = time.monotonic()
        await asyncio.sleep(0.02)
        late.append(time.monotonic() - before - 0.02)
    return late


async def idle_sockets(service, board, base: str, count: int) -> None:
    _, sid = await new_table(service, 20_000)
    idle_lag = await lag(2)
    before = rss_kib()
    client = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        CLIENT,
        base,
        str(count),
        str(sid),
        board.signer.watch(sid),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        limit=2**26,
    )
    line = await asyncio.wait_for(client.stdout.readline(), 120)
    assert line.strip() == b"open", line
    after, opened = rss_kib(), board.sockets.open
    open_lag = await lag(3)
    client.stdin.write(b"\n")
    await client.stdin.drain()
    await client.wait()
    print(
        f"{count} idle sockets: {opened} open, RSS +{(after - before) / 1024:.1f} MiB "
        f"({(after - before) / count:.1f} KiB a socket); loop lag p99 {ms(p99(open_lag))} open, "
        f"{ms(p99(idle_lag))} before"
    )


def unlimited() -> None:
    """The bench's clients all come from 127.0.0.1: one address's limits are lifted here
    (they bound a real address's sockets and hellos; docs/web-board.md)."""
    live_sockets.SOCKETS_PER_ADDRESS = 100_000
    live_sockets.HELLOS = live_sockets.HELLOS_PER_ADDRESS = (100_000, 1.0)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--pages", type=int, default=100)
    parser.add_argument("--sockets", type=int, default=1000)
    args = parser.parse_args()
    unlimited()
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "web.sqlite3")
        service = GameService(store, seed_source=lambda: 1234)
        board, runner, base = await serve(service)
        try:
            await costs(service, board, base, "ghosts18", "variant=short", args.moves)
            await costs(service, board, base, "haunted_house", "specials=off", args.moves)
            await many_pages(service, board, base, args.pages, args.moves)
            await idle_sockets(service, board, base, args.sockets)
        finally:
            await runner.cleanup()
            await store.close()
        store = await Store.open(Path(folder) / "growth.sqlite3")
        service = GameService(store, seed_source=lambda: 1234, pictures=False)
        board, runner, base = await serve(service)
        try:
            await growth(service)
        finally:
            await runner.cleanup()
            await store.close()


if __name__ == "__main__":
    asyncio.run(main())
