"""Dark Castle's packs through the real python-telegram-bot against the stand-in Bot API: two
group members open a castle with each pack on its own and all mixed, and play it to its end
by the inline buttons (paging to a later page of choices when needed) and, now and then, by
typing /escape move; each pack's mechanics show up in the board's caption on the way."""

from __future__ import annotations

import pytest

from tests.dark_castle_party import PACKS, Seen, party_choice, steer
from tests.dark_castle_party import G as DC
from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import (
    BOARD_CALLS,
    GROUP,
    PNG,
    TelegramBot,
    board_photos,
    buttons,
    choice_buttons,
    current_board,
    mentioned_ids,
    press_and_wait,
    until_shown,
)

TYPE_EVERY = 9  # every ninth move is typed as a command, the rest pressed


async def open_castle(tg: TelegramBot, options: str) -> dict:
    standin = tg.standin
    mark = len(standin.calls)
    await standin.say(standin.ann, GROUP, f"/escape start dark_castle {options}")
    lobby = await standin.wait_for(lambda c: c.method == "sendMessage", after=mark)
    assert "opened a table" in lobby.result["text"]
    await standin.say(standin.bob, GROUP, "/escape join")
    await standin.wait_for(lambda c: c.method == "editMessageText", after=mark)
    begin = next(b for b in buttons(lobby.result) if b["text"] == "Begin")
    mark = len(standin.calls)
    await press_and_wait(standin, standin.ann, lobby.result, begin["callback_data"])
    return current_board(standin)


async def find_button(standin, user: dict, board: dict, data: str) -> tuple[dict, str | None]:
    """The board, and the button carrying `data` on it, turning its pages as a player would."""
    for _ in range(10):
        for button in choice_buttons(board):
            if button["callback_data"] == f"e|{data}":
                return board, button["callback_data"]
        nxt = [b for b in buttons(board) if b["text"].startswith("Next")]
        if not nxt:
            return board, None
        await press_and_wait(
            standin, user, board, nxt[0]["callback_data"], after_methods=("editMessageReplyMarkup",)
        )
        board = current_board(standin)
    return board, None


async def play_by_telegram(tg: TelegramBot, pack: str, monkeypatch) -> tuple[dict, Seen, int]:
    standin = tg.standin
    users = [standin.ann, standin.bob]
    cfg = PACKS[pack]
    hook = steer(monkeypatch, cfg["deck"])
    tg.seed = cfg["seed"]
    board = await open_castle(tg, cfg["options"])
    seen, captions, paged = Seen(), [], 0
    for moves in range(400):
        row = await tg.service.store.session(1)
        state = DC.load(row.state)
        seen.note(DC.view(state, None))
        captions.append(board["caption"])
        if row.status == "finished":
            break
        seat, action = party_choice(state, cfg["picks"])
        user = users[seat]
        assert user["id"] in mentioned_ids(board), "the caption calls whoever must act"
        index = DC.legal_actions(state, seat).index(action)
        mark = len(standin.calls)
        if moves % TYPE_EVERY == TYPE_EVERY - 1:
            await standin.say(user, GROUP, f"/escape move {action}")
            await standin.wait_for(lambda c: c.method in BOARD_CALLS, after=mark)
        else:
            page_one = board
            board, data = await find_button(
                standin, user, board, f"a:1:{row.version}:{seat}:{index}"
            )
            assert data is not None, f"{action!r} is on a page of the board"
            paged += board is not page_one
            await press_and_wait(standin, user, board, data)
        board = current_board(standin)
    else:
        raise AssertionError(f"the {pack} castle did not end in 400 moves")
    assert hook.drawn == list(cfg["deck"])
    seen.alt_texts = captions
    return board, seen, paged


@pytest.mark.parametrize("pack", list(PACKS))
async def test_each_pack_to_its_end_on_telegram(tg_bot, monkeypatch, pack):
    """Issue 16, done when: each pack alone and all mixed "through ... both chat platforms,
    with every supplement mechanic above reachable"."""
    standin = tg_bot.standin
    final, seen, _ = await play_by_telegram(tg_bot, pack, monkeypatch)
    state = DC.load((await tg_bot.service.store.session(1)).state)
    assert state.outcome in ("won", "lost")
    assert DC.result(state).summary in final["caption"]
    assert not mentioned_ids(final) and not choice_buttons(final)
    await until_shown(standin, lambda: board_photos(standin) == [final])  # old one retired
    assert board_photos(standin) == [final]
    uploads = [c for c in standin.calls if c.method in BOARD_CALLS]
    assert all(any(f.startswith(PNG) for f in c.files.values()) for c in uploads)
    said = "\n".join(seen.alt_texts)
    options = PACKS[pack]["options"]
    if "cult=on" in options:  # the curse drawn is told, and stays beside its prisoner
        assert seen.curse and "Curse" in said
    if "plague=on" in options:
        assert seen.plague >= 2 and " plague (" in said
        assert seen.stored and " stows the " in said
    if "undead=on" in options:
        assert seen.companion and " joins the party" in said
    if pack == "undead":
        assert seen.ritual and seen.spell and "The spell die: " in said
    if "collector=on" in options:
        assert seen.flaws_dealt and "Flaws are dealt" in said and seen.flaw_used
        assert "Epilogue: " + seen.epilogue in final["caption"]
        assert seen.death_faces and "The death dice roll " in said
        assert seen.stone and "The Living Stone wakes" in said


async def test_a_pack_game_keeps_nothing_secret_and_refuses_outsiders(tg_bot):
    """Dark Castle hides nothing (its decks are undrawn chance): the moves sit under the
    group's board, with no private hand link; a press by someone not playing is answered to
    her alone and changes nothing."""
    standin = tg_bot.standin
    board = await open_castle(tg_bot, PACKS["mixed"]["options"])
    assert choice_buttons(board) and not [b for b in buttons(board) if b.get("url")]
    version = (await tg_bot.service.store.session(1)).version
    mark = len(standin.calls)
    query = await standin.press(standin.carol, board, choice_buttons(board)[0]["callback_data"])
    answer = await standin.answer(query)
    assert answer.get("show_alert") and "not playing" in answer["text"]
    assert not [c for c in standin.calls[mark:] if c.method in BOARD_CALLS]
    assert (await tg_bot.service.store.session(1)).version == version
