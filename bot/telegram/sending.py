"""Telegram as a delivery transport: a reply as photos, animations and HTML messages.

- Pictures go as photos (a replay as an animation) with a caption of at most 1024
  characters; the rest of a long text follows as messages of 4096 characters. The
  picture's description (its alt text) goes under the caption in a collapsed quote, or in
  messages of its own when the caption has no room for it (a private view stays one
  message, so it can be edited in place through a multi-step choice).
- A group never sees a player's moves; a group's "My hand" button is a deep link into the
  private chat, the only place a secret may go. A bot can write to a person only after
  they pressed START there: until then the group is told how (`cannot_reach`).
- A message can be deleted only within 48 hours (by Telegram's clock, the message's date):
  an older one being retired only loses its buttons.
- A chat has "moved on" past a live board once several newer messages came after it in
  its topic (its own and the commands it received there, counted with the table by every
  worker: `LiveBoards.message_in`; a forum's other topics do not bury it).
"""

from __future__ import annotations

import contextlib
import html
import logging
import time
from collections.abc import Awaitable, Callable

from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
    ReplyParameters,
)
from telegram.constants import ChatAction, ParseMode
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError

from bot.delivery import Asked, Sent, Transient, Unreachable
from bot.delivery.text import head_and_rest, parts, utf16_length
from bot.service import ChatRef, Contact, Picture, Reply, TableFacts, UserRef
from bot.telegram import callback_data, keyboards
from bot.telegram.ratelimit import Crowded
from bot.telemetry import metrics
from languages import DEFAULT, msg, say

log = logging.getLogger(__name__)

PLATFORM = "telegram"
CAPTION_LIMIT = 1024
TEXT_LIMIT = 4096
BURIED_AFTER = 6  # newer messages in the chat after which a board is re-sent, not edited
DELETABLE_FOR = 48 * 3600 - 600  # seconds Telegram lets a bot delete its message (margin)
MIN_ALT_ROOM = 120  # characters: less room than this in a private caption, no cut description
# Seconds a message may wait for its chat's turn (a group takes 20 a minute): a notice
# that would wait longer is left unsaid, a board is owed to the chat (posted when its turn
# comes, a newer board of the game taking its place), so one flooded group never holds
# up its own updates for long (they run one after another) nor anyone else's.
NOTICE_WAIT = 2.0
BOARD_WAIT = 5.0


def alt_quote(alt: str) -> str:
    """A picture's description as a collapsed quote (a screen reader reads it out)."""
    return f"<blockquote expandable>{html.escape(alt)}</blockquote>"


def mention_html(users: list[UserRef]) -> str:
    return ", ".join(
        f'<a href="tg://user?id={int(u.id)}">{html.escape(u.name)}</a>'
        for u in users
        if u.id.isdigit()
    )


def passing(exc: TelegramError) -> float | None:
    """Seconds to wait before trying again when `exc` is a passing refusal, else None
    (BadRequest is a NetworkError in PTB, but resending will not mend it)."""
    if isinstance(exc, RetryAfter):
        pause = exc.retry_after
        return float(pause.total_seconds() if hasattr(pause, "total_seconds") else pause)
    if isinstance(exc, NetworkError) and not isinstance(exc, BadRequest):
        return 1.0
    return None


def sent_of(message: Message, *, private: bool = False) -> Sent:
    date = getattr(message, "date", None)
    return Sent(
        str(message.chat_id),
        message.message_id,
        date.timestamp() if date else time.time(),
        picture=bool(getattr(message, "photo", None) or getattr(message, "animation", None)),
        private=private,
    )


def deletable(sent: Sent) -> bool:
    return time.time() - sent.at < DELETABLE_FOR


