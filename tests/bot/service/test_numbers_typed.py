"""Every number typed anywhere is read by one parser (bot/service/base/platform_input.py:
ASCII digits, in range, nothing else): each option of each command that takes a number,
fed Arabic-Indic, fullwidth and Devanagari digits, `1_0` and `+3` (Python's `int` and
`float` read every one of them), is refused with a message and nothing is stored."""

from __future__ import annotations

import pytest

from bot.service import Call, ChatRef, GameService, UserError
from bot.service.base.platform_input import amount, whole
from bot.store.copy import columns, tables
from tests.bot.conftest import ANN, BOB, CHAT

JUNK = ["٣", "３", "२", "1_0", "+3"]  # three (or ten) in digits Python reads as numbers
HOME = ChatRef("test", "home", "", "guild-1")

# (command, its words with N where the number goes, typed by an admin?)
TYPED = [
    ("tournament", "create ghosts18 rounds=N", True),
    ("tournament", "create hidden_castle size=N", True),
    ("tournament", "create ghosts18 start=Nm", True),
    ("season", "start Nmo", True),
    ("season", "start Nw", True),
    ("season", "start Nd", True),
    ("clock", "vacation N", False),
    ("clock", "quiet N-7", False),
    ("clock", "quiet 22-N", False),
    ("clock", "tz +N", False),
    ("clock", "tz UTC+N:30", False),
    ("history", "N", False),
    ("top", "ghosts18 season N", False),
    ("log", "N", False),
    ("replay", "N", False),
    ("review", "N", False),
]
STARTS = ["turn=Nh", "bots=N", "turn=N"]  # start options with a number


async def dump(service: GameService) -> list[str]:
    db = service.store._conn
    out = []
    for table in await tables(db):
        names = [c for c in await columns(db, table) if c not in ("updated_at",)]
        out += [
            f"{table}: {row!r}"
            for row in await service.store.rows(f"SELECT {', '.join(names)} FROM {table}", ())
        ]
    return out


def test_the_one_parser_takes_ascii_digits_only():
    for junk in [*JUNK, "-1", "1e3", "inf", "nan", " 3", "3 ", "0x3", "³", ""]:
        assert whole(junk) is None, junk
        assert amount(junk) is None, junk
    assert whole("10", 1, 10) == 10 and whole("11", 1, 10) is None and whole("0", 1) is None
    assert amount("1.5") == 1.5 and amount("2") == 2.0


@pytest.mark.parametrize("junk", JUNK)
async def test_every_number_typed_in_other_digits_is_refused_and_nothing_stored(service, junk):
    await service.start(CHAT, ANN, "ghosts18", "variant=short")
    await service.join(CHAT, BOB)  # a running table here: the clock's commands apply to it
    before = await dump(service)
    refused = []
    for name, words, admin in TYPED:
        text = words.replace("N", junk)
        args = {"what": text} if name in ("tournament", "season", "clock") else {}
        if name in ("history",):
            args = {"page": text}
        elif name == "top":
            game, board = text.split(" ", 1)
            args = {"game": game, "board": board}
        elif name in ("log", "replay", "review"):
            args = {"game": text}
        where = HOME if name in ("tournament", "season") else CHAT
        try:
            await service.run_command(name, Call(where, ANN, args, is_admin=admin))
        except UserError as exc:
            refused.append((name, text, str(exc.msg)))
            continue
        raise AssertionError(f"/escape {name} {text} was taken")
    for option in STARTS:
        with pytest.raises(UserError):
            await service.start(HOME, BOB, "ghosts18", option.replace("N", junk))
    assert len(refused) == len(TYPED)
    assert await dump(service) == before, "a refused number stored something"
