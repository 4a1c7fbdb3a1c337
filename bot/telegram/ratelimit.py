"""Telegram's flood limits, chat by chat.

PTB's `AIORateLimiter` paces requests well, but when it retries a 429 it holds back every
request of the bot, in every chat, until the wait is over: one busy group would stall all
the others. Here the pacing stays PTB's (its retries turned off) and a 429 is waited out
by the requests to that chat alone; requests to other chats go on. When the retries are
spent the `RetryAfter` reaches the caller (the outbox then owes the chat its board).

Every call of the Bot API but the long poll passes here, so here they are counted
(`escape_platform_calls_total`, `escape_platform_retries_total`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import AIORateLimiter, BaseRateLimiter

from bot.telemetry import metrics

RETRIES_AFTER_429 = 5


class PerChatRateLimiter(BaseRateLimiter[int]):
    def __init__(
        self,
        *,
        retries: int = RETRIES_AFTER_429,
        overall_max_rate: float = 30,
        group_max_rate: float = 20,
    ) -> None:
        self.retries = retries
        self.pace = AIORateLimiter(
            overall_max_rate=overall_max_rate, group_max_rate=group_max_rate, max_retries=0
        )
        self._not_before: dict[str, float] = {}  # chat id -> time.monotonic() it may resume

    async def initialize(self) -> None:
        await self.pace.initialize()

    async def shutdown(self) -> None:
        await self.pace.shutdown()

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Any]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> Any:
        chat = str(data.get("chat_id", ""))
        retries = rate_limit_args if rate_limit_args is not None else self.retries
        for attempt in range(retries + 1):
            wait = self._not_before.get(chat, 0.0) - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                answer = await self.pace.process_request(
                    callback, args, kwargs, endpoint, data, None
                )
            except RetryAfter as exc:
                metrics.PLATFORM_CALLS.labels("telegram", "rate_limited").inc()
                if attempt == retries:
                    raise
                metrics.PLATFORM_RETRIES.labels("telegram").inc()
                pause = exc.retry_after
                seconds = pause.total_seconds() if hasattr(pause, "total_seconds") else pause
                until = time.monotonic() + float(seconds) + 0.1
                self._not_before[chat] = max(self._not_before.get(chat, 0.0), until)
                continue
            except Exception:
                metrics.PLATFORM_CALLS.labels("telegram", "failed").inc()
                raise
            metrics.PLATFORM_CALLS.labels("telegram", "ok").inc()
            if self._not_before.get(chat, 0.0) <= time.monotonic():
                self._not_before.pop(chat, None)
            return answer
        raise AssertionError("unreachable")
