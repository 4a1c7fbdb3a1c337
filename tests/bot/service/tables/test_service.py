"""The service: lobbies, seats, moves, buttons, chance and bad input, on a real SQLite file."""

from __future__ import annotations

import asyncio
import random
from dataclasses import asdict, dataclass

import pytest

from bot.service import ChatRef, GameService, UserError, UserRef
from bot.service.base import buttons as B
from bot.service.base.chance import draw, uniform
from engines import CHANCE, REGISTRY, Event, Game, Result
from tests.bot.conftest import ANN, BOB, CHAT, CY


async def started(service: GameService, game: str = "ghosts18", options: str = "") -> int:
    await service.start(CHAT, ANN, game, options)
    replies = await service.join(CHAT, BOB)  # a full 2-player table begins by itself
    assert replies[0].kind == "board"
    return replies[0].session_id


async def snapshot(service: GameService, session_id: int):
    row = await service.store.session(session_id)
    return row.version, row.state, [e.action for e in await service.store.log(session_id)]


# ----- lobby -------------------------------------------------------------------------
async def test_start_opens_a_lobby_with_the_creator_seated(service):
    [reply] = await service.start(CHAT, ANN, "ghosts18", "variant=short")
    assert reply.kind == "lobby" and "Ann" in reply.text and "variant=short" in reply.text
    assert [c.label for c in reply.choices] == ["Join", "Leave", "Add a bot"]
    row = await service.live(CHAT)
    assert row.status == "lobby" and [s.name for s in row.seats] == ["Ann"]
    assert row.options == {"variant": "short"}


@pytest.mark.parametrize(
    ("game", "options", "message"),
    [
        ("chess", "", "no game 'chess'"),
        ("ghosts18", "variant=long", "choose one of: standard, short"),
        ("ghosts18", "speed=3", "no option 'speed'"),
        ("ghosts18", "variant", "name=value"),
    ],
)
async def test_bad_start_requests_name_what_exists_and_create_nothing(
    service, game, options, message
):
    with pytest.raises(UserError, match=message):
        await service.start(CHAT, ANN, game, options)
    assert await service.live(CHAT) is None


async def test_one_game_per_chat_but_threads_are_separate(service):
    await service.start(CHAT, ANN, "ghosts18")
    with pytest.raises(UserError, match="already"):
        await service.start(CHAT, BOB, "ghosts18")
    thread = ChatRef(CHAT.platform, CHAT.chat, "thread-7", CHAT.scope)
    [reply] = await service.start(thread, BOB, "ghosts18")
    assert reply.kind == "lobby"


async def test_join_leave_and_a_full_table_begins(service):
    await service.start(CHAT, ANN, "ghosts18")
    with pytest.raises(UserError, match="already have a seat"):
        await service.join(CHAT, ANN)
    with pytest.raises(UserError, match="needs 2"):
        await service.begin(CHAT, ANN)
    [board] = await service.join(CHAT, BOB)
    assert board.kind == "board" and board.mention == [ANN]
    with pytest.raises(UserError, match="already begun"):
        await service.join(CHAT, CY)
    with pytest.raises(UserError, match="seats are fixed"):
        await service.leave(CHAT, BOB)


async def test_last_player_leaving_closes_the_table(service):
    await service.start(CHAT, ANN, "ghosts18")
    [reply] = await service.leave(CHAT, ANN)
    assert "closed" in reply.text and await service.live(CHAT) is None


async def test_abort_only_by_creator_or_admin(service):
    await started(service)
    with pytest.raises(UserError, match="Only the player who started"):
        await service.abort(CHAT, BOB)
    [reply] = await service.abort(CHAT, BOB, is_admin=True)
    assert reply.final and await service.live(CHAT) is None


# ----- moves -------------------------------------------------------------------------
async def test_a_move_is_stored_and_the_board_names_who_is_next(service):
    sid = await started(service)
    replies = await service.move(CHAT, ANN, "Place  B1")  # canonicalised
    board = replies[0]
    assert "Ann places a red ghost on b1" in board.text and board.mention == [BOB]
    assert all(c.for_user == BOB.id for c in board.choices)
    _, state, log = await snapshot(service, sid)
    assert log == ["place b1"] and state["board"] == {"b1": [0, "red"]}


