"""Terminal play: a whole game from placement to a win, and a process killed between two
moves that resumes with nothing lost (a real SQLite file, a real SIGKILL)."""

from __future__ import annotations

import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from PIL import Image

from bot.console import Terminal
from bot.service import GameService
from bot.store import Store

ROOT = Path(__file__).resolve().parents[2]


class Script:
    """Feeds the terminal: picks a random numbered choice until told to stop."""

    def __init__(self, lines: list[str] | None = None, seed: int = 1, limit: int = 4000):
        self.lines = list(lines or [])
        self.rng = random.Random(seed)
        self.limit = limit
        self.terminal: Terminal | None = None

    def __call__(self, prompt: str) -> str | None:
        if self.lines:
            return self.lines.pop(0)
        self.limit -= 1
        board = self.terminal.board if self.terminal else None
        if self.limit <= 0 or board is None or board.final:
            return None
        mine = [c for c in board.choices if c.for_user == board.mention[0].id]
        return str(1 + int(self.rng.random() * len(mine)))


async def test_a_whole_game_in_the_terminal_with_a_picture_after_every_move(tmp_path):
    store = await Store.open(tmp_path / "t.sqlite3")
    output: list[str] = []
    script = Script(seed=3)
    terminal = Terminal(
        GameService(store, seed_source=lambda: 5), tmp_path / "pics", output.append, script
    )
    script.terminal = terminal
    code = await terminal.play("ghosts18", ["Ann", "Bob"], "variant=short")
    await store.close()
    assert code == 0
    text = "\n".join(output)
    assert "wins 18 Ghosts" in text
    pictures = sorted((tmp_path / "pics").glob("*.png"))
    moves = text.count("[picture: ")
    assert len(pictures) == moves > 18  # the set-up alone is 18 placements
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in pictures)
    assert "Type `replay` to write its replay" in text


async def test_a_replay_is_written_to_a_file_in_the_terminal(tmp_path):
    """`replay` writes the game as an animated GIF: a frame per move, plus the opening."""
    store = await Store.open(tmp_path / "t.sqlite3")
    output: list[str] = []
    script = Script(["1", "1", "1", "replay", "quit"])
    terminal = Terminal(
        GameService(store, seed_source=lambda: 5), tmp_path / "pics", output.append, script
    )
    script.terminal = terminal
    assert await terminal.play("ghosts18", ["Ann", "Bob"], "variant=short") == 0
    await store.close()
    replay = tmp_path / "pics" / "replay-1.gif"
    assert f"[picture: {replay}]" in "\n".join(output)
    assert Image.open(replay).n_frames == 4


async def test_commands_and_bad_input_in_the_terminal(tmp_path):
    store = await Store.open(tmp_path / "t.sqlite3")
    output: list[str] = []
    lines = [
        "help",
        "place z9",
        "99",
        "rules",
        "log",
        "hand",
        "board",
        "as Bob place a1",
        "2",
        "quit",
    ]
    terminal = Terminal(GameService(store, pictures=False), tmp_path, output.append, Script(lines))
    assert await terminal.play("ghosts18", ["Ann", "Bob"]) == 0
    text = "\n".join(output)
    assert "! 'place z9' is not allowed now" in text
    assert "! Choose a number from 1 to 18" in text
    assert "HOUSE DECISIONS" in text
    assert "! It is not your turn: waiting for Ann." in text
    assert "Ann places a red ghost on b1." in text  # choice 2 of Ann's list
    await store.close()


def _spawn(db: Path, pictures: Path) -> subprocess.Popen:
    env = {**os.environ, "ESCAPE_DB": str(db), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "play", "ghosts18", "--players", "Ann,Bob",
         "--pictures", str(pictures)],
        cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    # A reader thread, so that a line that never comes fails the test instead of hanging it
    # on a blocking readline (the prompt waits for input without a newline).
    proc.lines = queue.Queue()  # type: ignore[attr-defined]

    def pump() -> None:
        for line in proc.stdout:
            proc.lines.put(line)  # type: ignore[attr-defined]
        proc.lines.put(None)  # type: ignore[attr-defined]

    threading.Thread(target=pump, daemon=True).start()
    return proc


def _wait_for(proc: subprocess.Popen, needle: str, seen: list[str], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            line = proc.lines.get(timeout=left)  # type: ignore[attr-defined]
        except queue.Empty:
            break
        if line is None:
            break
        seen.append(line)
        if needle in line:
            return
    proc.kill()
    raise AssertionError(f"never saw {needle!r}; output:\n{''.join(seen)}")


def test_killing_the_process_between_moves_loses_nothing(tmp_path):
    db, pictures = tmp_path / "escape.sqlite3", tmp_path / "pics"
    first = _spawn(db, pictures)
    seen: list[str] = []
    _wait_for(first, "Waiting for Ann", seen)
    for move, who in (
        ("place b1", "> Ann places a red ghost on b1."),
        ("place a1", "> Bob places a blue ghost on a1."),
        ("place d1", "> Bob places a blue ghost on d1."),
    ):
        first.stdin.write(move + "\n")
        first.stdin.flush()
        _wait_for(first, who, seen)
    first.send_signal(signal.SIGKILL)  # no clean shutdown: the moves must already be on disk
    first.wait(10)

    second = _spawn(db, pictures)
    seen2: list[str] = []
    _wait_for(second, "Resuming game #1", seen2)
    _wait_for(second, "[picture:", seen2)
    resumed = seen2[-1]
    assert "red b1" in resumed and "blue a1, blue d1" in resumed  # alt text of the board
    second.stdin.write("place e1\n")
    second.stdin.flush()
    _wait_for(second, "Ann places a red ghost on e1", seen2)
    second.stdin.close()  # end of input: saved, clean exit
    assert second.wait(10) == 0

    import sqlite3

    conn = sqlite3.connect(db)
    log = [row[0] for row in conn.execute("SELECT action FROM actions ORDER BY n")]
    conn.close()
    assert log == ["place b1", "place a1", "place d1", "place e1"]


def test_run_without_a_token_offers_terminal_play_and_ends_cleanly_at_end_of_input(tmp_path):
    """`make run` on a fresh machine: no token, no input: explain, offer local play, exit 0."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    env["ESCAPE_DB"] = str(tmp_path / "escape.sqlite3")
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "run"], cwd=tmp_path, env=env,
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "DISCORD_TOKEN" in done.stdout and "TELEGRAM_TOKEN" in done.stdout
    assert "Which game?" in done.stdout and "Traceback" not in done.stderr
