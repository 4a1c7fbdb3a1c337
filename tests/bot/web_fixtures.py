"""A running web board for tests: the real aiohttp part on 127.0.0.1 over a real store and
service, and a small client that keeps cookies and speaks the page's socket protocol."""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, field

import aiohttp
from aiohttp import web

from bot.service import ChatRef, GameService, UserRef
from bot.service.base.web_links import WebSigner
from bot.web import WebBoard, WebConfig

SECRET = b"a test web secret, 32 bytes long"
TG_TOKEN = "7000001:TEST-TOKEN-not-a-real-one"
TG_GROUP = ChatRef("telegram", "-1001234567890", "", "-1001234567890")
TG_ANN = UserRef("telegram", "1001", "Ann")
TG_BOB = UserRef("telegram", "1002", "Bob")


@dataclass
class RunningBoard:
    service: GameService
    board: WebBoard
    runner: web.AppRunner
    url: str

    async def close(self) -> None:
        await self.runner.cleanup()


async def serve_board(
    service: GameService, *, local: bool = False, clock=None, routes=None, **config
) -> RunningBoard:
    """`routes(app)`: more routes on the same origin (a test's stand-in Discord client)."""
    signer = WebSigner(SECRET, clock) if clock is not None else WebSigner(SECRET)
    board = WebBoard(service, WebConfig("", signer, local=local, telegram_token=TG_TOKEN, **config))
    app = web.Application()
    board.part(app)
    if routes is not None:
        routes(app)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    board.listening_on("127.0.0.1", port)
    return RunningBoard(service, board, runner, f"http://127.0.0.1:{port}")


@dataclass
class Page:
    """A browser tab, as far as the server can tell: cookies, a bearer token, a socket."""

    base: str
    token: str | None = None
    http: aiohttp.ClientSession = field(default=None)
    ws: aiohttp.ClientWebSocketResponse | None = None
    heard: asyncio.Queue = field(default_factory=asyncio.Queue)
    kept: list = field(default_factory=list)
    _reader: asyncio.Task | None = None

    def __post_init__(self) -> None:
        self.http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))

    def headers(self) -> dict:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    async def get(self, path: str, **kw) -> tuple[int, object]:
        async with self.http.get(
            self.base + path, headers=self.headers(), allow_redirects=False, **kw
        ) as r:
            body = await r.read()
            if r.content_type == "application/json":
                return r.status, json.loads(body)
            return r.status, body

    async def post(self, path: str, payload: dict) -> tuple[int, dict]:
        async with self.http.post(self.base + path, json=payload, headers=self.headers()) as r:
            return r.status, await r.json()

    async def connect(
        self, origin: str | None = None, headers: dict | None = None, close_within: float = 10.0
    ) -> None:
        """`close_within`: how long closing waits for the board's answer (a socket that
        flooded the board is answered only once its backlog is read)."""
        self.ws = await self.http.ws_connect(
            self.base + "/api/live",
            headers={"Origin": origin or self.base, **(headers or {})},
            timeout=aiohttp.ClientWSTimeout(ws_close=close_within),
        )
        self._reader = asyncio.create_task(self._read())

    async def open(
        self, table, *, watch: str | None = None, origin: str | None = None, seat=None
    ) -> dict:
        """Say hello for `table`: the table as this page may see it (`{"page": ...}`), or
        `{"error": ...}`."""
        if self.ws is None:
            await self.connect(origin)
        hello = {"table": table, "watch": watch, "token": self.token, "seat": seat}
        await self.ws.send_json({"hello": hello})
        return await self.next("page", "error")

    async def say(self, message) -> dict:
        """Anything at all on the socket; the next answer."""
        await self.ws.send_str(message if isinstance(message, str) else json.dumps(message))
        return await self.next("page", "error", "pressed", "update")

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type == aiohttp.WSMsgType.TEXT:
                await self.heard.put(json.loads(message.data))

    async def next(self, *kinds: str, timeout: float = 5.0) -> dict:
        """The next message of one of these kinds; others heard meanwhile are kept, in
        order, for a later call."""
        for n, message in enumerate(self.kept):
            if any(k in message for k in kinds):
                return self.kept.pop(n)
        while True:
            message = await asyncio.wait_for(self.heard.get(), timeout)
            if any(k in message for k in kinds):
                return message
            self.kept.append(message)

    async def press(self, data, seat: int | None = None) -> dict:
        await self.ws.send_json({"press": {"data": data, "seat": seat}})
        return (await self.next("pressed"))["pressed"]

    @property
    def closed(self) -> bool:
        return self.ws is None or self.ws.closed

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        await self.http.close()


@contextlib.asynccontextmanager
async def board_on_a_store(path, *, local: bool = False, **service):
    """A board served over a fresh store at `path`, its `page()` opening a tab that is
    closed with the board."""
    from bot.store import Store

    store = await Store.open(path)
    running = await serve_board(
        GameService(store, seed_source=lambda: 1234, **service), local=local
    )
    pages: list[Page] = []

    def page() -> Page:
        pages.append(Page(running.url))
        return pages[-1]

    running.page = page
    try:
        yield running
    finally:
        for p in pages:
            await p.close()
        await running.close()
        await store.close()
