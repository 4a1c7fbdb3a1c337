"""Resign, a seat handed over, an admin's removal, bars and blocks, at the service's door
(bot/service/tables/leaving.py, moderation.py): who may, what the table and the log say,
how the game is rated, and that a refusal changes nothing."""

from __future__ import annotations

import random

import pytest

from bot.service import ChatRef, GameService, UserError, UserRef
from engines import CHANCE, REGISTRY
from tests.bot.conftest import ANN, BOB, CHAT, CY

DEE = UserRef("test", "u-dee", "Dee")
EVE = UserRef("test", "u-eve", "Eve")


async def seated(service: GameService, game: str, people: list[UserRef], options: str = "") -> int:
    await service.start(CHAT, people[0], game, options)
    for user in people[1:]:
        await service.join(CHAT, user)
    row = await service.live(CHAT)
    if row.status == "lobby":
        await service.begin(CHAT, people[0])
    return (await service.live(CHAT)).id


async def play_out(service: GameService, sid: int, seed: int = 1, most: int = 4000) -> None:
    """Random legal moves by whoever is to act (the stand-in plays by itself) to the end."""
    rng = random.Random(seed)
    for _ in range(most):
        row = await service.store.session(sid)
        if row.status != "active":
            return
        game = REGISTRY[row.game]
        state = game.load(row.state)
        acting = [s for s in game.to_act(state) if s != CHANCE and row.seats[s].kind == "human"]
        if not acting:
            await service.wake_bots(sid)
            continue
        seat = acting[0]
        user = UserRef(row.platform, row.seats[seat].user_id, row.seats[seat].name)
        await service.move(CHAT, user, rng.choice(game.legal_actions(state, seat)))
    raise AssertionError("the game did not end")


async def test_resign_in_a_two_player_game_ends_it_a_rated_loss(service):
    sid = await seated(service, "ghosts18", [ANN, BOB], "variant=short")
    with pytest.raises(UserError, match="not playing"):
        await service.resign(CHAT, CY)
    plan = await service.resign(CHAT, BOB)
    [board] = [r for r in plan if r.kind == "board"]
    assert board.final and "Bob resigns: they lose this game." in board.text
    assert "Ratings: Ann" in board.text and "Not rated" not in board.text
    row = await service.store.session(sid)
    assert row.status == "finished" and row.result["ranking"] == [[0], [1]]
    assert row.seats[1].lost
    ann, bob = (
        await service.store.ratings_of("test", "guild-1", "ghosts18", ["u-ann", "u-bob"])
    ).values()
    assert ann.won == 1 and bob.lost == 1


async def test_resign_in_a_four_player_game_the_others_play_on_the_resigned_ranked_last(service):
    people = [ANN, BOB, CY, DEE]
    sid = await seated(service, "castle_doors", people)
    plan = await service.resign(CHAT, CY)
    said = " ".join(str(r.text) for r in plan)
    assert "Cy resigns: they lose this game, and a stand-in plays their seat on." in said
    row = await service.store.session(sid)
    assert row.status == "active" and row.seats[2].kind == "placeholder" and row.seats[2].lost
    with pytest.raises(UserError):  # their moves are the stand-in's now
        await service.resign(CHAT, CY)
    await play_out(service, sid)
    row = await service.store.session(sid)
    assert row.status == "finished"
    rated = await service.store.ratings_of(
        "test", "guild-1", "castle_doors", [u.id for u in people]
    )
    assert set(rated) == {u.id for u in people}  # rated: Cy's loss is Cy's
    assert rated["u-cy"].lost == 1 and rated["u-cy"].won == 0
    order = [[s for s in g if s != 2] for g in row.result["ranking"]]
    first = next(g for g in order if g)  # the stand-in's place is not Cy's
    assert {u for u, r in rated.items() if r.won} == {people[s].id for s in first}