def caption(reply: Reply, limit: int, *, alt_follows: bool = True) -> tuple[str, list[str]]:
    """(HTML for the message, HTML of the messages that follow it); the mention line always
    fits; the picture's description goes in the caption if it has room for all of it, else
    in messages of its own (`alt_follows`) or, cut after a sentence, in what room the
    caption has."""
    ping = mention_html(reply.mention) if reply.mention and reply.to is None else ""
    ping_plain = ", ".join(u.name for u in reply.mention if u.id.isdigit()) if ping else ""
    your_move = say(msg("Your move:"), reply.language or DEFAULT)
    reserve = utf16_length(f"\n{your_move} " + ping_plain) if ping else 0
    head, rest = head_and_rest(reply.text, limit - reserve, utf16_length)
    body = html.escape(head)
    if ping:
        body += f"\n{your_move} " + ping
    more = [html.escape(part) for part in parts(rest, TEXT_LIMIT, utf16_length)] if rest else []
    alt = " ".join(reply.picture.alt.split()) if reply.picture is not None else ""
    if alt and alt in " ".join(reply.text.split()):
        alt = ""  # the text is the description already (a private view)
    room = limit - utf16_length(head) - reserve - 1
    if alt and not rest and utf16_length(alt) <= room:
        body += "\n" + alt_quote(alt)
    elif alt and alt_follows:
        more += [alt_quote(part) for part in parts(alt, TEXT_LIMIT - 64, utf16_length)]
    elif alt and not rest and room >= MIN_ALT_ROOM:
        body += "\n" + alt_quote(head_and_rest(alt, room, utf16_length)[0])
    return body, more


