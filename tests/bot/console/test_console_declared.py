"""The terminal's commands come from the command table (issue 35): its help lists the
commands declared for the keyboard and its own few words, and a declared command typed at
the keyboard (here `stats`, new to the terminal) runs as the service declares it."""

from __future__ import annotations

from bot.console.terminal import OWN_WORDS, at_keyboard, help_text, keyboard_command
from bot.service import COMMANDS
from bot.service.commands import Where
from languages import say
from tests.bot.console.test_console import _cli


def test_the_keyboard_help_lists_every_command_declared_for_it_and_no_other():
    """A command declared for Where.KEYBOARD reaches the terminal's help and dispatch with
    a line of its own (the chat's words would speak of channels and admins); the chat's
    commands (join, start, web...) do not."""
    text = say(help_text(), "en")
    listed = {line.split()[0] for line in text.splitlines()[2:]}
    declared = {c.name for c in at_keyboard()}
    assert declared == {c.name for c in COMMANDS if Where.KEYBOARD in c.where}
    assert {
        "board",
        "hand",
        "hint",
        "log",
        "replay",
        "review",
        "history",
        "rules",
        "learn",
        "abort",
        "stats",
        "describe",
    } == declared
    assert listed == declared | {"moves", "describe", "as", "quit"}
    assert all(c.at_keyboard_help for c in at_keyboard())
    assert all(keyboard_command(c.name) is c for c in at_keyboard())
    assert keyboard_command("join") is None and keyboard_command("web") is None
    assert len(OWN_WORDS) == 4


def test_stats_help_and_a_junk_word_at_a_real_terminal(tmp_path):
    """What a person at the keyboard sees: `help` names stats with its keyboard line, `stats`
    answers for the player at the keyboard, `stats Bob` for Bob, `as Bob stats` as Bob; a
    chat's command (`join`) or a junk word is refused as a move, and the game goes on."""
    lines = ["help", "stats", "stats Bob", "as Bob stats", "join", "frobnicate", "quit"]
    out = _cli(
        tmp_path, "play", "ghosts18", "--players", "Ann,Bob", lines=lines, terminal=True
    ).stdout
    assert (
        "  stats [PLAYER]  a player's ratings from the games at this keyboard (default: yours)"
        in out
    )
    answers = out.split("moves` lists them all\n")[-1].split("Ann> ")[1:]  # one a line typed
    assert answers[0].startswith("Type a move as the game words it")  # `help`
    assert answers[1:] == [
        "Ann has no finished rated game here yet.\n",
        "! Nobody called Bob has finished a rated game here.\n",
        "Bob has no finished rated game here yet.\n",
        "! 'join' is not allowed now. You may: place a1, place b1, place d1, place e1, place a2, place c2, place e2, place a3 (and 10 more).\n",
        "! 'frobnicate' is not allowed now. You may: place a1, place b1, place d1, place e1, place a2, place c2, place e2, place a3 (and 10 more).\n",
        "The game is saved; run the same command again to resume it.\n",
    ]
