"""A stand-in Discord on 127.0.0.1: just enough REST and gateway for the real discord.py.

The client logs in (GET /users/@me, /oauth2/applications/@me), opens the gateway
websocket (HELLO, IDENTIFY, READY, heartbeats) and then receives the INTERACTION_CREATE
events a test pushes. Every REST call is recorded (method, path, JSON body, uploaded
files, time) and messages are kept with their components, so a test can click the
buttons the bot actually posted. A test can make the next matching call answer 429.

It serves several guilds, each on the shard Discord would put it on (`(guild_id >> 22) %
shard_count`): an interaction goes only to the connection of its guild's shard, as from
Discord. It records when each IDENTIFY came (`identified_at`) and tells `max_concurrency`
at GET /gateway/bot. With `limits` set it enforces Discord's rate limits per bot token,
whichever process calls (issue 58): 50 requests a second in all (interactions' endpoints
aside), and each route's bucket, announced in the X-RateLimit headers of every answer; a
request past a limit is refused with 429 and counted in `breaches`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

APP_ID = 900000000000000001
BOT_ID = APP_ID
GUILD_ID = 910000000000000001
EPHEMERAL = 64
ALL_PERMISSIONS = str((1 << 50) - 1)
MEMBER_PERMISSIONS = str(
    (1 << 10) | (1 << 11) | (1 << 15) | (1 << 16)
)  # view, send, files, history
MANAGE_MESSAGES = 1 << 13

# discord.py checks the content type exactly (no charset)
JSON = "application/json"


def _json_response(status: int, answer: Any, headers: dict | None = None) -> web.Response:
    # exactly `application/json`: discord.py treats anything else (even with a charset) as text
    return web.Response(
        status=status,
        body=json.dumps(answer).encode(),
        headers={**(headers or {}), "Content-Type": JSON},
    )


def _now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class Limits:
    """Discord's limits: requests a second in all (interactions aside), and each route
    bucket's (requests, seconds), a fixed window from its first request."""

    overall: tuple[int, float] = (50, 1.0)
    buckets: dict[str, tuple[int, float]] = field(
        default_factory=lambda: {"post": (5, 5.0), "edit": (5, 5.0), "hook": (5, 2.0)}
    )


def bucket_of(method: str, path: str) -> tuple[str, str] | None:
    """(bucket, major parameter) of a route the stand-in limits, as Discord splits them."""
    m = re.fullmatch(r"/channels/(\d+)/messages", path)
    if m and method == "POST":
        return "post", m.group(1)
    m = re.fullmatch(r"/channels/(\d+)/messages/\d+", path)
    if m and method in ("PATCH", "DELETE"):
        return "edit", m.group(1)
    m = re.fullmatch(r"/webhooks/\d+/([^/]+)(/.*)?", path)
    if m:
        return "hook", m.group(1)
    return None


def exempt(path: str) -> bool:
    """An interaction's own endpoint: not counted in the global limit."""
    return (
        path.startswith("/interactions/")
        or re.fullmatch(r"/webhooks/\d+/[^/]+(/.*)?", path) is not None
    )


def user_payload(user_id: int, name: str, *, bot: bool = False) -> dict:
    return {
        "id": str(user_id),
        "username": name.lower(),
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
        "public_flags": 0,
    }


@dataclass
class Call:
    method: str
    path: str
    query: dict[str, str]
    body: Any  # the JSON body (or payload_json of a multipart upload), or None
    files: list[tuple[str, bytes]]  # (filename, bytes) of uploaded files
    at: float  # time.monotonic() when the request arrived
    status: int = 200


@dataclass
class Message:
    id: int
    channel_id: int
    content: str
    flags: int
    components: list
    attachments: list
    files: list[tuple[str, bytes]]
    allowed_mentions: dict | None
    token: str | None = None  # the interaction token when posted as a followup
    deleted: bool = False
    thinking: bool = False  # a deferred "thinking" answer the first followup fills in
    edits: list[dict] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for row in self.components for c in row.get("components", [])]

    def buttons(self) -> list[dict]:
        return [c for row in self.components for c in row.get("components", []) if c["type"] == 2]

    def selects(self) -> list[dict]:
        return [c for row in self.components for c in row.get("components", []) if c["type"] == 3]


@dataclass
class Interaction:
    id: int
    token: str
    payload: dict
    pushed_at: float
    callbacks: list[dict] = field(default_factory=list)


