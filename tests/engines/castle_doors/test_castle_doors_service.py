"""Castle Doors through bot.service.GameService: a whole game to a winner, on a real SQLite
file, moves pressed as buttons, chance drawn by the service, secrets kept to their owners."""

from __future__ import annotations

import random

import pytest

from bot.service import ChatRef, GameService, UserRef
from bot.store import Store
from engines.castle_doors import GAME
from engines.castle_doors import board as B
from engines.castle_doors import castle as K
from engines.castle_doors.game import CastleState
from engines.contract import CHANCE

CHAT = ChatRef("test", "castle-1", "", "guild-1")
USERS = [UserRef("test", f"u-{n.lower()}", n) for n in ("Ann", "Bob", "Cy", "Dee")]
CARD_WORDS = list(B.CARD_NAME.values())


def _depth(s: CastleState, seat: int, cell: str) -> int:
    """How many rows in from the seat's own edge `cell` lies (0: the first row)."""
    edge = s.edges[seat]
    rows = B.rows_deep(edge, s.width, s.height)
    return next(d for d in range(rows) if cell in B.row_of(edge, d, s.width, s.height))


def _choose(s: CastleState, seat: int, legal: list[str], rng: random.Random) -> str:
    """A player who heads for the far side: open the doors ahead, step forward; now and
    then something at random, so a blocked player finds another way."""
    here = s.at[seat]
    if rng.random() < 0.25 and s.phase != "target":
        return legal[int(rng.random() * len(legal))]
    if s.phase == "move":
        best, value = "stay", _depth(s, seat, here) if here else -1
        for action in legal:
            verb, *arg = action.split()
            if verb in ("move", "enter"):
                cell = K.steps(s, seat)[arg[0]] if verb == "move" else arg[0]
                if _depth(s, seat, cell) > value:
                    best, value = action, _depth(s, seat, cell)
        return best
    if s.phase == "play":
        useful = [a for a in legal if a.startswith(("play key", "play skeleton", "play hacksaw"))]
        pool = useful or legal
        return pool[int(rng.random() * len(pool))]

    def ahead(action: str) -> tuple[int, float]:
        cell = action.split()[1]
        if here is None:
            return (10 if _depth(s, seat, cell) == 0 else -10, rng.random())
        (x, y), (hx, hy) = B.xy(cell), B.xy(here)
        return (_depth(s, seat, cell) - 3 * (abs(x - hx) + abs(y - hy)), rng.random())

    closed = [a for a in legal if a.startswith("target") and not s.tiles[a.split()[1]]["open"]]
    if closed:
        return max(closed, key=ahead)
    other = [a for a in legal if a != "back"]
    return other[int(rng.random() * len(other))]


@pytest.fixture
async def service(tmp_path):
    store = await Store.open(tmp_path / "escape.sqlite3", busy_timeout=0.2)
    yield GameService(store, seed_source=lambda: 4321, pictures=False)
    await store.close()


@pytest.mark.parametrize("players", [2, 4])
async def test_a_game_plays_to_a_winner_through_the_service(service, players):
    """ "The first player to move their CHARACTER to an open door on the last row opposite
    their starting side wins!": a whole game, every move a pressed button."""
    users = USERS[:players]
    await service.start(CHAT, users[0], "castle_doors")
    for user in users[1:]:
        replies = await service.join(CHAT, user)
    if players < GAME.max_players:
        replies = await service.begin(CHAT, users[0])
    board = replies[0]
    sid = board.session_id
    rng = random.Random(players)
    for _ in range(2000):
        if board.final:
            break
        row = await service.store.session(sid)
        state = GAME.load(row.state)
        [seat] = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        action = _choose(state, seat, legal, rng)
        assert not board.moves()  # a hand's moves never ride on the public board
        [own] = [r for r in replies if r.to == users[seat]]  # the mover's private message
        mine = [c for c in own.moves() if c.for_user == users[seat].id]
        assert len(mine) == len(legal)  # one button per legal action, all for the player
        replies = await service.press(CHAT, users[seat], mine[legal.index(action)].data)
        board = replies[0]
        assert board.to is None and not any(f"draw a {w}" in board.text for w in CARD_WORDS)
        for private in replies[1:]:  # "You draw a net.": only to the player who drew it
            assert private.private and private.to in users
    assert board.final and "wins" in board.text
    assert [c.label for c in board.choices] == ["Rematch", "Replay", "Review"]  # no moves any more
    row = await service.store.session(sid)
    assert row.status == "finished"
    winner = row.state["winner"]
    assert row.result["ranking"][0] == [winner]
    far = B.far_row(row.state["edges"][winner], row.state["width"], row.state["height"])
    assert row.state["at"][winner] in far
    # The stored log replays to the stored state with no generator at all.
    state = GAME.setup([u.name for u in users])
    for entry in await service.store.log(sid):
        state, _ = GAME.apply(state, entry.seat, entry.action)
    assert GAME.dump(state) == row.state
    assert any(entry.seat == CHANCE for entry in await service.store.log(sid))
