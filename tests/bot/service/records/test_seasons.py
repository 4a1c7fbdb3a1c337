"""Seasons of a server's ratings through the service (README and docs/community.md:
Seasons): `/escape season`, `top` and `stats` showing the season and all time, and a
season's end ended and posted once by the timer loop while two processes share one store
(SQLite and PostgreSQL). Injected clocks, seeded games."""

from __future__ import annotations

import pytest

from bot.service import UserError
from bot.service.records.seasons import end_of, parse_length
from tests.bot.conftest import on_both
from tests.bot.service.clock.test_timers import ANN, BOB, CHAT, CY, DAY, T0, Bot, FakeClock
from tests.bot.service.records.test_memory import begin, play

OTHER = CHAT.__class__("test", "chan-9", "", "guild-2")


async def season(bot: Bot, text: str, user=CY, admin: bool = True) -> str:
    [reply] = await bot.service.season(CHAT, user, text, is_admin=admin)
    return reply.text


async def top(bot: Bot, which: str | None = None, chat=CHAT) -> str:
    [reply] = await bot.service.top(chat, "hidden_castle", which)
    return reply.text


@pytest.fixture
async def two(db_target):
    """Two bot processes on one store, one clock."""
    clock = FakeClock()
    first, second = Bot(db_target, clock), Bot(db_target, clock)
    await first.open()
    await second.open()
    yield first, second
    await first.close()
    await second.close()


def test_lengths_are_read_or_refused_with_how_to_write_them():
    assert [parse_length(t) for t in ("3mo", "3 months", "2w", "30d", "1 day")] == [
        "3mo",
        "3mo",
        "2w",
        "30d",
        "1d",
    ]
    for junk in ("", "3", "soon", "3 fortnights", "0d", "13mo", "-2w", "1e3d"):
        with pytest.raises(UserError):
            parse_length(junk)
    # calendar months in UTC: from 31 January, a month ends on the last of February
    jan31 = 1_800_000_000.0 - (1_800_000_000.0 % DAY)  # a midnight; its date below
    assert end_of(jan31, "2w") == jan31 + 14 * DAY
    import calendar

    start = float(calendar.timegm((2027, 1, 31, 12, 0, 0)))
    assert end_of(start, "1mo") == float(calendar.timegm((2027, 2, 28, 12, 0, 0)))


@on_both
async def test_a_season_counts_games_in_the_season_and_all_time(two):
    bot, _ = two
    said = await season(bot, "")
    assert "without seasons" in said
    before = await begin(bot.service, "hidden_castle")  # rated before any season
    await play(bot.service, CHAT)
    said = await season(bot, "start 2w")
    assert "season 1 runs until" in said and "Cy" in said
    assert "Season 1 of this chat: 2 weeks" in await season(bot, "", ANN, admin=False)
    text = await top(bot)
    assert (
        "Season 1 (until" in text
        and "No game of Escape from the Hidden Castle has finished in this season yet" in text
    )
    assert "All time" in text and "Ann" in text
    await begin(bot.service, "hidden_castle")
    await play(bot.service, CHAT, seed=9)
    s = await bot.store.running_season("test", "guild-1")
    assert s.games == 1
    rows = await bot.store.season_leaderboard("test", "guild-1", 1, "hidden_castle")
    assert {r.user_id: r.played for r in rows} == {"u-ann": 1, "u-bob": 1}
    all_time = await bot.store.ratings_of("test", "guild-1", "hidden_castle", ["u-ann"])
    assert all_time["u-ann"].played == 2
    [stats] = await bot.service.stats(CHAT, ANN)
    assert (
        ", 2 games, " in stats.text
        and "; season 1: rating " in stats.text
        and ", 1 game, " in stats.text
    )
    # the season's board alone, all time alone, and another server sees neither
    assert "All time" not in await top(bot, "season") and "Season 1" not in await top(bot, "all")
    assert "No game" in await top(bot, None, OTHER)
    # an admin ends it: the next begins at once, empty; season 1 stays readable
    said = await season(bot, "end")
    assert "ended season 1; season 2 begins" in said
    assert "Season 2 (until" in await top(bot) and "Ann" in await top(bot, "season 1")
    posted = [r.text for _, r in bot.sent if "Season 1 of this chat has ended" in str(r.text)]
    assert posted == ["Season 1 of this chat has ended (1 rated game)."]
    # off: no season runs; ratings are all time only
    assert "all time only from now on" in await season(bot, "off")
    assert await bot.store.running_season("test", "guild-1") is None
    assert "its last was season 2" in await season(bot, "", BOB, admin=False)
    assert before  # the first game stays rated all time only


