"""`/escape export` and `/escape forget-me` on SQLite and PostgreSQL (issue 59): the export
holds every game the person played, checked against the store; after forget-me a dump of
the whole database holds the person's id and name nowhere, the others' games still
replay, their ratings and the totals stay; and the operator's retention of finished games."""

from __future__ import annotations

import json
import random
import re
import time

import pytest

from bot.service import Call, ChatRef, GameService, UserError, UserRef
from bot.service.records import replay_frames
from bot.store.copy import columns, tables
from bot.store.rate_queries import Window
from engines import CHANCE, REGISTRY
from tests.bot.conftest import ANN, BOB, CHAT, on_both

ZEB = UserRef("test", "u-zeb-7731", "Zebulon Quist")
OTHER_CHAT = ChatRef("test", "chan-2", "", "guild-1")


async def play_out(service: GameService, chat: ChatRef, seed: int) -> int:
    row = await service.live(chat)
    sid, rng = row.id, random.Random(seed)
    for _ in range(3000):
        row = await service.store.session(sid)
        if row.status != "active":
            return sid
        game = REGISTRY[row.game]
        state = game.load(row.state)
        seat = next(s for s in game.to_act(state) if s != CHANCE)
        user = UserRef("test", row.seats[seat].user_id, row.seats[seat].name)
        await service.move(chat, user, rng.choice(game.legal_actions(state, seat)))
    raise AssertionError("the game did not end")


async def zeb_at_many_tables(service: GameService) -> list[int]:
    """Zeb plays: a finished 18 Ghosts against Ann (rated), a Haunted House against Bob
    (with an undo asked), a lesson, a language of his own, a block of Bob, and Ann bars him
    elsewhere; Ann and Bob play a game of their own."""
    played = []
    await service.start(CHAT, ZEB, "ghosts18", "variant=short")
    await service.join(CHAT, ANN)
    played.append(await play_out(service, CHAT, 1))
    await service.start(OTHER_CHAT, BOB, "haunted_house", "specials=off")
    await service.join(OTHER_CHAT, ZEB)
    await service.begin(OTHER_CHAT, BOB)
    row = await service.live(OTHER_CHAT)
    game = REGISTRY[row.game]
    for _ in range(6):  # a few moves, then Zeb asks to take one back
        row = await service.live(OTHER_CHAT)
        state = game.load(row.state)
        seat = next(s for s in game.to_act(state) if s != CHANCE)
        user = (BOB, ZEB)[seat]
        await service.move(OTHER_CHAT, user, game.legal_actions(state, seat)[0])
    with pytest.raises(UserError):  # (maybe refused: it is not always his move to undo)
        await service.ask_undo(OTHER_CHAT, UserRef("test", "u-nobody", "Nobody"))
    played.append(row.id)
    await service.learn(ChatRef("test", "dm-zeb", "", "dm-zeb"), ZEB, "ghosts18")
    await service.language(CHAT, ZEB, "de", "me")
    await service.block(CHAT, ZEB, "Ann")
    await service.bar(CHAT, ANN, ZEB, is_admin=True)
    await service.start(ChatRef("test", "chan-3", "", "guild-1"), ANN, "ghosts18", "variant=short")
    await service.join(ChatRef("test", "chan-3", "", "guild-1"), BOB)
    await play_out(service, ChatRef("test", "chan-3", "", "guild-1"), 2)
    # what delivery keeps (issue 58): a note of his private moves, a handled update that
    # holds him and another's that does not, his private chat's rate window
    store = service.store
    await store.add_delivery_notes("test", played[0], "moves", ZEB.id, ["m-1", "m-2"])
    for update_id, who in ((7, ZEB), (8, BOB)):
        payload = json.dumps({"message": {"from": {"id": who.id, "first_name": who.name}}})
        await store.put_update("test", update_id, "dm", payload)
        [claimed] = await store.claim_updates("test", "holder", 30.0, 1)
        assert await store.finish_update("test", claimed.update_id, "holder")
    await store.rate_turn([Window(f"test:chat:{ZEB.id}", 1, 1.0)], None)
    return played


async def dump(service: GameService) -> str:
    """Every row of every table, as text."""
    db = service.store._conn
    out = []
    for table in await tables(db):
        names = await columns(db, table)
        rows = await service.store.rows(f"SELECT {', '.join(names)} FROM {table}", ())
        out += [f"{table}: {row!r}" for row in rows]
    return "\n".join(out)