async def test_a_seat_offered_is_taken_by_a_member_and_the_new_player_finishes_the_game(service):
    sid = await seated(service, "ghosts18", [ANN, BOB], "variant=short")
    with pytest.raises(UserError, match="only your own seat"):
        await service.offer_seat(CHAT, CY, "Bob")
    [offer] = await service.offer_seat(CHAT, BOB)
    [take] = offer.choices
    assert take.data == f"s:{sid}:1" and "Take the seat of Bob" in take.label
    row = await service.store.session(sid)
    assert row.offered == (1,)
    with pytest.raises(UserError, match="a seat at this table already"):
        await service.press(CHAT, ANN, take.data)
    stranger = ChatRef("test", "chan-9", "", "guild-1")
    with pytest.raises(UserError):  # not a member of the table's chat
        await service.press(stranger, EVE, take.data)
    plan = await service.press(CHAT, CY, take.data)
    assert "Cy takes over the seat of Bob" in " ".join(str(r.text) for r in plan)
    row = await service.store.session(sid)
    assert row.seats[1].user_id == "u-cy" and row.seats[1].since > 0 and row.offered == ()
    with pytest.raises(UserError, match="no longer offered"):
        await service.press(CHAT, DEE, take.data)
    with pytest.raises(UserError, match="not playing"):
        await service.resign(CHAT, BOB)  # Bob's seat is Cy's now
    await play_out(service, sid, seed=3)
    row = await service.store.session(sid)
    assert row.status == "finished"
    log = await service.store.log(sid)
    note = next(e for e in log if e.action == "seat")
    movers = {e.user_id for e in log if e.seat == 1 and e.n > note.n}
    assert movers == {"u-cy"}  # the history says who played which moves
    assert {e.user_id for e in log if e.seat == 1 and e.n < note.n} <= {"u-bob"}
    rated = await service.store.ratings_of(
        "test", "guild-1", "ghosts18", ["u-ann", "u-bob", "u-cy"]
    )
    assert rated == {}  # each person's own games only: no two rivals held seats throughout


async def test_an_admin_removes_a_player_the_stand_in_plays_until_the_seat_is_taken(service):
    sid = await seated(service, "castle_doors", [ANN, BOB, CY])
    with pytest.raises(UserError, match="Only an admin"):
        await service.remove_player(CHAT, ANN, "Bob")
    plan = await service.remove_player(CHAT, ANN, "Bob", is_admin=True)
    said = " ".join(str(r.text) for r in plan)
    assert "An admin removed Bob" in said
    offer = next(r for r in plan if r.choices and r.choices[0].data.startswith("s:"))
    row = await service.store.session(sid)
    assert row.seats[1].kind == "placeholder" and row.offered == (1,)
    await service.press(CHAT, DEE, offer.choices[0].data)
    row = await service.store.session(sid)
    assert row.seats[1].user_id == "u-dee" and row.seats[1].kind == "human"


async def test_an_admin_bars_a_user_who_then_cannot_open_join_or_take_a_seat(service):
    await seated(service, "ghosts18", [ANN, BOB], "variant=short")
    await service.abort(CHAT, ANN)
    with pytest.raises(UserError, match="Only an admin"):
        await service.bar(CHAT, BOB, "Ann")
    [said] = await service.bar(CHAT, BOB, "Ann", is_admin=True)
    assert "Ann is barred" in said.text and said.to == BOB
    with pytest.raises(UserError, match="barred you"):
        await service.start(CHAT, ANN, "ghosts18")
    await service.start(CHAT, BOB, "ghosts18")
    with pytest.raises(UserError, match="barred you"):
        await service.join(CHAT, ANN)
    row = await service.live(CHAT)
    assert [s.user_id for s in row.seats] == ["u-bob"]  # nothing changed
    [listed] = await service.bar(CHAT, BOB, None, is_admin=True)
    assert "Ann" in listed.text
    await service.unbar(CHAT, BOB, "Ann", is_admin=True)
    await service.join(CHAT, ANN)  # lifted


async def test_a_blocked_user_cannot_join_and_is_not_told_who(service):
    await seated(service, "ghosts18", [ANN, BOB], "variant=short")
    await service.abort(CHAT, ANN)
    [said] = await service.block(CHAT, ANN, "Bob")
    assert "You block Bob" in said.text and said.to == ANN
    await service.start(CHAT, ANN, "ghosts18")
    with pytest.raises(UserError) as refused:
        await service.join(CHAT, BOB)
    assert str(refused.value.msg) == "You cannot join this table." and "Ann" not in str(
        refused.value.msg
    )
    row = await service.live(CHAT)
    assert [s.user_id for s in row.seats] == ["u-ann"]
    await service.leave(CHAT, ANN)
    await service.start(CHAT, BOB, "ghosts18")
    with pytest.raises(UserError, match="someone you block"):
        await service.join(CHAT, ANN)
    [listed] = await service.block(CHAT, ANN, None)
    assert "Bob" in listed.text
    await service.unblock(CHAT, ANN, "Bob")
    await service.join(CHAT, ANN)
