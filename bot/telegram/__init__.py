"""The Telegram adapter: python-telegram-bot in front of the platform-neutral service.

`run_telegram(settings, service)` runs until cancelled, beside any other platform in the
same event loop (PTB's manual lifecycle, not `run_polling`, which owns the loop).
"""

import os

# PTB 22 warns at every flood-control answer (RetryAfter) that `retry_after` will become a
# timedelta; ours (bot/telegram/ratelimit.py) reads either form, so take the future
# behaviour now and keep logs and tests free of that warning.
os.environ.setdefault("PTB_TIMEDELTA", "1")

from bot.telegram.app import build_application, publish_commands, run_telegram

__all__ = ["build_application", "publish_commands", "run_telegram"]