class DiscordStandIn:
    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.messages: dict[int, Message] = {}
        self.interactions: dict[str, Interaction] = {}  # by token
        self.identified = asyncio.Event()
        self.identify_count = 0
        self.identifies: list[dict] = []  # each IDENTIFY's payload (its shard, intents)
        self._ids = itertools.count(1_000_000_000_000_000_000)
        self._sockets: set[web.WebSocketResponse] = set()
        self._changed = asyncio.Condition()
        self._fail: list[tuple[str, re.Pattern[str], int, float]] = []
        self._runner: web.AppRunner | None = None
        self._seq = itertools.count(2)
        self.port = 0
        self.channels: dict[int, dict] = {}
        self.dm_channels: dict[int, int] = {}  # user id -> their DM channel with the bot
        self.closed_dms: set[int] = set()  # users who do not take DMs from the bot
        # When set, REST calls must carry `Authorization: Bot <token>`; others answer 401 as
        # Discord does to a wrong token (discord.py's login then raises LoginFailure).
        self.token: str | None = None
        self.refusing_gateway = False  # the gateway is unreachable (see drop_gateway)
        # OAuth2 for an Activity: code -> user it was issued to; access token -> user
        self.client_secret = "standin-client-secret"
        self.oauth_codes: dict[str, dict] = {}
        self.access_tokens: dict[str, dict] = {}
        # the guild's members (user id -> user): whoever used a command or a button here, or
        # was added (join_guild); GET /guilds/../members/.. answers 404 for anyone else
        self.members: dict[int, dict] = {}
        self.guilds: list[int] = [GUILD_ID]
        self.shard_of: dict[web.WebSocketResponse, tuple[int, int]] = {}  # (shard, count)
        self.identified_at: list[tuple[float, int, int]] = []  # (time, shard, count)
        self.max_concurrency = 1
        self.limits: Limits | None = None  # enforced when set
        self.breaches: list[str] = []
        self._global: list[float] = []  # arrival times counted in the global limit
        self._buckets: dict[tuple[str, str], tuple[float, int]] = {}  # -> (reset at, used)
        self.published: list[dict] = []  # the commands of the last PUT Discord took

    # ----- lifecycle --------------------------------------------------------------------
    async def start(self) -> None:
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def connected(self) -> int:
        return len(self._sockets)

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # ----- test controls ------------------------------------------------------------------
    def fail_next(
        self, method: str, path_pattern: str, *, times: int = 1, retry_after: float = 0.05
    ) -> None:
        """The next `times` calls matching answer 429 (with the Via header Discord's edge
        sends, without which discord.py would not retry)."""
        self._fail.append((method, re.compile(path_pattern), times, retry_after))

    def add_guild(self, guild_id: int) -> None:
        self.guilds.append(guild_id)

    @staticmethod
    def on_shard(guild_id: int, shard: int, count: int) -> bool:
        return (guild_id >> 22) % count == shard

    def guild_payload(self, guild_id: int = GUILD_ID) -> dict:
        """The guild with its channels as they are now. Discord sends no MESSAGE_CREATE to a
        bot with the guilds intent alone, so the channels discord.py caches from this keep
        the `last_message_id` they had when the bot connected."""
        channels = [
            dict(c)
            for c in self.channels.values()
            if c.get("type") == 0 and c.get("guild_id") == str(guild_id)
        ]
        return {
            "id": str(guild_id),
            "name": "Stand-in guild",
            "owner_id": str(BOT_ID),
            "unavailable": False,
            "member_count": 3,
            "large": False,
            "joined_at": _now(),
            "roles": [self.everyone_role()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "channels": channels,
            "threads": [],
            "members": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "premium_tier": 0,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "preferred_locale": "en-US",
            "system_channel_flags": 0,
        }

    @staticmethod
    def everyone_role() -> dict:
        """@everyone (its id is the guild's): members see and write in every channel
        unless a channel's overwrite says otherwise."""
        return {
            "id": str(GUILD_ID),
            "name": "@everyone",
            "permissions": MEMBER_PERMISSIONS,
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }

    def join_guild(self, user: dict) -> None:
        self.members[int(user["id"])] = user

    def leave_guild(self, user: dict) -> None:
        self.members.pop(int(user["id"]), None)

    async def hide_channel_from(self, channel_id: int, user: dict) -> None:
        """A member overwrite denying VIEW_CHANNEL to `user`, told to the connected clients
        as Discord does (CHANNEL_UPDATE)."""
        channel = self.channels[channel_id]
        channel["permission_overwrites"].append(
            {"id": str(user["id"]), "type": 1, "allow": "0", "deny": str(1 << 10)}
        )
        event = {"op": 0, "t": "CHANNEL_UPDATE", "s": next(self._seq), "d": channel}
        for ws in list(self._sockets):
            await ws.send_str(json.dumps(event))

    def member_payload(self, user: dict) -> dict:
        return {
            "user": user,
            "roles": [],
            "joined_at": _now(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
        }

    async def drop_gateway(self) -> None:
        """The gateway goes away: every connection is closed and reconnecting fails until
        `restore_gateway` (as in an outage between the bot and Discord)."""
        self.refusing_gateway = True
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close(code=4000, message=b"stand-in outage")

    def restore_gateway(self) -> None:
        self.refusing_gateway = False

    def text_channel(self, channel_id: int, name: str = "games", guild: int = GUILD_ID) -> dict:
        channel = {
            "id": str(channel_id),
            "type": 0,
            "guild_id": str(guild),
            "name": name,
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        self.channels[channel_id] = channel
        return channel

    def archive(self, thread_id: int) -> None:
        """What Discord does to a thread after a week without messages."""
        self.channels[thread_id]["thread_metadata"]["archived"] = True

    async def push(self, payload: dict) -> Interaction:
        """Send an INTERACTION_CREATE to the connection of its guild's shard (a DM's goes
        to shard 0), as Discord does."""
        token = payload["token"]
        record = Interaction(int(payload["id"]), token, payload, time.monotonic())
        self.interactions[token] = record
        event = {"op": 0, "t": "INTERACTION_CREATE", "s": next(self._seq), "d": payload}
        guild = int(payload.get("guild_id") or 0)
        targets = [
            ws for ws in list(self._sockets) if self.on_shard(guild, *self.shard_of.get(ws, (0, 1)))
        ]
        assert targets, "no discord.py client of its shard is connected"
        for ws in targets:
            await ws.send_str(json.dumps(event))
        return record

    def interaction_payload(
        self,
        kind: int,
        user: dict,
        channel_id: int,
        data: dict,
        *,
        permissions: str = MEMBER_PERMISSIONS,
        message: dict | None = None,
        app_permissions: str = ALL_PERMISSIONS,
        locale: str = "en-US",
        guild_locale: str = "en-US",
    ) -> dict:
        """`locale` is the member's client language, `guild_locale` the server's preferred
        one (Discord sends both with every interaction)."""
        iid = next(self._ids)
        channel = self.channels.get(channel_id) or self.text_channel(channel_id)
        if channel_id not in self.dm_channels.values():
            self.join_guild(user)  # (only a member can use a server's commands)
        guild = int(channel.get("guild_id") or GUILD_ID)
        payload = {
            "id": str(iid),
            "application_id": str(APP_ID),
            "type": kind,
            "token": f"tok{iid}",
            "version": 1,
            "guild_id": str(guild),
            "channel_id": str(channel_id),
            "channel": channel,
            "member": {
                "user": user,
                "roles": [],
                "joined_at": _now(),
                "deaf": False,
                "mute": False,
                "flags": 0,
                "pending": False,
                "permissions": permissions,
            },
            "app_permissions": app_permissions,
            "locale": locale,
            "guild_locale": guild_locale,
            "attachment_size_limit": 10 * 1024 * 1024,
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild)},
            "context": 0,
            "data": dict(data, guild_id=str(guild)) if "guild_id" in data else data,
        }
        if channel_id in self.dm_channels.values():  # a press in a member's DM with the bot
            for key in ("guild_id", "member", "app_permissions", "guild_locale"):
                payload.pop(key, None)
            del self.channels[channel_id]
            payload["user"] = user
            payload["context"] = 1
            payload["authorizing_integration_owners"] = {"0": str(GUILD_ID)}
            payload["channel"] = {"id": str(channel_id), "type": 1, "last_message_id": None}
        if message is not None:
            payload["message"] = message
        return payload

    def slash_payload(
        self, user: dict, channel_id: int, sub: str, options: dict | None = None, **kw
    ) -> dict:
        """`/escape SUB`, or `/escape GROUP SUB` (`sub` given as "GROUP SUB")."""
        opts = []
        resolved: dict = {}
        for name, value in (options or {}).items():
            if isinstance(value, dict):  # a member picked from the menu (a USER option)
                self.join_guild(value)
                resolved.setdefault("users", {})[value["id"]] = value
                member = {k: v for k, v in self.member_payload(value).items() if k != "user"}
                resolved.setdefault("members", {})[value["id"]] = member
                opts.append({"name": name, "type": 6, "value": value["id"]})
                continue
            kind = 5 if isinstance(value, bool) else 3
            opts.append({"name": name, "type": kind, "value": value})
        *group, name = sub.split()
        chosen = {"name": name, "type": 1, "options": opts}
        if group:
            chosen = {"name": group[0], "type": 2, "options": [chosen]}
        data = {
            "id": str(APP_ID + 7),
            "name": "escape",
            "type": 1,
            "guild_id": str(GUILD_ID),
            "options": [chosen],
            **({"resolved": resolved} if resolved else {}),
        }
        return self.interaction_payload(2, user, channel_id, data, **kw)

    def autocomplete_payload(self, user: dict, channel_id: int, typed: str) -> dict:
        data = {
            "id": str(APP_ID + 7),
            "name": "escape",
            "type": 1,
            "options": [
                {
                    "name": "move",
                    "type": 1,
                    "options": [{"name": "action", "type": 3, "value": typed, "focused": True}],
                }
            ],
        }
        return self.interaction_payload(4, user, channel_id, data)

    def click_payload(self, user: dict, message: Message, custom_id: str, **kw) -> dict:
        data = {"custom_id": custom_id, "component_type": 2}
        return self.interaction_payload(
            3, user, message.channel_id, data, message=self.message_payload(message), **kw
        )

    def select_payload(self, user: dict, message: Message, custom_id: str, value: str) -> dict:
        data = {"custom_id": custom_id, "component_type": 3, "values": [value]}
        return self.interaction_payload(
            3, user, message.channel_id, data, message=self.message_payload(message)
        )

    async def wait_for(self, predicate, timeout: float = 5.0):
        """Wait until predicate() is truthy (re-checked after every REST call)."""
        async with self._changed:
            result = predicate()
            deadline = time.monotonic() + timeout
            while not result:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError("the stand-in never saw what the test waited for")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), remaining)
                result = predicate()
            return result

    def messages_for(self, token: str) -> list[Message]:
        return [m for m in self.messages.values() if m.token == token and not m.deleted]

    def callbacks(self) -> list[Call]:
        return [c for c in self.calls if c.path.endswith("/callback")]

    # ----- gateway --------------------------------------------------------------------
    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        if self.refusing_gateway:
            return web.Response(status=503, text="the stand-in's gateway is down")
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self._sockets.add(ws)
        try:
            await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45000}}))
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                op = data.get("op")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11}))
                elif op == 2:
                    identify = data.get("d") or {}
                    self.identifies.append(identify)
                    shard, count = identify.get("shard") or [0, 1]
                    self.identified_at.append((time.monotonic(), shard, count))
                    self.shard_of[ws] = (shard, count)
                    ours = [g for g in self.guilds if self.on_shard(g, shard, count)]
                    ready = {
                        "v": 10,
                        "user": user_payload(BOT_ID, "Escape", bot=True),
                        "guilds": [{"id": str(g), "unavailable": True} for g in ours],
                        "session_id": f"session{self.identify_count}",
                        "resume_gateway_url": self.gateway_url,
                        "application": {"id": str(APP_ID), "flags": 0},
                    }
                    if (data.get("d") or {}).get("shard"):  # a sharded client's own shard
                        ready["shard"] = data["d"]["shard"]
                    await ws.send_str(json.dumps({"op": 0, "t": "READY", "s": 1, "d": ready}))
                    for guild in ours:  # as Discord does for the guilds intent: each, cached
                        event = {
                            "op": 0,
                            "t": "GUILD_CREATE",
                            "s": next(self._seq),
                            "d": self.guild_payload(guild),
                        }
                        await ws.send_str(json.dumps(event))
                    self.identify_count += 1
                    self.identified.set()
        finally:
            self._sockets.discard(ws)
            self.shard_of.pop(ws, None)
            async with self._changed:
                self._changed.notify_all()
        return ws

    # ----- REST -----------------------------------------------------------------------
    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        if path == "/oauth2/token" and request.method == "POST":
            return self._oauth_token(await request.post())
        bearer = request.headers.get("Authorization", "")
        if path == "/users/@me" and bearer.startswith("Bearer "):
            user = self.access_tokens.get(bearer[7:])
            if user is None:
                return _json_response(401, {"message": "401: Unauthorized", "code": 0})
            return _json_response(200, user)
        body: Any = None
        files: list[tuple[str, bytes]] = []
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                else:
                    files.append((part.filename or "", bytes(await part.read())))
        elif request.can_read_body:
            raw = await request.read()
            body = json.loads(raw) if raw else None
        call = Call(request.method, path, dict(request.query), body, files, time.monotonic())
        self.calls.append(call)
        if self.token is not None and request.headers.get("Authorization") != f"Bot {self.token}":
            call.status = 401
            return _json_response(401, {"message": "401: Unauthorized", "code": 0})
        try:
            refused = self._limited(request.method, path)
            if refused is not None:
                call.status = 429
                return refused
            failure = self._take_failure(request.method, path)
            if failure is not None:
                call.status = 429
                return _json_response(
                    429,
                    {
                        "message": "You are being rate limited.",
                        "retry_after": failure,
                        "global": False,
                    },
                    {
                        "Via": "1.1 google",
                        "Retry-After": str(failure),
                        "X-RateLimit-Limit": "5",
                        "X-RateLimit-Remaining": "0",
                        "X-RateLimit-Reset-After": str(failure),
                        "X-RateLimit-Bucket": (bucket_of(request.method, path) or ("standin",))[0],
                        "X-RateLimit-Scope": "user",
                    },
                )
            status, answer = self._answer(request.method, path, body, files)
            call.status = status
            headers = self._bucket_headers(request.method, path)
            if answer is None:
                return web.Response(status=status, headers=headers)
            return _json_response(status, answer, headers)
        finally:
            async with self._changed:
                self._changed.notify_all()

    def _limited(self, method: str, path: str) -> web.Response | None:
        """A 429 for a request past the global limit or its route's bucket (a breach)."""
        if self.limits is None:
            return None
        now = time.monotonic()
        if not exempt(path):
            count, per = self.limits.overall
            self._global = [t for t in self._global if t > now - per]
            if len(self._global) >= count:
                wait = self._global[-count] + per - now
                self.breaches.append(f"{method} {path}: past {count} requests in {per:g} s")
                return _json_response(
                    429,
                    {"message": "You are being rate limited.", "retry_after": wait, "global": True},
                    {
                        "Via": "1.1 google",
                        "Retry-After": f"{wait:.3f}",
                        "X-RateLimit-Global": "true",
                        "X-RateLimit-Scope": "global",
                    },
                )
            self._global.append(now)
        found = bucket_of(method, path)
        if found is None:
            return None
        limit, per = self.limits.buckets[found[0]]
        reset, used = self._buckets.get(found, (0.0, 0))
        if now >= reset:
            reset, used = now + per, 0
        if used >= limit:
            wait = reset - now
            self.breaches.append(f"{method} {path}: past bucket {found[0]} ({limit} in {per:g} s)")
            return _json_response(
                429,
                {"message": "You are being rate limited.", "retry_after": wait, "global": False},
                {
                    "Via": "1.1 google",
                    "Retry-After": f"{wait:.3f}",
                    "X-RateLimit-Limit": str(limit),
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset-After": f"{wait:.3f}",
                    "X-RateLimit-Bucket": found[0],
                    "X-RateLimit-Scope": "user",
                },
            )
        self._buckets[found] = (reset, used + 1)
        return None

    def _bucket_headers(self, method: str, path: str) -> dict[str, str]:
        """What Discord announces of a limited route's bucket with each answer."""
        found = bucket_of(method, path) if self.limits is not None else None
        if found is None:
            return {}
        limit, _ = self.limits.buckets[found[0]]
        reset, used = self._buckets[found]
        return {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(limit - used),
            "X-RateLimit-Reset-After": f"{max(0.0, reset - time.monotonic()):.3f}",
            "X-RateLimit-Bucket": found[0],
        }

    def _oauth_token(self, form) -> web.Response:
        """Discord's token endpoint: an authorization code, once, for this app's client."""
        if form.get("client_id") != str(APP_ID) or form.get("client_secret") != self.client_secret:
            return _json_response(401, {"error": "invalid_client"})
        user = self.oauth_codes.pop(str(form.get("code")), None)
        if form.get("grant_type") != "authorization_code" or user is None:
            return _json_response(
                400, {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'}
            )
        token = f"access-{next(self._ids)}"
        self.access_tokens[token] = user
        return _json_response(
            200,
            {
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": 604800,
                "scope": "identify",
            },
        )

    def _take_failure(self, method: str, path: str) -> float | None:
        for i, (m, pattern, times, retry_after) in enumerate(self._fail):
            if m == method and pattern.search(path):
                if times <= 1:
                    self._fail.pop(i)
                else:
                    self._fail[i] = (m, pattern, times - 1, retry_after)
                return retry_after
        return None

    def _answer(self, method: str, path: str, body: Any, files) -> tuple[int, Any]:
        if method == "GET" and path == "/gateway/bot":
            return 200, {
                "url": self.gateway_url,
                "shards": max(1, len(self.guilds)),
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000 - self.identify_count,
                    "reset_after": 86_400_000,
                    "max_concurrency": self.max_concurrency,
                },
            }
        if method == "GET" and path == "/users/@me":
            return 200, user_payload(BOT_ID, "Escape", bot=True)
        if method == "GET" and path == "/oauth2/applications/@me":
            return 200, {
                "id": str(APP_ID),
                "name": "Escape",
                "icon": None,
                "description": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": user_payload(1, "Owner"),
                "summary": "",
                "verify_key": "0" * 64,
                "team": None,
                "flags": 0,
            }
        m = re.fullmatch(r"/interactions/(\d+)/([^/]+)/callback", path)
        if m and method == "POST":
            return self._callback(m.group(1), m.group(2), body, files)
        m = re.fullmatch(r"/webhooks/(\d+)/([^/]+)", path)
        if m and method == "POST":
            return 200, self.message_payload(self._followup(m.group(2), body, files))
        m = re.fullmatch(r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)", path)
        if m:
            return self._original(method, m.group(2), m.group(3), body, files)
        m = re.fullmatch(r"/channels/(\d+)/messages/(\d+)", path)
        if m and method in ("PATCH", "DELETE"):
            target = self.messages.get(int(m.group(2)))
            if target is None or target.deleted or target.channel_id != int(m.group(1)):
                return 404, {"message": "Unknown Message", "code": 10008}
            if target.ephemeral:  # ephemeral messages are the interaction's, not the channel's
                return 404, {"message": "Unknown Message", "code": 10008}
            if method == "DELETE":
                target.deleted = True
                return 204, None
            self._edit(target, body, files)
            return 200, self.message_payload(target)
        m = re.fullmatch(r"/users/@me/channels", path)
        if m and method == "POST":
            recipient = int(body["recipient_id"])
            if recipient in self.closed_dms:
                return 403, {"message": "Cannot send messages to this user", "code": 50007}
            channel_id = self.dm_channels.setdefault(recipient, next(self._ids))
            return 200, {
                "id": str(channel_id),
                "type": 1,
                "last_message_id": None,
                "recipients": [user_payload(recipient, f"user{recipient}")],
            }
        m = re.fullmatch(r"/channels/(\d+)/messages", path)
        if m and method == "POST":
            if int(m.group(1)) in self.dm_channels.values():
                message = self._store_message(int(m.group(1)), body, files, None)
                return 200, self.message_payload(message)
            thread = self.channels.get(int(m.group(1)), {}).get("thread_metadata")
            if thread and thread["archived"]:
                return 400, {"message": "Thread is archived", "code": 50083}
            message = self._store_message(int(m.group(1)), body, files, None)
            return 200, self.message_payload(message)
        m = re.fullmatch(r"/guilds/(\d+)/members/(\d+)", path)
        if m and method == "GET":
            user = self.members.get(int(m.group(2)))
            if int(m.group(1)) not in self.guilds or user is None:
                return 404, {"message": "Unknown Member", "code": 10007}
            return 200, self.member_payload(user)
        m = re.fullmatch(r"/channels/(\d+)", path)
        if m and method == "GET":
            channel = self.channels.get(int(m.group(1)))
            if channel is None:
                return 404, {"message": "Unknown Channel", "code": 10003}
            return 200, channel
        if m and method == "PATCH" and int(m.group(1)) in self.channels:
            channel = self.channels[int(m.group(1))]
            if "archived" in (body or {}) and "thread_metadata" in channel:
                if channel["thread_metadata"]["locked"]:
                    return 403, {"message": "Missing Permissions", "code": 50013}
                channel["thread_metadata"]["archived"] = bool(body["archived"])
            return 200, channel
        m = re.fullmatch(r"/channels/(\d+)/threads", path)
        if m and method == "POST":
            thread_id = next(self._ids)
            thread = {
                "id": str(thread_id),
                "type": body.get("type", 11),
                "guild_id": str(GUILD_ID),
                "parent_id": m.group(1),
                "owner_id": str(BOT_ID),
                "name": body["name"],
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "message_count": 0,
                "member_count": 1,
                "flags": 0,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": body.get("auto_archive_duration", 1440),
                    "archive_timestamp": _now(),
                    "locked": False,
                },
            }
            self.channels[thread_id] = thread
            return 201, thread
        m = re.fullmatch(r"/applications/(\d+)(?:/guilds/(\d+))?/commands", path)
        if m and method == "PUT":
            refused = [problem for command in body or [] for problem in command_limits(command)]
            if refused:  # as Discord answers a command it will not take
                return 400, {"message": "Invalid Form Body", "code": 50035, "errors": refused}
            self.published = list(body or [])
            out = []
            for n, command in enumerate(body or []):
                out.append(
                    {
                        **command,
                        "id": str(APP_ID + 100 + n),
                        "application_id": m.group(1),
                        "version": "1",
                        **({"guild_id": m.group(2)} if m.group(2) else {}),
                    }
                )
            return 200, out
        return 404, {"message": "Unknown route in the stand-in", "code": 0}

    def _channel_of(self, token: str) -> int:
        interaction = self.interactions.get(token)
        return int(interaction.payload["channel_id"]) if interaction else 0

    def _callback(self, iid: str, token: str, body: dict, files) -> tuple[int, Any]:
        interaction = self.interactions.get(token)
        if interaction is not None:
            interaction.callbacks.append(body)
        kind = body.get("type")
        answer: dict = {
            "interaction": {"id": iid, "type": interaction.payload["type"] if interaction else 2}
        }
        data = body.get("data") or {}
        if kind == 5:
            answer["interaction"]["response_message_loading"] = True
            answer["interaction"]["response_message_ephemeral"] = bool(
                (data.get("flags") or 0) & EPHEMERAL
            )
        if kind == 5:  # like Discord: the first followup fills this in, with these flags
            message = self._store_message(self._channel_of(token), data, files, token)
            message.thinking = True
        if kind == 4:
            message = self._store_message(self._channel_of(token), data, files, token)
            answer["resource"] = {"type": 4, "message": self.message_payload(message)}
        else:
            answer["resource"] = {"type": kind}
        return 200, answer

    def _followup(self, token: str, body: dict, files) -> Message:
        for message in self.messages_for(token):
            if message.thinking:
                filled = self._store_message(message.channel_id, body, files, token, latest=False)
                del self.messages[filled.id]
                message.thinking = False
                message.content = filled.content
                message.components = filled.components
                message.attachments = filled.attachments
                message.files = filled.files
                message.allowed_mentions = filled.allowed_mentions
                return message  # keeps the flags of the deferral, as Discord does
        return self._store_message(self._channel_of(token), body, files, token)

    def _edit(self, target: Message, body: dict, files) -> None:
        """An edit: what it names changes; new attachments replace the old ones."""
        body = body or {}
        target.edits.append(body)
        if "components" in body:
            target.components = body["components"] or []
        if "content" in body:
            target.content = body["content"] or ""
        if "allowed_mentions" in body:
            target.allowed_mentions = body["allowed_mentions"]
        if "attachments" in body:
            posted = self._store_message(target.channel_id, body, files, None, latest=False)
            del self.messages[posted.id]
            target.attachments, target.files = posted.attachments, posted.files

    def _original(
        self, method: str, token: str, which: str, body: Any, files=()
    ) -> tuple[int, Any]:
        interaction = self.interactions.get(token)
        target: Message | None = None
        if interaction is not None and which == "@original":
            clicked = interaction.payload.get("message")
            if clicked is not None:  # a component's original is the clicked message
                target = self.messages.get(int(clicked["id"]))
            else:
                posted = self.messages_for(token)
                target = posted[0] if posted else None
        elif which.isdigit():
            target = self.messages.get(int(which))
        if target is None:
            return 404, {"message": "Unknown Message", "code": 10008}
        if method == "DELETE":
            target.deleted = True
            return 204, None
        if method == "PATCH":
            self._edit(target, body, files)
            return 200, self.message_payload(target)
        return 200, self.message_payload(target)

    def _store_message(
        self, channel_id: int, body: dict, files, token: str | None, *, latest: bool = True
    ) -> Message:
        body = body or {}
        attachments = []
        for n, meta in enumerate(body.get("attachments") or []):
            data = files[n][1] if n < len(files) else b""
            attachments.append(
                {
                    "id": str(next(self._ids)),
                    "filename": meta.get("filename", files[n][0] if n < len(files) else ""),
                    "description": meta.get("description"),
                    "size": len(data),
                    "url": f"http://127.0.0.1:{self.port}/attachments/{meta.get('filename')}",
                    "proxy_url": f"http://127.0.0.1:{self.port}/attachments/x",
                    "content_type": "image/png",
                }
            )
        message = Message(
            id=next(self._ids),
            channel_id=channel_id,
            content=body.get("content") or "",
            flags=int(body.get("flags") or 0),
            components=body.get("components") or [],
            attachments=attachments,
            files=list(files),
            allowed_mentions=body.get("allowed_mentions"),
            token=token,
        )
        self.messages[message.id] = message
        if latest and not message.ephemeral and channel_id in self.channels:
            self.channels[channel_id]["last_message_id"] = str(message.id)
        return message

    def say(self, channel_id: int) -> int:
        """A member writes in the channel (the bot does not read it; the channel moves on)."""
        message_id = next(self._ids)
        self.channels[channel_id]["last_message_id"] = str(message_id)
        return message_id

    def dms(self, user: dict) -> list[Message]:
        """What the bot sent a member directly."""
        channel = self.dm_channels.get(int(user["id"]))
        return [m for m in self.messages.values() if m.channel_id == channel and not m.deleted]

    def message_payload(self, message: Message) -> dict:
        return {
            "id": str(message.id),
            "channel_id": str(message.channel_id),
            "guild_id": str(GUILD_ID),
            "type": 0,
            "content": message.content,
            "author": user_payload(BOT_ID, "Escape", bot=True),
            "attachments": message.attachments,
            "embeds": [],
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": False,
            "timestamp": _now(),
            "edited_timestamp": None,
            "flags": message.flags,
            "components": message.components,
            "application_id": str(APP_ID),
        }


