"""A whole 18 Ghosts game through the real discord.py against the stand-in Discord:
slash commands and button clicks by members, refusals, stale buttons, a restart."""

from __future__ import annotations

import asyncio
import copy
import random

from tests.e2e.discord_fixtures import *  # noqa: F403
from tests.e2e.discord_fixtures import ANN, BOB, CID, DiscordBot, Message, mentioned

PNG = b"\x89PNG\r\n\x1a\n"
MEMBERS = {int(u["id"]): u for u in (ANN, BOB)}


def options_of(board: Message) -> list[tuple[str, str, str | None]]:
    """What a member can pick under a board: (kind, custom_id, select value), in order."""
    picks: list[tuple[str, str, str | None]] = [
        ("button", b["custom_id"], None)
        for b in board.buttons()
        if b.get("label") != "My hand / my view"
    ]
    for select in board.selects():
        picks += [("select", select["custom_id"], o["value"]) for o in select["options"]]
    return picks


async def pick(bot: DiscordBot, user: dict, board: Message, choice):
    kind, custom_id, value = choice
    if kind == "button":
        return await bot.click(user, board, custom_id)
    return await bot.choose(user, board, custom_id, value)


def assert_board(board: Message, actor: int | None) -> None:
    assert board.files and board.files[0][1].startswith(PNG), "the board is a real PNG upload"
    assert board.attachments[0]["description"], "the picture has alt text"
    assert not board.ephemeral
    allowed = board.allowed_mentions
    assert allowed["parse"] == [], "no @everyone, role or blanket user pings"
    if actor is None:
        assert allowed.get("users", []) == []
    else:
        assert mentioned(board) == [actor]
        assert [str(u) for u in allowed["users"]] == [str(actor)]


async def open_ghosts(bot: DiscordBot) -> Message:
    start = await bot.slash(ANN, "start", {"game": "ghosts18", "options": "variant=short"})
    assert [c["type"] for c in start.callbacks] == [5]  # deferred first
    (lobby,) = bot.answers(start)
    assert not lobby.ephemeral and "18 Ghosts" in lobby.content
    join = next(b["custom_id"] for b in lobby.buttons() if b["label"] == "Join")
    joined = await bot.click(BOB, lobby, join)  # the second seat fills the table: it begins
    assert [c["type"] for c in joined.callbacks] == [6]
    (board,) = bot.answers(joined)
    assert_board(board, int(ANN["id"]))
    assert bot.server.messages[lobby.id].deleted, "the board replaced the lobby"
    return board


def live_boards(bot: DiscordBot) -> list[Message]:
    return [m for m in bot.public() if m.attachments]


async def test_whole_game_by_two_members_until_one_wins(discord_bot):
    """Most moves are clicks on the board's buttons or select, which edit the one live
    board in place; every fourth is typed as /escape move with a value the autocomplete
    offered, which posts the board anew (a new message pings the player to act) and deletes
    the old one. The channel never holds more than one board."""
    bot = discord_bot
    board = await open_ghosts(bot)
    rng = random.Random(1)
    saw_select = False
    typed = 0
    for turn in range(400):
        if not mentioned(
            board
        ):  # the final board: nobody to act (it offers Rematch, Replay, Review)
            break
        (actor,) = mentioned(board)
        user = MEMBERS[actor]
        picks = options_of(board)
        assert picks, "the player to act has something to press"
        assert len(board.components) <= 5
        saw_select |= bool(board.selects())
        before = len(bot.public())
        if turn % 4 == 3:
            completed = await bot.autocomplete(user, "")
            (callback,) = completed.callbacks
            suggestions = callback["data"]["choices"]
            assert 0 < len(suggestions) <= 25
            action = rng.choice(suggestions)["value"]
            record = await bot.slash(user, "move", {"action": action})
            assert [c["type"] for c in record.callbacks] == [5]  # deferred, then the board
            typed += 1
        else:
            record = await pick(bot, user, board, rng.choice(picks))
            assert [c["type"] for c in record.callbacks] == [6]
        answers = bot.answers(record)
        (live,) = live_boards(bot)
        assert len(bot.public()) == before, "one live board, never more"
        if turn % 4 == 3:
            assert answers == [live] and live.id != board.id, "a typed move: a new board"
            assert not live.edits and bot.server.messages[board.id].deleted
        else:
            assert answers == [] and live.id == board.id and live.edits, "a click: an edit"
        board = live
        assert_board(board, mentioned(board)[0] if mentioned(board) else None)
    else:
        raise AssertionError("the game did not end in 400 moves")
    assert "wins" in board.content
    assert bot.public() == [board], "a whole game leaves one message in the channel"
    assert saw_select, "some turn offered more than 25 moves and used a select"
    assert typed >= 5, "slash-command moves were part of the game"
    row = await bot.service.store.session(1)
    assert row.status == "finished"
    # nobody was ever pinged but the player to act
    for message in bot.public():
        for user_id in mentioned(message):
            assert [str(u) for u in message.allowed_mentions["users"]] == [str(user_id)]


