"""Bot seats in the service (issue 15): start options, lobby buttons, bots acting at once
(reaction windows too) with one board for a chain of bot turns, replay without AI, the
fallback when the search fails, and `timeout=ai` at a deadline. Budgets are tiny."""

from __future__ import annotations

import logging
import random

import pytest

import bot.service.tables.bot_seats as bots
from bot.service import GameService, UserError
from engines import REGISTRY
from tests.bot.conftest import ANN, BOB, CHAT
from tests.bot.service.clock.test_timers import DAY, T0, FakeClock


@pytest.fixture
async def service(store):
    return GameService(store, seed_source=lambda: 1234, pictures=False, ai_scale=0.02)


async def play_as_human(service, user, rng, limit=400):
    """The human plays random legal moves until the game ends; every reply checked."""
    boards = []
    for _ in range(limit):
        row = await service.live(CHAT)
        if row is None:
            return boards
        choices = await service.choices(CHAT, user)
        assert choices, "the game waits for a human, never for a bot"
        replies = await service.move(CHAT, user, rng.choice(choices)[0])
        boards += [r for r in replies if r.kind == "board"]
        assert len([r for r in replies if r.kind == "board"]) == 1  # one board a request
    raise AssertionError("the game did not end")


async def replay(store, row):
    game = REGISTRY[row.game]
    state = game.setup([s.name for s in row.seats], row.options)
    for entry in await store.log(row.id):
        state, _ = game.apply(state, entry.seat, entry.action)
    return game.dump(state)


async def test_one_human_and_a_bot_start_at_once_and_play_to_the_end(service, store):
    [board] = await service.start(CHAT, ANN, "ghosts18", "bots=1 level=hard variant=short")
    assert board.kind == "board" and "Bot 1 (hard)" in board.text
    row = await service.live(CHAT)
    assert row.status == "active"
    assert [(s.name, s.kind) for s in row.seats] == [("Ann", "human"), ("Bot 1 (hard)", "ai")]
    assert row.options == {"variant": "short"}
    assert board.mention == [ANN]
    boards = await play_as_human(service, ANN, random.Random(5))
    assert boards[-1].final
    [row] = await store.sessions_in_scope("test", "guild-1", ("finished",))
    log = await store.log(row.id)
    bot_moves = [e for e in log if e.seat == 1]
    assert bot_moves and all(e.user_id is None for e in bot_moves)
    assert any("Bot 1 (hard)" in ev["text"] for e in bot_moves for ev in e.events)
    assert await replay(store, row) == row.state  # the log replays with no AI at all


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("bots=9", "bots can be 0 to 1"),
        ("bots=-1", "bots can be 0 to 1"),
        ("bots=two", "bots can be 0 to 1"),
        ("bots=1 level=genius", "easy, normal, hard"),
    ],
)
async def test_bad_bot_options_name_what_is_allowed_and_create_nothing(service, options, message):
    with pytest.raises(UserError, match=message):
        await service.start(CHAT, ANN, "ghosts18", options)
    assert await service.live(CHAT) is None


async def test_bots_that_would_overfill_the_table_are_refused(service):
    with pytest.raises(UserError, match=r"seats 1 to 4 players .* bots can be 0 to 3"):
        await service.start(CHAT, ANN, "dark_castle", "bots=4")
    assert await service.live(CHAT) is None


async def test_lobby_buttons_add_and_remove_bots_and_a_full_table_begins(service):
    [lobby] = await service.start(CHAT, ANN, "castle_doors", "level=easy")
    labels = {c.label: c.data for c in lobby.choices}
    assert "Add a bot" in labels and "Remove a bot" not in labels
    [lobby] = await service.press(CHAT, ANN, labels["Add a bot"])
    assert "adds Bot 1 (easy)" in lobby.text
    labels = {c.label: c.data for c in lobby.choices}
    [lobby] = await service.press(CHAT, ANN, labels["Remove a bot"])
    assert "removes Bot 1 (easy)" in lobby.text
    row = await service.live(CHAT)
    assert [s.kind for s in row.seats] == ["human"]
    with pytest.raises(UserError, match="no bot"):
        await service.press(CHAT, ANN, labels["Remove a bot"])
    await service.join(CHAT, BOB)
    await service.press(CHAT, BOB, labels["Add a bot"])
    replies = await service.press(CHAT, ANN, labels["Add a bot"])  # the fourth seat: it begins
    assert any(r.kind == "board" for r in replies)
    row = await service.live(CHAT)
    assert row.status == "active"
    assert [s.name for s in row.seats] == ["Ann", "Bob", "Bot 1 (easy)", "Bot 2 (easy)"]


async def test_bots_answer_reaction_windows_and_a_whole_game_ends(service, store):
    """Haunted House: cats and ghosts out of turn are bots' decisions too."""
    await service.start(CHAT, ANN, "haunted_house", "bots=2")
    await play_as_human(service, ANN, random.Random(2), limit=600)
    [row] = await store.sessions_in_scope("test", "guild-1", ("finished",))
    assert await replay(store, row) == row.state


async def test_dark_castle_bots_leave_group_decisions_to_the_human(service, store):
    await service.start(CHAT, ANN, "dark_castle", "bots=2")
    rng = random.Random(3)
    for _ in range(60):
        row = await service.live(CHAT)
        if row is None:
            break
        game = REGISTRY[row.game]
        state = game.load(row.state)
        acting = game.to_act(state)
        assert 0 in acting  # the human always has a say when the board waits
        choices = await service.choices(CHAT, ANN)
        await service.move(CHAT, ANN, rng.choice(choices)[0])
    log = await store.log((await store.sessions_in_scope("test", "guild-1"))[0].id)
    assert any(e.seat in (1, 2) for e in log), "the bots made their own decisions"


