"""A stand-in Telegram Bot API server (aiohttp, 127.0.0.1 only) for end-to-end tests.

The real python-telegram-bot talks to it through `base_url` / `base_file_url`, with its
real long polling. It keeps chats and messages like Telegram does (message ids per chat,
deletions, edits, topics), checks what Telegram checks (64-byte button data, 1024-character
captions, 4096-character texts, PNG uploads, no private message before START), records
every call, and lets a test type messages, press buttons and inject 429s. In webhook mode
(after setWebhook) it refuses getUpdates as Telegram does, and a test posts updates to the
bot's own listener the way Telegram (or the reverse proxy in front of the bot) would.

With `limits` set it enforces Telegram's flood limits per bot token, whichever process
calls (issue 58): every call but the long poll in the token's window, and each message
sent or edited in its chat's window and, in a group, the group's; a call past a limit is
refused with 429 and a retry_after, and counted in `breaches`. It also keeps every press
(`pressed`) and its answers, refusing a second answer to one press as Telegram does.
"""

from __future__ import annotations

import asyncio
import copy
import html
import itertools
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

BOT_ID = 7000001
BOT_USERNAME = "escape_test_bot"
TOKEN = f"{BOT_ID}:TEST-TOKEN-not-a-real-one"
PNG = b"\x89PNG\r\n\x1a\n"

# Form fields PTB JSON-encodes (everything else is a plain string).
JSON_FIELDS = {
    "chat_id",
    "message_id",
    "message_ids",
    "message_thread_id",
    "reply_markup",
    "media",
    "commands",
    "scope",
    "offset",
    "timeout",
    "limit",
    "allowed_updates",
    "show_alert",
    "user_id",
    "cache_time",
    "disable_notification",
    "caption_entities",
    "entities",
    "link_preview_options",
    "reply_parameters",
    "protect_content",
    "drop_pending_updates",
    "icon_color",
    "show_caption_above_media",
    "has_spoiler",
    "max_connections",
}
SENDS = ("sendMessage", "sendPhoto", "sendAnimation", "sendDocument")
# what Telegram counts as a message in a chat (and a group): sent, or changed
MESSAGES = {
    "sendMessage",
    "sendPhoto",
    "sendAnimation",
    "sendDocument",
    "sendMediaGroup",
    "copyMessage",
    "forwardMessage",
    "editMessageText",
    "editMessageCaption",
    "editMessageMedia",
    "editMessageReplyMarkup",
}


@dataclass
class Limits:
    """Telegram's flood limits as (calls, seconds): all of a token's calls, a chat's
    messages, a group's messages."""

    overall: tuple[int, float] = (30, 1.0)
    chat: tuple[int, float] = (1, 1.0)
    group: tuple[int, float] = (20, 60.0)


DELETE_WINDOW = 48 * 3600
CHAT_ACTIONS = {  # the Bot API's sendChatAction
    "typing",
    "upload_photo",
    "record_video",
    "upload_video",
    "record_voice",
    "upload_voice",
    "upload_document",
    "choose_sticker",
    "find_location",
    "record_video_note",
    "upload_video_note",
}


class ApiError(Exception):
    def __init__(self, code: int, description: str, retry_after: int | None = None):
        super().__init__(description)
        self.code, self.description, self.retry_after = code, description, retry_after


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    files: dict[str, bytes] = field(default_factory=dict)
    status: int = 200
    result: Any = None


