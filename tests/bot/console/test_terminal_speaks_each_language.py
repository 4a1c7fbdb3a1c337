"""Every word at the terminal in the reader's language (issue 60): for German, Spanish and
Russian, a game is set up at the keyboard (its options and the bots' level shown in the
language and answered in it), played a few moves with help, rules and the history asked
for, and ended by `abort`, whose confirmation is first refused with the language's own no
(the game goes on) and then given with its own yes. Everything printed, prompts too, is
read for English left (tests/english_words.py: the names, games' ids, commands and move
syntax, typed as they are in every language, aside)
and for `/escape`, a chat's command the terminal never types."""

from __future__ import annotations

import re

import pytest

from bot.console import Terminal
from bot.service import COMMANDS, GameService
from bot.store import Store
from engines import REGISTRY
from tests.english_words import english_left

SAID = {  # what the keyboard types in each language: an option's value, a level, no, yes
    "de": ("kurz", "leicht", "nein", "ja"),
    "es": ("corto", "fácil", "no", "sí"),
    "ru": ("короткий", "лёгкий", "нет", "да"),
}
ENDED = {  # the abort said, in each language
    "de": "beendet",
    "es": "terminad",
    "ru": "законч",
}
PATHS = re.compile(r"\S*/\S*")
MOVE_SYNTAX = re.compile(r"\[[^\]]*\]")  # `[place b1]`: what is typed, the same everywhere


class Keyboard:
    """Types the set-up, a few moves (the first choice), the commands, then abort: no,
    a move, abort: yes."""

    def __init__(self, output: list[str], language: str) -> None:
        value, level, no, yes = SAID[language]
        self.output = output
        self.script = [
            "ghosts18",  # the game, by its id
            value,  # variant: short, in the reader's word
            "Ann,bot",
            level,  # the bots' level, in the reader's word
            "help",
            "rules",
            "1",
            "history",
            "1",
            "abort",
            no,  # the game goes on
            "1",
            "abort",
            yes,
        ]
        self.terminal: Terminal | None = None

    def __call__(self, prompt: str) -> str | None:
        self.output.append(prompt)
        return self.script.pop(0) if self.script else None


@pytest.mark.parametrize("language", sorted(SAID))
async def test_a_terminal_game_reads_only_the_readers_language(tmp_path, language):
    store = await Store.open(tmp_path / "t.sqlite3")
    output: list[str] = []
    keyboard = Keyboard(output, language)
    service = GameService(store, seed_source=lambda: 7, pictures=False, ai_scale=0.02)
    terminal = Terminal(service, tmp_path, output.append, keyboard, language=language)
    keyboard.terminal = terminal
    try:
        assert await terminal.play(None, [], None) == 0
        row = await store.session(1)
    finally:
        await store.close()
    text = "\n".join(output)
    assert not keyboard.script, f"not everything was asked for: {keyboard.script}\n{text[-1500:]}"
    assert row.options.get("variant") == "short" and row.bot_level == "easy"  # understood
    assert row.status == "aborted", row.status  # ended by its own yes, not by the no
    assert ENDED[language] in text.split(SAID[language][2])[-1].lower()
    assert "/escape" not in text, [line for line in text.splitlines() if "/escape" in line][:5]
    # what is typed stays as it is typed, in every language: the names, the games' ids and
    # the keyboard's commands (`abort`, `moves`), as the move syntax
    allowed = {"ann", "bot"} | {w for game in REGISTRY for w in game.split("_")}
    allowed |= {c.name for c in COMMANDS} | {"moves", "describe", "quit", "as"}
    left = [
        (line, words)
        for line in text.splitlines()
        if (words := english_left(MOVE_SYNTAX.sub(" ", PATHS.sub(" ", line)), language, allowed))
    ]
    assert not left, f"{len(left)} lines keep English, e.g. {left[:8]}"