class TelegramTransport:
    platform = PLATFORM
    answers_in_place = False  # a group has no message only one member sees
    view_button = True  # shows the shared My hand button
    brief_views = False  # a private view's message holds its whole words (no alt text)
    tidies = True  # a game's notices are deleted at its end: groups must not fill up

    def __init__(self, bot: Bot, username: str, webapp: str = "", public_url: str = "") -> None:
        self.bot = bot
        self.username = username
        self.webapp = webapp  # the Mini App's short name (BotFather's /newapp), if any
        self.public_url = public_url  # the web board's origin, if it is served
        # told of each message the bot posts in a group (its topic): the live board there
        # is one further back (set by the adapter)
        self.counted: Callable[[ChatRef], Awaitable[None]] | None = None

    def hand_url(self, session_id: int | None) -> str | None:
        if session_id is None or not self.username:
            return None
        return callback_data.deep_link(self.username, callback_data.hand_payload(session_id))

    def moved_on(self, live: Sent, later: int) -> bool:
        return later > BURIED_AFTER

    def markup(self, reply: Reply, where: ChatRef, *, page: int = 0) -> InlineKeyboardMarkup | None:
        group = where.chat.startswith("-")
        markup = None
        if reply.choices:
            markup = keyboards.choices_keyboard(
                reply.choices,
                session_id=reply.session_id,
                version=reply.version,
                page=page,
                hand_url=self.hand_url(reply.session_id) if group else None,
                one_row=reply.kind == "lobby",
                language=reply.language or DEFAULT,
            )
        shows_table = reply.kind in ("board", "private") and not reply.final
        if reply.session_id is None or not shows_table:
            return markup
        button = keyboards.board_button(
            reply.session_id,
            group=group,
            bot=self.username,
            webapp=self.webapp,
            public_url=self.public_url,
            language=reply.language or DEFAULT,
        )
        if button is None:
            return markup
        rows = [list(row) for row in markup.inline_keyboard] if markup is not None else []
        return InlineKeyboardMarkup([*rows, [button]])

    # ----- the transport --------------------------------------------------------------
    async def post(
        self, where: ChatRef, reply: Reply, asked: Asked | None, table: TableFacts | None
    ) -> list[Sent]:
        private = reply.to is not None
        heading = _heading(reply, table)
        limit = (CAPTION_LIMIT if reply.picture else TEXT_LIMIT) - utf16_length(heading)
        body, rest = caption(reply, limit, alt_follows=not private)
        markup = self.markup(reply, where)
        reply_to = asked.reply_to if asked is not None and not private else None
        # a board's buttons stay on its picture; a private message's under its last part
        first_markup = markup if not private or not rest else None
        notice = not private and not reply.live  # not worth a long wait in a flood
        first = await self._send(
            where,
            reply.picture,
            heading + body,
            first_markup,
            reply_to,
            private=private,
            notice=notice,
        )
        if first is None:
            return []
        out = [sent_of(first, private=private)]
        for n, part in enumerate(rest):
            own = markup if private and n == len(rest) - 1 else None
            extra = await self._send(where, None, part, own, private=private, notice=notice)
            if extra is not None:
                out.append(sent_of(extra, private=private))
        if first_markup is not None and len(out) > 1:
            out.append(out.pop(0))  # the message with the buttons last
        return out

    async def edit(
        self, sent: Sent, reply: Reply, asked: Asked | None, table: TableFacts | None
    ) -> bool:
        private = reply.to is not None
        heading = _heading(reply, table)
        limit = (CAPTION_LIMIT if reply.picture else TEXT_LIMIT) - utf16_length(heading)
        body, rest = caption(reply, limit, alt_follows=not private)
        if rest:
            return False  # one message cannot hold it all: post it anew
        where = ChatRef(PLATFORM, sent.chat, "", sent.chat)
        markup = self.markup(reply, where)
        try:
            if reply.picture is not None:
                media = InputMediaPhoto(
                    reply.picture.png,
                    caption=heading + body or None,
                    parse_mode=ParseMode.HTML,
                    filename=reply.picture.filename,
                )
                await self.bot.edit_message_media(
                    chat_id=int(sent.chat),
                    message_id=sent.message,
                    media=media,
                    reply_markup=markup,
                    rate_limit_args=BOARD_WAIT,
                )
            else:
                await self.bot.edit_message_text(
                    chat_id=int(sent.chat),
                    message_id=sent.message,
                    text=heading + body or "…",
                    parse_mode=ParseMode.HTML,
                    reply_markup=markup,
                    rate_limit_args=BOARD_WAIT,
                )
        except BadRequest as exc:
            if "not modified" in str(exc).lower():
                return True
            log.info("could not edit message %s, sending a new one: %s", sent.message, exc)
            return False
        except TelegramError as exc:
            log.info("could not edit message %s, sending a new one: %s", sent.message, exc)
            return False
        return True

    async def retire(self, sent: Sent) -> None:
        if deletable(sent):
            await self.delete([sent], strip_instead=True)
        else:
            await self.strip(sent)

    async def strip(self, sent: Sent) -> None:
        """(Left with its buttons where its chat is flooded: pressed, they are stale.)"""
        with contextlib.suppress(TelegramError):
            await self.bot.edit_message_reply_markup(
                chat_id=int(sent.chat),
                message_id=sent.message,
                reply_markup=None,
                rate_limit_args=BOARD_WAIT,
            )

    async def delete(self, sent: list[Sent], *, strip_instead: bool = False) -> None:
        """Delete messages (those older than Telegram allows are left alone)."""
        by_chat: dict[str, list[int]] = {}
        old = 0
        for s in sent:
            if deletable(s):
                by_chat.setdefault(s.chat, []).append(s.message)
            else:
                old += 1
        if old:
            log.info("left %d message(s): older than 48 hours", old)
        for chat_id, ids in by_chat.items():
            for start in range(0, len(ids), 100):
                batch = ids[start : start + 100]
                try:
                    if len(batch) == 1:
                        await self.bot.delete_message(chat_id=int(chat_id), message_id=batch[0])
                    else:
                        await self.bot.delete_messages(chat_id=int(chat_id), message_ids=batch)
                except TelegramError as exc:  # already gone, or no right to
                    log.info("could not delete %d message(s) in %s: %s", len(batch), chat_id, exc)
                    if strip_instead:
                        for message_id in batch:
                            await self.strip(Sent(chat_id, message_id))

    async def answer_in_place(self, reply: Reply, asked: Asked) -> Sent | None:
        raise NotImplementedError("Telegram cannot show one member of a group an answer")

    async def private_place(self, user: UserRef, contact: Contact) -> ChatRef | None:
        chat = contact.private_chat
        return ChatRef(PLATFORM, chat, "", chat) if chat else None

    async def cannot_reach(
        self, chat: ChatRef, user: UserRef, session_id: int | None, language: str
    ) -> Sent | None:
        url = self.hand_url(session_id)
        told = msg(
            "{name}, I cannot send you private messages yet. Press the button below, then "
            "Start, and I will show you your hand there.",
            name=user.name,
        )
        if session_id is None:  # an answer for the asker alone, not a hand
            told = msg(
                "{name}, my answer is for you alone, and I cannot send you private messages yet: open a private chat with me, press Start, and ask again.",
                name=user.name,
            )
        text = html.escape(say(told, language))
        markup = None
        if url:
            label = say(msg("Open my private chat"), language)
            markup = InlineKeyboardMarkup([[InlineKeyboardButton(label, url=url)]])
        message = await self._send(chat, None, text, markup, notice=True)
        return sent_of(message) if message is not None else None

    # ----- Bot API calls ------------------------------------------------------------
    async def typing(self, where: ChatRef) -> None:
        """Telegram's "typing…" under the chat's name for a few seconds: an answer is coming.
        Only a sign: a chat that refuses it loses nothing."""
        try:
            await self.bot.send_chat_action(
                chat_id=int(where.chat),
                action=ChatAction.TYPING,
                message_thread_id=int(where.thread) if where.thread.isdigit() else None,
            )
        except TelegramError as exc:
            log.debug("no typing sign in chat %s: %s", where.chat, exc)

    async def text(
        self, where: ChatRef, text_html: str, markup=None, reply_to: int | None = None
    ) -> Sent | None:
        """A short message of the front end's own (a menu, a pointer)."""
        message = await self._send(where, None, text_html, markup, reply_to, notice=True)
        return sent_of(message) if message is not None else None

    async def _send(
        self,
        where: ChatRef,
        picture: Picture | None,
        body_html: str,
        markup,
        reply_to: int | None = None,
        *,
        private: bool = False,
        notice: bool = False,
    ) -> Message | None:
        """A send; a refusal is logged and gives None (a board that cannot be posted must
        not stop the game), except: a passing one in a chat (`Transient`: it is owed), and
        a private chat that refuses us (`Unreachable`: the group is told how to open it).
        A `notice` its chat cannot take within `NOTICE_WAIT` is not sent, a board within
        `BOARD_WAIT` is owed (a flood)."""
        common = dict(
            rate_limit_args=NOTICE_WAIT if notice else None if private else BOARD_WAIT,
            chat_id=int(where.chat),
            parse_mode=ParseMode.HTML,
            reply_markup=markup,
            message_thread_id=int(where.thread) if where.thread.isdigit() else None,
            reply_parameters=ReplyParameters(reply_to, allow_sending_without_reply=True)
            if reply_to
            else None,
        )
        if picture is None:
            sending = self.bot.send_message(text=body_html or "…", **common)
            what = "a message"
        elif picture.filename.endswith(".json"):  # a file (`/escape export`), not a picture
            sending = self.bot.send_document(
                document=picture.png,
                filename=picture.filename,
                caption=body_html or None,
                **common,
            )
            what = "a file"
        elif picture.filename.endswith(".gif"):  # sent as a photo it would stand still
            sending = self.bot.send_animation(
                animation=picture.png,
                filename=picture.filename,
                caption=body_html or None,
                **common,
            )
            what = "an animation"
        else:
            sending = self.bot.send_photo(
                photo=picture.png, filename=picture.filename, caption=body_html or None, **common
            )
            what = "a photo"
        try:
            message = await sending
        except Crowded as exc:
            if not notice:
                raise Transient(exc.delay) from exc  # a board: owed to the chat
            metrics.NOTICES_DROPPED.labels(PLATFORM).inc()
            log.info("chat %s is flooded: a notice of ours was left unsaid", where.chat)
            return None
        except Forbidden as exc:
            if private:
                log.info(
                    "cannot reach telegram chat %s privately (blocked or never started)", where.chat
                )
                raise Unreachable(where.chat) from exc
            log.warning("telegram refused %s in chat %s (bot removed?)", what, where.chat)
            return None
        except TelegramError as exc:
            delay = passing(exc)
            if not private and delay is not None:
                raise Transient(delay) from exc
            log.warning("could not send %s to chat %s: %s", what, where.chat, exc)
            return None
        if self.counted is not None and where.chat.startswith("-"):
            await self.counted(where)
        return message

    async def set_page(self, chat_id: int, message_id: int, markup) -> None:
        await self.bot.edit_message_reply_markup(
            chat_id=chat_id, message_id=message_id, reply_markup=markup, rate_limit_args=BOARD_WAIT
        )


def _heading(reply: Reply, table: TableFacts | None) -> str:
    """A private view names its game first: a private chat may hold several games."""
    if reply.to is None or table is None or reply.kind != "private" or reply.picture is None:
        return ""
    said = say(
        msg("{game}, game #{id}", game=msg(table.title), id=table.session_id),
        reply.language or DEFAULT,
    )
    return f"<i>{html.escape(said)}</i>\n"
