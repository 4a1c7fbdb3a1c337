"""`escape-bot learn GAME` and the terminal's `learn`: the real program in a pseudo-terminal,
a lesson played in German by its own prompts (the move each prompt names, typed as it is
written), a wrong number answered, left with `quit` and resumed at the same step, and at
its end a real game against a bot begun."""

from __future__ import annotations

import re

import pyte
import pytest

from bot.service.learning.tutorial import LESSONS
from languages import say
from tests.bot.console.test_console_handover import Emulated

PROMPT = "Ann> "


def last_prompted(text: str) -> str:
    return re.findall(r"`([^`]+)`", text)[-1]


def test_a_lesson_in_the_terminal_in_german_left_resumed_and_ending_in_a_game(tmp_path):
    lesson = LESSONS["hidden_castle"]
    run = Emulated(
        pyte.HistoryScreen(400, 40, history=5000),
        ["learn", "hidden_castle", "--lang", "de", "--name", "Ann"],
        tmp_path,
    )
    try:
        _, at = run.wait_for(PROMPT)
        text = run.raw.decode()
        assert "Lektion: Flucht aus dem verborgenen Schloss." in text
        assert "lesson-hidden_castle.png" in text
        assert (tmp_path / "p" / "lesson-hidden_castle.png").read_bytes().startswith(b"\x89PNG")
        move = last_prompted(text)
        # a number that is not the move: explained, the same move asked again
        numbers = re.findall(r"^  (\d)\) (.+?)\r?$", text[text.rfind("Dein Zug") :], re.M)
        wrong = next(n for n, label in numbers if f"Feld {move.split()[-1]}" not in label)
        run.type(wrong)
        _, after = run.wait_for(PROMPT, after=at)
        said = run.raw[at:after].decode()
        assert say(lesson.steps[0].wrong, "de") in said and last_prompted(said) == move
        run.type(move)  # step 1 done
        _, at = run.wait_for(PROMPT, after=after)
        second = last_prompted(run.raw.decode())
        run.type("quit")
        run.wait_for("learn hidden_castle", after=at)
        run.proc.wait(20)
    finally:
        run.close()
    # resumed: the same step, then played to the end by its prompts
    run = Emulated(
        pyte.HistoryScreen(400, 40, history=5000),
        ["learn", "hidden_castle", "--lang", "de", "--name", "Ann"],
        tmp_path,
    )
    try:
        _, at = run.wait_for(PROMPT)
        text = run.raw.decode()
        assert "Schritt 2 von" in text and last_prompted(text) == second
        for _ in lesson.steps[1:]:
            run.type(last_prompted(run.raw[:at].decode()))
            _, at = run.wait_for(PROMPT, "Tippe ja oder nein", after=at)
        assert say(lesson.closing, "de") in run.raw.decode()
        run.type("ja")
        run.wait_for("Bot 1", after=at, timeout=120)  # a real game, against a bot
    finally:
        run.close()


async def test_learn_during_a_game_returns_to_it(tmp_path):
    from bot.console import Terminal
    from bot.service import GameService
    from bot.store import Store
    from tests.bot.console.test_console import Script

    store = await Store.open(tmp_path / "t.sqlite3")
    output: list[str] = []
    script = Script(["learn castle_doors", "play key blue", "quit", "quit"])
    service = GameService(store, seed_source=lambda: 5, pictures=False)
    terminal = Terminal(service, tmp_path / "pics", output.append, script)
    script.terminal = terminal
    await terminal.play("ghosts18", ["Ann", "Bob"], "")
    await store.close()
    text = "\n".join(output)
    assert "Lesson: Castle Doors." in text and "Now choose the door: b5" in text
    assert "`learn castle_doors` goes on from here" in text
    assert text.index("Back to the game.") > text.index("goes on from here")


async def test_review_in_the_terminal_writes_the_chart_to_a_file(tmp_path):
    from PIL import Image

    from bot.console import Terminal
    from bot.service import GameService
    from bot.store import Store
    from tests.bot.console.test_console import Script

    store = await Store.open(tmp_path / "t.sqlite3")
    output: list[str] = []
    script = Script(seed=3)
    service = GameService(store, seed_source=lambda: 5, ai_scale=0.05)
    terminal = Terminal(service, tmp_path / "pics", output.append, script)
    script.terminal = terminal
    script.lines = []
    await terminal.play("ghosts18", ["Ann", "Bob"], "variant=short")
    script.lines = ["review", "quit"]
    await terminal._after(1)
    await store.close()
    text = "\n".join(output)
    assert "`review` for a chart" in text
    assert "Review of game #1, 18 Ghosts, as " in text and "1. Move " in text
    chart = tmp_path / "pics" / "review-1.png"
    assert Image.open(chart).size == (1100, 560)


@pytest.mark.parametrize(("language", "name"), [("en", "Player"), ("de", "Spieler")])
def test_a_learner_who_gives_no_name_is_called_player_in_their_language(tmp_path, language, name):
    """The game's lines name the learner in the third person ("... draws a card"): the
    default name was "You", which made them read "You draws a card"."""
    run = Emulated(
        pyte.HistoryScreen(400, 40, history=5000),
        ["learn", "castle_doors", "--lang", language],
        tmp_path,
    )
    try:
        _, at = run.wait_for(f"{name}> ", "You> ")
        assert run.raw[:at].decode().endswith(f"{name}> ")
    finally:
        run.close()
