"""The terminal speaks as a terminal (issue 33): honest exits, its own words, answers that are
not echoed whole, no log line in the game's text, and what happened printed in the order
it happened (what the bots did before what only the player reads)."""

from __future__ import annotations

import os
import pty
import signal
import subprocess
import sys
import time

import pytest

from bot.console import Terminal
from bot.service import GameService, UserError
from bot.store import Store
from tests.bot.console.test_console import _cli


def test_ctrl_c_before_a_game_exists_says_nothing_started_and_leaves_quietly(tmp_path):
    """Ctrl-C at an option prompt: what Ctrl-D says there, exit status 0 (so `make run`
    reports no error), no trace; and no game was saved."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    env.update(ESCAPE_DB=str(tmp_path / "escape.sqlite3"), LANG="C.UTF-8", PYTHONUNBUFFERED="1")
    keyboard, tty = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "run"],
        cwd=tmp_path,
        env=env,
        stdin=tty,
        stdout=tty,
        stderr=tty,
    )
    os.close(tty)
    out = b""
    try:
        deadline = time.monotonic() + 60
        while b"Which game?" not in out or b"specials [on/off]" not in out:
            assert time.monotonic() < deadline, out
            out += os.read(keyboard, 4096)
            if out.endswith(b"its id]: "):
                os.write(keyboard, b"4\r")
        time.sleep(0.3)  # at the prompt
        proc.send_signal(signal.SIGINT)
        code = proc.wait(20)
        while True:
            try:
                chunk = os.read(keyboard, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(keyboard)
    text = out.decode()
    assert code == 0, text
    assert "Nothing started; bye." in text
    assert "saved" not in text.split("specials [on/off]")[-1]  # no game to speak of
    assert "Traceback" not in text and "Fatal Python error" not in text


def test_the_terminals_own_words_and_short_echoes(tmp_path):
    """The game list once (a wrong answer says so, `help` lists again); a long answer
    quoted in short; `help` speaks of the keyboard, not a channel or chat admins; `rules X`
    shows X's rules (or says there is no X) during another game; no log line in the text."""
    long = "x" * 3000
    answers = [
        "chess",
        long,
        "help",
        "3",
        "short",
        "Ann,Bob",
        "help",
        "rules castle_doors",
        "rules chess",
        long,
        "quit",
    ]
    done = _cli(tmp_path, "run", lines=answers, terminal=True)
    out = done.stdout
    assert out.count("Games:\n") == 2  # at first and after `help`: not after each wrong answer
    assert "There is no game 'chess'. Type a number from 1 to 5 or a game's id" in out
    assert long not in out and "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'" in out
    assert max(len(line) for line in out.splitlines()) < 600
    assert "channel" not in out and "chat admin" not in out
    assert "the games that ended at this keyboard" in out
    assert "18 Ghosts begins: Ann, Bob." in out
    assert (
        "Castle Doors" in out.split("rules castle_doors")[-1].split("There is no game 'chess'")[0]
    )
    assert "! There is no game 'chess'." in out
    assert " INFO " not in out + done.stderr  # the web board's start is not logged in the game


def test_one_saved_game_is_offered_as_1_not_1_to_1(tmp_path):
    _cli(tmp_path, "play", "ghosts18", "--players", "Ann,Bob", lines=["quit"])
    out = _cli(tmp_path, "play", lines=["5", "1", "quit"]).stdout
    assert "Type 1 to resume that game, or n for a new one." in out
    assert "from 1 to 1" not in out
    assert "Resuming game #1" in out


async def test_what_the_bots_did_comes_before_what_only_the_player_reads(tmp_path):
    """Castle Doors against two bots: after Ann's move, each bot's move as it is stored,
    then what only Ann reads (her note, then the board, then her view of the new state)."""
    store = await Store.open(tmp_path / "t.sqlite3")
    output: list[str] = []
    typed: list[str] = []

    def keyboard(prompt: str) -> str | None:
        output.append(f"PROMPT {prompt}")
        typed.append("1")
        return "1" if len(typed) <= 8 else None

    service = GameService(store, seed_source=lambda: 7, pictures=False, ai_scale=0.02)
    terminal = Terminal(service, tmp_path / "pics", output.append, keyboard)
    try:
        assert await terminal.play("castle_doors", ["Ann", "bot", "bot"]) == 0
    finally:
        await store.close()
    segments, current = [], []  # what each line typed led to
    for line in output:
        if line.startswith("PROMPT "):
            segments.append(current)
            current = []
        else:
            current.append(line)
    checked = 0
    for lines in segments:
        bots = [n for n, line in enumerate(lines) if line.startswith("Bot ")]
        private = [n for n, line in enumerate(lines) if line.startswith("(only Ann sees this)")]
        if bots and private:
            view = next(n for n in private if "Your hand" in lines[n])
            waiting = next(n for n, line in enumerate(lines) if "Waiting for Ann" in line)
            assert max(bots) < min(private) and waiting < view, lines
            checked += 1
    assert checked, output


async def test_a_number_is_asked_for_as_the_menu_allows(tmp_path):
    store = await Store.open(tmp_path / "t.sqlite3")
    try:
        terminal = Terminal(GameService(store, pictures=False), tmp_path, print)
        terminal.menu = [("stay", "Stay where you are")]
        with pytest.raises(UserError, match="Your one choice is number 1; type 1, or the move"):
            terminal.pick("2")
        assert terminal.pick("1") == "stay"
        terminal.menu = []
        with pytest.raises(UserError, match="You have no choice to make now"):
            terminal.pick("1")
        terminal.menu = [("stay", "Stay"), ("exit", "Leave")]
        with pytest.raises(UserError, match="Choose a number from 1 to 2"):
            terminal.pick("3")
    finally:
        await store.close()
