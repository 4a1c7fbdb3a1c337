"""Telegram updates into service requests: `/escape ...`, the bare `/escape` menu, button
presses, and `/start <payload>` deep links in the private chat.

Nothing here knows a game's rules: every request goes to `GameService`, whose
`UserError` is shown to the one user who asked (a reply to their command, or an alert on
the button they pressed), and whose replies go out through the `Outbox`.

In a game with secrets the group's board carries no move buttons (their labels would
show the mover's hand): a player gets them with their private view, in the private chat,
and a press there acts on the game in the group the session belongs to. Whenever a new
board waits for a player there, their view and moves are sent to their private chat
unasked: that message is their "your turn" notification. A move typed in the group of
such a game is deleted from the group where the bot may (it names a card).
"""

from __future__ import annotations

import contextlib
import html
import logging
import time
from dataclasses import dataclass, replace

from telegram import Chat, Message, Update, User
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    filters,
)

from bot.service import ChatRef, GameService, Reply, UserError, UserRef, chat_of
from bot.service import buttons as service_buttons
from bot.service.excerpt import short_refusal
from bot.store import SessionRow
from bot.telegram import callback_data as cd
from bot.telegram import keyboards
from bot.telegram.outbox import PLATFORM, Outbox
from engines import REGISTRY

log = logging.getLogger(__name__)

ALERT_LIMIT = 200  # answerCallbackQuery text
MENU_TEXT = "Escape: what would you like to do? (Or type /escape help.)"
NOT_OURS = "That button is not one of ours; use the buttons under the latest board."
GROUP_ONLY = "That button works under the game's board in its group."
BROKEN = "Something went wrong on my side; nothing was lost. Try again in a moment."
GONE = "That message is too old for its buttons; type /escape board for a fresh one."
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


def chat_ref(message: Message) -> ChatRef:
    thread = message.message_thread_id if message.is_topic_message else None
    chat_id = str(message.chat.id)
    return ChatRef(PLATFORM, chat_id, str(thread) if thread else "", chat_id)


def user_ref(user: User) -> UserRef:
    return UserRef(PLATFORM, str(user.id), user.full_name or user.username or str(user.id))


