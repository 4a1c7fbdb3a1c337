"""The web board: the HTTP part that serves the table page, its pictures, sign-in and the
live socket, on the web board's aiohttp application (bot/http_server.py).

Three doors, one identity (a `UserRef` of the platform the table lives on):
- `/link/<token>`: a personal link from `/escape web`, opened once; the page then keeps a
  session cookie (HttpOnly, SameSite=Lax, Secure behind HTTPS);
- `/tg`: a Telegram Mini App; the page posts its `initData` to `/api/auth/telegram`;
- `/activity`: a Discord Activity; the page's SDK code is exchanged at `/api/auth/discord`.
The apps' frames are other sites, where cookies are third-party, so an app page keeps the
session it is given in memory and sends it as `Authorization: Bearer` (and in its
socket's hello). `/watch/<id>/<key>` is a table's spectator page. With no chat token,
`make run` serves `/local/<token>`: the person at this machine plays the terminal's tables.

Who may see or act on a table is never decided here: each request names its visitor (what
their door proved) and the service's access rule answers. A page says hello on its socket
and is sent its table, then pushed the table after every change (bot/web/live_sockets.py);
its presses go over the same socket to `GameService.web_board.press`, and the plan a press
returns is delivered once, to the table's own chat. Pictures have signed addresses, so
they load in the apps, which have no cookie.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import ipaddress
import json
import logging
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
from aiohttp import web

from bot.service import (
    LOCAL,
    MAX_NAME,
    ChatRef,
    GameService,
    UserError,
    UserRef,
    Visitor,
    WebDoor,
    WebPass,
    WebSession,
    WebSigner,
    number,
)
from bot.web.discord_login import api_base, exchange_code
from bot.web.live_sockets import HELLO_WITHIN, LiveSockets, OpenPage
from bot.web.page_words import PAGE, page_html
from bot.web.telegram_login import check_init_data
from bot.web.tournament_html import tournament_html
from languages import accepted, msg, say

log = logging.getLogger(__name__)
Proxies = tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]

STATIC = Path(__file__).parent / "static"
COOKIE = "escape_session"
TABLE = "{sid:[0-9]{1,15}}"  # table numbers in a path: ASCII digits, a sane length
PAGE_PATHS = ("/", f"/table/{TABLE}", f"/watch/{TABLE}/{{key}}", "/tg", "/activity")
FRAMERS = (
    "https://discord.com https://*.discord.com https://*.discordsays.com "
    "https://web.telegram.org https://*.telegram.org"
)
CSP = (
    "default-src 'self'; img-src 'self' data: blob:; script-src 'self'; style-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; object-src 'none'; "
    f"frame-ancestors 'self' {FRAMERS}"
)
NOT_OURS = msg("That request is not one of ours.")
SIGNED_OUT = ("forged", "expired", "replayed", "denied", "signed_out")  # refusals answered 401
SIGN_IN = msg("Open the board from your link (/escape web in the chat), or from the bot's button.")
WHICH_TABLE = msg("Which table? That is not a table's number.")
TOO_MANY = msg("Too many requests at once: wait a moment.")
NOT_OUR_MESSAGE = msg("That message is not one of ours.")
TOO_MANY_FRAMES = msg("Too many messages at once: the page is read more slowly for a moment.")
FRAME_MOST = 16 * 1024  # a socket message of ours is far shorter: a longer one is refused
FRAME_READ = 1024 * 1024  # read whole (and refused) up to this; a longer one ends the socket
NO_TABLE_HERE = msg("No table you can see is open in this channel: start one with /escape start.")


@dataclass(frozen=True)
class WebConfig:
    public_url: str  # the origin people open (empty: the address it listens on)
    signer: WebSigner
    local: bool = False  # terminal play at this machine: the local players may be played
    language: str = (
        ""  # at this machine: the keyboard's language (the terminal's), not the browser's
    )
    telegram_token: str = ""
    telegram_webapp: str = ""
    discord_client_id: str = ""
    discord_client_secret: str = ""
    discord_api: str = ""
    proxies: Proxies = ()  # the reverse proxies whose X-Forwarded-For is believed


def local_player(name: str) -> UserRef:
    """A player at this machine's keyboard, as the terminal names them."""
    return UserRef("console", f"local:{name.lower()}", name)


