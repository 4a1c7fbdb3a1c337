"""Every count is a plural message (issue 59: "1 rounds", "(1 players)", "1 points"):
in the catalogue's template, a message of the bot's or of a game's rules that puts a
number before a counted noun ("{count} players", "{rounds} rounds", "{n} more turns") is a
`plural(...)`, so each language picks its form (Russian has three). The pictures' own
words (render/, their alt texts) are not read here yet: they are listed in the report of
issue 59 for the work on the pictures' words."""

from __future__ import annotations

import re

from babel.messages.pofile import read_po

from languages.extract import TEMPLATE

COUNTS = (
    "count|n|more|days|rounds|points|moves|chapters|steps|turns|cards|spaces|deck|discard|"
    "bulbs|attempts|width|height|least|most|missing|voters|needed"
)
NOUNS = (
    "players|rounds|points|days|games|turns|cards|spaces|steps|chapters|ghosts|bulbs|attempts|"
    "columns|rows|moves|results|seconds|minutes|hours|weeks|months|tables|seats|votes|people|"
    "entries|standings|ratings|dice|discards"
)
A_COUNT = re.compile(rf"\{{({COUNTS})\}}\s+(?:more\s+)?(?:[a-z]+\s+)?({NOUNS})\b")
READ = ("bot/", "engines/")


def counted_singulars() -> list[str]:
    with TEMPLATE.open("rb") as f:
        template = read_po(f)
    found = []
    for message in template:
        if not message.id or isinstance(message.id, tuple):  # (a plural message: fine)
            continue
        where = [path for path, _ in message.locations]
        if where and not any(path.startswith(READ) for path in where):
            continue
        if A_COUNT.search(message.id):
            found.append(f"{where[0] if where else 'data'}: {message.id[:90]}")
    return found


def test_every_count_of_the_bot_and_the_games_is_a_plural_message():
    assert counted_singulars() == []


def test_the_check_finds_a_count_said_in_one_form():
    assert A_COUNT.search("Tournament #{id}: {game}, {rounds} rounds, {kind}.")
    assert A_COUNT.search("{name} joins the tournament ({count} players).")
    assert A_COUNT.search("in {n} attempts")
    assert not A_COUNT.search("{game} is for {players} players.")  # a range: "2 to 4"
