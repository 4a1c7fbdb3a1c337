"""The terminal's screen, as the hot-seat hand-over hides it.

Before the keyboard passes, what the last player saw (their hand, their private notes) must
be gone from the screen and from the terminal's scrollback, where the next player could
scroll up to it. A real terminal first gets `HIDING_LINES` blank lines, then home, erase
the display and erase the saved lines (xterm's ESC [3J, which most terminals honour: it
clears the blank lines too). A terminal that ignores ESC [3J keeps the blank lines in its
scrollback, and they have pushed everything before them out of a scrollback of up to that
many lines. Output that is not a terminal (a pipe, a file, a test) cannot be cleared: it
is told so once, and each hand-over is marked with a line instead.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from languages import Text, msg

CLEAR = "\033[H\033[2J\033[3J"  # home, erase the display, erase the scrollback
HIDING_LINES = 10_000  # more than most terminals keep (xterm 1,024, tmux 2,000, VTE 10,000)
NOT_A_TERMINAL = msg(
    "(This output is not a terminal, so it cannot be cleared at a hand-over: every hand "
    "and private note printed here stays readable.)"
)


class Screen:
    """Where the terminal's lines go: standard output (cleared for real when it is a
    terminal), or `out` (a test's list, a pipe)."""

    def __init__(self, out: Callable[[str], None] | None = None) -> None:
        self.write = out or _print
        self.tty = out is None and sys.stdout.isatty()
        self.told = False  # told that this output cannot be cleared

    def hide(self, to: str, say: Callable[[Text], str]) -> None:
        """Hide everything printed so far before `to` takes the keyboard."""
        if self.tty:
            sys.stdout.write("\n" * HIDING_LINES + CLEAR)
            sys.stdout.flush()
            return
        if not self.told:
            self.write(say(NOT_A_TERMINAL))
            self.told = True
        line = "-" * 20
        self.write(say(msg("{line} the keyboard passes to {name} {line}", line=line, name=to)))


def _print(text: str) -> None:
    print(text, flush=True)
