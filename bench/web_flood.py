"""The web board under a junk flood (`python -m bench.web_flood`, in `make bench`): a
measurement, not a test.

20 sockets in another process each say hello (a spectator of a table), then send junk
frames as fast as the board reads them, opening again when one is closed (text that is no
JSON, JSON nested 5,000 deep, presses of nothing, 100 KiB strings, binary);
meanwhile a third process asks unrelated requests one after another (a spectator's
table, `/api/tables/N?watch=KEY`, which reads the store, and `/api/config`) and times
each. Printed: the median and p99 of those requests with no flood, during the flood with
the board's frame limits (bot/web/live_sockets.py: `FRAMES`, `FRAMES_PER_ADDRESS`), and
during the flood with the frame limits lifted (as the board was before every frame
counted), and how many junk frames the board answered meanwhile.

`--addresses` gives each flooding socket an address of its own (the board believes the
X-Forwarded-For of 127.0.0.1, configured as its proxy here), so only the per-socket limit
holds it.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from aiohttp import web

from bot.service import ChatRef, GameService, UserRef
from bot.service.base.web_links import WebSigner
from bot.store import Store
from bot.web import WebBoard, WebConfig, live_sockets

CHAT = ChatRef("telegram", "-100", "", "-100")
ANN, BOB = UserRef("telegram", "1", "Ann"), UserRef("telegram", "2", "Bob")

FLOOD = """
import asyncio, json, os, sys, aiohttp
JUNK = ["[" * 5000, '{"press": {"data": "x"}}', "x" * 100_000, b"binary"] + ["junk"] * 46
async def main(base, sockets, seconds, own, hello):
    sent = 0
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        end = asyncio.get_running_loop().time() + seconds
        async def one(n):
            nonlocal sent
            headers = {"Origin": base}
            if own:
                headers["X-Forwarded-For"] = f"203.0.113.{n}"
            k = 0
            while asyncio.get_running_loop().time() < end:  # again whenever it is closed
                try:
                    ws = await http.ws_connect(base + "/api/live", headers=headers, max_msg_size=0)
                    await ws.send_str(hello)
                    async def read():
                        async for _ in ws:
                            pass
                    reader = asyncio.create_task(read())
                    while asyncio.get_running_loop().time() < end and not ws.closed:
                        junk = JUNK[k % len(JUNK)]
                        k += 1
                        if isinstance(junk, bytes):
                            await ws.send_bytes(junk)
                        else:
                            await ws.send_str(junk)
                        sent += 1
                    reader.cancel()
                    await ws.close()
                except (aiohttp.ClientError, ConnectionError):
                    await asyncio.sleep(0.05)
        print("flooding", flush=True)
        try:  # a send the board holds back (its TCP buffers full) ends with the flood too
            await asyncio.wait_for(asyncio.gather(*(one(n) for n in range(sockets))), seconds)
        except asyncio.TimeoutError:
            pass
        print(sent, flush=True)
        os._exit(0)
asyncio.run(main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4] == "1", sys.argv[5]))
"""

ASK = """
import asyncio, json, sys, time, aiohttp
async def main(base, paths, count):
    took = []
    async with aiohttp.ClientSession() as http:
        for n in range(count):
            path = paths[n % len(paths)]
            start = time.perf_counter()
            async with http.get(base + path) as r:
                await r.read()
                assert r.status == 200, r.status
            took.append(time.perf_counter() - start)
            await asyncio.sleep(0.02)
    print(json.dumps(took), flush=True)
asyncio.run(main(sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])))
"""


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


async def serve(service: GameService) -> tuple[WebBoard, web.AppRunner, str]:
    proxy = (ipaddress.ip_network("127.0.0.1/32"),)
    board = WebBoard(
        service, WebConfig("", WebSigner(b"bench secret, sixteen bytes+"), proxies=proxy)
    )
    app = web.Application()
    board.part(app)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    port = runner.addresses[0][1]
    board.listening_on("127.0.0.1", port)
    return board, runner, f"http://127.0.0.1:{port}"


async def asked(base: str, paths: list[str], count: int) -> list[float]:
    client = await asyncio.create_subprocess_exec(
        sys.executable, "-c", ASK, base, json.dumps(paths), str(count), stdout=subprocess.PIPE
    )
    out, _ = await client.communicate()
    return json.loads(out)


async def flooded(
    base: str, paths: list[str], count: int, sockets: int, own: bool, hello: str
) -> tuple[list[float], int]:
    seconds = count * 0.03 + 5
    flood = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        FLOOD,
        base,
        str(sockets),
        str(seconds),
        "1" if own else "0",
        hello,
        stdout=subprocess.PIPE,
    )
    assert (await flood.stdout.readline()).strip() == b"flooding"
    await asyncio.sleep(1)  # the flood under way
    took = await asked(base, paths, count)
    sent = int((await flood.stdout.readline()).strip() or 0)
    await flood.wait()
    return took, sent


def counted(board: WebBoard) -> list[int]:
    """The frames the board reads (each passes `pace` once)."""
    read = [0]
    pace = board.sockets.pace

    async def counting(page, tell):
        read[0] += 1
        await pace(page, tell)

    board.sockets.pace = counting
    return read


def said(label: str, took: list[float], extra: str = "") -> None:
    print(
        f"{label}: median {ms(statistics.median(took))}, p99 {ms(p99(took))}, "
        f"max {ms(max(took))} ({len(took)} requests){extra}"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=20)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--addresses", action="store_true", help="a flooding address a socket")
    args = parser.parse_args()
    live_sockets.SOCKETS_PER_ADDRESS = 100_000
    shipped = (live_sockets.FRAMES, live_sockets.FRAMES_PER_ADDRESS)
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "flood.sqlite3")
        service = GameService(store, seed_source=lambda: 1234, pictures=False)
        board, runner, base = await serve(service)
        try:
            await service.start(CHAT, ANN, "ghosts18", "variant=short")
            await service.join(CHAT, BOB)
            sid = (await service.live(CHAT)).id
            key = board.signer.watch(sid)
            paths = [f"/api/tables/{sid}?watch={key}", "/api/config"]
            hello = json.dumps({"hello": {"table": sid, "watch": key}})
            said("no flood", await asked(base, paths, args.requests))
            read = counted(board)
            for label, limits in (("frame limits", shipped), ("no frame limits", None)):
                if limits is None:
                    live_sockets.FRAMES = live_sockets.FRAMES_PER_ADDRESS = (10**9, 1.0)
                else:
                    live_sockets.FRAMES, live_sockets.FRAMES_PER_ADDRESS = limits
                read[0] = 0
                board.sockets._limits.clear()  # (each phase from fresh limits)
                took, sent = await flooded(
                    base, paths, args.requests, args.sockets, args.addresses, hello
                )
                said(
                    f"{args.sockets}-socket junk flood, {label}",
                    took,
                    f"; junk frames: {sent} sent, {read[0]} read by the board",
                )
        finally:
            await runner.cleanup()
            await store.close()


if __name__ == "__main__":
    asyncio.run(main())
