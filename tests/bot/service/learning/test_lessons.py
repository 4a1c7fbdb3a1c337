"""`/escape learn GAME`: every lesson played through by its own prompts only (the move each
prompt names, read off the text as the learner reads it), in English and in German, with a
wrong button and a junk move answered at every step; private to the learner; resumed after
leaving; ends by offering a real game against a bot."""

from __future__ import annotations

import re

import pytest

from bot.service import Call, GameService, UserError, UserRef
from bot.service.base.buttons import parse
from bot.service.learning.tutorial import LESSONS, ORDER
from languages import say
from tests.bot.conftest import ANN, BOB, CHAT


@pytest.fixture
async def service(store):
    return GameService(store, seed_source=lambda: 1234, pictures=False, ai_scale=0.05)


def read(reply, language: str) -> str:
    return say(reply.text, language)


def prompted(text: str) -> str:
    """The move the prompt names: the last `...` of its text (the move as it is typed)."""
    moves = re.findall(r"`([^`]+)`", text)
    assert moves, text
    return moves[-1]


async def learn(service, user, what):
    plan = await service.run_command("learn", Call(CHAT, user, {"what": what}))
    [reply] = plan
    assert reply.to == user and reply.kind == "private" and plan.quiet
    return reply


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("game_id", ORDER)
async def test_a_lesson_is_played_through_by_its_own_prompts(service, game_id, language):
    user = UserRef("test", f"u-{language}", "Ann", language)
    reply = await learn(service, user, game_id)
    text = read(reply, language)
    steps = len(LESSONS[game_id].steps)
    for step in range(steps):
        move = prompted(text)
        wrong = [c for c in reply.choices if parse(c.data).index != _index(service, user, c, move)]
        assert len(reply.choices) >= 2 and wrong, text  # a wrong button to press
        # a wrong button: explained, the same move asked again, nothing changes
        [again] = await service.press(CHAT, user, wrong[0].data)
        said = read(again, language)
        assert prompted(said) == move, said
        assert say(LESSONS[game_id].steps[step].wrong, language) in said
        # a junk move typed: the game's refusal, the same move asked again
        junk = await learn(service, user, "fly to the moon")
        assert prompted(read(junk, language)) == move
        reply = await learn(service, user, move)
        text = read(reply, language)
    assert "bots=1" in text and [c.data for c in reply.choices] == [f"t:{ORDER.index(game_id)}:p"]
    if language == "de":
        assert "Play a real game" not in text  # said in German


def _index(service, user, choice, move):
    """The legal-move index of the prompted move at the step the choice belongs to."""
    from engines import REGISTRY
    from engines.tutorials import position

    button = parse(choice.data)
    game = REGISTRY[ORDER[button.lesson]]
    state = position(game, LESSONS[game.id], user.name, button.step)
    return game.legal_actions(state, 0).index(move)


async def test_a_learner_who_leaves_resumes_at_their_step_and_again_starts_over(service):
    first = await learn(service, ANN, "ghosts18")
    move = prompted(str(first.text))
    second = await learn(service, ANN, move)
    await service.run_command("start", Call(CHAT, ANN, {"game": "hidden_castle"}))  # something else
    resumed = await learn(service, ANN, "ghosts18")
    assert "step 2 of" in str(resumed.text) and prompted(str(resumed.text)) == prompted(
        str(second.text)
    )
    bare = await learn(service, ANN, None)
    assert prompted(str(bare.text)) == prompted(str(second.text))
    over = await learn(service, ANN, "again ghosts18")
    assert prompted(str(over.text)) == move


async def test_a_lesson_is_private_to_its_learner(service):
    """Bob pressing Ann's button acts on Bob's own lesson (he has none at that step): Ann's
    is untouched; a stale or forged button is refused, changing nothing."""
    reply = await learn(service, ANN, "ghosts18")
    move = prompted(str(reply.text))
    right = next(c for c in reply.choices if _index(service, ANN, c, move) == parse(c.data).index)
    with pytest.raises(UserError, match="earlier step"):
        await service.press(CHAT, BOB, right.data)
    for junk in ("t:99:0:0", "t:0:0:999", "t:x", "t:0:0:0:0"):
        with pytest.raises(UserError):
            await service.press(CHAT, ANN, junk)
    [after] = await service.press(CHAT, ANN, right.data)
    assert prompted(str(after.text)) != move
    with pytest.raises(UserError, match="earlier step"):
        await service.press(CHAT, ANN, right.data)  # pressed twice: stale


async def test_the_end_offers_a_real_game_against_a_bot(service):
    reply = await learn(service, ANN, "ghosts18")
    for _ in LESSONS["ghosts18"].steps:
        reply = await learn(service, ANN, prompted(str(reply.text)))
    plan = await service.press(CHAT, ANN, reply.choices[0].data)
    row = await service.live(CHAT)
    assert row is not None and row.game == "ghosts18" and row.status == "active"
    assert [s.kind for s in row.seats] == ["human", "ai"]
    assert plan.board is not None


async def test_learn_without_a_game_names_them(service):
    with pytest.raises(UserError, match="ghosts18"):
        await learn(service, ANN, None)
    with pytest.raises(UserError, match="ghosts18"):
        await learn(service, ANN, "move c3 up")