async def snapshot(bot: DiscordBot) -> tuple[int, dict | None, int]:
    """What a refused request must leave alone: the version, the game state, the log."""
    row = await bot.service.store.session(1)
    return row.version, row.state, len(await bot.service.store.log(1))


async def test_third_member_and_stale_button_are_refused_without_change(discord_bot):
    bot = discord_bot
    first = await open_ghosts(bot)
    unchanged = await snapshot(bot)
    public_before = len(bot.public())

    joined = await bot.slash(CID, "join")
    (refusal,) = bot.answers(joined)
    assert refusal.ephemeral and "already begun" in refusal.content
    clicked = await bot.click(CID, first, options_of(first)[0][1])
    (refusal,) = bot.answers(clicked)
    assert refusal.ephemeral and "not playing" in refusal.content
    assert len(bot.public()) == public_before
    assert await snapshot(bot) == unchanged

    # as the channel showed it before the click took its buttons away (another client
    # may still show them, or a later /escape board may repeat them)
    seen_before = copy.deepcopy(first)
    moved = await bot.click(ANN, first, options_of(first)[0][1])
    assert not bot.answers(moved), "the move edited the board in place"
    second = bot.latest_board()
    first = seen_before
    unchanged = await snapshot(bot)
    public_before = len(bot.public())
    # Ann's own buttons on the older board are stale now (her seat, an older version)
    stale = await bot.click(ANN, first, options_of(first)[1][1])
    (refusal,) = bot.answers(stale)
    assert refusal.ephemeral and "moved on" in refusal.content
    assert bot.server.messages[second.id].components, "the current board keeps its buttons"
    # Bob's buttons on the current board are not Ann's to press
    not_hers = await bot.click(ANN, second, options_of(second)[0][1])
    (refusal,) = bot.answers(not_hers)
    assert refusal.ephemeral and "another player" in refusal.content
    assert len(bot.public()) == public_before
    assert await snapshot(bot) == unchanged
    # a forged custom id (a modified client) reaches the service, which refuses it
    tampered = copy.deepcopy(second)
    tampered.components[0]["components"][0]["custom_id"] = "escape:a:1:999:1:0"
    forged = await bot.click(BOB, tampered, "escape:a:1:999:1:0")
    (refusal,) = bot.answers(forged)
    assert refusal.ephemeral
    assert len(bot.public()) == public_before
    assert await snapshot(bot) == unchanged


