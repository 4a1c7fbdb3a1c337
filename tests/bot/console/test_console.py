"""Terminal play: a whole game from placement to a win, and a process killed between two
moves that resumes with nothing lost (a real SQLite file, a real SIGKILL)."""

from __future__ import annotations

import os
import pty
import queue
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from PIL import Image

from bot.console import Terminal
from bot.service import GameService
from bot.store import Store

ROOT = Path(__file__).resolve().parents[3]


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
        if not self.terminal.menu:  # a hand-over asks for Enter
            return ""
        return str(1 + int(self.rng.random() * len(self.terminal.menu)))


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
    said = [line for out in output for line in out.splitlines() if "[picture" not in line]
    assert [line for line in said if " wins" in line and "ghost on" not in line] == [
        "Bob wins with three ghosts outside!"
    ]  # the win announced once (not again as the summary, "Bob wins 18 Ghosts")
    # one folder per game holding only the latest board (18 Ghosts hides nothing: no views)
    pictures = sorted(p.relative_to(tmp_path) for p in (tmp_path / "pics").rglob("*.png"))
    assert pictures == [Path("pics/game-1/board.png")]
    assert (tmp_path / "pics/game-1/board.png").read_bytes().startswith(b"\x89PNG")
    assert text.count("[picture: ") > 18  # the set-up alone is 18 placements
    # terse: the board's description in words only at the start (and on request)
    assert text.count("Portals:") == 1
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
        "as Eve place a1",
        "2",
        "moves",
        "abort",
        "no",
        "abort",
        "yes",
    ]
    terminal = Terminal(GameService(store, pictures=False), tmp_path, output.append, Script(lines))
    assert await terminal.play("ghosts18", ["Ann", "Bob"]) == 0
    text = "\n".join(output)
    assert "! Say `as NAME MOVE`, NAME one of: Ann, Bob." in text
    # each choice shows the move as it is typed; after a move the list is cut short
    assert "  1) Place a blue ghost on a1  [place a1]" in text
    assert "... and 6 more: `moves` lists them all" in text
    assert "  17) Place a yellow ghost on e5  [place e5]" in text  # `moves` lists them all
    assert "The game goes on." in text
    assert "! 'place z9' is not allowed now" in text
    assert "! Choose a number from 1 to 18" in text
    assert "HOUSE DECISIONS" in text
    assert "! It is not your turn: waiting for Ann." in text
    assert "Ann places a red ghost on b1." in text  # choice 2 of Ann's list
    assert "Bob ended the game of 18 Ghosts" in text  # whoever is at the keyboard, not Ann
    await store.close()


def _spawn(
    db: Path,
    pictures: Path,
    game: tuple[str, ...] = ("ghosts18", "--players", "Ann,Bob"),
    **env: str,
) -> subprocess.Popen:
    """`escape-bot play GAME...` on pipes; `env`: more of its environment."""
    env = {**os.environ, "ESCAPE_DB": str(db), "PYTHONUNBUFFERED": "1", **env}
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "play", *game, "--pictures", str(pictures)],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
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

    conn = sqlite3.connect(db)
    log = [row[0] for row in conn.execute("SELECT action FROM actions ORDER BY n")]
    conn.close()
    assert log == ["place b1", "place a1", "place d1", "place e1"]