def visible(text: str | None) -> str:
    """The text a reader sees: HTML tags removed and entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", text or ""))


HTML_TAG = re.compile(
    r"</?(b|strong|i|em|u|ins|s|strike|del|span|tg-spoiler|a|code|pre|blockquote|tg-emoji)"
    r"(\s[^<>]*)?>"
)
HTML_ENTITY = re.compile(r"&(lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);")


def check_html(text: str | None) -> None:
    """What Telegram does with parse_mode HTML: a stray `<` or `&` refuses the message."""
    rest = HTML_ENTITY.sub("", HTML_TAG.sub("", text or ""))
    if "<" in rest or "&" in rest:
        raise ApiError(400, "Bad Request: can't parse entities: unsupported start tag")


def tg_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


class TelegramStandIn:
    def __init__(self) -> None:
        self.token = TOKEN
        self.calls: list[Call] = []
        self.violations: list[str] = []  # what real Telegram would have refused
        self.chats: dict[int, dict] = {}
        self.users: dict[int, dict] = {}
        self.messages: dict[tuple[int, int], dict] = {}
        self.deleted: set[tuple[int, int]] = set()
        self.started: set[int] = set()  # users who pressed START in the bot's private chat
        self.blocked: set[int] = set()
        self.admins: dict[int, set[int]] = {}
        # who is in each group: whoever wrote or pressed there, or was added (join_group);
        # getChatMember answers "left" for anyone else, as Telegram does
        self.members: dict[int, set[int]] = {}
        self.member_asks: list[tuple[int, int]] = []  # each getChatMember: (chat, user)
        self.topics: dict[int, set[int]] = {}
        self._next_message: dict[int, itertools.count] = {}
        self._updates: list[dict] = []
        self._update_ids = itertools.count(1)
        self._query_ids = itertools.count(1)
        self._failures: dict[str, list[ApiError]] = {}
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.polls = 0
        self._closing = False
        self.webhook: dict[str, Any] | None = None  # the last setWebhook parameters
        self.clock = 0.0  # seconds added to the time the bot's new messages are dated
        self.limits: Limits | None = None  # enforced when set
        self.breaches: list[str] = []  # calls past a limit (each answered 429)
        self._windows: dict[str, list[float]] = {}  # window key -> arrival times
        self.pressed: dict[str, float] = {}  # query id -> when it was pressed
        self.answers: dict[str, int] = {}  # query id -> answers given to it
        self.answered_with: dict[str, dict] = {}  # query id -> its (first) answer

    # ----- server -------------------------------------------------------------------
    async def start(self) -> None:
        app = web.Application(client_max_size=20 * 1024 * 1024)
        app.router.add_post("/bot{token}/{method}", self._handle)
        app.router.add_get("/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        async with self._changed:  # release held long polls at once
            self._closing = True
            self._changed.notify_all()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    @property
    def base_file_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/file/bot"

    # ----- the world ----------------------------------------------------------------
    def add_user(self, user_id: int, first_name: str, username: str | None = None) -> dict:
        user = {"id": user_id, "is_bot": False, "first_name": first_name}
        if username:
            user["username"] = username
        self.users[user_id] = user
        self.chats[user_id] = {"id": user_id, "type": "private", "first_name": first_name}
        return user

    def add_group(self, chat_id: int, title: str, *, forum: bool = False) -> dict:
        chat = {"id": chat_id, "type": "supergroup", "title": title}
        if forum:
            chat["is_forum"] = True
            self.topics[chat_id] = set()
        self.chats[chat_id] = chat
        return chat

    def join_group(self, chat_id: int, user: dict) -> None:
        self.members.setdefault(chat_id, set()).add(user["id"])

    def leave_group(self, chat_id: int, user: dict) -> None:
        self.members.get(chat_id, set()).discard(user["id"])

    def add_topic(self, chat_id: int, thread_id: int) -> None:
        self.topics.setdefault(chat_id, set()).add(thread_id)

    def fail_next(self, method: str, code: int = 429, retry_after: int = 1, times: int = 1) -> None:
        text = f"Too Many Requests: retry after {retry_after}" if code == 429 else "Bad Request"
        self._failures.setdefault(method, []).extend(
            ApiError(code, text, retry_after if code == 429 else None) for _ in range(times)
        )

    def _message_id(self, chat_id: int) -> int:
        return next(self._next_message.setdefault(chat_id, itertools.count(1)))

    # ----- what users do ------------------------------------------------------------
    async def say(
        self,
        user: dict,
        chat_id: int,
        text: str,
        *,
        thread: int | None = None,
        reply_to: dict | None = None,
    ) -> dict:
        """A user types `text` in a chat (a command gets its bot_command entity), maybe as
        a reply to another message (`reply_to`)."""
        message = self.typed(user, chat_id, text, thread=thread)
        if reply_to is not None:
            message["reply_to_message"] = copy.deepcopy(reply_to)
        await self._push({"message": message})
        return message

    def typed(self, user: dict, chat_id: int, text: str, *, thread: int | None = None) -> dict:
        """The message a user types, kept in the chat but not yet delivered to the bot."""
        chat = self.chats[chat_id]
        if chat["type"] != "private":
            self.join_group(chat_id, user)  # (only a member can write in a group)
        message = {
            "message_id": self._message_id(chat_id),
            "from": user,
            "chat": chat,
            "date": int(time.time()),
            "text": text,
        }
        if text.startswith("/"):
            command = text.split()[0]
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(command)}]
            if chat["type"] == "private" and command.split("@")[0] == "/start":
                self.started.add(user["id"])
        if thread is not None:
            message["message_thread_id"] = thread
            message["is_topic_message"] = True
        self.messages[(chat_id, message["message_id"])] = message
        return message

    async def press(self, user: dict, message: dict, data: str) -> str:
        """A user presses an inline button carrying `data` under `message`; the query id."""
        query_id, update = self.pressing(user, message, data)
        await self._push(update)
        return query_id

    def pressing(self, user: dict, message: dict, data: str) -> tuple[str, dict]:
        """A press as its update (not yet delivered): (query id, update)."""
        query_id = str(next(self._query_ids))
        self.pressed[query_id] = time.monotonic()
        if message["chat"]["type"] != "private":
            self.join_group(message["chat"]["id"], user)
        update = {
            "callback_query": {
                "id": query_id,
                "from": user,
                "chat_instance": f"ci{message['chat']['id']}",
                "message": copy.deepcopy(message),
                "data": data,
            }
        }
        return query_id, update

    async def answer(self, query_id: str, timeout: float = 10) -> dict:
        call = await self.wait_for(
            lambda c: (
                c.method == "answerCallbackQuery"
                and str(c.params.get("callback_query_id")) == query_id
            ),
            timeout=timeout,
        )
        return call.params

    def new_update_id(self) -> int:
        return next(self._update_ids)

    async def post_webhook(
        self, url: str, payload: dict, *, secret: str | None, update_id: int | None = None
    ) -> int:
        """Deliver one update to the bot's webhook listener at `url` (on 127.0.0.1, where a
        reverse proxy would forward Telegram's call); the HTTP status it answered.
        `update_id`: that of an update sent before (Telegram sends it again when it had no
        answer)."""
        from aiohttp import ClientSession

        assert url.startswith("http://127.0.0.1:"), url
        headers = {"X-Telegram-Bot-Api-Secret-Token": secret} if secret is not None else {}
        update = {"update_id": update_id or next(self._update_ids), **payload}
        async with ClientSession() as session, session.post(url, json=update, headers=headers) as r:
            return r.status

    async def _push(self, payload: dict) -> None:
        async with self._changed:
            self._updates.append({"update_id": next(self._update_ids), **payload})
            self._changed.notify_all()

    # ----- looking ------------------------------------------------------------------
    async def wait_for(self, predicate, *, after: int = 0, timeout: float = 10) -> Call:
        async def find() -> Call:
            async with self._changed:
                while True:
                    for call in self.calls[after:]:
                        if predicate(call):
                            return call
                    await self._changed.wait()

        return await asyncio.wait_for(find(), timeout)

    def calls_of(self, *methods: str, after: int = 0) -> list[Call]:
        return [c for c in self.calls[after:] if c.method in methods]

    def bot_messages(self, chat_id: int, *, live: bool = True) -> list[dict]:
        return [
            m
            for (cid, mid), m in sorted(self.messages.items())
            if cid == chat_id
            and m.get("from", {}).get("id") == BOT_ID
            and not (live and (cid, mid) in self.deleted)
        ]

    def message(self, chat_id: int, message_id: int) -> dict:
        return self.messages[(chat_id, message_id)]

    # ----- the Bot API --------------------------------------------------------------
    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return _error(ApiError(401, "Unauthorized"))
        method = request.match_info["method"]
        params, files = await _read(request)
        call = Call(method, params, files)
        try:
            failures = self._failures.get(method)
            if failures:
                raise failures.pop(0)
            if method != "getUpdates":
                self._count(method, params)
            self._check_entities(method, params)
            if method == "getUpdates":
                result = await self._get_updates(params)
            else:
                handler = getattr(self, f"_api_{method}", None)
                if handler is None:
                    raise ApiError(404, f"Not Found: method {method} is not in the stand-in")
                result = handler(params, files)
        except ApiError as exc:
            call.status = exc.code
            await self._record(call)
            return _error(exc)
        call.result = result
        if method != "getUpdates":
            await self._record(call)
        return web.json_response({"ok": True, "result": result})

    def _count(self, method: str, params: dict) -> None:
        """The call in its windows, refused with 429 past a limit (a breach)."""
        if self.limits is None:
            return
        now = time.monotonic()
        windows = [("all", self.limits.overall)]
        chat = params.get("chat_id")
        if method in MESSAGES and chat is not None:
            windows.append((f"chat {chat}", self.limits.chat))
            if int(chat) < 0:
                windows.append((f"group {chat}", self.limits.group))
        for key, (count, per) in windows:
            times = [t for t in self._windows.get(key, []) if t > now - per]
            self._windows[key] = times
            if len(times) >= count:
                wait = times[-count] + per - now
                self.breaches.append(
                    f"{method} past the limit of {key}: {count} in {per:g} s "
                    f"(the last {count} {now - times[-count]:.3f} s before)"
                )
                raise ApiError(
                    429, f"Too Many Requests: retry after {wait:.0f}", max(1, round(wait))
                )
        for key, _ in windows:
            self._windows[key].append(now)

    def unanswered(self) -> list[str]:
        """The presses the bot never answered."""
        return [q for q in self.pressed if not self.answers.get(q)]

    def _check_entities(self, method: str, params: dict) -> None:
        media = params.get("media") if isinstance(params.get("media"), dict) else {}
        for holder in (params, media):
            if holder.get("parse_mode") == "HTML":
                for key in ("text", "caption"):
                    try:
                        check_html(holder.get(key))
                    except ApiError:
                        self.violations.append(f"{method}: unparseable HTML in {key}")
                        raise

    async def _record(self, call: Call) -> None:
        async with self._changed:
            self.calls.append(call)
            self._changed.notify_all()

    async def _get_updates(self, params: dict) -> list[dict]:
        if self.webhook is not None:
            raise ApiError(409, "Conflict: can't use getUpdates method while webhook is active")
        self.polls += 1
        offset = int(params.get("offset") or 0)
        timeout = float(params.get("timeout") or 0)
        limit = int(params.get("limit") or 100)
        allowed = params.get("allowed_updates") or []
        async with self._changed:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
            deadline = asyncio.get_running_loop().time() + timeout
            while not self._updates and not self._closing:
                left = deadline - asyncio.get_running_loop().time()
                if left <= 0:
                    break
                try:
                    await asyncio.wait_for(self._changed.wait(), left)
                except TimeoutError:
                    break
            updates = [u for u in self._updates if u["update_id"] >= offset][:limit]
        if allowed:
            for u in updates:
                kinds = set(u) - {"update_id"}
                if not kinds <= set(allowed):
                    self.violations.append(f"update {kinds} not in allowed_updates {allowed}")
        return updates

    def _api_getMe(self, params, files):
        return {
            "id": BOT_ID,
            "is_bot": True,
            "first_name": "Escape",
            "username": BOT_USERNAME,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }

    def _api_deleteWebhook(self, params, files):
        self.webhook = None
        return True

    def _api_setWebhook(self, params, files):
        url = params.get("url") or ""
        if not url.startswith("https://"):  # Telegram calls webhooks over HTTPS only
            raise ApiError(400, "Bad Request: bad webhook: An HTTPS URL must be provided")
        secret = params.get("secret_token")
        if secret is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", secret):
            raise ApiError(400, "Bad Request: secret token contains unallowed characters")
        self.webhook = dict(params)
        return True

    def _api_setMyCommands(self, params, files):
        for command in params.get("commands") or []:
            if not re.fullmatch(r"[a-z0-9_]{1,32}", command["command"]):
                self.violations.append(f"bad command name {command['command']!r}")
        return True

    def _chat(self, params) -> dict:
        chat_id = params.get("chat_id")
        chat = self.chats.get(int(chat_id)) if chat_id is not None else None
        if chat is None:
            raise ApiError(400, "Bad Request: chat not found")
        if chat["type"] == "private" and (
            chat["id"] not in self.started or chat["id"] in self.blocked
        ):
            raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        return chat

    def _check_markup(self, markup, chat: dict | None = None) -> None:
        if not markup:
            return
        private = chat is not None and chat.get("type") == "private"
        rows = markup.get("inline_keyboard", [])
        count = sum(len(r) for r in rows)
        if count > 100:
            raise ApiError(400, "Bad Request: too many buttons")
        for row in rows:
            for button in row:
                data = button.get("callback_data")
                if data is not None and not 1 <= len(data.encode()) <= 64:
                    self.violations.append(f"callback data too long: {data!r}")
                    raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
                if button.get("web_app") is not None and not private:
                    # Telegram: web_app buttons only in private chats with the bot
                    raise ApiError(400, "Bad Request: BUTTON_TYPE_INVALID")
                if button.get("web_app") is not None and not button["web_app"]["url"].startswith(
                    "https://"
                ):
                    raise ApiError(400, "Bad Request: BUTTON_URL_INVALID")
                url = button.get("url")
                if url is not None:
                    m = re.fullmatch(r"https://t\.me/(\w+)\?start=([A-Za-z0-9_-]{1,64})", url)
                    app = re.fullmatch(
                        r"https://t\.me/(\w+)/(\w{3,30})\?startapp=([A-Za-z0-9_-]{1,512})", url
                    )
                    if (m or app) is None or (m or app).group(1) != BOT_USERNAME:
                        self.violations.append(f"bad deep link {url!r}")

    def _check_thread(self, chat: dict, params) -> int | None:
        thread = params.get("message_thread_id")
        if (
            thread is not None
            and chat.get("is_forum")
            and int(thread) not in self.topics.get(chat["id"], set())
        ):
            raise ApiError(400, "Bad Request: message thread not found")
        return int(thread) if thread is not None else None

    def _new_message(self, chat: dict, params, **content) -> dict:
        message = {
            "message_id": self._message_id(chat["id"]),
            "from": {
                "id": BOT_ID,
                "is_bot": True,
                "first_name": "Escape",
                "username": BOT_USERNAME,
            },
            "chat": chat,
            "date": int(time.time() + self.clock),
            **content,
        }
        thread = self._check_thread(chat, params)
        if thread is not None:
            message["message_thread_id"] = thread
            if chat.get("is_forum"):
                message["is_topic_message"] = True
        if params.get("reply_markup"):
            message["reply_markup"] = params["reply_markup"]
        self.messages[(chat["id"], message["message_id"])] = message
        return message

    def _api_sendChatAction(self, params, files):
        chat = self._chat(params)
        if params.get("action") not in CHAT_ACTIONS:
            raise ApiError(400, "Bad Request: wrong parameter action in request")
        self._check_thread(chat, params)
        return True

    def _api_sendMessage(self, params, files):
        chat = self._chat(params)
        text = params.get("text") or ""
        if not 1 <= tg_len(visible(text)) <= 4096:
            self.violations.append(f"text of {tg_len(visible(text))} characters")
            raise ApiError(400, "Bad Request: message is too long")
        self._check_markup(params.get("reply_markup"), chat)
        return self._new_message(chat, params, text=visible(text), html=text)

    def _photo(self, files, name: str | None) -> dict:
        data = files.get(name or "photo")
        if data is None or not data.startswith(PNG):
            self.violations.append("a photo that is not a PNG upload")
            raise ApiError(400, "Bad Request: IMAGE_PROCESS_FAILED")
        self.photo_bytes = getattr(self, "photo_bytes", 0) + len(data)
        uid = f"p{len(self.calls)}"
        return [
            {
                "file_id": uid,
                "file_unique_id": uid,
                "width": 1200,
                "height": 900,
                "file_size": len(data),
            }
        ]

    def _check_caption(self, caption: str | None) -> None:
        if caption is not None and tg_len(visible(caption)) > 1024:
            self.violations.append(f"caption of {tg_len(visible(caption))} characters")
            raise ApiError(400, "Bad Request: message caption is too long")

    def _api_sendPhoto(self, params, files):
        chat = self._chat(params)
        self._check_caption(params.get("caption"))
        self._check_markup(params.get("reply_markup"), chat)
        photo = self._photo(files, _attached(params.get("photo")))
        content = {"photo": photo}
        if params.get("caption"):
            content |= {"caption": visible(params["caption"]), "html": params["caption"]}
        return self._new_message(chat, params, **content)

    def _api_sendAnimation(self, params, files):
        """A GIF (a replay); its bytes are kept in `animations` for tests to decode."""
        chat = self._chat(params)
        self._check_caption(params.get("caption"))
        self._check_markup(params.get("reply_markup"))
        data = files.get(_attached(params.get("animation")) or "animation")
        if data is None or not data.startswith(b"GIF8"):
            self.violations.append("an animation that is not a GIF upload")
            raise ApiError(400, "Bad Request: wrong file type")
        if len(data) > 50 * 1024 * 1024:
            self.violations.append("an animation over 50 MB")
            raise ApiError(413, "Request Entity Too Large")
        uid = f"a{len(self.calls)}"
        self.animations = [*getattr(self, "animations", []), data]
        content = {
            "animation": {
                "file_id": uid,
                "file_unique_id": uid,
                "width": 800,
                "height": 600,
                "duration": 1,
                "file_size": len(data),
            }
        }
        if params.get("caption"):
            content |= {"caption": visible(params["caption"]), "html": params["caption"]}
        return self._new_message(chat, params, **content)

    def _api_sendDocument(self, params, files):
        """A file (`/escape export`); its bytes are kept in `documents` for tests to read."""
        chat = self._chat(params)
        self._check_caption(params.get("caption"))
        self._check_markup(params.get("reply_markup"))
        data = files.get(_attached(params.get("document")) or "document")
        if data is None:
            self.violations.append("a document without its upload")
            raise ApiError(400, "Bad Request: there is no document in the request")
        if len(data) > 50 * 1024 * 1024:
            self.violations.append("a document over 50 MB")
            raise ApiError(413, "Request Entity Too Large")
        uid = f"d{len(self.calls)}"
        self.documents = [*getattr(self, "documents", []), data]
        content = {"document": {"file_id": uid, "file_unique_id": uid, "file_size": len(data)}}
        if params.get("caption"):
            content |= {"caption": visible(params["caption"]), "html": params["caption"]}
        return self._new_message(chat, params, **content)

    def _existing(self, params) -> dict:
        key = (int(params.get("chat_id", 0)), int(params.get("message_id", 0)))
        if key not in self.messages or key in self.deleted:
            raise ApiError(400, "Bad Request: message to edit not found")
        message = self.messages[key]
        if message.get("from", {}).get("id") != BOT_ID:
            raise ApiError(400, "Bad Request: message can't be edited")
        return message

    def _api_editMessageMedia(self, params, files):
        message = self._existing(params)
        media = params.get("media") or {}
        if media.get("type") != "photo":
            raise ApiError(400, "Bad Request: can't use this media type")
        self._check_caption(media.get("caption"))
        self._check_markup(params.get("reply_markup"), message["chat"])
        message["photo"] = self._photo(files, _attached(media.get("media")))
        message["caption"], message["html"] = visible(media.get("caption")), media.get("caption")
        message.pop("reply_markup", None)
        if params.get("reply_markup"):
            message["reply_markup"] = params["reply_markup"]
        message["edit_date"] = int(time.time())
        return message

    def _api_editMessageCaption(self, params, files):
        message = self._existing(params)
        self._check_caption(params.get("caption"))
        message["caption"], message["html"] = visible(params.get("caption")), params.get("caption")
        self._set_markup(message, params)
        return message

    def _api_editMessageText(self, params, files):
        message = self._existing(params)
        if "photo" in message:
            raise ApiError(400, "Bad Request: there is no text in the message to edit")
        message["text"], message["html"] = visible(params.get("text")), params.get("text")
        self._set_markup(message, params)
        return message

    def _set_markup(self, message: dict, params) -> None:
        self._check_markup(params.get("reply_markup"), message["chat"])
        message.pop("reply_markup", None)
        if params.get("reply_markup"):
            message["reply_markup"] = params["reply_markup"]
        message["edit_date"] = int(time.time())

    def _api_editMessageReplyMarkup(self, params, files):
        message = self._existing(params)
        if (params.get("reply_markup") or None) == (message.get("reply_markup") or None):
            raise ApiError(400, "Bad Request: message is not modified")
        self._set_markup(message, params)
        return message

    def _too_old(self, key: tuple[int, int]) -> bool:
        """Telegram lets a bot delete a message only within 48 hours of sending it. What it
        does with such a message in a deleteMessages batch is not documented: the stand-in
        refuses the whole batch, the strictest reading."""
        return time.time() - self.messages[key]["date"] >= DELETE_WINDOW

    def _api_deleteMessage(self, params, files):
        key = (int(params["chat_id"]), int(params["message_id"]))
        if key not in self.messages or key in self.deleted:
            raise ApiError(400, "Bad Request: message to delete not found")
        if self._too_old(key):
            self.violations.append(f"deleting message {key} older than 48 hours")
            raise ApiError(400, "Bad Request: message can't be deleted for everyone")
        self.deleted.add(key)
        return True

    def _api_deleteMessages(self, params, files):
        chat_id = int(params["chat_id"])
        keys = [(chat_id, int(m)) for m in params.get("message_ids") or []]
        keys = [k for k in keys if k in self.messages]  # unknown ones are skipped
        if old := [k for k in keys if self._too_old(k)]:
            self.violations.append(f"deleting messages {old} older than 48 hours")
            raise ApiError(400, "Bad Request: message can't be deleted")
        self.deleted.update(keys)
        return True

    def _api_answerCallbackQuery(self, params, files):
        query = str(params.get("callback_query_id"))
        self.answers[query] = self.answers.get(query, 0) + 1
        self.answered_with.setdefault(query, dict(params))
        if self.answers[query] > 1:  # Telegram takes one answer to a press
            self.violations.append(f"press {query} answered {self.answers[query]} times")
            raise ApiError(400, "Bad Request: query is too old and response timeout expired")
        if len(params.get("text") or "") > 200:
            self.violations.append("callback answer over 200 characters")
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        return True

    def _api_getChatMember(self, params, files):
        chat_id, user_id = int(params["chat_id"]), int(params["user_id"])
        self.member_asks.append((chat_id, user_id))
        if chat_id not in self.chats:
            raise ApiError(400, "Bad Request: chat not found")
        user = self.users.get(user_id)
        if user is None:
            raise ApiError(400, "Bad Request: user not found")
        if user_id in self.admins.get(chat_id, set()):
            flags = [
                "can_be_edited",
                "is_anonymous",
                "can_manage_chat",
                "can_delete_messages",
                "can_manage_video_chats",
                "can_restrict_members",
                "can_promote_members",
                "can_change_info",
                "can_invite_users",
                "can_post_stories",
                "can_edit_stories",
                "can_delete_stories",
            ]
            return {
                "status": "administrator",
                "user": user,
                **{f: f != "is_anonymous" and f != "can_be_edited" for f in flags},
            }
        if self.chats[chat_id]["type"] != "private" and user_id not in self.members.get(
            chat_id, set()
        ):
            return {"status": "left", "user": user}
        return {"status": "member", "user": user}

    def _api_deleteForumTopic(self, params, files):
        self.topics.get(int(params["chat_id"]), set()).discard(int(params["message_thread_id"]))
        return True

    def _api_createForumTopic(self, params, files):
        chat = self.chats.get(int(params["chat_id"]))
        if chat is None or not chat.get("is_forum"):
            raise ApiError(400, "Bad Request: the chat is not a forum")
        thread = 1000 + len(self.topics[chat["id"]])
        self.topics[chat["id"]].add(thread)
        return {"message_thread_id": thread, "name": params.get("name"), "icon_color": 7322096}


async def _read(request: web.Request) -> tuple[dict[str, Any], dict[str, bytes]]:
    params: dict[str, Any] = {}
    files: dict[str, bytes] = {}
    if request.content_type == "application/json":
        params = await request.json()
    elif request.can_read_body:
        form = await request.post()
        for key, value in form.items():
            if isinstance(value, web.FileField):
                files[key] = value.file.read()
            elif key in JSON_FIELDS:
                try:
                    params[key] = json.loads(value)
                except ValueError:
                    params[key] = value
            else:
                params[key] = value
    return params, files


def _attached(value: Any) -> str | None:
    if isinstance(value, str) and value.startswith("attach://"):
        return value.removeprefix("attach://")
    return None


def _error(exc: ApiError) -> web.Response:
    body: dict[str, Any] = {"ok": False, "error_code": exc.code, "description": exc.description}
    if exc.retry_after is not None:
        body["parameters"] = {"retry_after": exc.retry_after}
    return web.json_response(body, status=exc.code)