@on_both
async def test_export_holds_every_game_the_person_played(service):
    played = await zeb_at_many_tables(service)
    plan = await service.run_command("export", Call(CHAT, ZEB))
    [reply] = plan
    assert reply.to == ZEB and plan.quiet
    data = json.loads(reply.picture.png)
    assert reply.picture.filename.endswith(".json")
    assert "2 games you sat at" in str(reply.text)
    in_store = await service.store.rows(
        "SELECT DISTINCT session_id FROM seats WHERE user_id = ? ORDER BY session_id", (ZEB.id,)
    )
    assert [g["number"] for g in data["games"]] == [sid for (sid,) in in_store]
    assert set(played) <= {g["number"] for g in data["games"]}
    for g in data["games"]:
        moved = await service.store.rows(
            "SELECT n, action FROM actions WHERE session_id = ? AND user_id = ? AND seat >= 0 "
            "ORDER BY n",
            (g["number"], ZEB.id),
        )
        assert [(m["n"], m["move"]) for m in g["your_moves"]] == [tuple(r) for r in moved]
    assert data["name"] == "Zebulon Quist" and data["preferences"]["language"] == "de"
    assert [r["game"] for r in data["ratings"]] == ["ghosts18"]
    assert data["you_block"] == ["Ann"] and data["barred_in"] == ["guild-1"]
    assert data["lessons"]["game"] == "ghosts18"


@on_both
async def test_forget_me_leaves_the_person_nowhere_and_the_others_games_replay(service):
    await zeb_at_many_tables(service)
    before = await dump(service)
    assert ZEB.id in before and ZEB.name in before
    [asked] = await service.run_command("forget-me", Call(CHAT, ZEB))
    assert "forget-me confirm" in str(asked.text)
    assert ZEB.id in await dump(service)  # nothing erased without the confirmation
    sessions = await service.store.rows("SELECT COUNT(*) FROM sessions WHERE chat <> ?", ("x",))
    actions = await service.store.rows("SELECT COUNT(*) FROM actions", ())
    ann_before = await service.store.ratings_of("test", "guild-1", "ghosts18", [ANN.id])
    [done] = await service.run_command("forget-me", Call(CHAT, ZEB, {"what": "confirm"}))
    assert "erased" in str(done.text)
    after = await dump(service)
    # (the number alone too, in any form, but not as digits of a time: 942292.3237731)
    assert ZEB.id not in after and not re.search(r"(?<![0-9.])7731(?![0-9])", after)
    assert ZEB.name not in after and "Zebulon" not in after and "Quist" not in after
    assert "a former player" in after
    assert BOB.id in after  # (another's update stays)
    # the games stay: the others' still replay, numbers and totals agree
    count = "SELECT COUNT(*) FROM sessions WHERE chat <> ?"
    assert await service.store.rows(count, ("x",)) == sessions  # every game stays
    assert await service.store.rows("SELECT COUNT(*) FROM actions", ()) == actions
    for (sid,) in await service.store.rows(
        "SELECT id FROM sessions WHERE status IN ('finished', 'active') ORDER BY id", ()
    ):
        row = await service.store.session(sid)
        frames = replay_frames.steps(REGISTRY[row.game], row, await service.store.log(sid))
        assert len(frames) > 1
    assert await service.store.ratings_of("test", "guild-1", "ghosts18", [ANN.id]) == ann_before
    # the bar Ann set still holds against him, should he come back under the same id
    with pytest.raises(UserError, match="barred you"):
        await service.start(CHAT, ZEB, "ghosts18")
    # and the export of a forgotten person holds nothing
    [empty] = await service.run_command("export", Call(CHAT, ZEB))
    data = json.loads(empty.picture.png)
    assert data["games"] == [] and data["name"] is None and data["ratings"] == []


@on_both
async def test_finished_games_past_the_retention_are_deleted(store):
    now = [time.time()]  # (the store stamps its rows by the real clock)
    service = GameService(
        store, seed_source=lambda: 1234, pictures=False, clock=lambda: now[0], keep_games_days=30
    )
    await service.start(CHAT, ANN, "ghosts18", "variant=short")
    await service.join(CHAT, BOB)
    old = await play_out(service, CHAT, 1)
    now[0] += 20 * 86_400
    await service.start(CHAT, ANN, "ghosts18", "variant=short")
    await service.join(CHAT, BOB)
    running = (await service.live(CHAT)).id
    assert await service.personal.retire() == 0  # nothing is 30 days old yet
    now[0] += 11 * 86_400 + 3600
    assert await service.personal.retire() == 1
    assert await store.session(old) is None and await store.log(old) == []
    assert (await store.session(running)).status == "active"
    assert (await store.ratings_of("test", "guild-1", "ghosts18", [ANN.id]))[ANN.id].played == 1
