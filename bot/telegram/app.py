"""Building the PTB application and running it: long polling, or a webhook when configured."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from urllib.parse import urlsplit

from telegram import Bot, BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats
from telegram.error import InvalidToken, NetworkError, TelegramError
from telegram.ext import Application, ApplicationBuilder, BaseRateLimiter

from bot.service import COMMANDS, ChatRef, FrontEnd, GameService
from bot.settings import Settings, webhook_secret
from bot.startup_errors import (
    PlatformUnreachable,
    SettingRefused,
    StartupError,
    connect_with_retries,
)
from bot.telegram.connection import WatchedPolls, links
from bot.telegram.handlers import TelegramAdapter, dm_note
from bot.telegram.membership import member_lookup
from bot.telegram.ratelimit import SharedRateLimiter, TelegramLimits
from bot.telegram.updates import Dispatcher, StoredUpdates
from languages import DEFAULT, PSEUDO, available, msg, say

log = logging.getLogger(__name__)

UPDATES = ["message", "callback_query"]  # all the bot reacts to
UPDATES_GRACE = 10.0  # seconds the updates in hand have to finish when the bot stops


def topic_link(chat: ChatRef) -> str:
    """A table's forum topic as a link its group's members open (Discord links its threads
    so too); "" for a table in a group's main chat (the service names it by its number)."""
    group = chat.chat.removeprefix("-100")
    if chat.chat.startswith("-100") and group.isdigit() and chat.thread.isdigit():
        return f"https://t.me/c/{group}/{chat.thread}"
    return ""


def group_commands(language: str = DEFAULT) -> list[BotCommand]:
    """The menu of a group, made from the service's command table, in `language`."""
    names = ", ".join(c.name for c in COMMANDS if c.in_list)
    return [
        BotCommand("escape", say(msg("Play: {commands}", commands=names), language)[:256]),
        BotCommand("help", say(msg("How to play with Escape"), language)),
    ]


def private_commands(language: str = DEFAULT) -> list[BotCommand]:
    return [
        BotCommand(
            "escape",
            say(msg("Your hand (/escape hand), rules, help; games are played in groups"), language),
        ),
        BotCommand("start", say(msg("Let me send your private hands here"), language)),
        BotCommand("help", say(msg("How to play with Escape"), language)),
    ]


GROUP_COMMANDS = group_commands()
PRIVATE_COMMANDS = private_commands()


def build_application(
    settings: Settings,
    service: GameService,
    *,
    rate_limiter: BaseRateLimiter | None = None,
    polls: WatchedPolls | None = None,
) -> tuple[Application, TelegramAdapter]:
    """The application and its adapter. Every update PTB receives is kept in the store
    before it is acknowledged (`StoredUpdates`); `run_telegram` runs them (`Dispatcher`)."""
    updates = service.update_queue("telegram", settings.telegram_update_lease)
    builder = (
        ApplicationBuilder()
        .token(settings.telegram_token)
        .update_queue(StoredUpdates(updates))
        .get_updates_request(polls or WatchedPolls())  # is the long poll answered? (/readyz)
        # every call waits for its turn in the limits all the bot's workers share
        .rate_limiter(rate_limiter or SharedRateLimiter(service.rates, TelegramLimits.of(settings)))
        # One slow chat (a group waiting out its 20 messages a minute) must not hold up the
        # others; the outbox serialises what goes to one chat, the service each session.
        .concurrent_updates(True)
    )
    if settings.telegram_base_url:
        builder = builder.base_url(settings.telegram_base_url)
    if settings.telegram_base_file_url:
        builder = builder.base_file_url(settings.telegram_base_file_url)
    application = builder.build()
    web = settings.public_url if settings.web_address is not None else ""
    adapter = TelegramAdapter(service, settings.telegram_webapp if web else "", web)
    adapter.updates = updates
    adapter.register(application)
    return application, adapter


