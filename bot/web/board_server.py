"""The web board: the HTTP part that serves the table page, its pictures, sign-in and the
live socket, on the bot's one aiohttp application (bot/http_server.py).

Three doors, one identity (a `UserRef` of the platform the table lives on):
- `/link/<token>`: a personal link from `/escape web`, opened once; the page then keeps a
  session cookie (HttpOnly, SameSite=Lax, Secure behind HTTPS);
- `/tg`: a Telegram Mini App; the page posts its `initData` to `/api/auth/telegram`;
- `/activity`: a Discord Activity; the page's SDK code is exchanged at `/api/auth/discord`.
The apps' frames are other sites, where cookies are third-party, so an app page keeps the
session it is given in memory and sends it as `Authorization: Bearer`. `/watch/<id>/<key>`
is a table's spectator page (the public board only). With no chat token, `make run`
serves `/local/<token>`: the person at this machine plays the terminal's local players.

Every move goes over the page's socket to `GameService.web_press` with the button data
(which carries the board's version): a stale page is refused and told to read again. The
plan a move returns is delivered to the table's own chat (through the service's notifier
for that platform) and, for the asker, over this front end's transport.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
from aiohttp import web

from bot.delivery import Asked, Delivery
from bot.service import ChatRef, GameService, UserError, UserRef, WebDoor
from bot.service.web_links import LOCAL, WebSession, WebSigner
from bot.web.discord_login import api_base, exchange_code
from bot.web.live_sockets import LiveSockets, RateLimit
from bot.web.page_words import page_html
from bot.web.telegram_login import check_init_data
from bot.web.web_transport import PLATFORM, WebTransport
from languages import accepted, msg, say

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
COOKIE = "escape_session"
PAGE_PATHS = ("/", "/table/{sid:\\d+}", "/watch/{sid:\\d+}/{key}", "/tg", "/activity")
FRAMERS = ("https://discord.com https://*.discord.com https://*.discordsays.com "
           "https://web.telegram.org https://*.telegram.org")  # fmt: skip
CSP = (
    "default-src 'self'; img-src 'self' data: blob:; script-src 'self'; style-src 'self'; "
    "connect-src 'self' ws: wss:; base-uri 'none'; form-action 'self'; object-src 'none'; "
    f"frame-ancestors 'self' {FRAMERS}"
)
NOT_OURS = msg("That request is not one of ours.")
SIGNED_OUT = ("forged", "expired", "replayed", "denied", "signed_out")  # refusals answered 401
SIGN_IN = msg("Open the board from your link (/escape web in the chat), or from the bot's button.")


@dataclass(frozen=True)
class WebConfig:
    public_url: str  # the origin people open (empty: the address it listens on)
    signer: WebSigner
    local: bool = False  # terminal play at this machine: the local players may be played
    telegram_token: str = ""
    telegram_webapp: str = ""
    discord_client_id: str = ""
    discord_client_secret: str = ""
    discord_api: str = ""


def local_player(name: str) -> UserRef:
    """A player at this machine's keyboard, as the terminal names them."""
    return UserRef("console", f"local:{name.lower()}", name)


