"""The daily castle through the service (docs/community.md: The daily castle): one castle
and pack mix a day for every party, its day's and month's boards per server, a person
plays each day's castle once, and bad options refused with nothing opened. An injected
clock; the parties' moves seeded."""

from __future__ import annotations

import random

import pytest

from bot.service import ChatRef, UserError, UserRef
from bot.service.base import daily_castle as D
from engines import CHANCE, REGISTRY
from engines.dark_castle import cards
from tests.bot.conftest import on_both
from tests.bot.service.clock.test_timers import ANN, BOB, CHAT, CY, DAY, T0, Bot, FakeClock
from tests.bot.service.records.test_memory import play

OTHER = ChatRef("test", "chan-9", "", "guild-2")
DEE = UserRef("test", "u-dee", "Dee")
G = REGISTRY["dark_castle"]


@pytest.fixture
async def bot(db_target):
    b = await Bot(db_target, FakeClock()).open()
    yield b
    await b.close()


async def castle(bot: Bot, sid: int) -> dict[str, list[str]]:
    """The castle a table met, from its log: its start card, chapters in order, boss."""
    met: dict[str, list[str]] = {"start": [], "chapter": [], "boss": []}
    for e in await bot.store.log(sid):
        if e.seat != CHANCE:
            continue
        for kind, deck in (
            ("start", cards.STARTS),
            ("chapter", cards.CHAPTERS),
            ("boss", cards.BOSSES),
        ):
            if e.action in deck:
                met[kind].append(e.action)
    return met


async def test_every_party_meets_the_days_castle_and_its_result_goes_on_the_boards(bot):
    day = D.day_of(T0)
    await bot.service.start(CHAT, ANN, "dark_castle", "daily=on")
    await bot.service.join(CHAT, BOB)
    [board, *_] = await bot.service.begin(CHAT, ANN)
    one = board.session_id
    await bot.service.start(OTHER, CY, "dark_castle", "daily=on")  # a party of one
    [board, *_] = await bot.service.begin(OTHER, CY)
    two = board.session_id
    rows = [await bot.store.session(sid) for sid in (one, two)]
    assert rows[0].seed == rows[1].seed == D.seed_of(day)
    assert {k: rows[0].options.get(k) for k in D.CHOSEN_BY_THE_DAY} == D.packs_of(day)
    assert rows[0].options == rows[1].options
    rng = random.Random(1)
    while (row := await bot.service.live(CHAT)) is not None:  # the party's moves, seeded
        state = G.load(row.state)
        seat = G.to_act(state)[0]
        user = UserRef("test", row.seats[seat].user_id, row.seats[seat].name)
        replies = await bot.service.move(CHAT, user, rng.choice(G.legal_actions(state, seat)))
    [final] = [r for r in replies if r.kind == "board" and r.final]
    assert f"Daily castle of {day}: " in final.text and "place 1 of 1 here today" in final.text
    await play(bot.service, OTHER, seed=2)
    met = [await castle(bot, sid) for sid in (one, two)]
    assert met[0]["start"] == met[1]["start"] and len(met[0]["start"]) == 1
    # the same chapters in the same order, as far as both parties got
    shorter = min(len(met[0]["chapter"]), len(met[1]["chapter"]))
    assert shorter >= 1 and met[0]["chapter"][:shorter] == met[1]["chapter"][:shorter]
    # each result on its own server's board of the day and of the month
    [daily] = await bot.service.top(CHAT, "dark_castle", "daily")
    assert (
        f"The daily castle of {day} on this chat" in daily.text and "1. Ann, Bob · " in daily.text
    )
    assert "Cy" not in daily.text
    [month] = await bot.service.top(OTHER, "month")  # no game named: Dark Castle's
    assert f"The daily castles of {day[:7]}" in month.text and "1. Cy · 1 · " in month.text
    result = await bot.store.daily_result(one)
    assert result.party == ["Ann", "Bob"] and result.steps > 0 and result.chapters >= 1
    # another day, another castle
    bot.clock.t = T0 + DAY
    await bot.service.start(CHAT, ANN, "dark_castle", "daily=on")
    row = await bot.service.live(CHAT)
    assert row.seed == D.seed_of(D.day_of(T0 + DAY)) != rows[0].seed


