"""The Discord Activity as a test opens it: a Discord bot on the stand-in, the web board
with the stand-in Discord client served beside it (it frames the Activity and answers the
Embedded App SDK), and the address that client is opened at for a member."""

from __future__ import annotations

import json
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import urlencode

import pytest

from bot.web.board_server import STATIC
from tests.bot.web_fixtures import serve_board
from tests.e2e.browser import IN_CI
from tests.e2e.discord_fixtures import CHANNEL, GUILD_ID, DiscordBot
from tests.e2e.discord_standin import APP_ID

CLIENT = Path(__file__).parent / "discord_client"
CODE = "activity-code"


@asynccontextmanager
async def activity_board(standin, tmp_path):
    """(the Discord bot, the served web board); fails in CI, skips elsewhere, while the
    Activity's script is not built."""
    if not (STATIC / "build" / "activity.js").is_file():
        message = "the Activity's script is not built (make test builds it with npm)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    bot = DiscordBot(standin, tmp_path / "d.sqlite3")
    await bot.start()
    web = await serve_board(
        bot.service,
        routes=lambda app: app.router.add_static("/discord-client", CLIENT),
        discord_client_id=str(APP_ID),
        discord_client_secret=standin.client_secret,
        discord_api=standin.api_base,
    )
    try:
        yield bot, web
    finally:
        await web.close()
        await bot.stop()


def client_url(standin, web, member: dict, platform: str = "desktop") -> str:
    """The stand-in client's page that opens the Activity for `member` in CHANNEL (its
    OAuth code answers as them)."""
    standin.oauth_codes[CODE] = member
    query = {
        "code": CODE,
        "client_id": str(APP_ID),
        "guild_id": str(GUILD_ID),
        "channel_id": str(CHANNEL),
        "user": json.dumps(member),
        "platform": platform,
    }
    return f"{web.url}/discord-client/client.html?{urlencode(query)}"
