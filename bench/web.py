"""The web board's costs (`python -m bench.web`, in `make bench`): measurements, not tests.

1. **A move to an open page**: moves made through the service (as a chat move arrives) on
   a table whose page is open; from the commit (the table signal's announcement) to the
   socket's `changed` message at the page, and to the page's table read back done (what a
   page does next). Median and p99.
2. **Page load, server side**: the table's JSON for a player and the board's picture.
3. **1,000 idle sockets on one process**: the server's RSS before and after (the sockets
   opened by a client in another process), and the event loop's lag meanwhile (how late a
   20 ms sleep wakes, p99).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
from aiohttp import web

from bot.service import ChatRef, GameService, UserRef
from bot.service.web_links import WebSigner
from bot.store import Store
from bot.web import WebBoard, WebConfig

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


async def new_table(service: GameService, n: int) -> int:
    chat = ChatRef("telegram", f"-{100 + n}", "", "-100")
    await service.start(chat, ANN, "ghosts18", "variant=short")
    await service.join(chat, BOB)
    return (await service.live(chat)).id


async def move_to_page(service, board, base: str, moves: int) -> None:
    commits: dict[int, float] = {}
    service.on_table_change(lambda sid, version: commits.setdefault(version, time.perf_counter()))
    signal, page = [], []
    token = board.signer.session(ANN)
    headers = {"Authorization": f"Bearer {token}"}
    async with aiohttp.ClientSession() as http:
        done = 0
        while done < moves:
            sid = await new_table(service, done)
            chat = await service.web_tables.chat(sid)
            ws = await http.ws_connect(base + "/api/live", headers={"Origin": base})
            await ws.send_json({"hello": {"table": sid, "token": token}})
            await ws.receive_json()
            commits.clear()
            while done < moves:
                row = await service.live(chat)
                if row is None or row.status != "active":
                    break
                seat_users = {0: ANN, 1: BOB}
                acting = (await service.web_page(sid, ANN)).players
                who = seat_users[next(i for i, p in enumerate(acting) if p["acting"])]
                choices = await service.choices(chat, who)
                if not choices:
                    break
                await service.move(chat, who, choices[0][0])
                message = await asyncio.wait_for(ws.receive_json(), 5)
                arrived = time.perf_counter()
                version = message["changed"]["version"]
                async with http.get(f"{base}/api/tables/{sid}", headers=headers) as r:
                    await r.read()
                read = time.perf_counter()
                signal.append(arrived - commits[version])
                page.append(read - commits[version])
                done += 1
            await ws.close()
    print(f"move to open page ({len(signal)} moves): socket told median {ms(statistics.median(signal))}, "
          f"p99 {ms(p99(signal))}; page's table read back median {ms(statistics.median(page))}, p99 {ms(p99(page))}")  # fmt: skip


async def page_load(service, board, base: str, rounds: int) -> None:
    sid = await new_table(service, 10_000)
    token = board.signer.session(ANN)
    headers = {"Authorization": f"Bearer {token}"}
    tables, pictures = [], []
    async with aiohttp.ClientSession() as http:
        for n in range(rounds):
            started = time.perf_counter()
            async with http.get(f"{base}/api/tables/{sid}", headers=headers) as r:
                version = (await r.json())["version"]
            tables.append(time.perf_counter() - started)
            started = time.perf_counter()
            async with http.get(f"{base}/api/tables/{sid}/board.png?v={version}&n={n}", headers=headers) as r:  # fmt: skip
                await r.read()
            pictures.append(time.perf_counter() - started)
    print(f"page load, server side ({rounds} loads): table JSON median {ms(statistics.median(tables))}, "
          f"p99 {ms(p99(tables))}; board picture (drawn each time) median {ms(statistics.median(pictures))}, "
          f"p99 {ms(p99(pictures))}")  # fmt: skip


CLIENT = """
import asyncio, sys, aiohttp
async def main(base, n, table):
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        sockets = []
        for _ in range(n):
            ws = await http.ws_connect(base + "/api/live", headers={"Origin": base})
            await ws.send_json({"hello": {"table": table, "watch": sys.argv[4]}})
            await ws.receive_json()
            sockets.append(ws)
        print("open", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        for ws in sockets:
            await ws.close()
asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
"""


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
    sid = await new_table(service, 20_000)
    idle_lag = await lag(2)
    before = rss_kib()
    client = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CLIENT, base, str(count), str(sid), board.signer.watch(sid),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
    )  # fmt: skip
    line = await asyncio.wait_for(client.stdout.readline(), 120)
    assert line.strip() == b"open", line
    after, opened = rss_kib(), board.sockets.open
    open_lag = await lag(3)
    client.stdin.write(b"\n")
    await client.stdin.drain()
    await client.wait()
    print(f"{count} idle sockets: {opened} open, RSS +{(after - before) / 1024:.1f} MiB "
          f"({(after - before) / count:.1f} KiB a socket); loop lag p99 {ms(p99(open_lag))} open, "
          f"{ms(p99(idle_lag))} before")  # fmt: skip


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--loads", type=int, default=50)
    parser.add_argument("--sockets", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "web.sqlite3")
        service = GameService(store, seed_source=lambda: 1234)
        board, runner, base = await serve(service)
        try:
            await move_to_page(service, board, base, args.moves)
            await page_load(service, board, base, args.loads)
            await idle_sockets(service, board, base, args.sockets)
        finally:
            await runner.cleanup()
            await store.close()


if __name__ == "__main__":
    asyncio.run(main())
