"""Turning the service's replies into Telegram messages.

- A session has one live message (its lobby, then its board). A new board edits that
  message in place while the game is played live (the board changed in the last few
  minutes) and the message is still near the bottom of the chat; otherwise it replaces it
  (a new message, the old one deleted), so a game never floods its group, and a player
  whose turn comes after a pause is notified (an edit notifies nobody). Which
  message that is survives a restart (a small record in the store's meta table), so the
  first board after one still replaces the last board before it.
- Pictures go as photos with a caption of at most 1024 characters; the rest of a long
  text follows as text messages (4096 characters each). The picture's description (its
  alt text) goes under the caption in a collapsed quote, or in a collapsed quote of its
  own message when the caption has no room for it.
- A board or lobby Telegram still refuses with "too many requests" (or cannot be reached)
  after the rate limiter's retries is owed to its chat: it is posted again later, until
  it is posted or overtaken by a newer board of its game; a move is never left unshown.
- A reply meant for one user (`Reply.to`) goes only to that user's private chat, which
  the bot knows once the user has pressed START; if it cannot get there, the group is
  told so (without the secret) and given a deep link that opens the private chat.
- In a game with secrets a public board carries only the shared buttons (the hand
  deep link): a move's label can name a card in the mover's hand. A player's moves go
  with their private view, in their private chat; only the newest such keyboard of a
  player keeps its buttons.
- What a game leaves behind (notices, overflow texts, the lobby) is deleted at its end.
  Telegram allows that for 48 hours after a message was sent (by its own clock, the
  message's date): older ones are left alone, and a replaced board that old only loses
  its buttons. Other failures are ignored.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import time
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field, replace

from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
    ReplyParameters,
)
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError

from bot.service import ChatRef, Picture, Reply, UserRef
from bot.store import Store
from bot.telegram import callback_data as cd
from bot.telegram import keyboards
from engines import REGISTRY

log = logging.getLogger(__name__)

CAPTION_LIMIT = 1024
TEXT_LIMIT = 4096
BURIED_AFTER = 6  # newer messages in the chat after which a board is re-sent, not edited
LIVE_FOR = 300.0  # seconds since the board last changed during which a move edits it
LIVE_KEY = "telegram.live.{}"  # store meta: the live message of a session, across restarts
DELETABLE_FOR = 48 * 3600 - 600  # seconds Telegram lets a bot delete its message (margin)
PLATFORM = "telegram"
PRIVATE_MOVES = "(Moves are chosen in private: press My hand.)"
MIN_ALT_ROOM = 120  # characters: less room than this in a private caption, no cut description
REPAY_ROUNDS = 8  # tries to post an owed board, the wait doubling from Telegram's retry_after
REPAY_LONGEST = 300.0  # seconds: the longest wait between two tries


def tg_length(text: str) -> int:
    """Telegram counts UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def split_text(text: str, limit: int) -> tuple[str, str]:
    """(head, rest): head fits `limit`, cut at a line or word boundary and marked with "…"."""
    if tg_length(text) <= limit:
        return text, ""
    budget = limit - 1
    head = text[:budget]
    while tg_length(head) > budget:
        head = head[:-1]
    cut = max(head.rfind("\n"), head.rfind(" "))
    if cut >= budget // 2:
        head = head[:cut]
    return head.rstrip() + "…", text[len(head) :].lstrip()


def chunks(text: str, limit: int = TEXT_LIMIT) -> list[str]:
    out = []
    while text:
        head, text = split_text(text, limit)
        out.append(head.removesuffix("…") if text else head)
    return out


def alt_quote(alt: str) -> str:
    """A picture's description as a collapsed quote (a screen reader reads it out)."""
    return f"<blockquote expandable>{html.escape(alt)}</blockquote>"


class Owed(Exception):
    """A send Telegram refused for a passing reason (flood limit, network): try later."""

    def __init__(self, delay: float) -> None:
        super().__init__(f"try again in {delay:.1f} s")
        self.delay = delay