async def test_an_old_button_still_works_after_a_restart(discord_bot):
    bot = discord_bot
    board = await open_ghosts(bot)
    await bot.click(ANN, board, options_of(board)[0][1])
    board = bot.latest_board()
    version = (await bot.service.store.session(1)).version
    await bot.restart()  # a new client and service over the same database
    assert bot.server.identify_count == 2 and bot.server.connected == 1
    (actor,) = mentioned(board)
    assert actor == int(BOB["id"])
    as_posted = copy.deepcopy(board)  # the click below takes its buttons away
    after = await bot.click(BOB, board, options_of(board)[0][1])
    assert [c["type"] for c in after.callbacks] == [6]
    # the live board's record is kept with the table: the new run edits the same message
    assert bot.answers(after) == []
    edited = bot.server.messages[board.id]
    assert not edited.deleted and edited.edits and edited.attachments
    assert bot.latest_board().id == board.id
    assert (await bot.service.store.session(1)).version == version + 1
    # and the board from before the restart is stale like any other
    again = await bot.click(BOB, as_posted, options_of(as_posted)[1][1])
    (refusal,) = bot.answers(again)
    assert refusal.ephemeral and "moved on" in refusal.content
    assert (await bot.service.store.session(1)).version == version + 1


async def test_hand_is_ephemeral_and_errors_never_public(discord_bot):
    bot = discord_bot
    await open_ghosts(bot)
    public_before = len(bot.public())
    hand = await bot.slash(BOB, "hand")
    assert hand.callbacks == [{"type": 5, "data": {"flags": 64}}]
    answers = bot.answers(hand)
    assert answers and all(m.ephemeral for m in answers)
    watcher = await bot.slash(CID, "hand")
    assert all(m.ephemeral for m in bot.answers(watcher))
    # a refused move after a public deferral: the "thinking" message goes, the error is private
    bad = await bot.slash(BOB, "move", {"action": "fly away"})
    (refusal,) = bot.answers(bad)
    assert refusal.ephemeral
    assert len(bot.public()) == public_before
    log = await bot.slash(ANN, "log")
    assert all(m.ephemeral for m in bot.answers(log))


async def test_move_by_slash_command_and_autocomplete(discord_bot):
    bot = discord_bot
    await open_ghosts(bot)
    completed = await bot.autocomplete(ANN, "blue")
    (callback,) = completed.callbacks
    assert callback["type"] == 8
    choices = callback["data"]["choices"]
    assert 0 < len(choices) <= 25
    assert all("blue" in (c["name"] + c["value"]).lower() for c in choices)
    nothing = await bot.autocomplete(BOB, "")  # not Bob's turn: no suggestions
    assert nothing.callbacks[0]["data"]["choices"] == []
    moved = await bot.slash(ANN, "move", {"action": choices[0]["value"]})
    (board,) = bot.answers(moved)
    assert not board.ephemeral and board.attachments
    assert mentioned(board) == [int(BOB["id"])]


async def test_abort_needs_the_creator_or_manage_messages(discord_bot):
    from tests.e2e.discord_fixtures import ADMIN_PERMISSIONS

    bot = discord_bot
    await open_ghosts(bot)
    refused = await bot.slash(CID, "abort")
    assert bot.answers(refused)[0].ephemeral
    assert (await bot.service.store.session(1)).status == "active"
    done = await bot.slash(CID, "abort", permissions=ADMIN_PERMISSIONS)
    (notice,) = bot.answers(done)
    assert not notice.ephemeral and "ended the game" in notice.content
    assert (await bot.service.store.session(1)).status == "aborted"
    games = await bot.slash(ANN, "games")
    assert all(m.ephemeral for m in bot.answers(games))


async def test_two_racing_clicks_one_wins(discord_bot):
    bot = discord_bot
    board = await open_ghosts(bot)
    picks = options_of(board)
    snapshot = copy.deepcopy(board)
    public_before = len(bot.public())
    first, second = await asyncio.gather(
        bot.click(ANN, board, picks[0][1]), bot.click(ANN, snapshot, picks[1][1])
    )
    answers = bot.answers(first) + bot.answers(second)
    assert [m.ephemeral for m in answers] == [True], "the loser is told; the winner edits"
    assert len(bot.public()) == public_before
    assert (await bot.service.store.session(1)).version == 3
