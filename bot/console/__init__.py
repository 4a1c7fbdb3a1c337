"""Terminal play with the same service and store as the chat platforms."""

from bot.console.terminal import Terminal, run_terminal

__all__ = ["Terminal", "run_terminal"]
