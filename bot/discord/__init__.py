"""The Discord adapter: `/escape` slash commands and buttons over the game service.

`run_discord` is what `escape-bot run` starts when DISCORD_TOKEN is set; `sync_commands`
is `escape-bot sync` (commands are published on demand, never on every start).
"""

from __future__ import annotations

import asyncio
import logging

import aiohttp
import discord

from bot.discord.bridge import DM_NOTE, place
from bot.discord.client import EscapeClient, point_at
from bot.discord.membership import member_lookup
from bot.discord.pacing import DiscordPacer
from bot.discord.slash_commands import invite_url
from bot.service import FrontEnd, GameService, Rate
from bot.settings import Settings
from bot.startup_errors import (
    EXIT_SETTINGS,
    PlatformUnreachable,
    SettingRefused,
    StartupError,
    connect_with_retries,
)
from languages import msg

log = logging.getLogger(__name__)

__all__ = ["EscapeClient", "run_discord", "sync_commands"]


async def run_discord(settings: Settings, service: GameService, **client_options) -> None:
    """Connect and serve until cancelled; the client is closed cleanly on the way out.
    `client_options` go to discord.Client (tests lower `guild_ready_timeout`)."""
    from bot.discord.shards import client_for

    point_at(settings)
    kind, shard_options = client_for(settings)
    activity = bool(settings.discord_client_id and settings.public_url and settings.web_address)
    # every request waits for its turn in the limits all the bot's processes share
    pacer = DiscordPacer(service.rates, Rate(*settings.discord_rate_global))
    client_options.setdefault("http_trace", pacer.trace())
    client = kind(service, activity=activity, **shard_options, **client_options)
    service.add_front_end(
        "discord",
        FrontEnd(
            client.bridge.deliver,
            place=place,
            scope_word=msg("server"),
            chat_word=msg("channel"),
            dm_note=lambda contact: DM_NOTE,
            links=client.links,
            members=member_lookup(client),
            open_place=client.bridge.open_place,
        ),
    )
    try:
        async with client:  # closes the HTTP session and the gateway on any exit
            await log_in(client, settings)
            await client.connect()  # discord.py reconnects the gateway by itself from here
    finally:
        client.bridge.close()  # owed posts are not retried by a closed client


async def sync_commands(settings: Settings, guild_ids: list[int]) -> int:
    """Publish `/escape`: to each guild given (at once; for testing servers), else globally
    (may take a while to appear everywhere); then print the invite link. Returns a process
    exit code."""
    if not settings.discord_token:
        print("DISCORD_TOKEN is not set: nothing to sync.", flush=True)
        return EXIT_SETTINGS
    point_at(settings)
    client = EscapeClient(None)
    try:
        async with client:
            await log_in(client, settings)
            if guild_ids:
                for guild_id in guild_ids:
                    guild = discord.Object(guild_id)
                    client.tree.copy_global_to(guild=guild)
                    synced = await client.tree.sync(guild=guild)
                    print(f"Synced {len(synced)} command(s) to guild {guild_id}.", flush=True)
            else:
                synced = await client.tree.sync()
                print(
                    f"Synced {len(synced)} global command(s); Discord may take a while to "
                    "show them everywhere.",
                    flush=True,
                )
            if client.application_id is not None:
                print(f"Invite link: {invite_url(client.application_id)}", flush=True)
    except discord.HTTPException as exc:
        print(f"Discord refused the sync: {exc}", flush=True)
        return 1
    return 0


async def log_in(client: discord.Client, settings: Settings) -> None:
    """discord.py's login (the token checked by GET /users/@me), tried again while Discord
    cannot be reached; a refused token or an unreachable API becomes a StartupError."""

    async def attempt() -> None:
        try:
            await client.login(settings.discord_token)
        except BaseException:
            # each login opens a new HTTP session: a failed one is closed (its connector
            # with it, so the next login makes a new one) before the next try
            await client.http.close()
            client.http.connector = discord.utils.MISSING
            raise

    await connect_with_retries(attempt, explain_login_failure, tries=settings.connect_tries)


def explain_login_failure(exc: BaseException) -> StartupError | None:
    """The operator's one line for what stopped the login (None: not a login problem)."""
    where = discord.http.Route.BASE
    if isinstance(exc, discord.LoginFailure):
        return SettingRefused(
            "Discord rejected DISCORD_TOKEN (401 Unauthorized): copy the token again from the "
            "Bot page of the Developer Portal"
        )
    if isinstance(exc, discord.DiscordServerError):
        return PlatformUnreachable(f"the Discord API ({where}) failed: {exc.status} {exc.text}")
    if isinstance(exc, discord.HTTPException):
        return PlatformUnreachable(f"the Discord API ({where}) refused the login: {exc}")
    if isinstance(exc, aiohttp.ClientError | OSError | asyncio.TimeoutError):
        return PlatformUnreachable(f"cannot reach the Discord API ({where}): {_cause(exc)}")
    return None


def _cause(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__
