"""Both platforms in one process: the real `escape-bot run` with a Telegram and a Discord
token, pointed at both stand-ins, serving a game on each from one event loop and one
database."""

from __future__ import annotations

import asyncio

from bot.store import Store
from tests.e2e.discord_fixtures import ANN, BOB, CHANNEL, local_only, standin  # noqa: F401
from tests.e2e.discord_standin import DiscordStandIn
from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import (
    GROUP,
    PNG,
    choice_buttons,
    current_board,
    escape_bot_run,
    mentioned_ids,
    open_table,
    press_and_wait,
    stop_escape_bot,
)


async def discord_answers(server: DiscordStandIn, payload: dict, timeout: float = 15) -> list:
    """Push an interaction and wait until the bot has posted its answer (not a deferral)."""
    record = await server.push(payload)
    return await server.wait_for(
        lambda: [m for m in server.messages_for(record.token) if not m.thinking], timeout
    )


async def test_escape_bot_run_serves_telegram_and_discord_in_one_process(
    tg_standin,
    standin,  # noqa: F811 (the Discord stand-in fixture)
    tmp_path,
):
    telegram, discord = tg_standin, standin
    db = tmp_path / "both.sqlite3"
    process = await escape_bot_run(
        tmp_path,
        {
            "TELEGRAM_TOKEN": telegram.token,
            "TELEGRAM_BASE_URL": telegram.base_url,
            "TELEGRAM_BASE_FILE_URL": telegram.base_file_url,
            "DISCORD_TOKEN": "standin-token",
            "DISCORD_API_BASE": discord.api_base,
            "DISCORD_GATEWAY": discord.gateway_url,
            "ESCAPE_DB": str(db),
        },
    )
    try:
        await asyncio.wait_for(discord.identified.wait(), 30)
        await telegram.wait_for(lambda c: c.method == "setMyCommands", timeout=30)

        # A game opens on each platform, the two interleaved.
        (lobby,) = await discord_answers(
            discord, discord.slash_payload(ANN, CHANNEL, "start", {"game": "ghosts18"})
        )
        assert "18 Ghosts" in lobby.content
        board = await open_table(telegram, session=2)  # the database's second game
        join = next(b["custom_id"] for b in lobby.buttons() if b["label"] == "Join")
        (discord_board,) = await discord_answers(discord, discord.click_payload(BOB, lobby, join))
        assert discord_board.files and discord_board.files[0][1].startswith(PNG)
        assert f"<@{ANN['id']}>" in discord_board.content

        # A move on Telegram while the Discord game waits; the Telegram board follows it.
        assert mentioned_ids(board) == [telegram.ann["id"]]
        await press_and_wait(
            telegram, telegram.ann, board, choice_buttons(board)[0]["callback_data"]
        )
        assert mentioned_ids(current_board(telegram)) == [telegram.bob["id"]]
    finally:
        output = await stop_escape_bot(process)
    assert process.returncode in (0, 130), output
    assert "Traceback" not in output, output
    await discord.wait_for(lambda: not discord.connected)

    # One database holds both games, each with its own platform and chat.
    store = await Store.open(db)
    try:
        rows = [await store.session(i) for i in (1, 2)]
        assert {(r.platform, r.chat, r.game) for r in rows} == {
            ("discord", str(CHANNEL), "ghosts18"),
            ("telegram", str(GROUP), "ghosts18"),
        }
        telegram_game = next(r for r in rows if r.platform == "telegram")
        assert len(await store.log(telegram_game.id)) >= 1, "the Telegram move was stored"
    finally:
        await store.close()