@on_both
async def test_a_person_plays_each_days_castle_once(bot):
    day = D.day_of(T0)
    await bot.service.start(CHAT, ANN, "dark_castle", "daily=on")
    await bot.service.join(CHAT, BOB)
    await bot.service.begin(CHAT, ANN)
    await play(bot.service, CHAT, seed=3)
    # the same players again: refused, clearly, and nothing opened
    with pytest.raises(UserError) as refused:
        await bot.service.start(CHAT, ANN, "dark_castle", "daily=on")
    assert f"Ann has played the daily castle of {day} already" in str(refused.value.msg)
    assert await bot.service.live(CHAT) is None
    # in another server, Bob may not join a new party's table either
    await bot.service.start(OTHER, CY, "dark_castle", "daily=on")
    with pytest.raises(UserError, match="Bob has played the daily castle"):
        await bot.service.join(OTHER, BOB)
    row = await bot.service.live(OTHER)
    assert [s.user_id for s in row.seats] == ["u-cy"]
    # a table closed before it began spends nobody's day
    await bot.service.abort(OTHER, CY)
    await bot.service.start(OTHER, CY, "dark_castle", "daily=on")
    await bot.service.join(OTHER, DEE)
    await bot.service.begin(OTHER, CY)
    assert (await bot.service.live(OTHER)).status == "active"
    assert sorted(
        await bot.store.daily_played(day, "test", ["u-ann", "u-bob", "u-cy", "u-dee"])
    ) == ["u-ann", "u-bob", "u-cy", "u-dee"]
    # the same person on another platform is another person
    elsewhere = ChatRef("other", "c-1", "", "s-1")
    await bot.service.start(elsewhere, UserRef("other", "u-ann", "Ann"), "dark_castle", "daily=on")


@on_both
async def test_two_tables_of_one_person_cannot_both_begin(bot):
    """Ann opens the day's castle in two servers (neither begun): the first to begin
    spends her day; the second is refused as it begins, and nothing of it starts."""
    await bot.service.start(CHAT, ANN, "dark_castle", "daily=on")
    await bot.service.start(OTHER, ANN, "dark_castle", "daily=on")
    await bot.service.begin(CHAT, ANN)
    with pytest.raises(UserError, match="Ann has played the daily castle"):
        await bot.service.begin(OTHER, ANN)
    assert (await bot.service.live(OTHER)).status == "lobby"


@pytest.mark.parametrize(
    ("game", "options", "words"),
    [
        ("ghosts18", "daily=on", "Only Dark Castle has a daily castle"),
        ("dark_castle", "daily=maybe", "Option daily cannot be 'maybe'"),
        ("dark_castle", "daily=on cult=on", "cult= cannot be set"),
        ("dark_castle", "daily=on castle=pack", "castle= cannot be set"),
        ("dark_castle", "daily=on bots=1", "bots= cannot be set"),
        ("dark_castle", "daily=on hints=on", "without hints or computer turns"),
        ("dark_castle", "daily=on timeout=ai", "without hints or computer turns"),
    ],
)
async def test_bad_daily_options_are_refused_and_open_nothing(bot, game, options, words):
    with pytest.raises(UserError) as refused:
        await bot.service.start(CHAT, ANN, game, options)
    assert words in str(refused.value.msg)
    assert await bot.service.live(CHAT) is None


async def test_bad_board_names_are_refused(bot):
    for which in ("daily 2026-13-01", "daily tomorrow", "month 2026-13", "month x"):
        with pytest.raises(UserError, match="written like"):
            await bot.service.top(CHAT, "dark_castle", which)
    with pytest.raises(UserError, match="Only Dark Castle has a daily castle"):
        await bot.service.top(CHAT, "ghosts18", "daily")
    [empty] = await bot.service.top(CHAT, "dark_castle", "daily")
    assert "No party has finished this day's castle here yet" in empty.text


def test_the_days_castle_comes_from_the_date_alone():
    assert D.seed_of("2027-01-05") == D.seed_of("2027-01-05") != D.seed_of("2027-01-06")
    assert D.packs_of("2027-01-05") == D.packs_of("2027-01-05")
    days = {str(D.packs_of(f"2027-01-{d:02}")) for d in range(1, 29)}
    assert len(days) > 1  # the mix changes from day to day
