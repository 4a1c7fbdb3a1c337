"""Telegram's flood limits, counted for every worker of one bot (issue 58).

Telegram limits a bot per token, not per process: about 30 messages a second in all, 20 a
minute in one group, about one a second in one chat. Every call of the Bot API but the
long poll passes here and waits for its turn in the windows the service shares between
the bot's processes (`SharedRates`, kept in PostgreSQL): the token's window for every
call, and, for a call that writes into a chat (a message sent or edited), that chat's
window and, in a group, the group's. A 429 holds its chat's windows (or the token's, for a
call into no chat) for its retry_after in every process, and the call is tried again: a
metric and an INFO line, not an error. When the tries are spent the `RetryAfter` reaches
the caller (the outbox then owes the chat its board).

A call given `rate_limit_args` (the most seconds it may wait) that its chat cannot take in
that time is not sent (`Crowded`): the transport leaves a notice unsaid and owes a board
to its chat, so a flood in one group never queues its updates behind minutes of waits.
Private messages wait for their turn.

Every call is counted here (`escape_platform_calls_total`, `escape_platform_retries_total`,
`escape_rate_limited_total`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from telegram.error import RetryAfter, TelegramError
from telegram.ext import BaseRateLimiter

from bot.service import Rate, SharedRates
from bot.telemetry import metrics

log = logging.getLogger(__name__)

RETRIES_AFTER_429 = 5
# The calls that put a message into a chat or change one there: each counts in its chat's
# window and its group's. (Deleting, answering a button, looking up a member and the
# "typing…" sign count only in the token's window.)
WRITES = {
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


class Crowded(TelegramError):
    """A call its chat could not take within the wait it was given: not sent (a notice is
    then left unsaid, a board owed); `delay`: the wait it was given."""

    def __init__(self, message: str, delay: float) -> None:
        super().__init__(message)
        self.delay = delay


@dataclass(frozen=True)
class TelegramLimits:
    overall: Rate  # TELEGRAM_RATE_GLOBAL
    group: Rate  # TELEGRAM_RATE_GROUP
    chat: Rate  # TELEGRAM_RATE_CHAT

    @classmethod
    def of(cls, settings) -> TelegramLimits:
        return cls(
            Rate(*settings.telegram_rate_global),
            Rate(*settings.telegram_rate_group),
            Rate(*settings.telegram_rate_chat),
        )


PUBLISHED = TelegramLimits(Rate(30, 1.0), Rate(20, 60.0), Rate(1, 1.0))  # Telegram's figures
NO_LIMITS = TelegramLimits(Rate(0), Rate(0), Rate(0))


class SharedRateLimiter(BaseRateLimiter[float]):
    """PTB's rate limiter over the bot's shared windows; `rate_limit_args` of a call: the
    most seconds it may wait for its turn (a notice), else it waits as long as it takes."""

    def __init__(
        self,
        rates: SharedRates | None = None,
        limits: TelegramLimits = PUBLISHED,
        *,
        retries: int = RETRIES_AFTER_429,
    ) -> None:
        self.rates = rates if rates is not None else SharedRates(None)
        self.limits = limits
        self.retries = retries

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    def windows(self, endpoint: str, chat: str) -> tuple[list[tuple[str, Rate]], list[str]]:
        """The windows a call counts in, and those a 429 to it holds."""
        windows = [("telegram:all", self.limits.overall)]
        if not chat or endpoint not in WRITES:
            return windows, ["telegram:all"]
        windows.append((f"telegram:chat:{chat}", self.limits.chat))
        if chat.startswith("-"):  # a group or a channel
            windows.append((f"telegram:group:{chat}", self.limits.group))
        return windows, [key for key, _ in windows[1:]]

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Any]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: float | None,
    ) -> Any:
        chat = str(data.get("chat_id") or "")
        windows, held = self.windows(endpoint, chat)
        for attempt in range(self.retries + 1):
            if not await self.rates.turn(windows, "telegram", rate_limit_args):
                raise Crowded(
                    f"chat {chat} cannot take it within {rate_limit_args} s", rate_limit_args
                )
            try:
                answer = await callback(*args, **kwargs)
            except RetryAfter as exc:
                metrics.PLATFORM_CALLS.labels("telegram", "rate_limited").inc()
                metrics.RATE_LIMITED.labels(
                    "telegram", "chat" if held[0] != "telegram:all" else "global"
                ).inc()
                if attempt == self.retries:
                    raise
                pause = exc.retry_after
                seconds = float(pause.total_seconds() if hasattr(pause, "total_seconds") else pause)
                log.info(
                    "telegram asked to wait %.1f s before %s in chat %s; every worker waits",
                    seconds,
                    endpoint,
                    chat or "-",
                )
                metrics.PLATFORM_RETRIES.labels("telegram").inc()
                await self.rates.hold(held, seconds)
                continue
            except Exception:
                metrics.PLATFORM_CALLS.labels("telegram", "failed").inc()
                raise
            metrics.PLATFORM_CALLS.labels("telegram", "ok").inc()
            return answer
        raise AssertionError("unreachable")
