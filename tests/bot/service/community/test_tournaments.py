"""Tournaments through the service (docs/tournaments.md): a 9-player Swiss of 4 rounds and
a 12-player Hidden Castle tournament played to the end by their players' seeded random
moves, each round paired and opened by the timer loop; the standings and tie-breaks as
docs/tournaments.md defines them; sign-up and its refusals."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.service import ChatRef, GameService, UserError, UserRef
from bot.service.community.tournaments import pairing
from bot.service.community.tournaments.pairing import Entrant
from bot.service.community.tournaments.scores import Played, game_points, standings
from bot.service.tables.table import chat_of
from bot.service.timer_loop import Timers
from tests.bot.tournament_play import play_out, round_tables

CHAT = ChatRef("test", "club", "", "guild-1")


def people(n: int) -> list[UserRef]:
    return [UserRef("test", f"u{i}", f"Player {i}") for i in range(1, n + 1)]


class Clock:
    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def posted(store, clock):
    """A service whose chat front end records every plan it is sent unasked."""
    service = GameService(
        store, seed_source=itertools.count(7).__next__, pictures=False, clock=clock
    )
    sent: list[tuple[ChatRef, object]] = []

    async def deliver(chat, plan):
        sent.append((chat, plan))

    service.add_notifier("test", deliver)
    return service, sent


async def run_tournament(
    service: GameService, clock: Clock, options: str, players: list[UserRef], seed: int
):
    await service.tournament(CHAT, players[0], f"create {options}")
    for user in players:
        await service.tournament(CHAT, user, "join")
    t = (await service.store.tournaments_in_chat("test", CHAT.chat))[0]
    await service.tournament(CHAT, players[0], "start")
    timers = Timers(service, interval=30)
    rng = random.Random(seed)
    rounds_seen = []
    for _ in range(40):
        t = await service.store.tournament(t.id)
        if t.status == "finished":
            break
        tables = await round_tables(service, t.id)
        assert tables and all(r.status in ("active", "finished") for r in tables)
        rounds_seen.append(t.round)
        for row in tables:
            await play_out(service, row, rng)
        clock.t += 60
        await timers.tick()
    return await service.store.tournament(t.id), rounds_seen


async def meetings(service: GameService, tournament_id: int) -> tuple[list[frozenset], list[str]]:
    pairs, byes = [], []
    for p in await service.store.pairings(tournament_id):
        if p.bye:
            byes.append(p.players[0])
        else:
            pairs += [frozenset(x) for x in itertools.combinations(p.players, 2)]
    return pairs, byes


async def test_nine_players_four_swiss_rounds_no_repeat_one_bye_each_at_most(posted, clock):
    service, sent = posted
    players = people(9)
    t, rounds = await run_tournament(
        service, clock, "ghosts18 variant=short rounds=4", players, seed=3
    )
    assert t.status == "finished" and rounds == [1, 2, 3, 4]
    pairs, byes = await meetings(service, t.id)
    assert len(pairs) == 4 * 4 and len(set(pairs)) == len(pairs)  # no pairing repeated
    assert len(byes) == 4 and len(set(byes)) == 4  # one bye a round, nobody twice
    # the standings from the stored games, computed again by hand from their results
    lines = await service.tournaments.rounds.lines(t)
    points = {u.id: 0.0 for u in players}
    opponents = {u.id: [] for u in players}
    beaten = {u.id: [] for u in players}
    for p in await service.store.pairings(t.id):
        if p.bye:
            points[p.players[0]] += 1
            continue
        row = await service.store.session(p.session_id)
        assert row.status == "finished"
        a, b = p.players
        first = row.result["ranking"][0]
        if len(first) == 2:
            points[a] += 0.5
            points[b] += 0.5
            beaten[a].append((b, 0.5))
            beaten[b].append((a, 0.5))
        else:
            winner = row.seats[first[0]].user_id
            loser = b if winner == a else a
            points[winner] += 1
            beaten[winner].append((loser, 1.0))
        opponents[a].append(b)
        opponents[b].append(a)
    by_id = {line.id: line for line in lines}
    for user in players:
        line = by_id[user.id]
        assert line.points == pytest.approx(points[user.id])
        assert line.buchholz == pytest.approx(sum(points[o] for o in opponents[user.id]))
        assert line.sonneborn == pytest.approx(sum(points[o] * w for o, w in beaten[user.id]))
    assert [x.points for x in lines] == sorted((x.points for x in lines), reverse=True)
    # the home chat heard each round announced and each round's standings, once each
    home = [plan for chat, plan in sent if chat == CHAT]
    said = [str(r.text) for plan in home for r in plan]
    assert sum("round 1 of 4:" in s for s in said) == 1
    assert sum("standings after round 3 of 4" in s for s in said) == 1
    assert sum("final standings" in s for s in said) == 1


async def test_twelve_players_hidden_castle_tables_of_three_grouped_by_standing(posted, clock):
    service, _ = posted
    players = people(12)
    t, rounds = await run_tournament(
        service, clock, "hidden_castle rounds=4 size=3", players, seed=5
    )
    assert t.status == "finished" and rounds == [1, 2, 3, 4]
    pairs, byes = await meetings(service, t.id)
    assert not byes and len(pairs) == 4 * 4 * 3
    # a round repeats a meeting only when no grouping of that round could avoid it: an
    # exhaustive search over the tables of three, given who had met before, finds none
    met: dict[str, set[str]] = {u.id: set() for u in players}
    repeats = 0
    for round_ in range(1, 5):
        tables = [p.players for p in await service.store.pairings(t.id, round_)]
        assert sorted(len(x) for x in tables) == [3, 3, 3, 3]
        again = [(a, b) for x in tables for a, b in itertools.combinations(x, 2) if b in met[a]]
        if again:
            repeats += len(again)
            field_ = [Entrant(u.id, 0.0, n, frozenset(met[u.id])) for n, u in enumerate(players)]
            with_steps = pairing.SEARCH_STEPS
            pairing.SEARCH_STEPS = 10**9
            try:
                assert pairing._search(field_, [3, 3, 3, 3]) is None, (
                    f"round {round_} could avoid {again}"
                )
            finally:
                pairing.SEARCH_STEPS = with_steps
        for x in tables:
            for a, b in itertools.combinations(x, 2):
                met[a].add(b)
                met[b].add(a)
    assert repeats <= 1
    lines = await service.tournaments.rounds.lines(t)
    assert sum(x.points for x in lines) == pytest.approx(4 * 4 * 1.5)  # a table of 3 gives 3/2


def test_points_and_tie_breaks_of_a_small_field():
    """A beat B, B beat C, A drew C: points 1.5, 1, 0.5; Buchholz A = 1 + 0.5, SB A =
    1 (B beaten) + 0.5 * 0.5 (C drawn)."""
    games = [
        Played(1, ("a", "b"), {"a": 0, "b": 1}),
        Played(2, ("b", "c"), {"b": 0, "c": 1}),
        Played(3, ("a", "c"), {"a": 0, "c": 0}),
    ]
    lines = {
        x.id: x
        for x in standings([("a", "A", False), ("b", "B", False), ("c", "C", False)], games, [])
    }
    assert (lines["a"].points, lines["b"].points, lines["c"].points) == (1.5, 1.0, 0.5)
    assert lines["a"].buchholz == 1.5 and lines["a"].sonneborn == pytest.approx(1.25)
    assert lines["c"].sonneborn == pytest.approx(0.75)  # a draw with A (1.5) is worth half of it
    four = game_points(
        Played(1, ("a", "b", "c", "d"), {"a": 0, "b": 1, "c": 1, "d": 3}, frozenset({"a"}))
    )
    assert four == pytest.approx({"a": 0.0, "b": 5 / 6, "c": 5 / 6, "d": 1 / 3})  # a lost on time


async def test_sign_up_refusals_and_late_joining(posted, clock):
    service, _ = posted
    ann, bob, cy, dee, eve = people(5)
    with pytest.raises(UserError, match="played together"):
        await service.tournament(CHAT, ann, "create dark_castle")
    with pytest.raises(UserError, match="rounds="):
        await service.tournament(CHAT, ann, "create ghosts18 rounds=99")
    with pytest.raises(UserError, match="bots="):
        await service.tournament(CHAT, ann, "create ghosts18 bots=1")
    await service.tournament(CHAT, ann, "create ghosts18 rounds=4")
    with pytest.raises(UserError, match="already open"):
        await service.tournament(CHAT, bob, "create ghosts18")
    with pytest.raises(UserError, match="no tournament"):
        await service.tournament(ChatRef("test", "elsewhere", "", "guild-1"), bob, "join")
    await service.tournament(CHAT, ann, "join")
    with pytest.raises(UserError, match="already in"):
        await service.tournament(CHAT, ann, "join")
    with pytest.raises(UserError, match="at least 2"):
        await service.tournament(CHAT, ann, "start")
    t = (await service.store.tournaments_in_chat("test", CHAT.chat))[0]
    data = f"T:{t.id}:j"
    with pytest.raises(UserError, match="no tournament in this chat"):  # a button elsewhere
        await service.press(ChatRef("test", "elsewhere", "", "guild-1"), bob, data)
    await service.press(CHAT, bob, data)
    await service.press(CHAT, cy, data)
    with pytest.raises(UserError, match="organiser"):
        await service.tournament(CHAT, bob, "start")
    await service.tournament(CHAT, ann, "start")
    await service.tournament(CHAT, dee, "join")  # round 1 of 4 running: late joining is open
    entrants = {e.user_id: e for e in await service.store.entrants(t.id)}
    assert entrants[dee.id].joined == 2
    rng = random.Random(1)
    for row in await round_tables(service, t.id):
        await play_out(service, row, rng)
    clock.t += 60
    await Timers(service, interval=30).tick()
    assert (await service.store.tournament(t.id)).round == 2
    assert any(dee.id in p.players for p in await service.store.pairings(t.id, 2))
    with pytest.raises(UserError, match="half the rounds"):
        await service.tournament(CHAT, eve, "join")


async def test_two_losses_on_time_withdraw_a_player(posted, clock):
    """A tournament's table has timeout=forfeit: at the deadline a late player of a game of
    two loses it there (the game ends, their seat handed to the stand-in); a second loss
    on time withdraws them before the next round is paired."""
    service, sent = posted
    ann, bob = people(2)
    await service.tournament(CHAT, ann, "create ghosts18 variant=short rounds=3 pace=fast")
    for user in (ann, bob):
        await service.tournament(CHAT, user, "join")
    await service.tournament(CHAT, ann, "start")
    t = (await service.store.tournaments_in_chat("test", CHAT.chat))[0]
    timers = Timers(service, interval=30)
    for round_ in (1, 2):
        (row,) = await round_tables(service, t.id)
        assert (
            row.clock["timeout"] == "forfeit"
            and (await service.store.tournament(t.id)).round == round_
        )
        chat = chat_of(row)
        if await service.choices(chat, ann):  # Ann moves; then Bob lets his time run out
            action, _ = (await service.choices(chat, ann))[0]
            await service.move(chat, ann, action)
        assert not await service.choices(chat, ann)
        served = []
        for _ in range(11):  # past the fast pace's 10 minutes, the loop scanning each minute
            clock.t += 60
            served += (await timers.tick()).deadlines
        assert served == [row.id]
        lost = await service.store.session(row.id)
        assert lost.status == "finished"
        assert [s.kind for s in lost.seats if s.user_id == bob.id] == ["placeholder"]
        assert lost.result["ranking"] == [
            [next(s.seat for s in lost.seats if s.user_id == ann.id)],
            [next(s.seat for s in lost.seats if s.user_id == bob.id)],
        ]
    entrants = {e.user_id: e for e in await service.store.entrants(t.id)}
    assert entrants[bob.id].withdrawn == 2 and entrants[bob.id].why == "time"
    third = await service.store.pairings(t.id, 3)
    assert [(p.bye, p.players) for p in third] == [(True, [ann.id])]
    said = [str(r.text) for _, plan in sent for r in plan]
    assert any("Withdrawn after two losses on time: Player 2." in s for s in said)
    assert any("lose this game on time" in s for s in said)
    lines = {
        x.id: x
        for x in await service.tournaments.rounds.lines(await service.store.tournament(t.id))
    }
    assert lines[ann.id].points == 3 and lines[bob.id].points == 0 and lines[bob.id].withdrawn


def _apart(field_: list[Entrant], a: str, b: str) -> list[Entrant]:
    from dataclasses import replace

    return [
        replace(e, apart=frozenset({b}))
        if e.id == a
        else replace(e, apart=frozenset({a}))
        if e.id == b
        else e
        for e in field_
    ]


def test_a_block_pairs_two_players_apart_while_another_pairing_exists():
    """Issue 59: one blocks the other: they meet only when no pairing keeps them apart."""
    field_ = [Entrant(x, 1.0 if x in "ab" else 0.0, i) for i, x in enumerate("abcd")]
    assert sorted(map(sorted, pairing.pair_swiss(field_).tables)) == [["a", "b"], ["c", "d"]]
    kept = pairing.pair_swiss(_apart(field_, "a", "b")).tables
    assert all(set(t) != {"a", "b"} for t in kept) and len(kept) == 2
    two = [Entrant("a", 0.0, 0), Entrant("b", 0.0, 1)]  # nobody else: they still meet
    assert [sorted(t) for t in pairing.pair_swiss(_apart(two, "a", "b")).tables] == [["a", "b"]]
    six = [Entrant(x, 0.0, i) for i, x in enumerate("abcdef")]
    tables = pairing.group_tables(_apart(six, "a", "b"), 3, 3).tables
    assert all(not {"a", "b"} <= set(t) for t in tables)
