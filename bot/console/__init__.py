"""Terminal play with the same service and store as the chat platforms."""

from bot.console.terminal import Terminal, learn_in_terminal, run_terminal

__all__ = ["Terminal", "learn_in_terminal", "run_terminal"]