@pytest.mark.parametrize(
    ("user", "action", "message"),
    [
        (BOB, "place b1", "not your turn"),
        (CY, "place b1", "not playing in this game"),
        (ANN, "xyzzy", "not allowed now"),
        (ANN, "place b2", "carpet of its own colour"),
        (ANN, "", "Empty action"),
        (ANN, "place b1; drop table sessions", "not allowed"),
    ],
)
async def test_bad_moves_are_refused_and_change_nothing(service, user, action, message):
    sid = await started(service)
    before = await snapshot(service, sid)
    with pytest.raises(UserError, match=message):
        await service.move(CHAT, user, action)
    assert await snapshot(service, sid) == before


async def test_buttons_act_once_and_stale_or_forged_ones_are_refused(service):
    sid = await started(service)
    board = (await service.board(CHAT))[0]
    first = board.choices[0]
    before = await snapshot(service, sid)
    with pytest.raises(UserError, match="another player"):
        await service.press(CHAT, BOB, first.data)  # Ann's button, Bob's click
    for forged in ["", "a:1", "a:x:1:0:0", "z:1", "a:1:1:0:0:0", "a:" + "9" * 40, "j:1;rm"]:
        with pytest.raises(UserError):
            await service.press(CHAT, ANN, forged)
    with pytest.raises(UserError, match="no game in this chat"):
        await service.press(CHAT, ANN, B.Act(sid + 50, 0, 0, 0).data)
    with pytest.raises(UserError, match="no longer offered"):
        await service.press(CHAT, ANN, B.Act(sid, before[0], 0, 999).data)
    assert await snapshot(service, sid) == before
    await service.press(CHAT, ANN, first.data)
    after = await snapshot(service, sid)
    with pytest.raises(UserError, match="moved on"):
        await service.press(CHAT, ANN, first.data)  # the same button again: stale
    assert await snapshot(service, sid) == after
    other_chat = ChatRef(CHAT.platform, "elsewhere")
    with pytest.raises(UserError, match="no game in this chat"):
        await service.press(other_chat, BOB, B.Act(sid, after[0], 1, 0).data)


async def test_two_racing_clicks_apply_once(service):
    sid = await started(service)
    board = (await service.board(CHAT))[0]
    results = await asyncio.gather(
        service.press(CHAT, ANN, board.choices[0].data),
        service.press(CHAT, ANN, board.choices[1].data),
        return_exceptions=True,
    )
    assert sum(isinstance(r, UserError) for r in results) == 1
    assert len((await snapshot(service, sid))[2]) == 1


async def test_a_stale_version_on_a_typed_move_is_refused(service):
    sid = await started(service)
    version = (await service.store.session(sid)).version
    await service.move(CHAT, ANN, "place b1", version=version)
    with pytest.raises(UserError, match="moved on"):
        await service.move(CHAT, BOB, "place a1", version=version)


