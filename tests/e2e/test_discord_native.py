"""Discord as a player meets it, through the real discord.py against the stand-in: names
with markdown, long input, alt text within Discord's limit, and 429s that outlast
discord.py's own retries."""

from __future__ import annotations

import dataclasses

from tests.e2e.discord_fixtures import *  # noqa: F403
from tests.e2e.discord_fixtures import ANN, BOB, CHANNEL, CID, Message, mentioned, user_payload

DAN = user_payload(930000000000000044, "Dan")


async def test_a_very_long_option_gets_a_short_clear_refusal(discord_bot):
    bot = discord_bot
    record = await bot.slash(ANN, "start", {"game": "ghosts18", "options": "variant=" + "x" * 5000})
    (refusal,) = bot.answers(record)
    assert refusal.ephemeral
    assert (
        len(refusal.content) <= 400 and "variant" in refusal.content and "xxx…" in refusal.content
    )
    assert not bot.public(), "nothing in the channel"
    typed = await bot.slash(ANN, "move", {"action": "z" * 5000})
    (answer,) = bot.answers(typed)
    assert answer.ephemeral and len(answer.content) <= 400


async def test_names_are_shown_as_written_not_as_markdown(discord_bot):
    bot = discord_bot
    odd = user_payload(930000000000000055, "**Bo**_b_ @everyone")
    start = await bot.slash(ANN, "start", {"game": "ghosts18"})
    (lobby,) = bot.answers(start)
    join = next(b["custom_id"] for b in lobby.buttons() if b["label"] == "Join")
    await bot.click(odd, lobby, join)
    board = bot.latest_board()
    assert r"\*\*Bo\*\*\_b\_" in board.content
    assert "@everyone" not in board.content.replace("@\u200beveryone", "")


async def test_alt_text_of_a_four_player_castle_doors_fits_discords_limit(discord_bot):
    bot = discord_bot
    await bot.slash(ANN, "start", {"game": "castle_doors"})
    for user in (BOB, CID, DAN):
        await bot.slash(user, "join")
    await bot.slash(ANN, "begin")
    (chat_board,) = [r for r in await bot.service.board(_chat()) if r.kind == "board"]
    board = bot.latest_board()
    description = board.attachments[0]["description"]
    assert 0 < len(description) <= 1024
    full = " ".join(chat_board.picture.alt.split())
    if len(full) > 1024:
        assert description.endswith("…") and full.startswith(description[:-1].rstrip())
    else:
        assert description == full


async def test_rules_survive_seven_429s_in_a_row(discord_bot):
    """discord.py tries five times; the bridge waits and tries again."""
    bot = discord_bot
    bot.server.fail_next("POST", r"^/webhooks/\d+/tok\d+$", times=7, retry_after=0.01)
    record = await bot.slash(
        ANN,
        "rules",
        {"game": "ghosts18"},
    )
    answers = bot.answers(record)
    assert answers and all(m.ephemeral for m in answers)
    assert "18 GHOSTS" in answers[0].content
    assert any(m.attachments for m in answers)
    posts = [c.status for c in bot.server.calls if c.path.endswith(record.token)]
    assert posts[:7] == [429] * 7 and set(posts[7:]) == {200}


def _chat():
    from bot.service import ChatRef
    from tests.e2e.discord_fixtures import GUILD_ID

    return ChatRef("discord", str(CHANNEL), "", str(GUILD_ID))


async def _ghosts(bot) -> Message:
    start = await bot.slash(ANN, "start", {"game": "ghosts18", "options": "variant=short"})
    (lobby,) = bot.answers(start)
    join = next(b["custom_id"] for b in lobby.buttons() if b["label"] == "Join")
    joined = await bot.click(BOB, lobby, join)
    (board,) = bot.answers(joined)
    assert bot.server.messages[lobby.id].deleted and bot.public() == [board]
    return board


def _moves(board: Message) -> list[str]:
    return [b["custom_id"] for b in board.buttons() if b.get("label") != "My hand / my view"]


async def test_a_click_edits_the_live_board_until_the_channel_moves_on(discord_bot):
    bot = discord_bot
    board = await _ghosts(bot)
    clicked = await bot.click(ANN, board, _moves(board)[0])
    assert not bot.answers(clicked) and board.edits, "played live: the board is edited"
    (actor,) = mentioned(board)
    bot.server.say(CHANNEL)  # someone writes in the channel: the board is no longer last
    clicked = await bot.click(ANN if actor == int(ANN["id"]) else BOB, board, _moves(board)[0])
    (anew,) = bot.answers(clicked)
    (actor,) = mentioned(anew)
    assert not anew.ephemeral and anew.attachments and not anew.edits
    assert [str(u) for u in anew.allowed_mentions["users"]] == [str(actor)], (
        "a new message: the actor is pinged"
    )
    assert bot.server.messages[board.id].deleted and bot.public() == [anew]


async def test_after_a_pause_the_board_is_posted_anew(discord_bot, monkeypatch):
    import bot.delivery.live_boards as boards

    bot = discord_bot
    board = await _ghosts(bot)
    monkeypatch.setattr(boards, "LIVE_FOR", -1.0)  # as if the last move were long ago
    clicked = await bot.click(ANN, board, _moves(board)[0])
    (anew,) = bot.answers(clicked)
    assert len(mentioned(anew)) == 1 and not anew.edits
    assert bot.server.messages[board.id].deleted and bot.public() == [anew]