class WebBoard:
    def __init__(self, service: GameService, config: WebConfig) -> None:
        self.service = service
        self.config = config
        self.signer = config.signer
        self.sockets = LiveSockets(service.web_board.updates)
        self._unsubscribe = None
        self._keys: asyncio.Task | None = None
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
            r.add_get(prefix + "/tournament-link/{token}", self.open_tournament_link)
            r.add_get(prefix + f"/tournament/{TABLE}", self.tournament)
            r.add_get(prefix + f"/api/tournaments/{TABLE}", self.api_tournament)
            r.add_get(prefix + "/api/config", self.api_config)
            r.add_get(prefix + f"/api/tables/{TABLE}", self.api_table)
            r.add_get(prefix + "/api/pictures/{token}.png", self.api_picture)
            r.add_get(prefix + f"/api/tables/{TABLE}/frames/{{n:[0-9]{{1,6}}}}.png", self.api_frame)
            r.add_get(prefix + f"/api/tables/{TABLE}/review", self.api_review)
            r.add_post(prefix + f"/api/tables/{TABLE}/describe", self.api_describe)
            r.add_post(prefix + "/api/auth/telegram", self.auth_telegram)
            r.add_post(prefix + "/api/auth/discord", self.auth_discord)
            r.add_get(prefix + "/api/discord/channels/{channel:[0-9]{1,20}}", self.api_channel)
            r.add_get(prefix + "/api/local/tables", self.local_tables)
            r.add_post(prefix + "/api/local/tables", self.local_start)
            r.add_get(prefix + "/api/live", self.live)
            r.add_post(prefix + "/api/learn", self.api_learn)
            r.add_static(prefix + "/static", STATIC, append_version=False)
        app.on_response_prepare.append(self._headers)
        app.on_startup.append(self._start)
        app.on_shutdown.append(self._stop)

    async def _start(self, app: web.Application) -> None:
        self._unsubscribe = self.service.on_table_change(self.sockets.changed)
        self._http = aiohttp.ClientSession()
        self.service.open_web(WebDoor(self.base, self.signer))
        self._keys = asyncio.create_task(self._keep_keys(), name="web-keys")

    async def _keep_keys(self) -> None:
        """The kept signing keys read again now and then (another process may have
        rotated them); a key of the operator's never changes."""
        wait = await self._refresh_keys()
        while wait is not None:
            await asyncio.sleep(wait)
            wait = await self._refresh_keys()

    async def _refresh_keys(self) -> float | None:
        try:
            return await self.service.web_board.refresh_keys(self.signer)
        except Exception as exc:  # the store away for a moment: the keys held go on
            log.warning("could not read the web board's signing keys (%s)", type(exc).__name__)
            return 60.0

    async def _stop(self, app: web.Application) -> None:
        if self._keys is not None:
            self._keys.cancel()
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
        nothing of the API kept in shared caches."""
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        if request.path.startswith(("/api/", "/link/", "/local/", "/tournament", "/.proxy/api/")):
            response.headers.setdefault("Cache-Control", "no-store")

    # ----- who is asking ------------------------------------------------------------------
    def session_of(self, request: web.Request, token: str | None = None) -> WebSession | None:
        """The proved viewer: a bearer token (the apps), else the session cookie; None
        when there is none, or it is forged or expired."""
        header = request.headers.get("Authorization", "")
        token = token or (header[7:] if header.startswith("Bearer ") else None)
        token = token or request.cookies.get(COOKIE)
        if not token:
            return None
        try:
            return self.signer.read_session(token)
        except UserError:
            return None

    def viewer(self, request: web.Request, token: str | None = None) -> UserRef | None:
        session = self.session_of(request, token)
        return session.user if session is not None else None

    def visitor(
        self, request: web.Request, watch: object = None, token: str | None = None
    ) -> Visitor:
        key = watch if isinstance(watch, str) and len(watch) < 64 else None
        return Visitor(self.viewer(request, token), key)

    async def language(self, request: web.Request, viewer: UserRef | None = None) -> str:
        """What a page is said in: the viewer's own setting, else their browser's; at this
        machine, the keyboard's (the language the terminal and its tables speak)."""
        browser = accepted(request.headers.get("Accept-Language"))
        if viewer is not None and viewer.id == LOCAL:
            return self.config.language or browser
        if viewer is None:
            return browser
        return await self.service.language_of(
            UserRef(viewer.platform, viewer.id, viewer.name, browser)
        )

    async def asker_language(self, request: web.Request) -> str:
        """The language of whoever asks, signed in or not (a refusal is said in it)."""
        return await self.language(request, self.viewer(request))

    def _set_cookie(self, response: web.StreamResponse, session: WebSession) -> None:
        secure = self.base.startswith("https://")
        token = self.signer.session(session.user, session.expires - self.signer.now())
        response.set_cookie(
            COOKIE,
            token,
            max_age=int(session.expires - self.signer.now()),
            httponly=True,
            samesite="Lax",
            secure=secure,
            path="/",
        )

    # ----- pages ------------------------------------------------------------------------
    async def page(self, request: web.Request) -> web.StreamResponse:
        language = await self.asker_language(request)
        return web.Response(
            text=page_html(language),
            content_type="text/html",
            headers={
                "Cache-Control": "no-cache",
                "Content-Language": language,
                "Vary": "Accept-Language, Cookie",
            },
        )

    async def open_link(self, request: web.Request) -> web.StreamResponse:
        try:
            session, sid = await self.service.web_board.claim_web_link(request.match_info["token"])
        except UserError as exc:
            return _refusal_page(say(exc.msg, await self.language(request)))
        response = web.Response(status=303, headers={"Location": f"/table/{sid}"})
        self._set_cookie(response, session)
        return response

    async def open_local(self, request: web.Request) -> web.StreamResponse:
        if not self.config.local:
            return _refusal_page(
                say(msg("Local play is not served here."), await self.language(request))
            )
        try:
            self.signer.read(request.match_info["token"], "local")
        except UserError as exc:
            return _refusal_page(say(exc.msg, await self.language(request)))
        response = web.Response(status=303, headers={"Location": "/"})
        user = UserRef("console", LOCAL, "this machine")
        self._set_cookie(response, WebSession(user, self.signer.now() + 24 * 3600))
        return response

    # ----- a tournament ------------------------------------------------------------------
    async def open_tournament_link(self, request: web.Request) -> web.StreamResponse:
        try:
            session, tid = await self.service.web_board.claim_tournament_link(
                request.match_info["token"]
            )
        except UserError as exc:
            return _refusal_page(say(exc.msg, await self.language(request)))
        response = web.Response(status=303, headers={"Location": f"/tournament/{tid}"})
        self._set_cookie(response, session)
        return response

    async def _tournament(self, request: web.Request, language: str) -> dict:
        tid = _table_number(request.match_info["sid"])
        return await self.service.web_board.tournament_page(tid, self.visitor(request), language)

    async def tournament(self, request: web.Request) -> web.StreamResponse:
        """A tournament's page: its viewer's, as the service's access rule allows."""
        language = await self.asker_language(request)
        try:
            page = await self._tournament(request, language)
        except UserError as exc:
            refusal = _refusal_page(say(exc.msg, language))
            refusal.set_status(404 if exc.reason == "no_table" else 403)
            return refusal
        return web.Response(
            text=tournament_html(page, language),
            content_type="text/html",
            headers={"Content-Language": language, "Vary": "Accept-Language, Cookie"},
        )

    async def api_tournament(self, request: web.Request) -> web.Response:
        language = await self.asker_language(request)
        return await _json(
            lambda: self._tournament(request, language), language=language, status=404
        )

    def local_link(self) -> str:
        """The link `make run` prints for local play (good for a day, at this machine)."""
        return f"{self.base}/local/{self.signer.sign('local', {}, 24 * 3600)}"

    # ----- the table ----------------------------------------------------------------------
    async def api_config(self, request: web.Request) -> web.Response:
        return web.json_response(
            {
                "discord_client_id": self.config.discord_client_id,
                "local": self.config.local,
                "activity": (STATIC / "build" / "activity.js").is_file(),
            }
        )

    async def api_table(self, request: web.Request) -> web.Response:
        """The table as a page shows it (the page itself has it from its socket)."""
        language = await self.asker_language(request)

        async def answer() -> dict:
            sid = _table_number(request.match_info["sid"])
            wanted = number(request.query.get("seat", ""), 99)
            pass_ = WebPass(
                sid, self.visitor(request, request.query.get("watch")), wanted, language
            )
            return await self.service.web_board.page(pass_)

        return await _json(answer, language=language, status=404)

    async def api_picture(self, request: web.Request) -> web.StreamResponse:
        language = await self.asker_language(request)
        try:
            layout = "narrow" if request.query.get("layout") == "narrow" else "wide"
            picture = await self.service.web_board.picture(
                request.match_info["token"], self.viewer(request), layout
            )
        except UserError as exc:
            status = {"stale": 409, "no_table": 404, "forged": 403, "expired": 403}.get(
                exc.reason, 403
            )
            return web.json_response(
                {"error": say(exc.msg, language), "reason": exc.reason}, status=status
            )
        # (an address names one version: what it shows never changes; kept by the browser only)
        return web.Response(
            body=picture.png,
            content_type="image/png",
            headers={"Cache-Control": "private, max-age=3600, immutable"},
        )

    async def api_frame(self, request: web.Request) -> web.StreamResponse:
        language = await self.asker_language(request)
        try:
            sid = _table_number(request.match_info["sid"])
            n = number(request.match_info["n"], 100_000)
            visitor = self.visitor(request, request.query.get("watch"))
            picture, text = await self.service.web_board.frame(sid, visitor, n or 0, language)
        except UserError as exc:
            status = 404 if exc.reason == "no_table" else 403
            return web.json_response({"error": say(exc.msg, language)}, status=status)
        return web.Response(
            body=picture.png,
            content_type="image/png",
            headers={"X-Frame-Caption": _header_safe(text)},
        )

    async def api_review(self, request: web.Request) -> web.Response:
        """A finished game's review for the viewer (the seat they play, at this machine)."""
        language = await self.asker_language(request)

        async def answer() -> dict:
            sid = _table_number(request.match_info["sid"])
            seat = number(request.query.get("seat", ""), 99)
            visitor = self.visitor(request, request.query.get("watch"))
            return await self.service.web_board.review(sid, visitor, language, seat)

        return await _json(answer, language=language)

    async def api_describe(self, request: web.Request) -> web.Response:
        """The page's question about the board (`/escape describe`): `{"what": "c3"}`, asked
        as the page's player (the seat it plays, at this machine) or as a watcher."""
        language = await self.asker_language(request)

        async def answer() -> dict:
            sid = _table_number(request.match_info["sid"])
            body = await _body(request)
            what = body.get("what")
            if not isinstance(what, str | None):
                raise UserError(NOT_OURS)
            visitor = self.visitor(request, body.get("watch"))
            pass_ = WebPass(sid, visitor, number(body.get("seat"), 99), language)
            return {"text": await self.service.web_board.describe(pass_, (what or "")[:80])}

        return await _json(answer, language=language)

    # ----- lessons ------------------------------------------------------------------------
    async def api_learn(self, request: web.Request) -> web.Response:
        """The page's Learn: `{"what": "ghosts18"}` starts or resumes the viewer's own
        lesson (or types a move in it), `{"press": data}` presses one of its buttons."""
        language = await self.asker_language(request)

        async def answer() -> dict:
            body = await _body(request)
            what, data = body.get("what"), body.get("press")
            if not isinstance(what, str | None) or not isinstance(data, str | None):
                raise UserError(NOT_OURS)
            visitor = self.visitor(request)
            if visitor.user is not None and visitor.user.id == LOCAL:  # "this machine": the
                first = say(PAGE["default_players"], language).split(",")[0]  # page's player
                visitor = Visitor(replace(visitor.user, name=first))
            return await self.service.web_board.lesson(
                visitor, what and what[:200], data and data[:64], language
            )

        return await _json(answer, language=language)

    # ----- the apps' sign-in ----------------------------------------------------------------
    async def auth_telegram(self, request: web.Request) -> web.Response:
        async def answer() -> dict:
            body = await _body(request)
            login = check_init_data(
                str(body.get("init_data", "")), self.config.telegram_token, self.signer.now()
            )
            table = number(login.start_param) if login.start_param else number(body.get("table"))
            return {
                "token": self.signer.session(login.user),
                "name": login.user.name,
                "table": table,
            }

        return await _json(answer, status=401, language=await self.language(request))

    async def auth_discord(self, request: web.Request) -> web.Response:
        async def answer() -> dict:
            body = await _body(request)
            c = self.config
            login = await exchange_code(
                self._http,
                api_base(c.discord_api),
                c.discord_client_id,
                c.discord_client_secret,
                str(body.get("code", ""))[:200],
            )
            return {
                "token": self.signer.session(login.user),
                "name": login.user.name,
                "access_token": login.access_token,
            }

        return await _json(answer, status=401, language=await self.language(request))

    async def api_channel(self, request: web.Request) -> web.Response:
        async def answer() -> dict:
            viewer = self.viewer(request)
            if viewer is None or viewer.platform != "discord":
                raise UserError(SIGN_IN, reason="signed_out")
            channel = request.match_info["channel"]
            sid = await self.service.web_board.table_in_channel("discord", channel, Visitor(viewer))
            if sid is None:
                raise UserError(NO_TABLE_HERE, reason="no_table")
            return {"table": sid}

        return await _json(answer, language=await self.asker_language(request), status=404)

    # ----- local play ---------------------------------------------------------------------
    def _local_viewer(self, request: web.Request) -> UserRef:
        viewer = self.viewer(request)
        if not self.config.local or viewer is None or viewer.id != LOCAL:
            raise UserError(
                msg(
                    "Local play is for the person at this machine: open the link `make run` printed."
                ),
                reason="signed_out",
            )
        return viewer

    async def local_tables(self, request: web.Request) -> web.Response:
        language = await self.asker_language(request)

        async def answer() -> dict:
            self._local_viewer(request)
            tables = await self.service.live_tables("console", "terminal")
            return {
                "games": [self._game_choice(g, t, language) for g, t in self.service.game_list()],
                "tables": [
                    {"id": t.session_id, "text": say(t.describe(), language)} for t in tables
                ],
            }

        return await _json(answer, language=language)

    def _game_choice(self, game_id: str, title: str, language: str) -> dict:
        """A game as the local page offers it: its title, player counts and options."""
        game = self.service.game(game_id)
        return {
            "id": game_id,
            "title": say(msg(title), language),
            "players": say(game.player_range(), language),
            "options": [
                {
                    "name": name,
                    "title": say(game.option_name(name), language),
                    "default": option.default,
                    "choices": [
                        {"value": c, "label": say(option.label(c), language)}
                        for c in option.choices
                    ],
                    "about": say(option.description, language),
                }
                for name, option in game.options.items()
            ],
        }

    async def local_start(self, request: web.Request) -> web.Response:
        """A new terminal table from the page: the game, its options, the players' names
        (`bot` for a computer player), like the terminal's own set-up."""
        language = await self.asker_language(request)

        async def answer() -> dict:
            self._local_viewer(request)
            body = await _body(request)
            game = self.service.game(str(body.get("game", ""))[:40])
            names = [n.strip() for n in str(body.get("players", ""))[:1000].split(",") if n.strip()]
            humans = [n for n in names if n.lower() != "bot"]
            if not humans or len({n.lower() for n in humans}) != len(humans):
                raise UserError(msg("Name at least one player, each differently, e.g. Ann,bot."))
            long = next((n for n in humans if len(n) > MAX_NAME), None)
            if long is not None:  # the one limit of every front end
                raise UserError(
                    msg(
                        "A name is at most {most} characters: {start}...",
                        most=MAX_NAME,
                        start=long[:MAX_NAME],
                    )
                )
            if not game.min_players <= len(names) <= game.max_players:
                raise UserError(
                    msg(
                        "{game} is for {players} players.",
                        game=msg(game.title),
                        players=game.player_range(),
                    )
                )
            used = {t.chat.thread for t in await self.service.live_tables("console", "terminal")}
            thread = next(str(n) for n in range(1, 10_000) if str(n) not in used)
            chat = ChatRef("console", "terminal", thread, "terminal", language=language)
            first = local_player(humans[0])
            await self.service.start(chat, first, game.id, str(body.get("options", ""))[:400])
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
        """A socket opens only from the board's own origin as configured (ESCAPE_PUBLIC_URL,
        else the address it listens on), never from what the request's Host header says,
        or from the Discord Activity's."""
        origin = request.headers.get("Origin", "")
        allowed = {_origin(self.base)}
        if not self.config.public_url:  # (local play: the address printed, and its name)
            allowed.add(_origin(self.base).replace("://127.0.0.1:", "://localhost:"))
        if self.config.discord_client_id:
            allowed.add(f"https://{self.config.discord_client_id}.discordsays.com")
        return origin in allowed

    async def live(self, request: web.Request) -> web.StreamResponse:
        language = await self.language(request)  # until the hello says who is watching
        if not self.origin_allowed(request):
            said = say(msg("This page may not connect from there."), language)
            return web.json_response({"error": said}, status=403)
        address = client_address(request, self.config.proxies)
        if not self.sockets.room_for(address):
            return web.json_response({"error": say(TOO_MANY, language)}, status=429)
        ws = web.WebSocketResponse(heartbeat=30, max_msg_size=FRAME_READ)
        try:
            await ws.prepare(request)
        except ConnectionError:  # gone before the handshake was answered
            return ws
        page = OpenPage(ws, address, language=language)
        self.sockets.opened(page)
        hello_late = self.sockets.close_unless_hello(page, HELLO_WITHIN)

        async def slow_down() -> None:
            await _send_json(ws, {"error": say(TOO_MANY_FRAMES, page.language)})

        try:
            async for message in ws:
                await self.sockets.pace(page, slow_down)  # every frame counts
                if message.type == aiohttp.WSMsgType.TEXT and len(message.data) <= FRAME_MOST:
                    await self._heard(request, page, message.data)
                else:  # binary, or longer than any message of ours
                    await _send_json(ws, {"error": say(NOT_OUR_MESSAGE, page.language)})
        finally:
            hello_late.cancel()
            self.sockets.closed(page)
        return ws

    async def _heard(self, request: web.Request, page: OpenPage, data: str) -> None:
        """One message of a page; whatever it is, answered on the socket, never by a
        dropped connection."""
        try:
            said = json.loads(data)
        except (ValueError, RecursionError):  # (JSON nested thousands deep: RecursionError)
            said = None
        if isinstance(said, dict) and isinstance(said.get("hello"), dict):
            await self._hello(request, page, said["hello"])
        elif isinstance(said, dict) and isinstance(said.get("press"), dict):
            pressed = await self._press(request, page, said["press"])
            await _send_json(page.ws, {"pressed": pressed})
        else:
            await _send_json(page.ws, {"error": say(NOT_OUR_MESSAGE, page.language)})

    def _viewer_key(self, page: OpenPage, user: UserRef | None, watch: str | None) -> str:
        if user is not None:
            return f"{user.platform}:{user.id}"
        return f"watch:{watch}" if watch else f"nobody:{page.address}"

    async def _hello(self, request: web.Request, page: OpenPage, hello: dict) -> None:
        """A page says which table it shows (and, from an app, its session): it is sent
        the table as its viewer may see it, and pushed every change from then on."""
        token = hello.get("token") if isinstance(hello.get("token"), str) else None
        visitor = self.visitor(request, hello.get("watch"), token)
        page.language = await self.language(request, visitor.user)
        if not self.sockets.allow(
            "hello", self._viewer_key(page, visitor.user, visitor.watch_key), page.address
        ):
            await _send_json(page.ws, {"error": say(TOO_MANY, page.language)})
            return
        sid = number(hello.get("table"))
        if sid is None:
            await _send_json(page.ws, {"error": say(WHICH_TABLE, page.language)})
            return
        pass_ = WebPass(sid, visitor, number(hello.get("seat"), 99), page.language)
        try:
            shown = await self.service.web_board.page(pass_)
        except UserError as exc:
            await _send_json(page.ws, {"error": say(exc.msg, page.language), "reason": exc.reason})
            return
        page.token = token
        self.sockets.watch(page, pass_)
        await _send_json(page.ws, {"page": shown})

    async def _press(self, request: web.Request, page: OpenPage, press: dict) -> dict:
        """A button pressed on the page: checked and made like a press in the chat; the
        plan goes to the table's chat, and the page is pushed the table like every page."""
        language = page.language
        if page.web is None:
            return {"ok": False, "error": say(SIGN_IN, language)}
        visitor = self.visitor(
            request, page.web.visitor.watch_key, page.token
        )  # (a session may expire)
        if not self.sockets.allow(
            "press", self._viewer_key(page, visitor.user, visitor.watch_key), page.address
        ):
            return {
                "ok": False,
                "error": say(msg("Too many moves at once: wait a moment."), language),
            }
        data = press.get("data")
        seat = number(press.get("seat"), 99)
        pass_ = WebPass(
            page.web.table, visitor, page.web.wanted if seat is None else seat, language
        )
        try:
            chat, plan = await self.service.web_board.press(
                pass_, data if isinstance(data, str) else ""
            )
        except UserError as exc:
            return {"ok": False, "error": say(exc.msg, language), "stale": exc.reason == "stale"}
        self.sockets.later(self.service.notify(chat, plan))  # the table's chat sees it
        return {"ok": True}