async def test_a_locked_database_gives_a_message_and_loses_no_earlier_move(service, store):
    import sqlite3

    sid = await started(service)
    await service.move(CHAT, ANN, "place b1")
    path = (await (await store._conn.execute("PRAGMA database_list")).fetchone())[2]
    blocker = sqlite3.connect(path, timeout=0.1, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(UserError, match="could not save"):
            await service.move(CHAT, BOB, "place a1")
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert (await snapshot(service, sid))[2] == ["place b1"]
    await service.move(CHAT, BOB, "place a1")  # and the game goes on
    assert (await snapshot(service, sid))[2] == ["place b1", "place a1"]


async def test_a_whole_game_to_a_win_with_a_picture_after_every_move(drawn):
    service = drawn
    sid = await started(service, options="variant=short")
    rng = random.Random(4)
    board = (await service.board(CHAT))[0]
    users = {ANN.id: ANN, BOB.id: BOB}
    for _ in range(3000):
        if board.final:
            break
        mine = [c for c in board.choices if c.for_user]
        choice = mine[int(rng.random() * len(mine))]
        replies = await service.press(CHAT, users[choice.for_user], choice.data)
        board = replies[0]
        assert board.picture is not None and board.picture.png.startswith(b"\x89PNG")
        assert board.picture.alt
    assert board.final and "wins" in board.text
    assert [c.label for c in board.choices] == ["Rematch", "Replay", "Review"]  # no moves any more
    row = await service.store.session(sid)
    assert row.status == "finished" and row.result["ranking"]
    with pytest.raises(UserError):
        await service.move(CHAT, ANN, "pass")
    with pytest.raises(UserError, match="over"):
        await service.press(CHAT, ANN, B.Act(sid, row.version, 0, 0).data)


async def test_views_logs_and_rules(service):
    await started(service)
    await service.move(CHAT, ANN, "place b1")
    [view] = await service.private_view(CHAT, BOB)
    assert view.to == BOB and view.private
    with pytest.raises(UserError, match="not playing"):
        await service.private_view(CHAT, CY)
    [log] = await service.history(CHAT, ANN)
    assert "Ann places a red ghost on b1" in log.text and not log.private
    rules = await service.rules("ghosts18")
    assert "HOUSE DECISIONS" in rules.text
    assert "ghosts18" in service.catalogue().text
    games = await service.games_here("test", "guild-1")
    assert "18 Ghosts" in games.text and "waiting for Bob" in games.text
    assert ("place a1", "Place a blue ghost on a1") in await service.choices(CHAT, BOB)
    assert await service.choices(CHAT, CY) == []


# ----- chance ------------------------------------------------------------------------
@dataclass
class DiceState:
    names: list
    total: int = 0
    rolled: bool = False
    rolls: int = 0


class DiceRace(Game):
    """A tiny test game: roll a die each turn; first to 10 pips wins."""

    id = "dice_race"
    title = "Dice race"
    min_players = max_players = 2
    summary = rules_text = "Roll to ten."

    def new_state(self, names, options):
        return DiceState(list(names))

    def to_act(self, s):
        if s.total >= 10:
            return []
        return [CHANCE] if not s.rolled else [s.rolls % 2]

    def chance_outcomes(self, s):
        return [(str(n), 1 / 6) for n in range(1, 7)]

    def _legal(self, s, seat):
        return ["go"]

    def _apply(self, s, seat, action):
        if seat == CHANCE:
            s.total += int(action)
            s.rolled = True
            return [Event(f"rolled {action}")]
        s.rolled = False
        s.rolls += 1
        return [Event("go")]

    def view(self, s, seat):
        return {"names": s.names, "total": s.total}

    def result(self, s):
        return Result([[0, 1]], {}, "done") if s.total >= 10 else None

    def dump(self, s):
        return asdict(s)

    def load(self, d):
        return DiceState(**d)


async def test_chance_is_drawn_from_the_session_seed_and_logged_with_the_move(service, monkeypatch):
    monkeypatch.setitem(REGISTRY, "dice_race", DiceRace())
    await service.start(CHAT, ANN, "dice_race")
    [board] = await service.join(CHAT, BOB)
    sid = board.session_id
    await service.move(CHAT, ANN, "go")
    log = await service.store.log(sid)
    assert [e.seat for e in log] == [CHANCE, 0, CHANCE]
    expected = [draw([(str(n), 1 / 6) for n in range(1, 7)], 1234, k) for k in range(2)]
    assert [log[0].action, log[2].action] == expected
    assert (await service.store.session(sid)).chance_pos == 2


def test_the_generator_is_uniform_enough_and_stable():
    values = [uniform(99, k) for k in range(20000)]
    assert all(0 <= v < 1 for v in values)
    assert abs(sum(values) / len(values) - 0.5) < 0.01
    assert uniform(99, 5) == uniform(99, 5) != uniform(99, 6)
    assert draw([("a", 0.5), ("b", 0.5)], 1, 0) in ("a", "b")


async def test_every_registered_game_plays_through_the_service_and_replays(service):
    """Each game, random legal choices by the players the board names, until it ends (or a
    bound); the stored log then replays from set-up to the stored snapshot."""
    rng = random.Random(9)
    for n, (game_id, game) in enumerate(sorted(REGISTRY.items())):
        chat = ChatRef("test", f"replay-{n}", "", "guild-2")
        users = [
            UserRef("test", f"p{i}", f"P{i}")
            for i in range(
                game.min_players + 1 if game.max_players > game.min_players else game.min_players
            )
        ]
        replies = await service.start(chat, users[0], game_id)
        for user in users[1:]:
            if replies[0].kind == "lobby":
                replies = await service.join(chat, user)
        if replies[0].kind == "lobby":
            replies = await service.begin(chat, users[0])
        board = replies[0]
        by_id = {u.id: u for u in users}
        for _ in range(400):
            if board.final:
                break
            # every move offered, wherever the plan puts it (on the board, or privately)
            mine = [c for r in replies for c in r.moves()]
            choice = mine[int(rng.random() * len(mine))]
            replies = await service.press(chat, by_id[choice.for_user], choice.data)
            board = replies[0]
        row = await service.store.session(board.session_id)
        state = game.setup([s.name for s in row.seats], row.options)
        for entry in await service.store.log(row.id):
            state, _ = game.apply(state, entry.seat, entry.action)
        assert game.dump(state) == row.state, game_id
