"""Escape: the chat bot. `service` is the platform-neutral heart, `store` the only SQL.

Importing `bot` first serves dataclass methods from their compiled texts
(bot/dataclass_code.py), so every process of the bot starts without compiling them again."""

from bot import dataclass_code

dataclass_code.install()