async def publish_commands(bot: Bot) -> None:
    """The command menus Telegram shows in private chats and in groups: in English for
    everyone, and in each of our other languages for users whose app speaks it."""
    try:
        for language in [DEFAULT, *(c for c in available() if c not in (DEFAULT, PSEUDO))]:
            code = None if language == DEFAULT else language
            await bot.set_my_commands(
                private_commands(language),
                scope=BotCommandScopeAllPrivateChats(),
                language_code=code,
            )
            await bot.set_my_commands(
                group_commands(language), scope=BotCommandScopeAllGroupChats(), language_code=code
            )
    except TelegramError as exc:  # not fatal: typed commands work without the menu
        log.warning("could not publish the Telegram command menus: %s", exc)


async def run_telegram(
    settings: Settings,
    service: GameService,
    *,
    rate_limiter: BaseRateLimiter | None = None,
    ready: asyncio.Event | None = None,
) -> None:
    """Run the Telegram bot until cancelled; then stop polling (or the webhook) cleanly."""
    polls = WatchedPolls()
    application, adapter = build_application(
        settings, service, rate_limiter=rate_limiter, polls=polls
    )
    await initialize(application, settings)  # getMe: the bot's username, for deep links
    dispatcher = Dispatcher(application, adapter, adapter.updates)
    dispatching: asyncio.Task | None = None
    try:
        adapter.attach(application)
        webhook = bool(settings.telegram_webhook_url)
        service.add_front_end(
            "telegram",
            FrontEnd(
                adapter.deliver,
                place=topic_link,
                scope_word=msg("group"),
                chat_word=msg("group"),
                dm_note=dm_note,
                links=lambda: links(application, polls, webhook),
                members=member_lookup(lambda: adapter.transport and adapter.transport.bot),
                open_place=adapter.open_place,
            ),
        )
        await publish_commands(application.bot)
        if settings.telegram_webhook_url:
            # Without a secret anyone who learns the URL could post forged updates; Telegram
            # sends back whatever setWebhook was given. Several workers behind one URL must
            # agree on it, so an unset secret is derived from the token, not drawn anew.
            secret = settings.telegram_webhook_secret or webhook_secret(settings.telegram_token)
            await application.updater.start_webhook(
                listen=settings.telegram_webhook_listen,
                port=settings.telegram_webhook_port,
                url_path=urlsplit(settings.telegram_webhook_url).path.lstrip("/"),
                webhook_url=settings.telegram_webhook_url,
                secret_token=secret,
                allowed_updates=UPDATES,
            )
        else:
            await application.updater.start_polling(allowed_updates=UPDATES)
        await application.start()
        dispatching = asyncio.create_task(dispatcher.run(), name="telegram-dispatcher")
        log.info("telegram: @%s is running", application.bot.username)
        if ready is not None:
            ready.set()
        await asyncio.Event().wait()  # until cancelled
    finally:
        # No new updates (the updater confirms the last offset, so Telegram does not send
        # them again; what it received is kept in the store), then the updates in hand
        # finish (what is left goes back to the queue, for the other workers), then nothing
        # more is posted here.
        if application.updater.running:
            await application.updater.stop()
        await dispatcher.stop(UPDATES_GRACE)
        if dispatching is not None:
            dispatching.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await dispatching
        if application.running:
            await application.stop()
        adapter.detach()  # replies nobody asked for are no longer posted here
        await application.shutdown()


async def initialize(application: Application, settings: Settings) -> None:
    """PTB's initialize (getMe checks the token), tried again while the Bot API cannot be
    reached; a refused token or an unreachable API becomes a StartupError. After a failure
    the bot's HTTP clients are closed (Application.shutdown skips an unstarted bot)."""
    api = urlsplit(settings.telegram_base_url or "https://api.telegram.org/bot").netloc
    try:
        await connect_with_retries(
            application.initialize,
            lambda exc: explain_start_failure(exc, api),
            tries=settings.connect_tries,
        )
    except StartupError:
        await application.bot.shutdown()
        raise


def explain_start_failure(exc: BaseException, api: str) -> StartupError | None:
    """The operator's one line for what stopped getMe (None: not a start-up problem). PTB's
    own message for a refused token repeats the token, so it is not passed on."""
    if isinstance(exc, InvalidToken):
        return SettingRefused(
            f"Telegram ({api}) rejected TELEGRAM_TOKEN: copy the token again from @BotFather"
        )
    if isinstance(exc, NetworkError):  # TimedOut included
        return PlatformUnreachable(f"cannot reach the Telegram Bot API ({api}): {exc.message}")
    return None