def passing(exc: TelegramError) -> float | None:
    """Seconds to wait before trying again when `exc` is a passing refusal, else None
    (BadRequest is a NetworkError in PTB, but resending will not mend it)."""
    if isinstance(exc, RetryAfter):
        pause = exc.retry_after
        return float(pause.total_seconds() if hasattr(pause, "total_seconds") else pause)
    if isinstance(exc, NetworkError) and not isinstance(exc, BadRequest):
        return 1.0
    return None


def mention_html(users: Sequence[UserRef]) -> str:
    return ", ".join(
        f'<a href="tg://user?id={int(u.id)}">{html.escape(u.name)}</a>'
        for u in users
        if u.id.isdigit()
    )


@dataclass(frozen=True)
class Sent:
    """A message the bot posted: where, which, and when (Telegram's date, Unix time)."""

    chat_id: int
    message_id: int
    at: float

    @classmethod
    def of(cls, message: Message) -> Sent:
        date = getattr(message, "date", None)
        return cls(message.chat_id, message.message_id, date.timestamp() if date else time.time())


def deletable(sent: float) -> bool:
    return time.time() - sent < DELETABLE_FOR


@dataclass
class Slot:
    """The live message of a session (its lobby or board)."""

    chat_id: int
    message_id: int
    photo: bool
    version: int | None
    sent: float  # the message's date (Unix time), for the 48-hour deletion window
    touched: float | None = None  # time.monotonic() of its last change in this run


@dataclass
class Tracked:
    slot: Slot | None = None
    litter: list[Sent] = field(default_factory=list)
    warned: set[str] = field(default_factory=set)  # users told they cannot be reached
    board: Reply | None = None  # the latest board reply (for paging its keyboard)
    recalled: bool = False  # the store's record of the live message has been read
    moves: dict[str, tuple[int, int]] = field(default_factory=dict)  # user -> private keyboard


