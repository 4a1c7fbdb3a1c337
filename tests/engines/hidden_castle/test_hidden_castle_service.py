"""Hidden Castle through the real service and the terminal, both board sides, to the end.

tests/bot/service/tables/test_service.py plays every registered game with its default options only (for
at most 400 presses), so the Midnight Party side is played here: issue 4, "Done when: both
variants play to their end in the terminal and through the service".
"""

from __future__ import annotations

import random

import pytest

from bot.console import Terminal
from bot.service import ChatRef, GameService, UserRef
from bot.store import Store
from engines import REGISTRY

G = REGISTRY["hidden_castle"]


@pytest.fixture
async def store(tmp_path):
    s = await Store.open(tmp_path / "castle.sqlite3", busy_timeout=0.2)
    yield s
    await s.close()


@pytest.mark.parametrize(("variant", "players"), [("standard", 3), ("midnight_party", 4)])
async def test_a_whole_game_through_the_service_replays_from_its_log(store, variant, players):
    """Random buttons pressed by the player the board names, from set-up to the result;
    the stored log then replays from set-up to the stored final state."""
    service = GameService(store, seed_source=lambda: 77, pictures=False)
    chat = ChatRef("test", f"castle-{variant}-{players}", "", "guild-1")
    users = [UserRef("test", f"p{i}", f"P{i}") for i in range(players)]
    replies = await service.start(chat, users[0], "hidden_castle", f"variant={variant}")
    for user in users[1:]:
        replies = await service.join(chat, user)
    if replies[0].kind == "lobby":
        replies = await service.begin(chat, users[0])
    board = replies[0]
    by_id = {u.id: u for u in users}
    rng = random.Random(4)
    presses = 0
    while not board.final:
        mine = [c for c in board.choices if c.for_user]
        assert mine, "someone must always have a button while the game runs"
        choice = mine[int(rng.random() * len(mine))]
        board = (await service.press(chat, by_id[choice.for_user], choice.data))[0]
        presses += 1
        assert presses < 3000, "the game must end"
    row = await service.store.session(board.session_id)
    assert row.status == "finished" and row.options == {"variant": variant}
    state = G.setup([s.name for s in row.seats], row.options)
    for entry in await service.store.log(row.id):
        state, _ = G.apply(state, entry.seat, entry.action)
    assert G.dump(state) == row.state
    result = G.result(state)
    assert result is not None and result.summary in board.text
    if variant == "midnight_party":
        assert state.round == 3  # 'This game is played in three rounds.'
        best = max(state.scores)  # 'The player with the highest score wins'
        assert result.ranking[0] == [p for p in range(players) if state.scores[p] == best]
    else:
        assert state.clock == 6 or max(state.scores) >= 46  # 5:00 or 46
        best = min(state.scores)  # 'The player with the lowest score wins'
        assert result.ranking[0] == [p for p in range(players) if state.scores[p] == best]


class Keyboard:
    """Types the number of a random offered choice, as a player at the terminal would."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.terminal: Terminal | None = None
        self.typed = 0

    def __call__(self, prompt: str) -> str | None:
        board = self.terminal.board if self.terminal else None
        if board is None or board.final or self.typed > 3000:
            return None
        self.typed += 1
        mine = [c for c in board.choices if c.for_user == board.mention[0].id]
        return str(1 + int(self.rng.random() * len(mine)))


@pytest.mark.parametrize("variant", ["standard", "midnight_party"])
async def test_a_whole_game_in_the_terminal(store, tmp_path, variant):
    """`escape-bot play hidden_castle --players Ann,Bob,Cy --options variant=...` played by
    numbered choices at the keyboard until the game announces who escapes."""
    output: list[str] = []
    keys = Keyboard(seed=6)
    service = GameService(store, seed_source=lambda: 21, pictures=False)
    terminal = Terminal(service, tmp_path / "pics", output.append, keys)
    keys.terminal = terminal
    code = await terminal.play("hidden_castle", ["Ann", "Bob", "Cy"], f"variant={variant}")
    assert code == 0
    assert terminal.board is not None and terminal.board.final
    text = "\n".join(output)
    assert "place" in text.lower() and "escape" in text
    if variant == "midnight_party":
        assert "Round 3 is over" in text and "After three rounds" in text
    else:
        assert "the game ends" in text
