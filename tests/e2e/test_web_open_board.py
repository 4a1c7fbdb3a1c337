"""The chats' doors to the web board, with the real discord.py and python-telegram-bot:
Telegram's group board carries the Mini App's direct link (a URL button: Telegram refuses
web_app buttons in groups) and a player's private view a web_app button; Discord's board
carries Open board, whose click is answered with LAUNCH_ACTIVITY (callback type 12); and
`/escape web` answers the asker alone with a signed link."""

from __future__ import annotations

import asyncio

import discord

from bot.discord.bridge import DiscordBridge
from bot.service import WebDoor
from bot.service.base.web_links import WebSigner
from tests.e2e.discord_fixtures import *  # noqa: F403
from tests.e2e.discord_fixtures import ANN, BOB, DiscordBot
from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import GROUP, TelegramBot, buttons, fast_limiter, open_table

PUBLIC = "https://escape.example.org"
WEB = {"web_address": ("127.0.0.1", 9), "public_url": PUBLIC}


async def test_telegram_boards_open_the_mini_app(tg_standin, tmp_path):
    standin = tg_standin
    bot = TelegramBot(
        standin,
        tmp_path / "t.sqlite3",
        limiter=fast_limiter(),
        overrides={**WEB, "telegram_webapp": "board"},
    )
    await bot.start()
    try:
        board = await open_table(standin)
        sid = (await bot.live()).id
        urls = [b.get("url") for b in buttons(board)]
        assert f"https://t.me/escape_test_bot/board?startapp={sid}" in urls
        assert not any("web_app" in b for b in buttons(board))  # refused in groups
        # a private chat: the player's view of a game with secrets comes with a web_app button
        mark = len(standin.calls)
        await standin.say(standin.ann, standin.ann["id"], "/start")
        await standin.say(standin.ann, standin.ann["id"], f"/start h{sid}")
        view = await standin.wait_for(
            lambda c: (
                c.method == "sendPhoto" and str(c.params.get("chat_id")) == str(standin.ann["id"])
            ),
            after=mark,
        )
        apps = [b["web_app"]["url"] for b in buttons(view.result) if "web_app" in b]
        assert apps == [f"{PUBLIC}/tg?table={sid}"]
        assert not standin.violations
    finally:
        await bot.stop()


async def test_telegram_web_answers_privately_with_a_signed_link(tg_bot, tg_standin):
    standin = tg_standin
    await open_table(standin)
    mark = len(standin.calls)
    await standin.say(standin.ann, GROUP, "/escape web")
    said = await standin.wait_for(lambda c: c.method == "sendMessage", after=mark)
    assert "not turned on" in said.result["text"]  # no ESCAPE_WEB here: said so, nothing sent
    tg_bot.service.open_web(WebDoor(PUBLIC, WebSigner(b"a test web secret, 32 bytes long")))
    mark = len(standin.calls)
    await standin.say(standin.ann, standin.ann["id"], "/start")
    # her private chat is kept before the hello is said; without waiting, the two updates race
    await standin.wait_for(
        lambda c: c.method == "sendMessage" and str(c.params["chat_id"]) == str(standin.ann["id"]),
        after=mark,
    )
    mark = len(standin.calls)
    await standin.say(standin.ann, GROUP, "/escape web")
    sent = await standin.wait_for(
        lambda c: (
            c.method == "sendMessage" and f"{PUBLIC}/link/" in (c.result or {}).get("text", "")
        ),
        after=mark,
    )
    assert str(sent.params["chat_id"]) == str(standin.ann["id"])  # the private chat only
    group = [
        c
        for c in standin.calls_of("sendMessage", after=mark)
        if str(c.params["chat_id"]) == str(GROUP)
    ]
    assert not any("/link/" in c.params["text"] for c in group)


async def test_discord_open_board_launches_the_activity(standin, tmp_path, monkeypatch):
    bot = DiscordBot(
        standin,
        tmp_path / "d.sqlite3",
        overrides={**WEB, "discord_client_id": "900000000000000001"},
    )
    launched = []
    real = DiscordBridge.launch_activity

    async def traced(self, interaction: discord.Interaction) -> None:
        await real(self, interaction)
        launched.append(interaction.id)
        bot.finished.setdefault(interaction.id, asyncio.Event()).set()

    monkeypatch.setattr(DiscordBridge, "launch_activity", traced)
    original = discord.app_commands.CommandTree._call

    async def marked(self, interaction):  # a slash command is settled once handled
        try:
            await original(self, interaction)
        finally:
            bot.finished.setdefault(interaction.id, asyncio.Event()).set()

    monkeypatch.setattr(discord.app_commands.CommandTree, "_call", marked)
    await bot.start()
    try:
        await bot.slash(ANN, "start", {"game": "ghosts18", "options": "variant=short"})
        await bot.slash(BOB, "join")
        board = bot.latest_board()
        opens = [c for c in board.custom_ids() if c.startswith("escape-activity:")]
        assert len(opens) == 1
        await bot.click(ANN, board, opens[0])
        callbacks = [c for c in standin.callbacks() if c.body and c.body.get("type") == 12]
        assert len(callbacks) == 1 and launched
    finally:
        await bot.stop()