@on_both
async def test_bad_season_commands_are_refused_and_change_nothing(two):
    bot, _ = two
    for text, admin, words in (
        ("start 3mo", False, "Only an admin"),
        ("end", False, "Only an admin"),
        ("start 3 fortnights", True, "written like 2w, 30d or 3mo"),
        ("start 13mo", True, "from 1 day to 12 months"),
        ("frobnicate", True, "/escape season start 3mo"),
        ("end", True, "No season is running here"),
    ):
        with pytest.raises(UserError) as refused:
            await season(bot, text, ANN, admin)
        assert words in str(refused.value.msg), text
    assert await bot.store.last_season("test", "guild-1") is None
    await season(bot, "start 30d")
    with pytest.raises(UserError, match="Season 1 is running"):
        await season(bot, "start 2w")
    for which in ("season 99", "season x", "sideways", "season 1 2"):
        with pytest.raises(UserError):
            await top(bot, which)


@on_both
async def test_a_seasons_end_is_ended_and_posted_once_by_two_processes(two):
    first, second = two
    await season(first, "start 1d")
    await begin(first.service, "hidden_castle")
    await play(first.service, CHAT)
    clock = first.clock
    clock.t = T0 + DAY - 1
    await first.timers.tick()
    await second.timers.tick()
    assert (await first.store.running_season("test", "guild-1")).number == 1
    clock.t = T0 + DAY + 5
    await first.timers.tick()
    await second.timers.tick()
    await first.timers.tick()
    posts = [r for b in two for _, r in b.sent if "has ended" in str(r.text)]
    assert len(posts) == 1 and "Season 1 of this chat has ended (1 rated game)." in posts[0].text
    boards = [r for b in two for _, r in b.sent if "final standings of season 1" in str(r.text)]
    assert len(boards) == 1 and "Ann" in boards[0].text and "Bob" in boards[0].text
    running = await first.store.running_season("test", "guild-1")
    assert running.number == 2 and running.starts_at == T0 + DAY and running.ends_at == T0 + 2 * DAY
    ended = await first.store.season("test", "guild-1", 1)
    assert ended.status == "ended" and ended.posted_at is not None
    # a season with no game ends too, and says so, once
    clock.t = T0 + 2 * DAY + 1
    await second.timers.tick()
    await first.timers.tick()
    empty = [
        r.text for b in two for _, r in b.sent if "Season 2 of this chat has ended" in str(r.text)
    ]
    assert len(empty) == 1 and "No rated game finished in it" in empty[0]


async def test_a_season_whose_chat_cannot_be_reached_is_posted_at_a_later_scan(tmp_path):
    clock = FakeClock()
    bot = await Bot(tmp_path / "escape.sqlite3", clock).open()
    try:
        await season(bot, "start 1d")
        down = True

        async def deliver(chat, replies):
            if down:
                raise ConnectionError("the platform is down")
            bot.sent += [(chat, r) for r in replies]

        bot.service.add_notifier("test", deliver)
        clock.t = T0 + DAY + 1
        await bot.timers.tick()
        assert not bot.sent and (await bot.store.season("test", "guild-1", 1)).posted_at is None
        down = False
        clock.t += 400  # after the posting process's lease
        await bot.timers.tick()
        await bot.timers.tick()
        assert [r.text for _, r in bot.sent].count(
            "Season 1 of this chat has ended (0 rated games). No rated game finished in it."
        ) == 1
    finally:
        await bot.close()


async def test_a_process_that_died_while_posting_leaves_the_post_to_another_after_its_lease(
    tmp_path,
):
    """A process claimed the ended season's post and was killed before delivering it: no
    other process posts it within the claim's lease (no double post), one does after it."""
    from bot.service.records.seasons import LEASE

    clock = FakeClock()
    bot = await Bot(tmp_path / "escape.sqlite3", clock).open()
    try:
        await season(bot, "start 1d")
        s = await bot.store.running_season("test", "guild-1")
        clock.t = T0 + DAY + 1
        assert await bot.store.end_season(s, clock.t, None)
        ended = await bot.store.season("test", "guild-1", 1)
        assert await bot.store.claim_season_post(ended, clock.t, LEASE)  # ...and then killed
        await bot.timers.tick()
        clock.t += LEASE - 5
        await bot.timers.tick()
        assert not [r for _, r in bot.sent if "has ended" in str(r.text)]
        clock.t += 10
        await bot.timers.tick()
        await bot.timers.tick()
        assert (
            len([r for _, r in bot.sent if "Season 1 of this chat has ended" in str(r.text)]) == 1
        )
    finally:
        await bot.close()
