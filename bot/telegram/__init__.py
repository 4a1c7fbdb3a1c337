"""The Telegram adapter: python-telegram-bot in front of the platform-neutral service.

`run_telegram(settings, service)` runs until cancelled, beside any other platform in the
same event loop (PTB's manual lifecycle, not `run_polling`, which owns the loop).
"""

from bot.telegram.app import build_application, publish_commands, run_telegram

__all__ = ["build_application", "publish_commands", "run_telegram"]