class WebBoard:
    def __init__(self, service: GameService, config: WebConfig) -> None:
        self.service = service
        self.config = config
        self.signer = config.signer
        self.sockets = LiveSockets()
        self.delivery = Delivery(None, PLATFORM)
        self._unsubscribe = None
        self._http: aiohttp.ClientSession | None = None
        self.base = config.public_url

    # ----- the part of the HTTP server ---------------------------------------------------
    def part(self, app: web.Application) -> None:
        for prefix in ("", "/.proxy"):  # Discord's proxy may prefix an Activity's paths
            r = app.router
            for path in PAGE_PATHS:
                r.add_get(prefix + path, self.page)
            r.add_get(prefix + "/link/{token}", self.open_link)
            r.add_get(prefix + "/local/{token}", self.open_local)
            r.add_get(prefix + "/api/config", self.api_config)
            r.add_get(prefix + "/api/tables/{sid:\\d+}", self.api_table)
            r.add_get(prefix + "/api/tables/{sid:\\d+}/{which:board|view}.png", self.api_picture)
            r.add_get(prefix + "/api/tables/{sid:\\d+}/frames/{n:\\d+}.png", self.api_frame)
            r.add_post(prefix + "/api/auth/telegram", self.auth_telegram)
            r.add_post(prefix + "/api/auth/discord", self.auth_discord)
            r.add_get(prefix + "/api/discord/channels/{channel:\\d+}", self.api_channel)
            r.add_get(prefix + "/api/local/tables", self.local_tables)
            r.add_post(prefix + "/api/local/tables", self.local_start)
            r.add_get(prefix + "/api/live", self.live)
            r.add_static(prefix + "/static", STATIC, append_version=False)
        app.on_response_prepare.append(self._headers)
        app.on_startup.append(self._start)
        app.on_shutdown.append(self._stop)

    async def _start(self, app: web.Application) -> None:
        self._unsubscribe = self.service.on_table_change(self.sockets.changed)
        self._http = aiohttp.ClientSession()
        self.service.open_web(WebDoor(self.base, self.signer))

    async def _stop(self, app: web.Application) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        await self.sockets.close_all()
        if self._http is not None:
            await self._http.close()

    def listening_on(self, host: str, port: int) -> None:
        """The address bound (a port 0 is known only then): the links' origin when no
        public URL is set."""
        if not self.config.public_url:
            shown = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
            self.base = f"http://{shown}:{port}"
            self.service.open_web(WebDoor(self.base, self.signer))

    async def _headers(self, request: web.Request, response: web.StreamResponse) -> None:
        """Framing by Discord and Telegram only; no referrer (a link's token stays put);
        nothing of the API kept in caches."""
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        if request.path.startswith(("/api/", "/link/", "/local/", "/.proxy/api/")):
            response.headers.setdefault("Cache-Control", "no-store")

    # ----- who is asking ------------------------------------------------------------------
    def session_of(self, request: web.Request, token: str | None = None) -> WebSession | None:
        """The proved viewer: a bearer token (the apps), else the session cookie."""
        header = request.headers.get("Authorization", "")
        token = token or (header[7:] if header.startswith("Bearer ") else None)
        token = token or request.cookies.get(COOKIE)
        if not token:
            return None
        return self.signer.read_session(token)

    def viewer(self, request: web.Request) -> UserRef | None:
        session = self.session_of(request)
        return session.user if session is not None else None

    async def language(self, request: web.Request, viewer: UserRef | None = None) -> str:
        """What a page is said in: the viewer's own setting, else their browser's."""
        browser = accepted(request.headers.get("Accept-Language"))
        if viewer is None or viewer.id == LOCAL:
            return browser
        return await self.service.language_of(replace(viewer, language=browser))

    async def asker_language(self, request: web.Request) -> str:
        """The language of whoever asks, signed in or not (a refusal is said in it)."""
        viewer = None
        with contextlib.suppress(UserError):
            viewer = self.viewer(request)
        return await self.language(request, viewer)

    def check_access(self, sid: int, viewer: UserRef | None, key: str | None) -> None:
        if viewer is None:
            if key is None:
                raise web.HTTPUnauthorized(text=SIGN_IN)
            self.signer.check_watch(sid, key)

    def _set_cookie(self, response: web.StreamResponse, session: WebSession) -> None:
        secure = self.base.startswith("https://")
        token = self.signer.session(session.user, session.expires - self.signer.now())
        response.set_cookie(COOKIE, token, max_age=int(session.expires - self.signer.now()),
                            httponly=True, samesite="Lax", secure=secure, path="/")  # fmt: skip

    # ----- pages ------------------------------------------------------------------------
    async def page(self, request: web.Request) -> web.StreamResponse:
        language = await self.asker_language(request)
        return web.Response(text=page_html(language), content_type="text/html",
                            headers={"Cache-Control": "no-cache", "Content-Language": language,
                                     "Vary": "Accept-Language, Cookie"})  # fmt: skip

    async def open_link(self, request: web.Request) -> web.StreamResponse:
        try:
            session, sid = await self.service.claim_web_link(request.match_info["token"])
        except UserError as exc:
            return _refusal_page(say(exc.msg, await self.language(request)))
        response = web.Response(status=303, headers={"Location": f"/table/{sid}"})
        self._set_cookie(response, session)
        return response

    async def open_local(self, request: web.Request) -> web.StreamResponse:
        if not self.config.local:
            return _refusal_page(say(msg("Local play is not served here."), await self.language(request)))  # fmt: skip
        try:
            self.signer.read(request.match_info["token"], "local")
        except UserError as exc:
            return _refusal_page(say(exc.msg, await self.language(request)))
        response = web.Response(status=303, headers={"Location": "/"})
        user = UserRef("console", LOCAL, "You")
        self._set_cookie(response, WebSession(user, self.signer.now() + 24 * 3600))
        return response

    def local_link(self) -> str:
        """The link `make run` prints for local play (good for a day, at this machine)."""
        return f"{self.base}/local/{self.signer.sign('local', {}, 24 * 3600)}"

    # ----- the table ----------------------------------------------------------------------
    async def api_config(self, request: web.Request) -> web.Response:
        return web.json_response({
            "discord_client_id": self.config.discord_client_id, "local": self.config.local,
            "activity": (STATIC / "build" / "activity.js").is_file(),
        })  # fmt: skip

    async def api_table(self, request: web.Request) -> web.Response:
        sid = int(request.match_info["sid"])

        language = await self.asker_language(request)

        async def answer(viewer: UserRef | None) -> dict:
            self.check_access(sid, viewer, request.query.get("watch"))
            page = await self.service.web_page(sid, viewer, _seat(request))
            out = page.as_json(language)
            if viewer is None:  # a spectator: the public board, nothing of anyone's
                out.update(moves=[], own_log=[], private_text="", seat=None)
            out["you"] = viewer.name if viewer is not None else None
            out["watch_key"] = self.signer.watch(sid) if viewer is not None else None
            return out

        return await _json(lambda: answer(self.viewer(request)), language=language)

    async def api_picture(self, request: web.Request) -> web.StreamResponse:
        sid, which = int(request.match_info["sid"]), request.match_info["which"]
        language = await self.asker_language(request)
        try:
            viewer = self.viewer(request)
            self.check_access(sid, viewer, request.query.get("watch"))
            version = int(request.query.get("v", "-1"))
            picture = await self.service.web_picture(sid, version, viewer, _seat(request), which, language)  # fmt: skip
        except UserError as exc:
            return web.json_response({"error": say(exc.msg, language), "reason": exc.reason}, status=409 if exc.reason == "stale" else 403)  # fmt: skip
        except ValueError:
            return web.json_response({"error": say(msg("Which version?"), language)}, status=400)
        private = "private" if which == "view" else "public"
        return web.Response(body=picture.png, content_type="image/png",
                            headers={"Cache-Control": f"{private}, max-age=3600"})  # fmt: skip

    async def api_frame(self, request: web.Request) -> web.StreamResponse:
        sid, n = int(request.match_info["sid"]), int(request.match_info["n"])
        language = await self.asker_language(request)
        try:
            self.check_access(sid, self.viewer(request), request.query.get("watch"))
            picture, text = await self.service.web_frame(sid, n, language)
        except UserError as exc:
            return web.json_response({"error": say(exc.msg, language)}, status=403)
        return web.Response(body=picture.png, content_type="image/png",
                            headers={"X-Frame-Caption": _header_safe(text)})  # fmt: skip

    # ----- the apps' sign-in ----------------------------------------------------------------
    async def auth_telegram(self, request: web.Request) -> web.Response:
        async def answer() -> dict:
            body = await _body(request)
            login = check_init_data(str(body.get("init_data", "")), self.config.telegram_token, self.signer.now())  # fmt: skip
            table = login.start_param if login.start_param.isdigit() else str(body.get("table", ""))
            return {"token": self.signer.session(login.user), "name": login.user.name,
                    "table": int(table) if table.isdigit() else None}  # fmt: skip

        return await _json(answer, status=401, language=await self.language(request))

    async def auth_discord(self, request: web.Request) -> web.Response:
        async def answer() -> dict:
            body = await _body(request)
            c = self.config
            login = await exchange_code(self._http, api_base(c.discord_api), c.discord_client_id,
                                        c.discord_client_secret, str(body.get("code", "")))  # fmt: skip
            return {"token": self.signer.session(login.user), "name": login.user.name,
                    "access_token": login.access_token}  # fmt: skip

        return await _json(answer, status=401, language=await self.language(request))

    async def api_channel(self, request: web.Request) -> web.Response:
        async def answer() -> dict:
            viewer = self.viewer(request)
            if viewer is None or viewer.platform != "discord":
                raise UserError(SIGN_IN, reason="signed_out")
            sid = await self.service.table_in_channel("discord", request.match_info["channel"])
            if sid is None:
                raise UserError(msg("No table is open in this channel: start one with /escape start."))  # fmt: skip
            return {"table": sid}

        return await _json(answer, language=await self.asker_language(request))

    # ----- local play ---------------------------------------------------------------------
    def _local_viewer(self, request: web.Request) -> UserRef:
        viewer = self.viewer(request)
        if not self.config.local or viewer is None or viewer.id != LOCAL:
            raise UserError(msg("Local play is for the person at this machine: open the link `make run` printed."), reason="signed_out")  # fmt: skip
        return viewer

    async def local_tables(self, request: web.Request) -> web.Response:
        async def answer() -> dict:
            self._local_viewer(request)
            tables = await self.service.live_tables("console", "terminal")
            return {
                "games": [
                    {
                        "id": g,
                        "title": say(msg(t), language),
                        "players": say(self.service.game(g).player_range(), language),
                    }
                    for g, t in self.service.game_list()
                ],
                "tables": [
                    {"id": t.session_id, "text": say(t.describe(), language)} for t in tables
                ],
            }

        language = await self.asker_language(request)
        return await _json(answer, language=language)

    async def local_start(self, request: web.Request) -> web.Response:
        """A new terminal table from the page: the game, its options, the players' names
        (`bot` for a computer player), like the terminal's own set-up."""
        language = await self.asker_language(request)

        async def answer() -> dict:
            self._local_viewer(request)
            body = await _body(request)
            game = self.service.game(str(body.get("game", "")))
            names = [n.strip() for n in str(body.get("players", "")).split(",") if n.strip()]
            humans = [n for n in names if n.lower() != "bot"]
            if not humans or len({n.lower() for n in humans}) != len(humans):
                raise UserError(msg("Name at least one player, each differently, e.g. Ann,bot."))
            if not game.min_players <= len(names) <= game.max_players:
                raise UserError(msg("{game} is for {players} players.", game=msg(game.title), players=game.player_range()))  # fmt: skip
            used = {t.chat.thread for t in await self.service.live_tables("console", "terminal")}
            thread = next(str(n) for n in range(1, 10_000) if str(n) not in used)
            chat = ChatRef(
                "console", "terminal", thread, "terminal", language=language
            )  # the browser's
            first = local_player(humans[0])
            await self.service.start(chat, first, game.id, str(body.get("options", "")))
            for name in humans[1:]:
                await self.service.join(chat, local_player(name))
            for _ in range(len(names) - len(humans)):
                await self.service.add_bot(chat, first)
            row = await self.service.live(chat)
            if row is not None and row.status == "lobby":
                await self.service.begin(chat, first)
            return {"table": row.id if row is not None else None}

        return await _json(answer, language=language)

    # ----- the live socket ----------------------------------------------------------------
    def origin_allowed(self, request: web.Request) -> bool:
        origin = request.headers.get("Origin", "")
        own = f"{request.scheme}://{request.host}"
        allowed = {own, _origin(self.base)}
        if self.config.discord_client_id:
            allowed.add(f"https://{self.config.discord_client_id}.discordsays.com")
        return origin in allowed

    async def live(self, request: web.Request) -> web.StreamResponse:
        if not self.origin_allowed(request):
            said = say(msg("This page may not connect from there."), await self.language(request))
            return web.json_response({"error": said}, status=403)
        ws = web.WebSocketResponse(heartbeat=30, max_msg_size=16 * 1024)
        await ws.prepare(request)
        watching: int | None = None
        token: str | None = None  # an app's session, as its hello gave it
        limit = RateLimit()
        language = await self.language(request)  # until the hello says who is watching
        try:
            async for message in ws:
                if message.type != aiohttp.WSMsgType.TEXT:
                    continue
                try:
                    said = json.loads(message.data)
                    if not isinstance(said, dict):
                        raise ValueError
                except ValueError:
                    await ws.send_json({"error": say(msg("That message is not one of ours."), language)})  # fmt: skip
                    continue
                if "hello" in said:
                    watching, token, language = await self._hello(request, ws, said["hello"], watching, language)  # fmt: skip
                elif "press" in said:
                    pressed = await self._press(request, token, said["press"], watching, limit, language)  # fmt: skip
                    await ws.send_json({"pressed": pressed})
        finally:
            if watching is not None:
                self.sockets.drop(watching, ws)
        return ws

    async def _hello(self, request, ws, hello, watching, language):
        """A page says which table it shows (and, from an app, its session); the socket
        then speaks the viewer's language."""
        hello = hello if isinstance(hello, dict) else {}
        try:
            sid = int(hello.get("table"))
            session = self.session_of(request, hello.get("token") or None)
            viewer = session.user if session is not None else None
            self.check_access(sid, viewer, hello.get("watch"))
        except (TypeError, ValueError, UserError, web.HTTPUnauthorized) as exc:
            error = exc.msg if isinstance(exc, UserError) else getattr(exc, "text", None) or SIGN_IN
            await ws.send_json({"error": say(error, language)})
            await ws.close()
            return watching, None, language
        if watching is not None:
            self.sockets.drop(watching, ws)
        self.sockets.watch(sid, ws)
        await ws.send_json({"hello": {"table": sid, "you": viewer.name if viewer else None}})
        return sid, hello.get("token") or None, await self.language(request, viewer)

    async def _press(self, request, token, press, watching, limit: RateLimit, language: str) -> dict:  # fmt: skip
        """A button pressed on the page: checked and made like a press in the chat."""
        viewer = None
        with contextlib.suppress(UserError):  # a session expired meanwhile: not signed in
            session = self.session_of(request, token)
            viewer = session.user if session is not None else None
        if watching is None or viewer is None:
            return {"ok": False, "error": say(msg("Spectators watch; players sign in to move."), language)}  # fmt: skip
        if not limit.allow():
            return {"ok": False, "error": say(msg("Too many moves at once: wait a moment."), language)}  # fmt: skip
        viewer = replace(viewer, language=language)
        press = press if isinstance(press, dict) else {}
        data = press.get("data")
        seat = press.get("seat") if isinstance(press.get("seat"), int) else None
        try:
            chat, plan = await self.service.web_press(watching, viewer, seat, str(data or ""))
        except UserError as exc:
            return {"ok": False, "error": say(exc.msg, language), "stale": exc.reason == "stale"}
        transport = WebTransport()
        await self.delivery.deliver(chat, plan, transport, Asked(plan.asker or viewer))
        self.sockets.later(self.service.notify(chat, plan))  # the table's chat sees it too
        return {"ok": True, "notes": transport.notes}