async def test_typed_commands_post_a_board_that_pings(discord_bot):
    bot = discord_bot
    board = await _ghosts(bot)
    shown = await bot.slash(BOB, "board")
    assert shown.callbacks[0] == {"type": 5, "data": {"flags": 64}}, "thinking, to Bob alone"
    (anew,) = bot.answers(shown)
    assert not anew.ephemeral and not anew.edits and mentioned(anew) == [int(ANN["id"])]
    assert [str(u) for u in anew.allowed_mentions["users"]] == [ANN["id"]]
    assert bot.server.messages[board.id].deleted and bot.public() == [anew]
    refused = await bot.slash(CID, "join")
    assert all(m.ephemeral for m in bot.answers(refused)) and bot.public() == [anew]
    clicked = await bot.click(ANN, anew, _moves(anew)[0])
    assert not bot.answers(clicked) and anew.edits, "a refusal does not bury the board"


def channel_boards(bot) -> list[Message]:
    return [m for m in bot.public() if m.channel_id == CHANNEL and m.attachments]


async def test_a_player_who_opted_in_gets_their_turn_by_dm_and_plays_from_there(discord_bot):
    """Haunted House: Bob says /escape clock dm on. Whenever the board waits for him, his
    view and moves arrive by direct message; a move pressed there lands on the game in
    the channel, whose one live board shows it."""
    bot = discord_bot
    await bot.slash(BOB, "clock", {"what": "dm on"})
    await bot.slash(ANN, "start", {"game": "haunted_house"})
    await bot.slash(BOB, "join")
    await bot.slash(ANN, "begin")
    played = 0
    for _ in range(12):
        (board,) = channel_boards(bot)
        (actor,) = mentioned(board)
        if actor == int(ANN["id"]):  # Ann did not opt in: the ping, then My hand, then a move
            mine = next(
                b["custom_id"] for b in board.buttons() if b["label"] == "My hand / my view"
            )
            shown = await bot.click(ANN, board, mine)
            (moves,) = [m for m in bot.answers(shown) if m.buttons()]
            await bot.click(ANN, moves, moves.buttons()[0]["custom_id"])
            continue
        dms = [m for m in bot.server.dms(BOB) if m.buttons()]
        assert dms, "Bob was told privately, with his moves"
        dm = dms[-1]
        assert not dm.ephemeral and dm.attachments, "his view, with his moves under it"
        version = (await bot.service.store.session(1)).version
        await bot.click(BOB, dm, dm.buttons()[0]["custom_id"])
        assert (await bot.service.store.session(1)).version > version, "the DM press moved"
        played += 1
    assert played >= 2
    assert len(channel_boards(bot)) == 1, "one live board in the channel"
    assert not [m for m in bot.server.dms(ANN)], "Ann gets no DMs"


async def test_a_move_from_my_hand_updates_that_one_private_message(discord_bot):
    """Haunted House without DMs: the ping, one click on My hand (the view with the moves
    under it, one message), then the move. If the board waits for the same player again,
    that private message becomes the next step; otherwise it loses its buttons."""
    bot = discord_bot
    members = {int(ANN["id"]): ANN, int(BOB["id"]): BOB}
    await bot.slash(ANN, "start", {"game": "haunted_house"})
    await bot.slash(BOB, "join")
    await bot.slash(ANN, "begin")
    mine = None
    for _ in range(12):
        (board,) = channel_boards(bot)
        (actor,) = mentioned(board)
        user = members[actor]
        if mine is None or mine[0] is not user:
            hand = next(
                b["custom_id"] for b in board.buttons() if b["label"] == "My hand / my view"
            )
            shown = await bot.click(user, board, hand)
            (view,) = bot.answers(shown)
            assert view.ephemeral and view.attachments and view.buttons(), (
                "view and moves, one message"
            )
            mine = (user, view)
        view = mine[1]
        edits = len(view.edits)
        await bot.click(user, view, view.buttons()[0]["custom_id"])
        assert len(view.edits) == edits + 1, "the pressed private message was updated"
        (board,) = channel_boards(bot)
        if board.components and mentioned(board) == [actor]:
            assert view.buttons() and view.attachments, "the next step, in the same message"
        else:
            assert not view.buttons(), "spent: no buttons left"
            mine = None
    assert len(channel_boards(bot)) == 1


async def test_junk_components_get_the_same_short_refusal_as_a_stale_button(discord_bot):
    """A custom id not of our form (no handler would answer it: Discord would show "This
    interaction failed") and a select whose value names no game both get a short
    ephemeral refusal, and change nothing."""
    bot = discord_bot
    board = await _ghosts(bot)
    version = (await bot.service.live(_chat())).version
    menu = "escape-menu:1:1:0"
    forged = dataclasses.replace(
        board,
        components=[
            {
                "type": 1,
                "components": [
                    {
                        "type": 3,
                        "custom_id": menu,
                        "options": [
                            {"label": "Forged", "value": v}
                            for v in ("a:99999:1:0:0", "not a button")
                        ],
                    }
                ],
            }
        ],
    )
    for payload in (
        bot.server.click_payload(ANN, board, "not-ours:1"),
        bot.server.select_payload(ANN, forged, menu, "a:99999:1:0:0"),
        bot.server.select_payload(ANN, forged, menu, "not a button"),
    ):
        record = await bot.server.push(payload)
        await bot.server.wait_for(lambda r=record: bot.answers(r) or r.callbacks)
        await bot.server.wait_for(lambda r=record: bot.answers(r))
        (answer,) = bot.answers(record)
        assert answer.ephemeral and len(answer.content) <= 200, answer.content
        assert "Something went wrong" not in answer.content
        assert "not one of ours" in answer.content or "belongs to no game" in answer.content
    assert (await bot.service.live(_chat())).version == version
