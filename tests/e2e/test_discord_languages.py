"""Issue 26 on Discord: a member whose client is German, in a server whose language is
English, reads German in what only they see and English in what the channel sees, until
a player sets the table's language; Discord's server locale opens a table in its language."""

from __future__ import annotations

from tests.e2e.discord_fixtures import *  # noqa: F403
from tests.e2e.discord_fixtures import ANN, BOB

GERMAN = {"locale": "de"}


async def _board_and_table(bot):
    start = await bot.slash(
        ANN, "start", {"game": "ghosts18", "options": "variant=short"}, **GERMAN
    )
    (lobby,) = bot.answers(start)
    labels = [b["label"] for b in lobby.buttons()]
    join = lobby.buttons()[0]["custom_id"]
    joined = await bot.click(BOB, lobby, join)
    (board,) = bot.answers(joined)
    return lobby, labels, board


async def test_a_german_member_in_an_english_server_reads_german_alone_and_english_together(
    discord_bot,
):
    bot = discord_bot
    lobby, labels, board = await _board_and_table(bot)
    assert "opened a table" in lobby.content  # the channel's words: the server's English
    assert labels[0] == "Join", labels
    assert board.attachments[0]["description"].startswith("18 Ghosts")  # English alt text

    # what only Ann reads follows her client's German
    status = await bot.slash(ANN, "language", **GERMAN)
    (said,) = bot.answers(status)
    assert said.ephemeral and "Englisch (en)" in said.content, said.content
    bad = await bot.slash(ANN, "move", {"action": "fly away"}, **GERMAN)
    (refusal,) = bot.answers(bad)
    assert refusal.ephemeral and "nicht erlaubt" in refusal.content, refusal.content
    hand = await bot.slash(BOB, "language")  # Bob's client is English: his answer too
    (bobs,) = bot.answers(hand)
    assert bobs.ephemeral and "English (en)" in bobs.content, bobs.content

    # Ann sets the table's language: the next board the channel sees is German
    before = len(bot.public())
    changed = await bot.slash(ANN, "language", {"code": "de"}, **GERMAN)
    assert any("Deutsch" in m.content for m in bot.answers(changed)), [
        m.content for m in bot.answers(changed)
    ]
    await bot.slash(BOB, "board")
    newest = bot.latest_board()
    assert len(bot.public()) >= before
    assert newest.content.startswith("Warten auf Ann"), newest.content
    assert "Waiting for Ann" in board.content, board.content  # before: English


async def test_a_german_server_opens_its_tables_in_german(discord_bot):
    bot = discord_bot
    start = await bot.slash(ANN, "start", {"game": "ghosts18"}, guild_locale="de")
    (lobby,) = bot.answers(start)
    assert "eröffnet" in lobby.content or "Tisch" in lobby.content, lobby.content
    assert lobby.buttons()[0]["label"] == "Mitspielen", lobby.buttons()