# ----- Discord's limits for an application command ------------------------------------------
COMMAND_NAME = re.compile(r"[-_'\w]{1,32}")
MOST_ENTRIES = 25  # options (subcommands, groups, parameters) at a level, choices of one
MOST_CHARACTERS = 4000  # a command's names, descriptions and choice values, all levels


def command_limits(command: dict) -> list[str]:
    """What Discord refuses in one command, as its API documents it: 25 entries a level,
    names of 1 to 32 lower-case word characters, descriptions of 1 to 100 characters,
    subcommand groups one level deep only, and at most 4,000 characters over every name,
    description and choice's name and value, where a field with localizations counts its
    longest (the default included)."""
    problems: list[str] = []
    size = _entry(command, problems, command.get("name", "?"), depth=0)
    if size > MOST_CHARACTERS:
        problems.append(f"{command.get('name')}: {size} characters, over {MOST_CHARACTERS}")
    return problems


def _longest(entry: dict, key: str) -> int:
    said = [entry.get(key) or "", *(entry.get(f"{key}_localizations") or {}).values()]
    return max(len(str(s)) for s in said)


def _entry(entry: dict, problems: list[str], path: str, depth: int) -> int:
    name = str(entry.get("name", ""))
    if not COMMAND_NAME.fullmatch(name) or name != name.lower():
        problems.append(f"{path}: bad name {name!r}")
    for local in (entry.get("name_localizations") or {}).values():
        if not COMMAND_NAME.fullmatch(local) or local != local.lower():
            problems.append(f"{path}: bad localized name {local!r}")
    described = [
        entry.get("description") or "",
        *(entry.get("description_localizations") or {}).values(),
    ]
    if not all(1 <= len(d) <= 100 for d in described):
        problems.append(f"{path}: a description outside 1 to 100 characters")
    size = _longest(entry, "name") + _longest(entry, "description")
    options, choices = entry.get("options") or [], entry.get("choices") or []
    if len(options) > MOST_ENTRIES or len(choices) > MOST_ENTRIES:
        problems.append(f"{path}: over {MOST_ENTRIES} options or choices")
    if entry.get("type") == 2 and depth > 1:
        problems.append(f"{path}: a group inside a group")
    for choice in choices:
        size += _longest(choice, "name") + len(str(choice.get("value", "")))
    for option in options:
        size += _entry(option, problems, f"{path} {option.get('name')}", depth + 1)
    return size
