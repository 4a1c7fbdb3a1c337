"""The command table (bot/service/commands.py): what every front end reads from it holds
for every declaration, and the facts front ends once learned by a command's name are
declared on the same commands as before."""

from __future__ import annotations

import re

from bot.service.commands import COMMANDS, GAME, GROUPS, Where
from bot.telegram import callback_data as cd


def test_every_declaration_fits_every_platform():
    top = [c for c in COMMANDS if not c.group] + sorted({c.group for c in COMMANDS if c.group})
    assert len(top) <= 25, "Discord's limit of entries at the top of /escape"
    for group in GROUPS:
        assert len([c for c in COMMANDS if c.group == group]) <= 25, group
    assert len({c.name for c in COMMANDS}) == len(COMMANDS)  # flat on Telegram and the terminal
    for command in COMMANDS:
        assert re.fullmatch(r"[a-z][a-z-]{0,31}", command.name), command.name
        if command.menu:  # a menu button's callback data, read back as the command
            assert cd.parse(cd.menu(command.name)).data == command.name
        if command.opens_table:  # its place is named after the game it opens
            assert command.asks_for_game is not None and command.asks_for_game.kind == GAME
        assert Where.CHANNEL in command.where or command.where == Where.PRIVATE


def test_the_facts_once_learned_by_name_are_declared_on_the_same_commands():
    def having(fact) -> set[str]:
        return {c.name for c in COMMANDS if fact(c)}

    assert having(lambda c: c.opens_table) == {"start"}
    assert having(lambda c: c.at_once) == {"help"}
    assert having(lambda c: c.secret_words) == {"move"}
    assert having(lambda c: c.in_private is not None) == {"hand"}
    assert having(lambda c: c.who.asks_admin) == {
        "abort",
        "tournament",
        "season",
        "offer",
        "remove",
        "bar",
        "unbar",
    }
    assert having(lambda c: c.asks_for_game is not None) == {"start"}
    assert [c.name for c in COMMANDS if c.in_list] == [
        "start",
        "join",
        "leave",
        "begin",
        "move",
        "board",
        "hand",
        "log",
        "learn",
        "rules",
        "help",
        "games",
        "abort",
    ]