class Outbox:
    def __init__(self, bot: Bot, store: Store, bot_username: str) -> None:
        self.bot = bot
        self.store = store
        self.username = bot_username
        self.sessions: dict[int, Tracked] = {}
        self.current: dict[tuple[int, int | None], int] = {}  # (chat, topic) -> session id
        self.seen: dict[int, int] = {}  # chat id -> newest message id seen there
        self._locks: dict[int, asyncio.Lock] = {}
        self.owed: dict[int, tuple[ChatRef, Reply]] = {}  # session -> its unposted board
        self._debts: dict[int, asyncio.Task] = {}  # session -> the task that will post it

    def close(self) -> None:
        """The bot stops: owed boards stay owed (the next board of each game replaces them)."""
        for task in self._debts.values():
            task.cancel()
        self._debts.clear()

    # ----- bookkeeping --------------------------------------------------------------
    def saw(self, chat_id: int, message_id: int) -> None:
        if message_id > self.seen.get(chat_id, 0):
            self.seen[chat_id] = message_id

    def hand_url(self, session_id: int | None) -> str | None:
        if session_id is None or not self.username:
            return None
        return cd.deep_link(self.username, cd.hand_payload(session_id))

    def tracked(self, session_id: int) -> Tracked:
        return self.sessions.setdefault(session_id, Tracked())

    def latest_board(self, session_id: int) -> Reply | None:
        t = self.sessions.get(session_id)
        return t.board if t else None

    async def adopt(
        self, session_id: int, chat_id: int, message_id: int, photo: bool, sent: float
    ) -> None:
        """After a restart with no record of the live message, a button pressed on it tells
        us which one it is. Its `touched` is unknown, so the next board replaces it."""
        t = self.tracked(session_id)
        await self._recall(session_id, t)
        if t.slot is None:
            t.slot = Slot(chat_id, message_id, photo, None, sent)

    def _lock(self, chat_id: int) -> asyncio.Lock:
        return self._locks.setdefault(chat_id, asyncio.Lock())

    # ----- posting ------------------------------------------------------------------
    async def post(
        self,
        chat: ChatRef,
        replies: Sequence[Reply],
        *,
        fresh: bool = False,
        session_id: int | None = None,
        private_origin: str | None = None,
        reply_to: int | None = None,
        asked: bool = False,
        pressed: Message | None = None,
    ) -> None:
        """Post replies in `chat`. fresh: the user asked to see the board (send it anew).
        session_id: the session the replies concern when they do not say (an abort).
        private_origin: the user id whose private chat the request came from.
        asked: the user asked for this private reply (always say if it cannot be sent).
        pressed: the private message whose move button was pressed: the presser's next
        view and moves replace it in place (one message through a multi-step choice)."""
        chat_id = int(chat.chat)
        async with self._lock(chat_id):
            for reply in replies:
                sid = reply.session_id or session_id or self.current.get(_key(chat))
                if reply.to is None:
                    reply = _note_private_moves(reply)
                if reply.to is not None:
                    if await self._post_private(chat, reply, sid, private_origin, asked, pressed):
                        pressed = None  # edited: any further reply is a message of its own
                elif reply.kind in ("board", "lobby") and reply.session_id is not None:
                    self.current[_key(chat)] = reply.session_id
                    await self._post_slot(chat, reply, fresh=fresh)
                else:
                    await self._post_loose(chat, reply, sid, reply_to=reply_to)
                ended = reply.final or (reply.kind == "lobby" and reply.session_id is None)
                if ended and sid is not None:
                    await self._tidy(chat, sid, keep_board=reply.kind == "board")

    async def notice(
        self, chat: ChatRef, text: str, *, reply_to: int | None = None, markup=None
    ) -> None:
        """A short message for the chat (a refusal, a pointer to the private chat)."""
        async with self._lock(int(chat.chat)):
            sid = self.current.get(_key(chat))
            message = await self._send_text(chat, text, markup, reply_to=reply_to)
            if message is not None and sid is not None:
                self.tracked(sid).litter.append(Sent.of(message))

    async def _post_slot(self, chat: ChatRef, reply: Reply, *, fresh: bool) -> None:
        sid = reply.session_id
        t = self.tracked(sid)
        if reply.kind == "board":
            newest = t.board.version if t.board is not None else None
            if newest is not None and reply.version is not None and reply.version < newest:
                return  # an older board overtaken by a newer one: never show it
            t.board = reply
        caption_html, rest = self._caption(reply, CAPTION_LIMIT if reply.picture else TEXT_LIMIT)
        markup = self._markup(chat, reply)
        chat_id = int(chat.chat)
        self.owed.pop(sid, None)  # this reply overtakes any board still owed
        await self._recall(sid, t)
        old = t.slot
        photo = reply.picture is not None
        if (
            old is not None
            and not fresh
            and old.photo == photo
            and old.chat_id == chat_id
            and self.seen.get(chat_id, 0) - old.message_id <= BURIED_AFTER
            and old.touched is not None
            and time.monotonic() - old.touched <= LIVE_FOR
            and await self._edit(old, reply, caption_html, markup)
        ):
            old.version = reply.version
            old.touched = time.monotonic()
        else:
            try:
                message = await self._send(chat, reply.picture, caption_html, markup, owe=True)
            except Owed as debt:
                self._owe(chat, reply, debt.delay)
                return
            if message is None:
                return
            t.slot = Slot(
                chat_id, message.message_id, photo, reply.version, Sent.of(message).at,
                touched=time.monotonic(),
            )  # fmt: skip
            await self._keep(sid, t.slot)
            if old is not None:
                await self._retire(old)
        for part in rest:
            extra = await self._send_text(chat, part, None)
            if extra is not None:
                t.litter.append(Sent.of(extra))

    def _owe(self, chat: ChatRef, reply: Reply, delay: float) -> None:
        sid = reply.session_id
        log.warning("the %s of session %s is owed to chat %s; trying again in %.1f s", reply.kind, sid, chat.chat, delay)  # fmt: skip
        self.owed[sid] = (chat, reply)
        task = self._debts.get(sid)
        if task is None or task.done():
            self._debts[sid] = asyncio.create_task(self._repay(sid, delay))

    async def _repay(self, sid: int, delay: float) -> None:
        """Post a session's owed board once Telegram takes it again. Its own task: the
        chat's lock is taken only to post, so other chats and commands go on meanwhile."""
        for _ in range(REPAY_ROUNDS):
            await asyncio.sleep(delay)
            delay = min(max(delay, 1.0) * 2, REPAY_LONGEST)
            if sid not in self.owed:
                return
            chat = self.owed[sid][0]
            async with self._lock(int(chat.chat)):
                debt = self.owed.pop(sid, None)
                if debt is None:
                    return  # a newer board got there first
                reply = debt[1]
                await self._post_slot(chat, reply, fresh=True)  # owes it again if refused
                if sid not in self.owed and reply.final:
                    await self._tidy(chat, sid, keep_board=reply.kind == "board")
            if sid not in self.owed:
                self._debts.pop(sid, None)
                return
        self._debts.pop(sid, None)
        log.error("gave up posting the board of session %s after %d tries; /escape board shows it", sid, REPAY_ROUNDS)  # fmt: skip

    async def _post_loose(
        self, chat: ChatRef, reply: Reply, sid: int | None, *, reply_to: int | None = None
    ) -> None:
        caption_html, rest = self._caption(reply, CAPTION_LIMIT if reply.picture else TEXT_LIMIT)
        markup = self._markup(chat, reply)
        sent = [await self._send(chat, reply.picture, caption_html, markup, reply_to=reply_to)]
        for part in rest:
            sent.append(await self._send_text(chat, part, None))
        if sid is not None and not reply.final:
            self.tracked(sid).litter += [Sent.of(m) for m in sent if m is not None]

    async def _post_private(
        self,
        chat: ChatRef,
        reply: Reply,
        sid: int | None,
        private_origin: str | None,
        asked: bool = False,
        pressed: Message | None = None,
    ) -> bool:
        """Send a reply to its user's private chat; True when it went as an edit of
        `pressed` (their view and moves, after a move they made from that message)."""
        user = reply.to
        if private_origin == user.id:
            target = private_origin
        else:
            known = await self.store.user(PLATFORM, user.id)
            target = known.get("private_chat") if known else None
        private = ChatRef(PLATFORM, str(target), "", str(target)) if target else None
        if private is not None:
            try:
                where = await self._where(sid) if sid is not None and reply.kind == "private" else ""  # fmt: skip
                header = tg_length(where + "\n") if where else 0  # the game's name goes first
                caption_html, rest = self._caption(
                    reply, (CAPTION_LIMIT if reply.picture else TEXT_LIMIT) - header,
                    alt_follows=False,
                )  # fmt: skip
                if where:
                    caption_html = f"<i>{html.escape(where)}</i>\n{caption_html}"
                markup = None
                if reply.choices:
                    markup = keyboards.choices_keyboard(
                        reply.choices, session_id=sid, version=reply.version, private=True
                    )
                parts = rest  # the buttons go under the last part
                if (
                    pressed is not None
                    and private_origin == user.id
                    and markup is not None
                    and not parts
                    and bool(pressed.photo) == (reply.picture is not None)
                ):
                    slot = Slot(pressed.chat_id, pressed.message_id, bool(pressed.photo), None, 0.0)
                    if await self._edit(slot, reply, caption_html, markup):
                        if sid is not None:
                            await self._newest_moves(sid, user.id, pressed)
                        return True
                last = await self._send(
                    private, reply.picture, caption_html, None if parts else markup,
                    raise_forbidden=True,
                )  # fmt: skip
                for i, part in enumerate(parts):
                    own = markup if i == len(parts) - 1 else None
                    last = await self._send_text(private, part, own)
                if sid is not None:
                    self.tracked(sid).warned.discard(user.id)
                    if markup is not None and last is not None:
                        await self._newest_moves(sid, user.id, last)
                return False
            except Forbidden:
                log.info("cannot reach telegram user %s privately (blocked or never started)", user.id)  # fmt: skip
        if private_origin is not None and chat.chat == private_origin:
            return False  # asked in that very private chat, which refuses us: nowhere else
        t = self.tracked(sid) if sid is not None else None
        if t is not None and user.id in t.warned and not asked:
            return False
        if t is not None:
            t.warned.add(user.id)
        url = self.hand_url(sid)
        text = (
            f"{html.escape(user.name)}, I cannot send you private messages yet. Press the button below, "
            "then Start, and I will show you your hand there."
        )
        markup = None
        if url:
            markup = InlineKeyboardMarkup([[InlineKeyboardButton("Open my private chat", url=url)]])
        message = await self._send_text(chat, text, markup)
        if message is not None and t is not None:
            t.litter.append(Sent.of(message))
        return False

    async def _newest_moves(self, session_id: int, user_id: str, message: Message) -> None:
        """A player's new private keyboard: the one before it loses its buttons."""
        moves = self.tracked(session_id).moves
        old = moves.get(user_id)
        moves[user_id] = (message.chat_id, message.message_id)
        if old is not None and old != moves[user_id]:
            await self._strip(*old)

    async def drop_moves(
        self, session_id: int, user_id: str, chat_id: int, message_id: int
    ) -> None:
        """A move was made from this private keyboard: its buttons are spent."""
        t = self.sessions.get(session_id)
        if t is not None and t.moves.get(user_id) == (chat_id, message_id):
            del t.moves[user_id]
        await self._strip(chat_id, message_id)

    async def _strip(self, chat_id: int, message_id: int) -> None:
        with contextlib.suppress(TelegramError):
            await self.bot.edit_message_reply_markup(
                chat_id=chat_id, message_id=message_id, reply_markup=None
            )

    async def _where(self, session_id: int) -> str:
        row = await self.store.session(session_id)
        if row is None:
            return ""
        game = REGISTRY.get(row.game)
        return f"{game.title if game else row.game}, game #{session_id}"

    # ----- building -----------------------------------------------------------------
    def _caption(
        self, reply: Reply, limit: int, *, alt_follows: bool = True
    ) -> tuple[str, list[str]]:
        """(HTML for the message, HTML of the messages that follow it); the mention line
        always fits; the picture's description goes in the caption if it has room for
        all of it, else in messages of its own (`alt_follows`) or, cut after a sentence,
        in what room the caption has (a private view stays one message, edited in place
        through a multi-step choice)."""
        ping = mention_html(reply.mention) if reply.mention and reply.to is None else ""
        ping_plain = ", ".join(u.name for u in reply.mention if u.id.isdigit()) if ping else ""
        reserve = tg_length("\nYour move: " + ping_plain) if ping else 0
        head, rest = split_text(reply.text, limit - reserve)
        body = html.escape(head)
        if ping:
            body += "\nYour move: " + ping
        parts = [html.escape(part) for part in chunks(rest)]
        alt = " ".join(reply.picture.alt.split()) if reply.picture is not None else ""
        room = limit - tg_length(head) - reserve - 1
        if alt and not rest and tg_length(alt) <= room:
            body += "\n" + alt_quote(alt)
        elif alt and alt_follows:
            parts += [alt_quote(part) for part in chunks(alt)]
        elif alt and not rest and room >= MIN_ALT_ROOM:
            body += "\n" + alt_quote(split_text(alt, room)[0])
        return body, parts

    def _markup(self, chat: ChatRef, reply: Reply) -> InlineKeyboardMarkup | None:
        if not reply.choices:
            return None
        in_group = int(chat.chat) < 0
        return keyboards.choices_keyboard(
            reply.choices,
            session_id=reply.session_id,
            version=reply.version,
            hand_url=self.hand_url(reply.session_id) if in_group else None,
            one_row=reply.kind == "lobby",
        )

    # ----- Bot API calls ------------------------------------------------------------
    async def _send(
        self,
        chat: ChatRef,
        picture: Picture | None,
        caption_html: str,
        markup,
        *,
        reply_to: int | None = None,
        raise_forbidden: bool = False,
        owe: bool = False,
    ):
        if picture is None:
            return await self._send_text(
                chat, caption_html, markup, reply_to=reply_to, raise_forbidden=raise_forbidden,
                owe=owe,
            )  # fmt: skip
        # a replay is sent as an animation: sent as a photo it would stand still
        animated = picture.filename.endswith(".gif")
        send = self.bot.send_animation if animated else self.bot.send_photo
        media = {"animation" if animated else "photo": picture.png}
        sending = send(
            chat_id=int(chat.chat),
            **media,
            filename=picture.filename,
            caption=caption_html or None,
            parse_mode=ParseMode.HTML,
            reply_markup=markup,
            message_thread_id=_thread(chat),
            reply_parameters=_reply(reply_to),
        )
        what = "an animation" if animated else "a photo"
        return await self._sent(sending, chat, what, raise_forbidden, owe)

    async def _send_text(
        self,
        chat: ChatRef,
        text: str,
        markup,
        *,
        escaped: bool = True,
        reply_to: int | None = None,
        raise_forbidden: bool = False,
        owe: bool = False,
    ):
        if not escaped:
            text = html.escape(text)
        sending = self.bot.send_message(
            chat_id=int(chat.chat),
            text=text or "…",
            parse_mode=ParseMode.HTML,
            reply_markup=markup,
            message_thread_id=_thread(chat),
            reply_parameters=_reply(reply_to),
        )
        return await self._sent(sending, chat, "a message", raise_forbidden, owe)

    async def _sent(
        self,
        sending: Awaitable[Message],
        chat: ChatRef,
        what: str,
        raise_forbidden: bool,
        owe: bool = False,
    ):
        """Await a send: a refusal is logged and gives None (a board that cannot be posted
        must not stop the game), except Forbidden when the caller must know (a private
        chat the user closed), and a passing refusal (`Owed`) when the caller will try
        again later. A sent message counts towards the chat's burial."""
        try:
            message = await sending
        except Forbidden:
            if raise_forbidden:
                raise
            log.warning("telegram refused %s in chat %s (bot removed?)", what, chat.chat)
            return None
        except TelegramError as exc:
            delay = passing(exc)
            if owe and delay is not None:
                raise Owed(delay) from exc
            log.warning("could not send %s to chat %s: %s", what, chat.chat, exc)
            return None
        self.saw(message.chat_id, message.message_id)
        return message

    async def _edit(self, old: Slot, reply: Reply, caption_html: str, markup) -> bool:
        try:
            if reply.picture is not None:
                await self.bot.edit_message_media(
                    chat_id=old.chat_id,
                    message_id=old.message_id,
                    media=InputMediaPhoto(
                        reply.picture.png,
                        caption=caption_html or None,
                        parse_mode=ParseMode.HTML,
                        filename=reply.picture.filename,
                    ),
                    reply_markup=markup,
                )
            else:
                await self.bot.edit_message_text(
                    chat_id=old.chat_id,
                    message_id=old.message_id,
                    text=caption_html or "…",
                    parse_mode=ParseMode.HTML,
                    reply_markup=markup,
                )
        except BadRequest as exc:
            if "not modified" in str(exc).lower():
                return True
            log.info("could not edit message %s, sending a new one: %s", old.message_id, exc)
            return False
        except TelegramError as exc:
            log.info("could not edit message %s, sending a new one: %s", old.message_id, exc)
            return False
        return True

    async def set_page(self, chat_id: int, message_id: int, markup) -> None:
        await self.bot.edit_message_reply_markup(
            chat_id=chat_id, message_id=message_id, reply_markup=markup
        )

    async def _delete(self, chat_id: int, ids: list[int], *, fallback_strip: bool = False) -> None:
        if not ids:
            return
        try:
            if len(ids) == 1:
                await self.bot.delete_message(chat_id=chat_id, message_id=ids[0])
            else:
                await self.bot.delete_messages(chat_id=chat_id, message_ids=ids)
            return
        except TelegramError as exc:  # older than 48 h, already gone, or no right to
            log.info("could not delete %d message(s) in %s: %s", len(ids), chat_id, exc)
        if fallback_strip:
            for message_id in ids:  # at least take the stale buttons away
                with contextlib.suppress(TelegramError):
                    await self.bot.edit_message_reply_markup(
                        chat_id=chat_id, message_id=message_id, reply_markup=None
                    )

    async def _recall(self, session_id: int, t: Tracked) -> None:
        """After a restart: the live message the previous run left, if it recorded one."""
        if t.slot is not None or t.recalled:
            return
        t.recalled = True
        try:
            raw = await self.store.get_meta(LIVE_KEY.format(session_id))
            if raw:
                d = json.loads(raw)
                t.slot = Slot(d["chat"], d["message"], d["photo"], None, d["sent"])
        except Exception:  # a lost record costs one stale message, never the game
            log.exception("could not read the live message of session %s", session_id)

    async def _keep(self, session_id: int, slot: Slot | None) -> None:
        """Record the live message (None: the session has none any more)."""
        value = ""
        if slot is not None:
            fields = {"chat": slot.chat_id, "message": slot.message_id, "photo": slot.photo}
            value = json.dumps(fields | {"sent": slot.sent})
        try:
            await self.store.set_meta(LIVE_KEY.format(session_id), value)
        except Exception:
            log.exception("could not record the live message of session %s", session_id)

    async def _retire(self, slot: Slot) -> None:
        """A live message replaced or no longer needed: deleted while Telegram allows it,
        else (or if that fails) left in place without its buttons."""
        if deletable(slot.sent):
            await self._delete(slot.chat_id, [slot.message_id], fallback_strip=True)
            return
        with contextlib.suppress(TelegramError):
            await self.bot.edit_message_reply_markup(
                chat_id=slot.chat_id, message_id=slot.message_id, reply_markup=None
            )

    async def _tidy(self, chat: ChatRef, session_id: int, *, keep_board: bool) -> None:
        t = self.sessions.pop(session_id, None) or Tracked()
        if self.current.get(_key(chat)) == session_id:
            del self.current[_key(chat)]
        await self._recall(session_id, t)
        await self._keep(session_id, None)
        by_chat: dict[int, list[int]] = {}
        too_old = 0
        for sent in t.litter:
            if deletable(sent.at):
                by_chat.setdefault(sent.chat_id, []).append(sent.message_id)
            else:
                too_old += 1
        if too_old:
            log.info("left %d message(s) of session %s: older than 48 hours", too_old, session_id)
        for chat_id, message_id in t.moves.values():
            await self._strip(chat_id, message_id)
        for chat_id, ids in by_chat.items():
            for start in range(0, len(ids), 100):
                await self._delete(chat_id, ids[start : start + 100])
        if t.slot is not None and not keep_board:
            if not t.slot.photo:  # a lobby that never became a game
                await self._retire(t.slot)
                return
            # An aborted game: keep its last picture for the record, without live buttons.
            with contextlib.suppress(TelegramError):
                await self.bot.edit_message_reply_markup(
                    chat_id=t.slot.chat_id, message_id=t.slot.message_id, reply_markup=None
                )


def _note_private_moves(reply: Reply) -> Reply:
    """A public reply whose moves are left off its keyboard says where they are."""
    if len(keyboards.shown_choices(reply.choices)) == len(reply.choices):
        return reply
    return replace(reply, text=f"{reply.text}\n{PRIVATE_MOVES}")


def _key(chat: ChatRef) -> tuple[int, int | None]:
    return int(chat.chat), _thread(chat)


def _thread(chat: ChatRef) -> int | None:
    return int(chat.thread) if chat.thread else None


def _reply(message_id: int | None) -> ReplyParameters | None:
    return ReplyParameters(message_id, allow_sending_without_reply=True) if message_id else None
