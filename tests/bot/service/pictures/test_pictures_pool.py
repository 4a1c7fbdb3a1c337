"""Board pictures drawn by the CPU pool: in a worker process they are the very bytes drawn
on a thread, and the board reply needs no read-back of the row it just wrote."""

from __future__ import annotations

import render
from bot.service import GameService
from bot.service.pictures.workers import CpuPool
from engines import REGISTRY
from tests.bot.conftest import ANN, BOB, CHAT


async def _opening_board(service: GameService):
    await service.start(CHAT, ANN, "ghosts18")
    (board,) = [r for r in await service.join(CHAT, BOB) if r.kind == "board"]
    return board


async def test_a_board_drawn_in_a_worker_process_is_the_one_drawn_on_a_thread(store):
    pool = CpuPool(workers=1).start()
    try:
        service = GameService(store, seed_source=lambda: 1234, cpu=pool)
        board = await _opening_board(service)
    finally:
        await pool.close()
    row = await store.session(board.session_id)
    game = REGISTRY["ghosts18"]
    view = game.view(game.load(row.state), None)
    assert board.picture is not None and board.picture.png == render.board_png("ghosts18", view)
    assert board.picture.alt == render.describe("ghosts18", view)


async def test_the_reply_after_a_move_matches_the_stored_row(drawn, store):
    board = await _opening_board(drawn)
    row = await store.session(board.session_id)
    assert board.version == row.version
    game = REGISTRY["ghosts18"]
    action = game.legal_actions(game.load(row.state), 0)[0]
    (after, *_) = await drawn.move(CHAT, ANN, action)
    stored = await store.session(board.session_id)
    assert after.version == stored.version == row.version + 1
    assert [c.data for c in after.choices][:1] != [c.data for c in board.choices][:1]
    # the buttons under the new board work: they carry the version just written
    assert (await drawn.press(CHAT, BOB, after.choices[0].data))[0].kind == "board"
