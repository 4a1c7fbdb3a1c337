"""A table's pictures are painted on canvases a CPU worker keeps (render/work.py): its
public board on the table's own, each player's private view on that seat's own, so
nothing of a hand is ever on a canvas a public board is painted from."""

from __future__ import annotations

from render import work
from tests.bot.conftest import ANN, BOB, CHAT


async def test_a_private_view_and_the_public_board_are_kept_apart(drawn):
    service = drawn
    kept = work.Canvases()
    old, work.CANVASES = work.CANVASES, kept
    try:
        await service.start(CHAT, ANN, "haunted_house")
        await service.join(CHAT, BOB)
        await service.begin(CHAT, ANN)
        row = await service.live(CHAT)
        await service.board(CHAT)
        hand = (await service.private_view(CHAT, ANN)).replies[0]
        await hand.drawn("en")
        seats = {key[0] for key in kept._canvases}
        assert (row.id, None) in seats
        assert seats - {(row.id, None)} == {(row.id, 0)} or seats - {(row.id, None)} == {
            (row.id, 1)
        }
    finally:
        work.CANVASES = old
