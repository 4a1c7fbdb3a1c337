"""`/escape describe [what]` (issue 60): one question about the table answered in words, for
a player who cannot see the picture. On a seeded position of each game a fixed set of
questions (a place, a player, near, hand, a name the board has not) is answered from the
board's own description, rightly, in the table's language; and no answer to Ann, her own
`hand` included, holds a word of what only Bob sees."""

from __future__ import annotations

import random
import re

import pytest

from bot.service import GameService, UserError
from engines import REGISTRY
from languages import say
from tests.bot.conftest import ANN, BOB, CHAT, CY

QUESTIONS = {  # per game: places of its board, asked as a player types them
    "ghosts18": ["c3", "a1", "e5"],
    "castle_doors": ["c3", "a1", "b8"],
    "hidden_castle": ["5", "space 16", "guest a", "chamber 18"],
    "haunted_house": ["deck"],
    "dark_castle": ["smith"],
}
SENTENCE = re.compile(r"(?<=[.!?])\s+")


async def _seeded(service: GameService, game_id: str, moves: int = 14) -> None:
    await service.start(CHAT, ANN, game_id, "")
    await service.join(CHAT, BOB)
    row = await service.live(CHAT)
    if row.status == "lobby":
        await service.begin(CHAT, ANN)
    rng = random.Random(4)
    for _ in range(moves):
        for user in (ANN, BOB):
            choices = await service.choices(CHAT, user)
            if choices:
                await service.move(CHAT, user, rng.choice(choices)[0])


def _said(plan, language: str = "en") -> str:
    return "\n".join(say(r.text, language) for r in plan)


async def _secret_of_bob(service: GameService) -> set[str]:
    """Sentences of Bob's own view that the public board does not say."""
    row = await service.live(CHAT)
    from bot.service.tables.board_plans import described

    game = REGISTRY[row.game]
    loaded = service.table.load(row)
    own = described(game.id, game.view(loaded.state, 1), game.title, "en")
    public = described(game.id, game.view(loaded.state, None), game.title, "en")
    told = set(SENTENCE.split(public))
    return {s for s in SENTENCE.split(own) if s not in told and len(s) > 12}


@pytest.mark.parametrize("game_id", list(QUESTIONS))
async def test_describe_answers_one_question_and_keeps_bobs_secrets(service, game_id):
    await _seeded(service, game_id)
    answers: dict[str, str] = {}
    for what in [None, *QUESTIONS[game_id], "near", "Bob", "hand", "nowhere-at-all"]:
        plan = await service.describe(CHAT, ANN, what)
        answers[what or ""] = _said(plan)
        assert plan.quiet and plan.asker == ANN  # answered to the asker
        if what == "hand":
            assert [r.to for r in plan] == [ANN]  # her own view, to her alone
    whole = answers[""]
    assert "Bob" in answers["Bob"] and len(answers["Bob"]) < len(whole)
    assert "Nothing on this board is called nowhere-at-all" in answers["nowhere-at-all"]
    assert "near" in answers["nowhere-at-all"] and "/escape" not in answers["nowhere-at-all"]
    for what in QUESTIONS[game_id]:
        answer = answers[what]
        assert answer and len(answer) < len(whole), (what, answer)
        assert "Nothing on this board is called" not in answer, (what, answer)
    if REGISTRY[game_id].hidden_information:
        secrets = await _secret_of_bob(service)
        assert secrets  # (the check can fail: Bob holds something Ann does not see)
        for what, answer in answers.items():
            for secret in secrets:
                assert secret not in answer, (what, secret)


async def test_a_place_is_answered_from_the_board(service):
    """18 Ghosts: a cell holding a ghost is answered with its owner and colour, an empty
    one as empty; Castle Doors' tile by its colour and state."""
    await _seeded(service, "ghosts18", moves=9)
    row = await service.live(CHAT)
    view = REGISTRY["ghosts18"].view(service.table.load(row).state, None)
    taken = next(iter(sorted(view["board"])))
    owner, colour = view["board"][taken]
    answer = _said(await service.describe(CHAT, ANN, taken))
    assert f"{colour} {taken}" in answer and row.seats[owner].name in answer
    empty = next(c for c in ("c3", "b2", "d4", "a1", "e5") if c not in view["board"])
    assert _said(await service.describe(CHAT, ANN, empty)) == f"{empty}: nothing is there."


async def test_near_and_hand_are_a_players_and_said_in_the_tables_language(service):
    await _seeded(service, "ghosts18", moves=9)
    with pytest.raises(UserError):
        await service.describe(CHAT, CY, "near")  # not a player: nothing is near them
    with pytest.raises(UserError):
        await service.describe(CHAT, CY, "hand")
    assert "Bob" in _said(await service.describe(CHAT, CY, "Bob"))  # a public question
    await service.language(CHAT, ANN, "de")
    near = _said(await service.describe(CHAT, ANN, "nah"), "de")  # the word in German
    assert near.startswith("Neben deinen Figuren")
    assert "Nichts auf diesem Brett heißt" in _said(await service.describe(CHAT, ANN, "zz"), "de")


async def test_the_terminal_asks_describe_and_keeps_describe_on(tmp_path, store):
    """At the keyboard `describe c3` asks, `describe on` still turns descriptions on."""
    from bot.console import Terminal

    lines = ["place a1", "describe a1", "describe on", "quit"]
    output: list[str] = []
    service = GameService(store, seed_source=lambda: 5, pictures=False)
    terminal = Terminal(service, tmp_path / "pics", output.append, lambda _p: lines.pop(0))
    assert await terminal.play("ghosts18", ["Ann", "Bob"]) == 0
    text = "\n".join(output)
    assert "Ann (round): on the board blue a1." in text
    assert "Descriptions after every move: on." in text
    assert "/escape" not in text
