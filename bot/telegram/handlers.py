"""Telegram updates into service requests: `/escape ...` (made from the service's command
table), the bare `/escape` menu, button presses, and `/start <payload>` deep links in the
private chat. Every plan the service returns goes out through the one `Delivery`, over
this platform's transport; nothing here decides who sees what.

A refusal (`UserError`) is shown to the one user who asked: a reply to their command, or an
alert on the button they pressed; one that names their hand goes to their private chat.
"""

from __future__ import annotations

import contextlib
import html
import logging
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TypeVar

from telegram import Chat, Message, Update, User
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes, filters

from bot.delivery import Asked, Delivery
from bot.delivery.waiting import WORKING, signalled
from bot.service import (
    Call,
    ChatRef,
    GameService,
    Plan,
    Reply,
    UpdateQueue,
    UserError,
    UserRef,
    commands,
    short_refusal,
)
from bot.telegram import callback_data, keyboards
from bot.telegram.sending import PLATFORM, TelegramTransport, sent_of
from languages import Text, msg, say

log = logging.getLogger(__name__)

T = TypeVar("T")
ALERT_LIMIT = 200  # answerCallbackQuery text
MENU_TEXT = msg("Escape: what would you like to do? (Or type /escape help.)")
NOT_OURS = msg("That button is not one of ours; use the buttons under the latest board.")
BROKEN = msg("Something went wrong on my side; nothing was lost. Try again in a moment.")
ACKNOWLEDGE_AFTER = 2.0  # seconds a press may take before it is acknowledged ahead of its answer
GONE = msg("That message is too old for its buttons; type /escape board for a fresh one.")
HELLO = msg(
    "Hello! I will send your private hands and views here. Add me to a group and type "
    "/escape there to play."
)
ADMIN_STATUSES = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)
ANONYMOUS_ADMIN = 1087968824  # @GroupAnonymousBot: an admin posting as the group


@dataclass
class Context:
    """Who asked, where, and from which message."""

    chat: ChatRef
    user: UserRef
    message: Message
    private: bool
    as_group: bool = False  # an anonymous admin (sender_chat is the group itself)
    update_id: int = 0  # the update it came in (its stage is kept: `TelegramAdapter.served`)

    def asked(self, pressed: Message | None = None, *, typed: bool = False) -> Asked:
        return Asked(
            self.user,
            private_chat=self.chat if self.private else None,
            pressed=sent_of(pressed, private=self.private) if pressed is not None else None,
            reply_to=self.message.message_id if typed else None,
        )


def chat_ref(message: Message, user: User | None = None) -> ChatRef:
    """A group (or its topic). A group has no language of its own on Telegram: a table
    opened there speaks the language of the player who opened it."""
    thread = message.message_thread_id if message.is_topic_message else None
    chat_id = str(message.chat.id)
    language = (user.language_code or "") if user is not None else ""
    return ChatRef(PLATFORM, chat_id, str(thread) if thread else "", chat_id, language)


def user_ref(user: User) -> UserRef:
    name = user.full_name or user.username or str(user.id)
    return UserRef(PLATFORM, str(user.id), name, user.language_code or "")


def named_person(message: Message | None) -> UserRef | None:
    """The person a command names by replying to one of their messages (or by a mention
    of someone without a username): Telegram's way to pick a member."""
    if message is None:
        return None
    for entity in message.entities or ():
        if entity.type == "text_mention" and entity.user is not None and not entity.user.is_bot:
            return user_ref(entity.user)
    replied = message.reply_to_message
    if replied is not None and replied.from_user is not None and not replied.from_user.is_bot:
        return user_ref(replied.from_user)
    return None


def dm_note(contact) -> Text:
    if contact.private_chat:
        return ""
    return msg(" (Open a private chat with the bot and press START, so it can write.)")


