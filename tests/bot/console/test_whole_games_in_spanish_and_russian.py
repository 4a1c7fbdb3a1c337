"""Issue 37: the terminal plays a short game of each of the five games to its end in Spanish
and in Russian, the keyboard answering each menu (hand-overs, refusals, help, rules, the
log and the history asked for on the way). Everything printed, prompts too, is read for
English left (tests/english_words.py: a word only the English catalogue says; the names,
the typed move syntax and the commands typed are the same in every language); and the game
has ended by its own rules, announced in the keyboard's language."""

from __future__ import annotations

import random
import re

import pytest

from bot.console import Terminal
from bot.service import COMMANDS, GameService
from bot.store import Store
from engines import REGISTRY
from tests.english_words import english_left

GAMES = {  # names at the keyboard (`bot`: a computer player) and options: a short game
    "ghosts18": (["Ann", "Bob"], "variant=short"),
    "haunted_house": (["Ann", "Bob"], "specials=off"),
    "hidden_castle": (["Ann", "Bob"], ""),
    "castle_doors": (["Ann", "bot"], ""),  # random moves wander: a bot crosses the castle
    "dark_castle": (["Ann", "Bob"], ""),
}
ENDED = {  # "The game is over. Type `replay` ..." in each language
    "es": "La partida ha terminado.",
    "ru": "Партия окончена.",
}
FIRST = ["help", "rules", "board", "hand", "log", "fly away"]  # then the game is played
AFTER = ["log", "history", "quit"]
TYPED = {
    "help",
    "rules",
    "board",
    "hand",
    "log",
    "history",
    "quit",
    "replay",
    "moves",
    "describe",
    "abort",
    "hint",
    "learn",
    "stats",
    "fly",
    "away",
    "yes",
    "bot",
    "normal",
    "easy",
    "hard",
}
PATHS = re.compile(r"\S*/\S*")


class Keyboard:
    """Types the commands first, then a seeded random choice of every menu (Enter at a
    hand-over), and after the end the log, the history and quit. Logs every prompt."""

    def __init__(self, output: list[str], seed: int) -> None:
        self.output = output
        self.rng = random.Random(seed)
        self.lines = list(FIRST)
        self.after = list(AFTER)
        self.moves = 0
        self.typed: set[str] = set()
        self.terminal: Terminal | None = None

    def __call__(self, prompt: str) -> str | None:
        self.output.append(prompt)
        terminal = self.terminal
        if self.lines:
            return self.lines.pop(0)
        if terminal.board is not None and terminal.board.final:
            return self.after.pop(0) if self.after else None
        if not terminal.menu:
            return ""  # a hand-over asks for Enter
        self.moves += 1
        assert self.moves < 3000, "the game did not end"
        self.typed |= {
            w.lower() for action, _ in terminal.menu for w in re.findall(r"[A-Za-z]{3,}", action)
        }
        return str(1 + int(self.rng.random() * len(terminal.menu)))


@pytest.mark.parametrize("language", sorted(ENDED))
@pytest.mark.parametrize("game_id", list(GAMES))
async def test_a_short_game_in_the_terminal_reads_spanish_or_russian(tmp_path, game_id, language):
    names, options = GAMES[game_id]
    store = await Store.open(tmp_path / "t.sqlite3")
    output: list[str] = []
    keyboard = Keyboard(output, seed=len(game_id))
    service = GameService(store, seed_source=lambda: 7, pictures=False, ai_scale=0.02)
    terminal = Terminal(
        service, tmp_path, output.append, keyboard, describe=True, language=language
    )
    keyboard.terminal = terminal
    try:
        assert await terminal.play(game_id, names, options) == 0
    finally:
        await store.close()
    text = "\n".join(output)
    assert ENDED[language] in text, text[-2000:]
    assert not keyboard.lines and not keyboard.after, "the commands were all typed"
    game = REGISTRY[game_id]
    allowed = {n.lower() for n in names} | TYPED | keyboard.typed | set(game_id.split("_"))
    allowed |= {c.name for c in COMMANDS}  # `/escape top`, typed as it is
    allowed |= {w for name, o in game.options.items() for w in (name, *o.choices)}
    left = [
        (line, words)
        for line in text.splitlines()
        if (words := english_left(PATHS.sub(" ", line), language, allowed))
    ]
    assert not left, f"{len(left)} lines keep English, e.g. {left[:8]}"


@pytest.mark.parametrize(
    ("lang", "language", "asked", "begun"),
    [
        ("es_ES.UTF-8", "es", "¿Qué juego?", "Empieza 18 fantasmas: Ann, Bob."),
        ("ru_RU.UTF-8", "ru", "Какая игра?", "18 призраков начинается: Ann, Bob."),
    ],
)
def test_make_run_in_a_spanish_or_russian_locale_speaks_it(tmp_path, lang, language, asked, begun):
    """`LANG=es_ES.UTF-8 make run` (and ru_RU) in a real pseudo-terminal: from the list of
    games to the moves and the end of input, in the locale's language."""
    from tests.bot.console.test_console import _cli

    answers = ["3", "short", "Ann,Bob", "place a3", "moves", "board", "help", "quit"]
    out = _cli(tmp_path, "run", lines=answers, terminal=True, lang=lang).stdout
    assert asked in out and begun in out, out[-1500:]
    typed = TYPED | {"place", "move", "jump", "fight", "variant", "short", "standard", "release"}
    typed |= {w for game in REGISTRY for w in re.findall(r"[a-z]{3,}", game)}
    typed |= {c.name for c in COMMANDS}  # the keyboard's commands, typed as they are
    left = [
        (line, w)
        for line in out.splitlines()
        if (w := english_left(PATHS.sub(" ", line), language, {"ann", "bob"} | typed))
    ]
    assert not left, left[:10]


@pytest.mark.parametrize(
    ("language", "called"), [("ru", "Бот 1 (средний)"), ("es", "Bot 1 (medio)")]
)
async def test_a_bot_is_named_in_the_tables_language(tmp_path, language, called):
    """A bot's name is written when it takes its seat, in the table's language: a Russian
    table's bot is not "Bot 1 (normal)" on every line, picture and log."""
    store = await Store.open(tmp_path / "t.sqlite3")
    output: list[str] = []
    keyboard = Keyboard(output, seed=3)
    keyboard.lines, keyboard.after = ["board"], []
    service = GameService(store, seed_source=lambda: 7, pictures=False, ai_scale=0.02)
    terminal = Terminal(
        service, tmp_path, output.append, keyboard, describe=True, language=language
    )
    keyboard.terminal = terminal
    try:
        await terminal.play("castle_doors", ["Ann", "bot"], "")
    finally:
        await store.close()
    text = "\n".join(output)
    assert called in text
    assert "Bot 1 (normal)" not in text
