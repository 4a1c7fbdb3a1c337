"""The hot-seat hand-over hides the hand (issue 33): the real program in a pseudo-terminal,
its output read by a terminal emulator (pyte) that keeps a scrollback. At Bob's prompt to
take the keyboard, nothing of Ann's (her hand, her private notes, her choices, her typed
moves) is on the emulated screen or in its scrollback; what the table saw is there. Once
with a terminal that honours ESC [3J (it clears the scrollback), once with one that
ignores it (the blank lines before the clear push Ann's lines out of its scrollback)."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pyte
import pytest

from bot.console.screen import HIDING_LINES

ROOT = Path(__file__).resolve().parents[3]
COLUMNS, ROWS = 400, 40  # wide enough that no line of the program wraps


class IgnoresScrollbackErase(pyte.HistoryScreen):
    """A terminal that does not know ESC [3J: it erases the display, keeps the scrollback."""

    def erase_in_display(self, how: int = 0, *args, **kwargs) -> None:
        super().erase_in_display(2 if how == 3 else how, *args, **kwargs)


class Emulated:
    """The program on a pseudo-terminal, read through the emulator."""

    def __init__(
        self, screen: pyte.HistoryScreen, args: list[str], tmp: Path, **settings: str
    ) -> None:
        self.screen, self.stream = screen, pyte.ByteStream(screen)
        self.raw = b""
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
        env.update(ESCAPE_DB=str(tmp / "escape.sqlite3"), ESCAPE_PICTURES=str(tmp / "p"))
        env.update(LANG="C.UTF-8", LANGUAGE="", TERM="xterm", **settings)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bot.cli", *args],
            cwd=ROOT,
            env=env,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            start_new_session=True,
        )
        os.close(slave)
        self.master = master

    def wait_for(self, *texts: str, after: int = 0, timeout: float = 60) -> tuple[str, int]:
        """Read until one of `texts` appears in the output after byte `after`: the first
        to appear, and where it ends."""
        deadline = time.monotonic() + timeout
        while True:
            found = [(at, t) for t in texts if (at := self.raw.find(t.encode(), after)) >= 0]
            if found:
                at, text = min(found)
                return text, at + len(text.encode())
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"never saw {texts!r}; output:\n{self.raw[-3000:]!r}")
            ready, _, _ = select.select([self.master], [], [], min(left, 0.5))
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    chunk = b""
                if not chunk and self.proc.poll() is not None:
                    raise AssertionError(f"the program ended: {self.raw[-3000:]!r}")
                self.raw += chunk
                self.stream.feed(chunk)

    def type(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\r")

    def lines(self) -> list[str]:
        """Every non-blank line of the scrollback and the screen, top to bottom."""
        rows = [*self.screen.history.top, *(self.screen.buffer[y] for y in range(ROWS))]
        text = ["".join(row[x].data for x in range(COLUMNS)).rstrip() for row in rows]
        return [line for line in text if line.strip()]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        os.close(self.master)


@pytest.mark.parametrize("kind", [pyte.HistoryScreen, IgnoresScrollbackErase])
def test_nothing_of_anns_hand_is_left_on_screen_or_in_the_scrollback_at_bobs_prompt(tmp_path, kind):
    screen = kind(COLUMNS, ROWS, history=HIDING_LINES // 2)
    term = Emulated(
        screen,
        ["play", "haunted_house", "--players", "Ann,Bob", "--options", "specials=off"],
        tmp_path,
    )
    try:
        _, at = term.wait_for("Ann: take the keyboard and press Enter")
        term.type("")
        while True:  # Ann plays her turn (the first choice each time) until she hands over
            said, at = term.wait_for("Ann> ", "pass the keyboard to Bob. ", after=at)
            if said != "Ann> ":
                break
            term.type("1")
        seen = term.lines()
        anns = [line for line in seen if line.startswith("(only Ann sees this)")]
        assert anns, seen  # (the check can fail: her hand was on the screen)
        private = _private_rows(seen)
        assert any("Your hand (Ann)" in line for line in private)
        term.type("")
        term.wait_for("Bob: take the keyboard and press Enter (the others look away). ", after=at)
        shown = term.lines()
        for line in shown:
            assert line not in private, f"Ann's line still readable: {line!r}"
            for secret in ("only Ann", "Your hand", "You draw", "view-ann", "Ann> ", "Ann: press"):
                assert secret not in line, f"{secret!r} still readable: {line!r}"
        assert "Waiting for Bob." in shown  # what the table saw is still there
        assert shown[-1].startswith("Bob: take the keyboard")
    finally:
        term.close()


def _private_rows(lines: list[str]) -> list[str]:
    """Ann's private replies as shown: each from its "(only Ann sees this)" to the next
    line the whole table reads (what a move did, the board, a prompt), and her choices."""
    public = ("Waiting for", "(Moves are chosen", "Ann ", "Bob ", "Ann>", "Ann:", "Bob:")
    rows, inside = [], False
    for line in lines:
        if line.startswith("(only Ann sees this)"):
            inside = True
        elif line.startswith(public) or "board.png" in line:
            inside = False
        if inside or (line.startswith("  ") and ") " in line[:8]):
            rows.append(line)
    return rows