class TelegramAdapter:
    def __init__(self, service: GameService, webapp: str = "", public_url: str = "") -> None:
        self.service = service
        self.delivery = Delivery(service, PLATFORM)
        self.transport: TelegramTransport | None = None
        self.webapp, self.public_url = webapp, public_url  # the web board's Open board
        self.updates: UpdateQueue | None = None  # the stored updates (bot/telegram/updates.py)

    def attach(self, application: Application) -> None:
        """Once the bot knows who it is (after `initialize`, which calls getMe)."""
        self.transport = TelegramTransport(
            application.bot, application.bot.username or "", self.webapp, self.public_url
        )
        self.transport.counted = self.delivery.boards.message_in

    def detach(self) -> None:
        self.delivery.close()
        self.transport = None

    def register(self, application: Application) -> None:
        application.add_handler(CommandHandler("escape", self.on_escape))
        application.add_handler(CommandHandler("start", self.on_start, filters.ChatType.PRIVATE))
        application.add_handler(CommandHandler("help", self.on_help))
        application.add_handler(CallbackQueryHandler(self.on_button))
        application.add_error_handler(self.on_error)

    # ----- the notifier (plans nobody asked for: reminders, timeouts) ---------------------
    async def deliver(self, chat: ChatRef, plan: Plan) -> None:
        if self.transport is None:
            log.warning("telegram is not connected yet; %d replies dropped", len(plan))
            return
        await self.delivery.deliver(chat, plan, self.transport)

    async def _send(self, ctx: Context, plan: Plan, chat: ChatRef | None = None, **asked) -> None:
        await self.delivery.deliver(chat or ctx.chat, plan, self.transport, ctx.asked(**asked))

    async def _say(self, ctx: Context, text: Text, *, markup=None, reply: bool = False) -> None:
        """A short message of ours in the chat asked from, in the asker's language, tidied
        with the game there."""
        reply_to = ctx.message.message_id if reply else None
        said = html.escape(say(text, await self.service.language_of(ctx.user)))
        sent = await self.transport.text(ctx.chat, said, markup, reply_to)
        if sent is not None and not ctx.private:
            live = await self.service.live(ctx.chat)
            if live is not None:
                await self.delivery.boards.add_litter(live.id, [sent])

    # ----- commands -------------------------------------------------------------------
    async def on_escape(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        ctx = await self._context(update)
        if ctx is None:
            return
        words = list(context.args or [])
        if not words:
            language = await self.service.language_of(ctx.user)
            await self._say(ctx, MENU_TEXT, markup=keyboards.menu_keyboard(language=language))
            return
        try:
            await self.execute(ctx, words[0].lower(), words[1:], typed=True)
        except UserError as exc:
            language = await self.service.language_of(ctx.user)
            reason = short_refusal(say(exc.msg, language), " ".join(words))  # never all of it
            if exc.secret and not ctx.private:
                await self._refuse_privately(ctx, reason)
                return
            await self._say(ctx, reason, reply=True)
        except Exception:
            await self._say(ctx, BROKEN, reply=True)
            raise

    async def on_help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        ctx = await self._context(update)
        if ctx is not None:
            await self._send(ctx, Plan([self.service.help()], asker=ctx.user))

    async def on_start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Private chat only: START pressed, maybe through a `?start=h<session>` deep link."""
        ctx = await self._context(update)
        if ctx is None:
            return
        session_id = callback_data.parse_payload((context.args or [""])[0])
        if session_id is None:
            await self._say(ctx, HELLO)
            return
        try:
            plan = await self.service.view_in(PLATFORM, session_id, ctx.user)
        except UserError as exc:
            await self._say(ctx, exc.msg)
            return
        await self._send(ctx, plan)

    async def execute(self, ctx: Context, name: str, words: list[str], *, typed: bool) -> None:
        """One `/escape` command (also reached from the menu); raises UserError."""
        command = commands.find(name)
        args: dict[str, object] = dict(commands.words_as_args(command, words))
        for arg in command.args:  # a person: the one whose message this replies to
            named = named_person(ctx.message)
            if arg.kind == commands.PLAYER and named is not None and not args.get(arg.name):
                args[arg.name] = named
        chat = ctx.chat
        game = command.asks_for_game
        if game is not None and not args.get(game.name):
            await self._offer_games(ctx)
            return

        async def typing() -> None:  # a slow answer's sign, in the chat asked from
            await self.transport.typing(ctx.chat)

        if ctx.private and command.in_private is not None:  # one answer for each table
            asked = self.service.run_in_private(command.name, Call(chat, ctx.user, args))
            for plan in await signalled(asked, typing):
                await self._send(ctx, plan)
            return
        if command.opens_table and game is not None:  # in a forum topic of its own
            chat = await self._game_place(ctx, self.service.game(str(args[game.name])).title)
        is_admin = command.who.asks_admin and await self._is_admin(ctx)
        call = Call(chat, ctx.user, args, is_admin=is_admin)
        try:
            plan = await signalled(self.service.run_command(command.name, call), typing)
        except UserError as exc:
            if chat.thread != ctx.chat.thread:  # do not leave an empty topic behind
                with contextlib.suppress(TelegramError):
                    await self.transport.bot.delete_forum_topic(int(chat.chat), int(chat.thread))
            if command.secret_words and exc.secret:
                await self._unsay(ctx)
            raise
        if command.secret_words and plan.table is not None and plan.table.secrets:
            await self._unsay(ctx)  # typed words of a game with secrets may name a card
        if typed:
            await self.served(ctx)
        await self._send(ctx, plan, chat, typed=typed)

    async def _unsay(self, ctx: Context) -> None:
        """A move typed in the group of a game with secrets names the mover's card: take it
        out of the group where the bot may (an admin with Delete Messages), else leave it."""
        if ctx.private:
            return
        try:
            await self.transport.bot.delete_message(ctx.message.chat.id, ctx.message.message_id)
        except TelegramError as exc:
            log.info("could not delete a typed secret move in %s: %s", ctx.message.chat.id, exc)

    async def _refuse_privately(self, ctx: Context, reason: str) -> None:
        """A typed move refused for a reason that names the player's hand: Telegram has no
        message only one member of a group sees, so the reason goes to the private chat
        (or the group is told how to open it) and the group learns only that it was refused."""
        await self._say(
            ctx,
            msg(
                "{name}, that move is not allowed; why (it concerns your hand) is in our private chat.",
                name=ctx.user.name,
            ),
            reply=True,
        )
        row = await self.service.live(ctx.chat)
        reply = Reply(reason, kind="info", to=ctx.user, session_id=row.id if row else None)
        await self._send(ctx, Plan([reply], asker=ctx.user))

    async def _offer_games(self, ctx: Context) -> None:
        language = await self.service.language_of(ctx.user)
        games = [(gid, say(msg(title), language)) for gid, title in self.service.game_list()]
        await self._say(
            ctx,
            msg("Which game? (For options, type e.g. /escape start ghosts18 variant=short.)"),
            markup=keyboards.games_keyboard(games),
        )

    async def _game_place(self, ctx: Context, title: str) -> ChatRef:
        """In a forum's General topic a new game gets a topic of its own, when the bot may
        create one; anywhere else (or if it may not) the game lives where it was asked for."""
        chat = ctx.chat
        if ctx.private or chat.thread or not ctx.message.chat.is_forum:
            return chat
        if await self.service.live(chat) is not None:
            return chat  # let the service explain that a game already runs here
        try:
            topic = await self.transport.bot.create_forum_topic(chat_id=int(chat.chat), name=title)
        except TelegramError as exc:
            log.info(
                "could not create a topic in %s (%s); the game stays in General", chat.chat, exc
            )
            return chat
        await self._say(
            ctx,
            msg("{game}: the table is in the new topic “{topic}”.", game=title, topic=topic.name),
        )
        return ChatRef(PLATFORM, chat.chat, str(topic.message_thread_id), chat.scope)

    async def open_place(self, home: ChatRef, name: str) -> ChatRef | None:
        """A forum topic for one of a tournament's tables; None in a group without topics
        (or where the bot may not make one): the table is then played in its players'
        private chats and on the web board."""
        if self.transport is None:
            return None
        try:
            topic = await self.transport.bot.create_forum_topic(
                chat_id=int(home.chat), name=name[:128]
            )
        except (TelegramError, ValueError) as exc:
            log.info("no topic for a table in %s (%s): it is played privately", home.chat, exc)
            return None
        return ChatRef(PLATFORM, home.chat, str(topic.message_thread_id), home.scope, home.language)

    async def _is_admin(self, ctx: Context) -> bool:
        if ctx.private:
            return False
        if ctx.as_group:
            return True
        try:
            member = await self.transport.bot.get_chat_member(int(ctx.chat.chat), int(ctx.user.id))
        except TelegramError as exc:
            log.info("could not check the admin status of %s: %s", ctx.user.id, exc)
            return False
        return member.status in ADMIN_STATUSES

    # ----- buttons --------------------------------------------------------------------
    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        try:
            press = callback_data.parse(query.data)
        except callback_data.BadData:
            await _alert(query, NOT_OURS, await self.service.language_of(user_ref(query.from_user)))
            return
        message = query.message
        if not isinstance(message, Message) or self.transport is None:
            await _alert(
                query, GONE, await self.service.language_of(user_ref(query.from_user))
            )  # very old, or inline
            return
        ctx = await self._context(update, message=message, user=query.from_user)
        if ctx is None:
            await _alert(query, GONE, await self.service.language_of(user_ref(query.from_user)))
            return
        answered = False

        async def working() -> None:
            nonlocal answered
            with contextlib.suppress(TelegramError):
                await query.answer(say(WORKING, await self.service.language_of(ctx.user)))
            answered = True

        async def in_time(work: Awaitable[T]) -> T:
            """A press's work; when it outlasts `ACKNOWLEDGE_AFTER` (a review, a replay
            drawn), the press is acknowledged first, so the button stops spinning."""
            return await signalled(work, working, ACKNOWLEDGE_AFTER)

        async def acknowledge() -> None:
            if not answered:
                await query.answer()

        try:
            if press.kind == "choice" and ctx.private:
                chat, plan = await in_time(
                    self.service.press_privately(PLATFORM, ctx.user, press.data)
                )
                await acknowledge()
                await self.served(ctx)
                await self._send(ctx, plan, chat, pressed=message)
            elif press.kind == "choice":
                plan = await in_time(self.service.press(ctx.chat, ctx.user, press.data))
                await acknowledge()
                await self.served(ctx)
                await self._adopt(ctx, message, plan)
                await self._send(ctx, plan, pressed=message)
            elif press.kind == "page":
                await self._page(ctx, press, message)
                await query.answer()
            elif press.kind == "menu":
                await self.execute(ctx, press.data, [], typed=False)
                await query.answer()
            elif press.kind == "start":
                await self.execute(ctx, "start", [press.data], typed=False)
                await query.answer()
        except UserError as exc:
            if answered:  # the alert's chance is gone: a reply of ours, tidied with the game
                await self._say(ctx, exc.msg)
            else:
                await _alert(query, exc.msg, await self.service.language_of(ctx.user))
            await self.served(ctx)
        except Exception:
            if answered:
                await self._say(ctx, BROKEN)
            else:
                await _alert(
                    query, BROKEN, await self.service.language_of(ctx.user)
                )  # never left spinning
            raise

    # ----- stored updates --------------------------------------------------------------
    async def served(self, ctx: Context) -> None:
        """The service has answered this update (a press is acknowledged): a worker that
        takes it over, should this one die delivering, does not ask again."""
        if self.updates is not None and ctx.update_id:
            try:
                await self.updates.served(ctx.update_id)
            except Exception:  # then a worker taking it over asks again (and is told so)
                log.warning("could not mark update %s as served", ctx.update_id)

    async def resume(self, update: Update) -> None:
        """An update taken over after the service had answered it: its worker died while
        delivering. A board it replaced and did not retire is retired, and the chat's board
        is shown anew where the move it stored is not shown (the live board's record is
        behind the table)."""
        message = update.effective_message
        if self.transport is None or message is None or message.chat.type == ChatType.PRIVATE:
            return
        chat = chat_ref(message)
        row = await self.service.live(chat)
        if row is None:
            return
        await self.delivery.retire_leftovers(row.id, self.transport)
        shown = await self.delivery.boards.live(row.id)
        if shown is not None and shown.version is not None and shown.version >= row.version:
            return
        plan = await self.service.board_again(chat)
        if plan is not None:
            log.info("update %s: showing the board of %s anew", update.update_id, chat.chat)
            await self.delivery.deliver(chat, plan, self.transport)

    async def _adopt(self, ctx: Context, message: Message, plan: Plan) -> None:
        """A press on a board whose live message is not recorded (a record lost)."""
        board = plan.board
        if board is not None and message.chat.id < 0:
            await self.delivery.adopt(board.session_id, ctx.chat, sent_of(message), board.kind)

    async def _page(self, ctx: Context, press: callback_data.Press, message: Message) -> None:
        """Another page of a board's choices; in the private chat, of the presser's own."""
        choices = await self.service.buttons_of(
            press.session_id, press.version, ctx.user if ctx.private else None
        )
        if not choices or press.page >= keyboards.page_count(choices):
            raise UserError(msg("There is no such page of choices."))
        markup = keyboards.choices_keyboard(
            choices,
            session_id=press.session_id,
            version=press.version,
            page=press.page,
            hand_url=self.transport.hand_url(press.session_id) if not ctx.private else None,
        )
        try:
            await self.transport.set_page(message.chat.id, message.message_id, markup)
        except TelegramError as exc:
            if "not modified" not in str(exc).lower():
                raise UserError(msg("I could not turn the page just now; try again.")) from exc

    # ----- plumbing -------------------------------------------------------------------
    async def _context(
        self, update: Update, *, message: Message | None = None, user: User | None = None
    ) -> Context | None:
        message = message or update.effective_message
        user = user or update.effective_user
        if message is None or user is None or self.transport is None:
            return None
        if user.is_bot and user.id != ANONYMOUS_ADMIN:
            return None
        chat = message.chat
        private = chat.type == ChatType.PRIVATE
        ref = user_ref(user)
        if update.message is not None and not private:  # it buries the board of its topic
            await self.delivery.boards.message_in(chat_ref(message, user))
        if private and update.message is not None:
            try:  # remember where this user can be reached privately
                await self.service.reachable_at(ref, str(chat.id))
            except Exception:
                log.exception("could not remember the private chat of %s", ref.id)
        as_group = (
            update.message is not None
            and isinstance(update.message.sender_chat, Chat)
            and update.message.sender_chat.id == chat.id
        )
        return Context(chat_ref(message, user), ref, message, private, as_group, update.update_id)

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("telegram update failed", exc_info=context.error)


async def _alert(query, text: Text, language: str) -> None:
    try:
        await query.answer(say(text, language)[:ALERT_LIMIT], show_alert=True)
    except TelegramError as exc:
        log.info("could not answer a button press: %s", exc)
