"""Haunted House through bot.service.GameService on a real SQLite file: a 3-player game plays
to a winner, and a hand is only ever shown in a private reply to its owner ('The identity of
the discarded cards is secret from other players'; hands are secret: docs/games.md)."""

from __future__ import annotations

import random

import pytest

import render
from bot.service import VIEW, ChatRef, GameService, Reply, UserError, UserRef
from bot.service.base import buttons as B
from bot.store import Store
from engines import REGISTRY
from engines.haunted_house import cards as C
from engines.haunted_house.game import complete
from render.haunted_house import card_title

G = REGISTRY["haunted_house"]
CHAT = ChatRef("test", "hh-1", "", "guild-hh")
USERS = [UserRef("test", f"u-{n}", n) for n in ("Ann", "Bob", "Cy")]
STRANGER = UserRef("test", "u-eve", "Eve")
PRIVATE_WORDS = ("You draw", "You discard", "You pick", "Your hand")
# A player who wants to finish: rooms first, ghosts and cats when asked, never `cancel`.
PREFERENCE = ("play", "done", "cat", "ghost", "with", "light", "bulb", "hole", "lightning")


@pytest.fixture
async def store(tmp_path):
    s = await Store.open(tmp_path / "haunted.sqlite3", busy_timeout=0.2)
    yield s
    await s.close()


def choose(legal: list[str], rng: random.Random) -> int:
    if rng.random() < 0.2:  # now and then anything legal, so discards and specials happen
        return int(rng.random() * len(legal))
    for verb in PREFERENCE:
        picks = [i for i, a in enumerate(legal) if a.split()[0] == verb]
        if picks:
            return picks[int(rng.random() * len(picks))]
    return 0 if legal[0] != "cancel" else len(legal) - 1


def check_public(reply: Reply, private_texts: list[str]) -> None:
    assert reply.to is None and reply.kind == "board"
    assert not any(word in reply.text for word in PRIVATE_WORDS)
    assert not any(text in reply.text for text in private_texts)
    assert not any(c.data.startswith("a:") for c in reply.choices)  # moves go privately
    if not reply.final:  # the shared private-view button
        assert any(c.for_user is None and c.role == VIEW for c in reply.choices)


async def check_views(looker: GameService, store: Store, session_id: int) -> None:
    """Each player's picture is drawn from their own view; the board from the public one."""
    row = await store.session(session_id)
    state = G.load(row.state)
    [board] = await looker.board(CHAT)
    assert board.picture.png == render.board_png(G.id, G.view(state, None))
    assert "Your hand" not in board.picture.alt
    for seat, user in enumerate(USERS):
        [mine] = await looker.private_view(CHAT, user)
        assert mine.to == user and mine.private and mine.kind == "private"
        assert mine.picture.png == render.board_png(G.id, G.view(state, seat))
        assert f"Your hand ({user.name}):" in mine.text
        for other in USERS:
            if other != user:
                assert f"Your hand ({other.name})" not in mine.text
        held = [
            f"{card_title(c)} ({C.BULBS[c]} bulb{'s' if C.BULBS[c] != 1 else ''})"
            for c in state.hands[seat]
        ]
        assert f"Your hand ({user.name}): {', '.join(held) or 'no cards'}." in mine.text
    with pytest.raises(UserError, match="not playing"):
        await looker.private_view(CHAT, STRANGER)


async def test_a_three_player_game_plays_to_a_winner_with_hands_only_in_private(store):
    service = GameService(store, seed_source=lambda: 4242, pictures=False)
    looker = GameService(store, seed_source=lambda: 4242, pictures=True)
    await service.start(CHAT, USERS[0], "haunted_house", "specials=on")
    await service.join(CHAT, USERS[1])
    await service.join(CHAT, USERS[2])
    replies = await service.begin(CHAT, USERS[0])
    board, *dealt = replies
    session_id = board.session_id
    check_public(board, [r.text for r in dealt])
    assert [r.to for r in dealt] == USERS  # one private message each
    assert all(r.private and r.text.startswith("You draw") for r in dealt)
    assert all(r.text.count("You draw") == 3 for r in dealt)  # 3 cards each
    await check_views(looker, store, session_id)
    rng = random.Random(3)
    by_id = {u.id: u for u in USERS}
    private_seen: dict[str, int] = {u.id: 0 for u in USERS}
    moves = 0
    while not board.final and moves < 1500:
        row = await store.session(session_id)
        state = G.load(row.state)
        mine = [c for r in replies for c in r.moves()]
        assert mine and all(r.to.id == mine[0].for_user for r in replies if r.moves())
        button = B.parse(mine[0].data)
        legal = G.legal_actions(state, button.seat)
        data = B.Act(session_id, row.version, button.seat, choose(legal, rng)).data
        replies = await service.press(CHAT, by_id[mine[0].for_user], data)
        moves += 1
        board, private = replies[0], replies[1:]
        check_public(board, [r.text for r in private])
        for reply in private:  # "You draw a cat." reaches its owner only
            assert reply.kind == "private" and reply.to in USERS
            private_seen[reply.to.id] += 1
        if moves in (40, 100):
            await check_views(looker, store, session_id)
            log, own = await service.history(CHAT, USERS[1], last=500)
            assert log.to is None and not any(word in log.text for word in PRIVATE_WORDS)
            assert own.to == USERS[1] and "You draw" in own.text
    assert board.final and board.text.count("wins") == 1  # the win announced once
    assert 100 < moves < 1500  # both looks happened
    row = await store.session(session_id)
    state = G.load(row.state)
    winner = state.winner
    assert row.status == "finished" and row.result["ranking"][0] == [winner]
    assert complete(state.houses[winner])
    assert all(count > 0 for count in private_seen.values())
    entries = await store.log(session_id)
    public = [e["text"] for entry in entries for e in entry.events if e.get("to") is None]
    assert public and not any(word in t for t in public for word in PRIVATE_WORDS)
