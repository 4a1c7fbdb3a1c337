"""The service's edge, owned in one place: each entry point of `GameService` (marked
`@entry`: what a front end or the timer loop calls) takes its text arguments made safe,
turns a store failure into a refusal that says what it is, logged once, and binds the
request's platform, chat and session onto every log line it causes (bot/telemetry/logs.py;
the table's game and version are added when it is loaded)."""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable, Mapping
from typing import Any

from bot.service.base.platform_input import clean_id, clean_text
from bot.service.base.requests import ChatRef, UserError
from bot.store import ChatBusy, DamagedStore, StaleVersion, StoreError
from bot.telemetry import logs
from engines.text import command, msg

log = logging.getLogger("bot.service")

STORE_TROUBLE = msg(
    "The game store could not save that just now (it is busy or full). Nothing changed; try again in a moment."
)
STORE_DAMAGED = msg(
    "The game store is damaged (a page of its database file is corrupt), so this could not be "
    "read or saved, and trying again will not help. The bot's operator must restore the latest "
    "backup (docs/deployment.md: Data and backups)."
)
STORE_RACE = msg("The game changed at the same moment; look at the latest board and try again.")

# arguments that name a place or a person: cleaned as ids, the same way ChatRef cleans them
_ID_ARGUMENTS = {"platform", "scope", "chat_id", "user_id"}
# signed tokens: checked whole by their signature, never cut like text (a longer one is
# no token of ours and fails that check)
_TOKEN_ARGUMENTS = {"token"}


def entry(method: Callable[..., Any]) -> Callable[..., Any]:
    signature = inspect.signature(method)
    names = list(signature.parameters)

    def fields(args: tuple, kwargs: dict) -> dict[str, object]:
        """The log fields a request names: its chat (or platform) and its session."""
        given = dict(zip(names, args, strict=False)) | kwargs
        chat = given.get("chat")
        if isinstance(chat, ChatRef):
            return {"platform": chat.platform, "chat": chat.chat, "thread": chat.thread}
        found = {"platform": given.get("platform")}
        if isinstance(given.get("session_id"), int):
            found["table"] = given["session_id"]
        return found

    def cleaned(args: tuple, kwargs: dict) -> tuple[tuple, dict]:
        if not any(isinstance(v, str | Mapping) for v in (*args, *kwargs.values())):
            return args, kwargs  # (most calls from the timer loop: nothing to clean, no binding)
        bound = signature.bind(*args, **kwargs)
        for key, value in bound.arguments.items():
            if isinstance(value, str) and key in _TOKEN_ARGUMENTS:
                bound.arguments[key] = value[:4096]
            elif isinstance(value, str):
                bound.arguments[key] = (
                    clean_id(value) if key in _ID_ARGUMENTS else clean_text(value)
                )
            elif key == "options" and isinstance(value, Mapping):  # a slash command's options
                bound.arguments[key] = {clean_text(k): clean_text(v) for k, v in value.items()}
        return bound.args, bound.kwargs

    if not inspect.iscoroutinefunction(method):

        @functools.wraps(method)
        def plain(*args, **kwargs):
            args, kwargs = cleaned(args, kwargs)
            return method(*args, **kwargs)

        return plain

    @functools.wraps(method)
    async def entry(*args, **kwargs):
        args, kwargs = cleaned(args, kwargs)
        with logs.bound(**fields(args, kwargs)):
            try:
                return await method(*args, **kwargs)
            except StoreError as exc:  # (a StaleVersion or ChatBusy the method let through too)
                raise _refusal(method.__name__, signature.bind(*args, **kwargs), exc) from exc

    return entry


def _refusal(entry: str, bound: inspect.BoundArguments, exc: StoreError) -> UserError:
    """The user's message for a store failure, and the one log line for it. An entry point
    called from another (a button that joins) sees a UserError here, so logs nothing."""
    where = _where(bound)
    if isinstance(exc, StaleVersion):
        return UserError(STORE_RACE)
    if isinstance(exc, ChatBusy):
        return UserError(
            msg("A game was just started here by someone else: {board}.", board=command("board"))
        )
    if isinstance(exc, DamagedStore):
        log.error("the database is damaged: %s for %s failed: %s", entry, where, exc)
        return UserError(STORE_DAMAGED)
    log.warning("the store refused %s for %s: %s", entry, where, exc)
    return UserError(STORE_TROUBLE)


def _where(bound: inspect.BoundArguments) -> str:
    """The session or chat a request was about, for the log."""
    args = bound.arguments
    if isinstance(args.get("session_id"), int):
        return f"session {args['session_id']}"
    chat = args.get("chat")
    if isinstance(chat, ChatRef):
        return f"{chat.platform} chat {chat.chat}" + (
            f" thread {chat.thread}" if chat.thread else ""
        )
    if "scope" in args:
        return f"{args.get('platform')} scope {args['scope']}"
    return "no session"