# ----- small helpers --------------------------------------------------------------------
def _seat(request: web.Request) -> int | None:
    seat = request.query.get("seat", "")
    return int(seat) if seat.isdigit() else None


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme else ""


def _header_safe(text: str) -> str:
    return " ".join(text.encode("ascii", "replace").decode().split())[:300]


async def _body(request: web.Request) -> dict:
    try:
        body = await request.json()
    except (ValueError, UnicodeDecodeError) as exc:
        raise UserError(NOT_OURS) from exc
    if not isinstance(body, dict):
        raise UserError(NOT_OURS)
    return body


async def _json(make, status: int = 403, language: str = "en") -> web.Response:
    """A JSON answer; a refusal as `{"error": ...}` with a clear message in the asker's
    language, nothing changed."""
    try:
        return web.json_response(await make())
    except UserError as exc:
        code = 401 if exc.reason in SIGNED_OUT else status
        return web.json_response({"error": say(exc.msg, language), "reason": exc.reason}, status=code)  # fmt: skip


def _refusal_page(message: str) -> web.Response:
    import html

    body = (f"<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>"
            f"<title>Escape</title><link rel=stylesheet href=/static/board.css>"
            f"<main class=refusal><h1>Escape</h1><p role=alert>{html.escape(message)}</p></main>")  # fmt: skip
    return web.Response(text=body, content_type="text/html", status=403)


def new_secret() -> bytes:
    """A signing key for one run (local play without tokens: links printed each run)."""
    return secrets.token_bytes(32)
