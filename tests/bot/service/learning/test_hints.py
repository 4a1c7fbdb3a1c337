"""`/escape hint` through the service: a legal move suggested privately with a one-line
reason, from what the asker can see only; refused at a `hints=off` table and out of turn;
a hinted game is not rated, and its final board says so. Budgets are tiny."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.service import Call, GameService, UserError
from bot.service.tables.table import Loaded
from engines import REGISTRY
from tests.bot.conftest import ANN, BOB, CHAT


@pytest.fixture
async def service(store):
    return GameService(store, seed_source=lambda: 1234, pictures=False, ai_scale=0.05)


async def seated(service: GameService, game: str, options: str = "") -> None:
    await service.start(CHAT, ANN, game, options)
    await service.join(CHAT, BOB)
    if (await service.live(CHAT)).status == "lobby":
        await service.begin(CHAT, ANN)


async def to_act(service: GameService):
    row = await service.live(CHAT)
    game = REGISTRY[row.game]
    seat = game.to_act(game.load(row.state))[0]
    return row, game, seat, (ANN, BOB)[seat]


async def test_a_hint_is_a_legal_move_shown_to_the_asker_alone(service):
    await seated(service, "haunted_house")
    row, game, seat, user = await to_act(service)
    plan = await service.run_command("hint", Call(CHAT, user))
    [reply] = plan
    assert reply.to == user and reply.kind == "private" and plan.quiet
    legal = game.legal_actions(game.load(row.state), seat)
    labels = {str(game.label(game.load(row.state), a)): a for a in legal}
    text = str(reply.text)
    assert text.startswith("Hint: ")
    move = next(label for label in labels if text.startswith(f"Hint: {label}."))
    assert labels[move] in legal
    assert (await service.live(CHAT)).version == row.version  # nothing moved


async def test_the_hint_uses_only_what_the_asker_can_see(service, monkeypatch):
    """Redraw everything the asker cannot see (the other hand, the deck): the same hint."""
    await seated(service, "haunted_house")
    _, game, seat, user = await to_act(service)
    [first] = await service.hint(CHAT, user)
    load = service.table.load
    changed = []

    def redrawn(row) -> Loaded:
        loaded = load(row)
        other = game.redraw(loaded.state, seat, random.Random(99))
        changed.append(game.dump(other) != game.dump(loaded.state))
        assert game.view(other, seat) == game.view(loaded.state, seat)
        return replace(loaded, state=other)

    monkeypatch.setattr(service.table, "load", redrawn)
    [second] = await service.hint(CHAT, user)
    assert any(changed) and str(second.text) == str(first.text)


async def test_hints_off_and_out_of_turn_are_refused(service):
    await seated(service, "ghosts18", "hints=off")
    _, _, _, user = await to_act(service)
    with pytest.raises(UserError, match="hints=off"):
        await service.hint(CHAT, user)
    row = await service.live(CHAT)
    assert not row.clock.get("hinted")
    await service.abort(CHAT, ANN)
    await seated(service, "ghosts18")
    _, _, seat, _ = await to_act(service)
    with pytest.raises(UserError, match="not your move"):
        await service.hint(CHAT, (ANN, BOB)[1 - seat])
    with pytest.raises(UserError, match="Option hints cannot be"):
        await service.start(CHAT, ANN, "ghosts18", "hints=maybe")


async def test_a_hinted_game_is_not_rated_and_its_final_board_says_so(service, store):
    await seated(service, "ghosts18", "variant=short")
    _, _, _, user = await to_act(service)
    await service.hint(CHAT, user)
    rng = random.Random(3)
    final = None
    for _ in range(500):
        row = await service.live(CHAT)
        if row is None:
            break
        _, game, seat, who = await to_act(service)
        replies = await service.move(
            CHAT, who, rng.choice(game.legal_actions(game.load(row.state), seat))
        )
        final = next((r for r in replies if r.kind == "board" and r.final), final)
    assert final is not None and "Not rated: a player asked for a hint." in str(final.text)
    assert await store.ratings_of("test", CHAT.scope, "ghosts18", [ANN.id, BOB.id]) == {}