# ----- small helpers --------------------------------------------------------------------
def client_address(request: web.Request, proxies: Proxies = ()) -> str:
    """Who connects: the peer, or, when the peer is one of the configured reverse proxies
    (ESCAPE_WEB_PROXIES), the address the proxies say they forwarded (`X-Forwarded-For`,
    read from the right past the proxies' own addresses). Anyone else's header is ignored:
    a private address is no proxy unless it is configured as one."""
    peer = request.remote or ""
    if not proxies or not _among(peer, proxies):
        return peer
    for hop in reversed(request.headers.get("X-Forwarded-For", "").split(",")[-8:]):
        hop = hop.strip()
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            return peer  # not an address: a header the proxy did not write
        if not _among(hop, proxies):
            return hop
    return peer


def _among(address: str, proxies: Proxies) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in proxies)


async def _send_json(ws: web.WebSocketResponse, message: dict) -> None:
    """An answer on a socket that may be closing meanwhile (nothing to tell then)."""
    with contextlib.suppress(ConnectionError, RuntimeError):
        await ws.send_json(message)


def _table_number(text: str) -> int:
    sid = number(text)
    if sid is None:
        raise UserError(WHICH_TABLE, reason="no_table")
    return sid


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme else ""


def _header_safe(text: str) -> str:
    return " ".join(text.encode("ascii", "replace").decode().split())[:300]


async def _body(request: web.Request) -> dict:
    try:
        body = await request.json()
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:  # (nested thousands deep)
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
        code = 401 if exc.reason in SIGNED_OUT else 404 if exc.reason == "no_table" else status
        return web.json_response(
            {"error": say(exc.msg, language), "reason": exc.reason}, status=code
        )


def _refusal_page(message: str) -> web.Response:
    body = (
        f"<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>"
        f"<title>Escape</title><link rel=stylesheet href=/static/board.css>"
        f"<main class=refusal><h1>Escape</h1><p role=alert>{html.escape(message)}</p></main>"
    )
    return web.Response(text=body, content_type="text/html", status=403)