class TelegramAdapter:
    def __init__(self, service: GameService) -> None:
        self.service = service
        self.outbox: Outbox | None = None

    def attach(self, application: Application) -> None:
        """Once the bot knows who it is (after `initialize`, which calls getMe)."""
        self.outbox = Outbox(application.bot, self.service.store, application.bot.username or "")

    def detach(self) -> None:
        if self.outbox is not None:
            self.outbox.close()
        self.outbox = None

    def register(self, application: Application) -> None:
        application.add_handler(CommandHandler("escape", self.on_escape))
        application.add_handler(CommandHandler("start", self.on_start, filters.ChatType.PRIVATE))
        application.add_handler(CommandHandler("help", self.on_help))
        application.add_handler(CallbackQueryHandler(self.on_button))
        application.add_error_handler(self.on_error)

    # ----- the notifier (replies nobody asked for: reminders, timeouts) ---------------
    async def deliver(self, chat: ChatRef, replies: list[Reply]) -> None:
        if self.outbox is None:
            log.warning("telegram is not connected yet; %d replies dropped", len(replies))
            return
        await self.outbox.post(chat, await self._your_turn(chat, replies))

    async def _your_turn(
        self, chat: ChatRef, replies: list[Reply], *, told: str = ""
    ) -> list[Reply]:
        """`replies`, plus: in a game with secrets, each player a new board waits for gets
        their view and moves in their private chat (their notification; the group's board
        has no moves), with what this move told them privately in the same message.
        `told`: the user who already gets them with this answer (they pressed there)."""
        out = list(replies)
        for board in replies:
            if board.kind != "board" or board.to is not None or board.final:
                continue
            if board.session_id is None or not keyboards.keeps_secrets(board.choices):
                continue
            for user in board.mention:
                if user.id == told or not any(c.for_user == user.id for c in board.choices):
                    continue
                try:
                    view = await self.service.private_view(chat, user)
                except UserError:
                    continue
                view = await self._with_moves([*view, board], board.session_id, user)
                out = _fold_lines(out + [r for r in view if r is not board], user.id)
        return out

    # ----- commands -------------------------------------------------------------------
    async def on_escape(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        ctx = await self._context(update)
        if ctx is None:
            return
        words = list(context.args or [])
        if not words:
            await self.outbox.notice(ctx.chat, MENU_TEXT, markup=keyboards.menu_keyboard())
            return
        try:
            await self.execute(ctx, words[0].lower(), words[1:])
        except UserError as exc:
            reason = short_refusal(str(exc), " ".join(words))  # never the whole input back
            if exc.secret and not ctx.private:
                await self._refuse_privately(ctx, reason)
                return
            await self.outbox.notice(ctx.chat, _escape(reason), reply_to=ctx.message.message_id)
        except Exception:
            await self.outbox.notice(ctx.chat, BROKEN, reply_to=ctx.message.message_id)
            raise

    async def _memory(self, ctx: Context, command: str, args: list[str]) -> list[Reply]:
        """Replay, history, ratings, undo: the service does the work."""
        service, chat, user, arg = self.service, ctx.chat, ctx.user, " ".join(args) or None
        if command == "replay":
            return await service.replay(chat, arg)
        if command == "history":
            return await service.ended_games(chat)
        if command == "stats":
            return await service.stats(chat, user, arg)
        if command == "top":
            return await service.top(chat, arg)
        return await service.ask_undo(chat, user)

    async def on_help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        ctx = await self._context(update)
        if ctx is not None:
            await self.outbox.post(ctx.chat, [self.service.help()])

    async def on_start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Private chat only: START pressed, maybe through a `?start=h<session>` deep link."""
        ctx = await self._context(update)
        if ctx is None:
            return
        payload = (context.args or [""])[0]
        session_id = cd.parse_payload(payload)
        if session_id is None:
            await self.outbox.notice(
                ctx.chat,
                "Hello! I will send your private hands and views here. Add me to a group and "
                "type /escape there to play.",
            )
            return
        try:
            row = await self.service.store.session(session_id)
            if row is None or row.platform != PLATFORM:
                raise UserError("That link is for a game I do not know.")
            replies = await self.service.private_view(chat_of(row), ctx.user)
        except UserError as exc:
            await self.outbox.notice(ctx.chat, _escape(str(exc)))
            return
        replies = await self._with_moves(replies, row.id, ctx.user)
        await self.outbox.post(ctx.chat, replies, private_origin=ctx.user.id)

    async def execute(self, ctx: Context, command: str, args: list[str]) -> None:
        """One `/escape` subcommand (also reached from the menu); raises UserError."""
        service, chat, user = self.service, ctx.chat, ctx.user
        if command == "start":
            if not args:
                await self._offer_games(ctx)
                return
            game = service.game(args[0])
            chat = await self._game_place(ctx, game.title)
            try:
                replies = await service.start(chat, user, game.id, " ".join(args[1:]))
            except UserError:
                if chat.thread != ctx.chat.thread:  # do not leave an empty topic behind
                    with contextlib.suppress(TelegramError):
                        await self.outbox.bot.delete_forum_topic(int(chat.chat), int(chat.thread))
                raise
            await self.outbox.post(chat, replies)
        elif command == "join":
            replies = await service.join(chat, user)
            await self.outbox.post(chat, await self._your_turn(chat, replies))
        elif command == "leave":
            await self.outbox.post(chat, await service.leave(chat, user))
        elif command == "begin":
            replies = await service.begin(chat, user)
            await self.outbox.post(chat, await self._your_turn(chat, replies))
        elif command == "move":
            if not args:
                raise UserError("Which move? Say /escape move ACTION, or press a button under the board.")  # fmt: skip
            try:
                replies = await service.move(chat, user, " ".join(args))
            except UserError as exc:
                if exc.secret:
                    await self._unsay(ctx)
                raise
            if any(keyboards.keeps_secrets(r.choices) or r.to is not None for r in replies):
                await self._unsay(ctx)
            told = user.id if ctx.private else ""
            await self.outbox.post(chat, await self._your_turn(chat, replies, told=told))
        elif command == "board":
            await self.outbox.post(chat, await service.board(chat, user), fresh=True)
        elif command == "hand":
            await self._hand(ctx)
        elif command == "log":
            which = args[0] if args else None
            await self.outbox.post(chat, await service.game_log(chat, user, which), asked=True)
        elif command in ("replay", "history", "stats", "top", "undo"):
            await self.outbox.post(chat, await self._memory(ctx, command, args))
        elif command == "rules":
            await self.outbox.post(chat, [await service.rules(args[0] if args else None, chat)])
        elif command == "help":
            await self.outbox.post(chat, [service.help()])
        elif command == "games":
            await self.outbox.post(chat, [await service.games_here(PLATFORM, chat.scope)])
        elif command == "abort":
            row = await service.live(chat)
            is_admin = row is not None and row.creator != user.id and await self._is_admin(ctx)
            replies = await service.abort(chat, user, is_admin=is_admin)
            await self.outbox.post(chat, replies, session_id=row.id if row else None)
        elif command == "clock":
            await self.outbox.post(chat, await service.clock_command(chat, user, " ".join(args)))
        else:
            raise UserError(
                f"I do not know /escape {command[:32]}. "
                "Try /escape help, or a bare /escape for a menu."
            )

    async def _unsay(self, ctx: Context) -> None:
        """A move typed in the group of a game with secrets names the mover's card: take it
        out of the group where the bot may (an admin with Delete Messages), else leave it."""
        if ctx.private:
            return
        try:
            await self.outbox.bot.delete_message(ctx.message.chat.id, ctx.message.message_id)
        except TelegramError as exc:
            log.info("could not delete a typed secret move in %s: %s", ctx.message.chat.id, exc)

    async def _refuse_privately(self, ctx: Context, reason: str) -> None:
        """A typed move refused for a reason that names the player's hand: Telegram has no
        message only one member of a group sees, so the reason goes to the private chat
        (or the group is told how to open it) and the group learns only that it was refused."""
        await self.outbox.notice(
            ctx.chat,
            _escape(f"{ctx.user.name}, that move is not allowed; why (it concerns your hand) is in our private chat."),
            reply_to=ctx.message.message_id,
        )  # fmt: skip
        row = await self.service.live(ctx.chat)
        reply = Reply(reason, kind="info", to=ctx.user, session_id=row.id if row else None)
        await self.outbox.post(ctx.chat, [reply], asked=True)

    async def _hand(self, ctx: Context) -> None:
        if not ctx.private:
            replies = await self.service.private_view(ctx.chat, ctx.user)
            replies = await self._with_moves(replies, replies[0].session_id, ctx.user)
            await self.outbox.post(ctx.chat, replies, asked=True)
            return
        rows = [
            r
            for r in await self.service.store.sessions_of_user(PLATFORM, ctx.user.id)
            if r.status == "active"
        ]
        if not rows:
            raise UserError("You are not in a running game. Your hand appears here once one begins.")  # fmt: skip
        for row in rows:
            replies = await self.service.private_view(chat_of(row), ctx.user)
            replies = await self._with_moves(replies, row.id, ctx.user)
            await self.outbox.post(ctx.chat, replies, private_origin=ctx.user.id)

    async def _offer_games(self, ctx: Context) -> None:
        games = [(g.id, g.title) for g in REGISTRY.values()]
        await self.outbox.notice(
            ctx.chat,
            "Which game? (For options, type e.g. /escape start ghosts18 variant=short.)",
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
            topic = await self.outbox.bot.create_forum_topic(chat_id=int(chat.chat), name=title)
        except TelegramError as exc:
            log.info("could not create a topic in %s (%s); the game stays in General", chat.chat, exc)  # fmt: skip
            return chat
        await self.outbox.notice(chat, f"{_escape(title)}: the table is in the new topic “{_escape(topic.name)}”.")  # fmt: skip
        return ChatRef(PLATFORM, chat.chat, str(topic.message_thread_id), chat.scope)

    async def _is_admin(self, ctx: Context) -> bool:
        if ctx.private:
            return False
        if ctx.as_group:
            return True
        try:
            member = await self.outbox.bot.get_chat_member(int(ctx.chat.chat), int(ctx.user.id))
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
            press = cd.parse(query.data)
        except cd.BadData:
            await _alert(query, NOT_OURS)
            return
        message = query.message
        if not isinstance(message, Message) or self.outbox is None:
            await _alert(query, GONE)  # an inaccessible (very old) or inline message
            return
        ctx = await self._context(update, message=message, user=query.from_user)
        if ctx is None:
            await _alert(query, GONE)
            return
        try:
            if press.kind == "choice" and ctx.private:
                await self._private_press(ctx, press.data, message)
                await query.answer()
            elif press.kind == "choice":
                replies = await self.service.press(ctx.chat, ctx.user, press.data)
                await query.answer()
                told = ""
                if press.data.startswith("v:"):  # the hand button: the view, with my moves
                    replies = await self._with_moves(replies, replies[0].session_id, ctx.user)
                    told = ctx.user.id
                await self._adopt(message, replies)
                replies = await self._your_turn(ctx.chat, replies, told=told)
                await self.outbox.post(ctx.chat, replies)
            elif press.kind == "page":
                await self._page(ctx, press, message)
                await query.answer()
            elif press.kind == "menu":
                await self.execute(ctx, press.data, [])
                await query.answer()
            elif press.kind == "start":
                await self.execute(ctx, "start", [press.data])
                await query.answer()
        except UserError as exc:
            await _alert(query, str(exc))
        except Exception:
            await _alert(query, BROKEN)  # never leave the button spinning
            raise

    async def _private_press(self, ctx: Context, data: str, message: Message) -> None:
        """A move button under a private view: it acts on the game of the session its data
        names, in that game's chat, as the user who pressed it. The service checks the
        seat and the version as for any press; a refusal changes nothing."""
        button = service_buttons.parse(data)
        if button.kind != "a":
            raise UserError(GROUP_ONLY)
        row = await self.service.store.session(button.session_id)
        if row is None or row.platform != PLATFORM:
            raise UserError("That button belongs to no game I know.")
        chat = chat_of(row)
        replies = await self.service.press(chat, ctx.user, data)
        board = await self._secret_board(row.id, replies)
        mine = lambda r: r.to is not None and r.to.id == ctx.user.id  # noqa: E731
        if (
            board is not None
            and any(c.for_user == ctx.user.id for c in board.choices)
            and not any(mine(r) and r.picture is not None for r in replies)
        ):  # a further step of the same move: their view as it is now, to replace the pressed
            with contextlib.suppress(UserError):
                replies = replies + await self.service.private_view(chat, ctx.user)
        replies = await self._with_moves(replies, row.id, ctx.user)
        if not any(r.to is not None and r.to.id == ctx.user.id and r.choices for r in replies):
            # no more moves for the presser: the pressed buttons are spent
            await self.outbox.drop_moves(row.id, ctx.user.id, message.chat.id, message.message_id)
        replies = _fold_lines(replies, ctx.user.id)
        replies = await self._your_turn(chat, replies, told=ctx.user.id)
        await self.outbox.post(chat, replies, private_origin=ctx.user.id, pressed=message)

    async def _with_moves(
        self, replies: list[Reply], session_id: int | None, user: UserRef
    ) -> list[Reply]:
        """In a game with secrets, the user's own move buttons go under the last reply
        meant for them alone (their view), or in a message of their own."""
        board = await self._secret_board(session_id, replies)
        moves = [c for c in board.choices if c.for_user == user.id] if board else []
        if not moves:
            return replies
        out = list(replies)
        for i in range(len(out) - 1, -1, -1):
            if out[i].to is not None and out[i].to.id == user.id and not out[i].choices:
                out[i] = replace(out[i], choices=moves, version=board.version)
                return out
        mine = Reply("Your moves:", kind="private", choices=moves, to=user)
        return [*out, replace(mine, session_id=board.session_id, version=board.version)]

    async def _secret_board(self, session_id: int | None, known: list[Reply]) -> Reply | None:
        """The current board of a running game with secrets (whose moves are private);
        `known`: replies that may hold it already (a move's new board)."""
        row = await self.service.store.session(session_id) if session_id is not None else None
        if row is None or row.platform != PLATFORM or row.status != "active":
            return None
        try:
            board = await self._current_board(row, known)
        except UserError:
            return None
        return board if board is not None and keyboards.keeps_secrets(board.choices) else None

    async def _current_board(self, row: SessionRow, known: list[Reply] = ()) -> Reply | None:
        """The board of the session at its stored version: among `known`, else the one
        posted, else drawn anew."""
        fresh = [r for r in known if r.kind == "board" and r.session_id == row.id]
        board = fresh[-1] if fresh else self.outbox.latest_board(row.id)
        if board is None or board.version != row.version:
            boards = await self.service.board(chat_of(row))
            board = next((r for r in boards if r.kind == "board"), None)
        return board if board is not None and board.version == row.version else None

    async def _adopt(self, message: Message, replies: list[Reply]) -> None:
        for reply in replies:
            if reply.kind in ("board", "lobby") and reply.session_id is not None and reply.to is None:  # fmt: skip
                sent = message.date.timestamp() if message.date else time.time()
                await self.outbox.adopt(reply.session_id, message.chat.id, message.message_id, bool(message.photo), sent)  # fmt: skip
                return

    async def _page(self, ctx: Context, press: cd.Press, message: Message) -> None:
        """Another page of a board's choices; in the private chat, of the presser's own."""
        row = await self.service.store.session(press.session_id)
        here = ctx.private or (row is not None and row.chat == ctx.chat.chat)
        if row is None or row.platform != PLATFORM or not here:
            raise UserError("That button belongs to no game in this chat.")
        if row.status != "active" or row.version != press.version:
            raise UserError("The board has moved on since those buttons were drawn; use the latest board.")  # fmt: skip
        board = await self._current_board(row)
        if board is None:
            raise UserError("The board has moved on; use the latest board.")
        choices = board.choices
        if ctx.private:
            choices = [c for c in choices if c.for_user == ctx.user.id]
        if not choices or press.page >= keyboards.page_count(choices, private=ctx.private):
            raise UserError("There is no such page of choices.")
        markup = keyboards.choices_keyboard(
            choices,
            session_id=row.id,
            version=row.version,
            page=press.page,
            hand_url=self.outbox.hand_url(row.id) if message.chat.id < 0 else None,
            private=ctx.private,
        )
        try:
            await self.outbox.set_page(message.chat.id, message.message_id, markup)
        except TelegramError as exc:
            if "not modified" not in str(exc).lower():
                raise UserError("I could not turn the page just now; try again.") from exc

    # ----- plumbing -------------------------------------------------------------------
    async def _context(
        self, update: Update, *, message: Message | None = None, user: User | None = None
    ) -> Context | None:
        message = message or update.effective_message
        user = user or update.effective_user
        if message is None or user is None or self.outbox is None:
            return None
        if user.is_bot and user.id != ANONYMOUS_ADMIN:
            return None
        if update.message is not None:
            self.outbox.saw(message.chat.id, message.message_id)
        chat = message.chat
        private = chat.type == ChatType.PRIVATE
        ref = user_ref(user)
        if private and update.message is not None:
            try:  # remember where this user can be reached privately
                await self.service.store.upsert_user(PLATFORM, ref.id, ref.name, private_chat=str(chat.id))  # fmt: skip
            except Exception:
                log.exception("could not remember the private chat of %s", ref.id)
        as_group = (
            update.message is not None
            and isinstance(update.message.sender_chat, Chat)
            and update.message.sender_chat.id == chat.id
        )
        return Context(chat_ref(message), ref, message, private, as_group)

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("telegram update failed", exc_info=context.error)


async def _alert(query, text: str) -> None:
    try:
        await query.answer(text[:ALERT_LIMIT], show_alert=True)
    except TelegramError as exc:
        log.info("could not answer a button press: %s", exc)


def _fold_lines(replies: list[Reply], user_id: str) -> list[Reply]:
    """What one move told a user privately ("You draw …") goes into the same message as
    their view and moves, when that follows: one private message a move, not several."""
    lines = [r for r in replies if _plain_line_for(r, user_id)]
    view = next((r for r in replies if r.to is not None and r.to.id == user_id and r.choices), None)
    if not lines or view is None:
        return replies
    said = "\n".join([r.text for r in lines] + [view.text])
    return [
        replace(r, text=said) if r is view else r
        for r in replies
        if not any(r is line for line in lines)
    ]


def _plain_line_for(reply: Reply, user_id: str) -> bool:
    """A private note of a move ("You draw …") for this user: it can join their view."""
    return (
        reply.to is not None
        and reply.to.id == user_id
        and reply.picture is None
        and not reply.choices
        and reply.kind != "private"
    )


def _escape(text: str) -> str:
    return html.escape(text)