async def test_a_bot_decision_is_seeded_by_the_session(store, tmp_path):
    """Two tables with the same seed and the same human moves get the same bot moves."""
    from bot.store import Store

    other = await Store.open(tmp_path / "other.sqlite3")
    try:
        logs = []
        for s in (store, other):
            service = GameService(s, seed_source=lambda: 99, pictures=False, ai_scale=0.02)
            await service.start(CHAT, ANN, "castle_doors", "bots=1")
            rng = random.Random(1)
            for _ in range(12):
                choices = await service.choices(CHAT, ANN)
                await service.move(CHAT, ANN, rng.choice(choices)[0])
            row = await service.live(CHAT)
            logs.append([(e.seat, e.action) for e in await s.log(row.id)])
        assert logs[0] == logs[1]
    finally:
        await other.close()


async def test_a_failed_search_plays_the_default_move_and_says_so(service, monkeypatch, caplog):
    def broken(*args):
        raise RuntimeError("search exploded")

    monkeypatch.setattr(bots, "decide", broken)
    caplog.set_level(logging.ERROR, logger="bot.service.tables.bot_seats")
    await service.start(CHAT, ANN, "ghosts18", "bots=1")
    await service.move(CHAT, ANN, "place b1")  # Bob-the-bot places two ghosts by default
    row = await service.live(CHAT)
    game = REGISTRY["ghosts18"]
    assert game.load(row.state).placed == 3
    assert "playing the default move" in caplog.text


async def test_timeout_ai_plays_a_late_turn_and_the_seat_stays_the_players(tmp_path):
    from bot.store import Store

    clock = FakeClock()
    store = await Store.open(tmp_path / "t.sqlite3", clock=clock)
    try:
        service = GameService(
            store, seed_source=lambda: 7, pictures=False, clock=clock, ai_scale=0.02
        )
        sent = []

        async def deliver(chat, replies):
            sent.extend(replies)

        service.add_notifier("test", deliver)
        await service.start(CHAT, ANN, "hidden_castle", "timeout=ai level=easy")
        await service.join(CHAT, BOB)
        await service.begin(CHAT, ANN)
        row = await service.live(CHAT)
        clock.t = T0 + 2 * DAY
        replies = await service.time_up(row.id)
        [board] = [r for r in replies if r.kind == "board"]
        assert "Time is up for Ann: the bot plays" in board.text
        log = await store.log(row.id)
        assert log[-1].user_id is None or log[-1].seat == -1
        row = await service.live(CHAT)
        assert [s.kind for s in row.seats] == ["human", "human"]
        # Ann takes her seat back by acting on her next turn
        while True:
            choices = await service.choices(CHAT, ANN)
            if choices:
                await service.move(CHAT, ANN, choices[0][0])
                break
            await service.move(CHAT, BOB, (await service.choices(CHAT, BOB))[0][0])
        assert (await store.log(row.id))[-1].user_id in (ANN.id, None)
    finally:
        await store.close()


async def test_the_terminal_takes_bots_among_the_players(tmp_path):
    from bot.console import Terminal
    from bot.store import Store
    from tests.bot.console.test_console import Script

    store = await Store.open(tmp_path / "t.sqlite3")
    output: list[str] = []
    script = Script(seed=2)
    service = GameService(store, seed_source=lambda: 5, pictures=False, ai_scale=0.02)
    terminal = Terminal(service, tmp_path / "pics", output.append, script)
    script.terminal = terminal
    try:
        assert await terminal.play("ghosts18", ["Ann", "bot"], "level=easy variant=short") == 0
        [row] = await store.sessions_in_scope("console", "terminal", ("finished",))
    finally:
        await store.close()
    text = "\n".join(output)
    assert "Bot 1 (easy)" in text and " wins with " in text
    assert [s.kind for s in row.seats] == ["human", "ai"]


async def test_the_last_human_leaving_closes_a_table_of_bots(service):
    await service.start(CHAT, ANN, "hidden_castle")
    await service.add_bot(CHAT, ANN)
    [reply] = await service.leave(CHAT, ANN)
    assert "closed" in reply.text
    assert await service.live(CHAT) is None


async def test_timeout_ai_plays_a_solo_dark_castle_party_to_its_end(tmp_path):
    """A solo Dark Castle whose player never comes back: every decision is the party's (no
    other human is seated to make it), so at each deadline the AI makes them, and the castle
    ends (the party never shuffles items for ever)."""
    from bot.store import Store

    clock = FakeClock()
    store = await Store.open(tmp_path / "t.sqlite3", clock=clock)
    try:
        service = GameService(
            store, seed_source=lambda: 7, pictures=False, clock=clock, ai_scale=0.02
        )
        await service.start(CHAT, ANN, "dark_castle", "timeout=ai")
        row = await service.live(CHAT)
        if row.status == "lobby":
            await service.begin(CHAT, ANN)
        row = await service.live(CHAT)
        for day in range(1, 400):
            clock.t = T0 + 2 * DAY * day
            await service.time_up(row.id)
            if await service.live(CHAT) is None:
                break
        else:
            raise AssertionError("the castle did not end")
        assert (await store.session(row.id)).status == "finished"
        log = await store.log(row.id)
        moves = [e for e in log if e.seat >= 0]
        assert len(moves) > 20 and all(e.user_id is None for e in moves)  # all the AI's
        assert {e.action.split()[0] for e in moves} >= {"pick", "turn"}
    finally:
        await store.close()