def test_run_without_a_token_offers_terminal_play_and_ends_cleanly_at_end_of_input(tmp_path):
    """`make run` on a fresh machine: no token, typed at a terminal (a pseudo-terminal here),
    which ends its input (Ctrl-D): explain, offer local play, exit 0. Without a terminal it
    is an error instead (tests/e2e/test_startup_errors.py)."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    env["ESCAPE_DB"] = str(tmp_path / "escape.sqlite3")
    keyboard, terminal = pty.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "bot.cli", "run"],
            cwd=tmp_path,
            env=env,
            stdin=terminal,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        os.write(keyboard, b"\x04")  # Ctrl-D at the first prompt: the end of input
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(keyboard)
        os.close(terminal)
    assert proc.returncode == 0, err
    assert "DISCORD_TOKEN" in out and "TELEGRAM_TOKEN" in out
    assert "Which game?" in out and "Traceback" not in err


async def test_terse_by_default_descriptions_on_request(tmp_path):
    """After a move: what happened and the picture's path; the board in words on `board`, or
    after every move once `describe on` is typed (or with --describe)."""
    store = await Store.open(tmp_path / "t.sqlite3")
    output: list[str] = []
    lines = ["place b1", "board", "place a1", "describe on", "place e1", "quit"]
    service = GameService(store, seed_source=lambda: 5)
    terminal = Terminal(service, tmp_path / "pics", output.append, Script(lines))
    assert await terminal.play("ghosts18", ["Ann", "Bob"]) == 0
    await store.close()
    described = [n for n, out in enumerate(output) if "Portals:" in out]
    moved = [n for n, out in enumerate(output) if out.startswith(("Ann places", "Bob places"))]
    assert len(moved) == 3
    # the start; `board` after the first move; the move after `describe on` (not the second)
    assert len(described) == 3
    assert described[0] < moved[0] < described[1] < moved[1] < moved[2] < described[2]
    assert "Descriptions after every move: on." in output


class Keyboard:
    """A hot-seat keyboard: answers Enter at hand-overs, else a seeded random choice; logs
    every prompt into the output so the order of what was shown can be checked."""

    def __init__(self, output: list[str], moves: int, seed: int = 2) -> None:
        self.output, self.moves = output, moves
        self.rng = random.Random(seed)
        self.terminal: Terminal | None = None

    def __call__(self, prompt: str) -> str | None:
        self.output.append(f"PROMPT {prompt}")
        if "take the keyboard" in prompt:  # what a player finds on disk as they sit down
            shelf = self.terminal.shelf.root
            self.output.append(f"ON DISK {sorted(p.name for p in shelf.rglob('view-*'))}")
        menu = self.terminal.menu
        if "press Enter" in prompt or not menu:
            return ""
        self.moves -= 1
        if self.moves < 0:
            return None
        return str(1 + int(self.rng.random() * len(menu)))


async def test_hot_seat_shows_each_players_secrets_only_after_they_take_the_keyboard(tmp_path):
    store = await Store.open(tmp_path / "t.sqlite3")
    output: list[str] = []
    keyboard = Keyboard(output, moves=40)
    service = GameService(store, seed_source=lambda: 11)
    terminal = Terminal(service, tmp_path / "pics", output.append, keyboard)
    keyboard.terminal = terminal
    assert await terminal.play("haunted_house", ["Ann", "Bob"], "specials=off") == 0
    await store.close()
    holder, handovers, secrets_seen = None, [], {"Ann": 0, "Bob": 0}
    for line in output:
        if "the keyboard passes to" in line:
            holder = None
        elif line.startswith("PROMPT ") and "take the keyboard" in line:
            holder = line.split()[1].rstrip(":")
            handovers.append(holder)
        elif line.startswith("(only "):
            owner = line.split()[1]
            assert owner == holder, f"{owner}'s secret shown while {holder} has the keyboard"
            secrets_seen[owner] += 1
        assert "(for " not in line  # nothing private printed for the whole table
        assert "Your hand (" not in line or line.startswith("(only ")
    assert handovers[:3] == ["Ann", "Bob", "Ann"] and len(handovers) > 6
    assert secrets_seen["Ann"] > 3 and secrets_seen["Bob"] > 3
    assert any("press Enter to hide your view and pass the keyboard to" in o for o in output)
    # at every hand-over, no private view is left on disk for the next player to open
    on_disk = [line for line in output if line.startswith("ON DISK ")]
    assert len(on_disk) == len(handovers) and set(on_disk) == {"ON DISK []"}
    views = sorted(p.name for p in (tmp_path / "pics" / "game-1").glob("*.png"))
    assert views in (["board.png", "view-ann.png"], ["board.png", "view-bob.png"])


# ----- the real program, driven through its prompts ---------------------------------------
def _cli(
    tmp_path: Path, *args: str, lines: list[str], terminal: bool = False, lang: str = "C.UTF-8"
) -> subprocess.CompletedProcess:
    """The program with `lines` typed into it; `terminal`: typed at a (pseudo-)terminal, as
    `make run` is, which without a token and without a terminal refuses to start. `lang`:
    the terminal's locale (the program speaks its language)."""
    env = {
        k: v for k, v in os.environ.items() if not k.endswith("_TOKEN") and not k.startswith("LC_")
    }
    env.update(ESCAPE_DB=str(tmp_path / "escape.sqlite3"), ESCAPE_PICTURES=str(tmp_path / "p"))
    env.update(LANG=lang, LANGUAGE="")
    typed = "".join(f"{line}\n" for line in lines)
    command = [sys.executable, "-m", "bot.cli", *args]
    if terminal:
        keyboard, tty = pty.openpty()
        try:
            proc = subprocess.Popen(
                command,
                cwd=tmp_path,
                env=env,
                stdin=tty,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            os.write(keyboard, typed.encode() + b"\x04")  # then Ctrl-D: the end of input
            out, err = proc.communicate(timeout=120)
        finally:
            os.close(keyboard)
            os.close(tty)
        done = subprocess.CompletedProcess(command, proc.returncode, out, err)
    else:
        done = subprocess.run(
            command,
            cwd=tmp_path,
            env=env,
            input=typed,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "Error" not in done.stdout
    return done


def test_make_run_asks_again_after_every_wrong_answer_and_offers_the_options(tmp_path):
    """`make run` on a fresh machine: the games with titles, player counts and a line each;
    a typo, `help`, one name or the same name twice are explained and asked again; each
    option is offered with its choices and what it means."""
    answers = ["help", "chess", "4", "maybe", "off", "Ann", "Ann,ann", "Ann,Bob", "", "quit"]
    out = _cli(tmp_path, "run", lines=answers, terminal=True).stdout
    assert "4) Haunted House (haunted_house), 2 to 4 players: Explore your haunted house" in out
    assert "3) 18 Ghosts (ghosts18), 2 players:" in out
    assert "There is no game 'chess'." in out
    assert "specials: on: the 7 special cards are in the deck; off: 46 basic cards only" in out
    assert "specials is one of: on, off" in out
    assert "Haunted House is for 2 to 4 players; you named 1." in out
    assert "Each player at this keyboard needs a different name." in out
    assert "Haunted House begins: Ann, Bob." in out
    assert "Ann: take the keyboard and press Enter" in out
    conn = sqlite3.connect(tmp_path / "escape.sqlite3")
    [(game, options)] = conn.execute("SELECT game, options FROM sessions").fetchall()
    conn.close()
    assert game == "haunted_house" and '"specials": "off"' in options


def test_several_saved_games_and_a_choice_of_which_to_resume(tmp_path):
    _cli(tmp_path, "play", "ghosts18", "--players", "Ann,Bob", lines=["place b1", "quit"])
    _cli(tmp_path, "play", "hidden_castle", "--players", "Cy,Di", lines=["quit"])
    out = _cli(tmp_path, "play", lines=["3", "1", "quit"]).stdout
    assert "1) #1 18 Ghosts with Ann, Bob: waiting for Bob." in out
    assert "2) #2 Escape from the Hidden Castle with Cy, Di: waiting for Cy." in out
    assert "n) a new game" in out
    assert "Type a number from 1 to 2 to resume that game, or n for a new one." in out
    assert "Resuming game #1 18 Ghosts with Ann, Bob: waiting for Bob." in out
    # the same game without names: its saved tables, or a new one beside them
    out = _cli(tmp_path, "play", "ghosts18", lines=["n", "Eve,Fay", "quit"]).stdout
    assert "1) #1 18 Ghosts" in out and "Hidden Castle" not in out
    assert "18 Ghosts begins: Eve, Fay." in out
    # the same command as before resumes its own game directly
    out = _cli(tmp_path, "play", "hidden_castle", "--players", "Di,Cy", lines=["quit"]).stdout
    assert "Resuming game #2 Escape from the Hidden Castle" in out
    conn = sqlite3.connect(tmp_path / "escape.sqlite3")
    rows = conn.execute("SELECT id, game, status FROM sessions ORDER BY id").fetchall()
    conn.close()
    assert rows == [
        (1, "ghosts18", "active"),
        (2, "hidden_castle", "active"),
        (3, "ghosts18", "active"),
    ]


def test_a_refusal_shows_how_the_move_is_typed(tmp_path):
    out = _cli(
        tmp_path, "play", "hidden_castle", "--players", "Ann,Bob", lines=["place A 5", "quit"]
    ).stdout
    assert "! Place your guest with `place N`" in out and "e.g. `place 1`" in out
    assert "1) Place guest A on space 1  [place 1]" in out


async def test_a_table_saved_before_it_began_is_begun_or_closed_on_resume(tmp_path):
    """A process stopped between opening the table and its start leaves a lobby: resuming it
    begins the game, or closes a table short of players, never a dead end."""
    from bot.console.setup import local_user
    from bot.service import ChatRef

    store = await Store.open(tmp_path / "t.sqlite3")
    service = GameService(store, pictures=False)
    full, short = (ChatRef("console", "terminal", n, "terminal") for n in ("1", "2"))
    await service.start(full, local_user("Ann"), "haunted_house")
    await service.join(full, local_user("Bob"))
    await service.start(short, local_user("Cy"), "ghosts18")
    output: list[str] = []
    terminal = Terminal(service, tmp_path, output.append, Script(["1", "", "quit"]))
    assert await terminal.play(None, []) == 0
    assert "Haunted House begins: Ann, Bob." in "\n".join(output)
    output.clear()
    terminal = Terminal(service, tmp_path, output.append, Script(["2", "quit"]))
    assert await terminal.play(None, []) == 0
    text = "\n".join(output)
    assert "That table is closed; start a new game." in text and "\nGames:\n" in text
    assert (await service.live(short)) is None
    await store.close()


def test_ctrl_c_at_a_prompt_ends_at_once_and_says_the_game_is_saved(tmp_path):
    """Ctrl-C while the terminal waits for a move: the process ends without waiting for
    Enter (the input is read on a thread that does not keep it alive)."""
    proc = _spawn(tmp_path / "escape.sqlite3", tmp_path / "pics")
    seen: list[str] = []
    _wait_for(proc, "Waiting for Ann", seen)
    time.sleep(0.5)  # at the prompt
    proc.send_signal(signal.SIGINT)
    try:
        code = proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError("Ctrl-C left the terminal waiting for Enter") from None
    _wait_for(proc, "The game is saved; `make run` resumes it.", seen)
    assert code == 130
    assert not any("Traceback" in line for line in seen), "".join(seen)


async def test_alone_against_bots_nobody_is_asked_to_look_away(tmp_path):
    """A single human against bots in a game with secrets keeps the keyboard: no hand-over
    prompt, and their own view and moves are shown."""
    store = await Store.open(tmp_path / "t.sqlite3")
    output: list[str] = []
    keyboard = Keyboard(output, moves=6)
    terminal = Terminal(
        GameService(store, seed_source=lambda: 11, ai_scale=0.02),
        tmp_path / "pics",
        output.append,
        keyboard,
    )
    keyboard.terminal = terminal
    assert await terminal.play("haunted_house", ["Ann", "bot"], "specials=off") == 0
    await store.close()
    assert not any("take the keyboard" in line or "look away" in line for line in output)
    assert any(line.startswith("(only Ann sees this)") for line in output)


async def test_as_name_runs_a_command_for_that_player_and_history_pages(tmp_path):
    """`as Bob hand` shows Bob's view (not a refusal of a move called "hand"); `history 2`
    shows the second page of ended games; `place` after set-up says set-up is over."""
    store = await Store.open(tmp_path / "t.sqlite3")
    service = GameService(store, seed_source=lambda: 5, pictures=False)
    from bot.service import ChatRef, UserRef

    for n in range(7):  # seven ended games in the terminal's chat: two pages of history
        chat = ChatRef("console", "terminal", str(100 + n), "terminal")
        ann = UserRef("console", "local:ann", "Ann")
        await service.start(chat, ann, "ghosts18", "bots=1")
        await service.abort(chat, ann)
    output: list[str] = []
    lines = ["as Bob hand", "history 2", "history two", "quit"]
    terminal = Terminal(service, tmp_path, output.append, Script(lines))
    try:
        assert await terminal.play("ghosts18", ["Ann", "Bob"]) == 0
    finally:
        await store.close()
    text = "\n".join(output)
    assert "It is not your turn" not in text and "(for Bob only)" in text
    assert "Page 2 of 2." in text and "Say history, or history 2" in text


def test_make_run_with_a_german_locale_plays_in_german(tmp_path):
    """Issue 26: `LANG=de_DE.UTF-8 make run` plays in German, from the list of games to the
    moves and the end of input; no word only English says is left (names and the typed
    move syntax allowed)."""
    import re

    from engines import REGISTRY
    from tests.german_words import english_left

    answers = ["3", "short", "Ann,Bob", "place a3", "moves", "board", "help", "quit"]
    out = _cli(tmp_path, "run", lines=answers, terminal=True, lang="de_DE.UTF-8").stdout
    assert "Welches Spiel?" in out and "18 Geister beginnt: Ann, Bob." in out
    typed = {
        "place",
        "move",
        "jump",
        "fight",
        "moves",
        "board",
        "hand",
        "hint",
        "log",
        "rules",
        "replay",
        "history",
        "describe",
        "quit",
        "abort",
        "variant",
        "short",
        "standard",
        "learn",
        "stats",
        "review",
    }
    typed |= {w for game in REGISTRY for w in re.findall(r"[a-z]{3,}", game)}  # the games' ids
    paths = re.compile(r"\S*/\S*")  # a picture's path names the test's own folder
    left = [
        (line, w)
        for line in out.splitlines()
        if (w := english_left(paths.sub(" ", line), {"ann", "bob"} | typed))
    ]
    assert not left, left[:10]


async def test_while_a_bot_searches_the_terminal_says_who_is_thinking(tmp_path):
    """A hard bot may take seconds: the player's move is shown, then who thinks, then the
    bot's move; nobody is said to think when a person is to act or the game is over."""
    store = await Store.open(tmp_path / "t.sqlite3")
    output: list[str] = []
    script = Script(seed=2, limit=40)
    terminal = Terminal(
        GameService(store, seed_source=lambda: 4, ai_scale=0.02),
        tmp_path / "pics",
        output.append,
        script,
    )
    script.terminal = terminal
    await terminal.play("castle_doors", ["Ann", "bot"], "")
    await store.close()
    lines = [line for out in output for line in out.splitlines()]
    thinking = [i for i, line in enumerate(lines) if line.endswith("is thinking…")]
    assert thinking, lines
    bot = lines[thinking[0]].removesuffix(" is thinking…")
    assert "Ann" not in bot
    for i in thinking:  # the bot's own move comes next, in its name
        after = next(line for line in lines[i + 1 :] if line.strip() and "[picture" not in line)
        assert after.startswith(bot), (lines[i], after)


async def test_a_private_view_is_told_by_its_hand_and_whole_on_request(tmp_path):
    """After each move a player reads their hand under their view's picture, not the
    whole board in words again (a Castle Doors view is over 1,000 characters); `hand`
    says the whole view, to its owner."""
    store = await Store.open(tmp_path / "t.sqlite3")
    output: list[str] = []
    script = Script(seed=2, limit=12)
    terminal = Terminal(
        GameService(store, seed_source=lambda: 4, ai_scale=0.02),
        tmp_path / "pics",
        output.append,
        script,
    )
    script.terminal = terminal
    await terminal.play("castle_doors", ["Ann", "bot"], "")
    script.lines, script.limit = ["hand"], 1
    await terminal.play("castle_doors", ["Ann", "bot"], "")  # resumed: `hand`, then leave
    await store.close()
    private = [line for out in output for line in out.splitlines() if line.startswith("(only Ann")]
    hands = [line for line in private if "Your hand: " in line]
    assert len(hands) > 3
    brief = [line for line in hands if "Row 1:" not in line]
    # the whole view when the game opens and on `hand`; after every move the hand alone
    assert "Row 1:" in hands[0] and "Row 1:" in hands[-1]
    assert len(brief) == len(hands) - 2, hands
    assert all(len(line) < 200 for line in brief)
