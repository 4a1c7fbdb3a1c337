"""The discord.py client: guild intent only, the `escape` command group, restart-proof
components, and where the HTTP API and gateway live."""

from __future__ import annotations

import logging
import math
import re

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket

import languages
from bot.discord.bridge import DiscordBridge
from bot.discord.components import ACTIVITY_PREFIX, ChoiceButton, ChoiceMenu
from bot.discord.slash_commands import GROUPED, escape_group
from bot.discord.translator import CatalogueTranslator
from bot.service import GameService, Link, Rate
from bot.settings import Settings
from bot.telemetry import metrics
from languages import msg, say

log = logging.getLogger(__name__)

OURS = (ChoiceButton, ChoiceMenu)  # the components the bot draws, matched by custom id
IDENTIFY_EVERY = 5.0  # seconds: Discord takes one IDENTIFY per max_concurrency bucket in 5 s


class EscapeClient(discord.Client):
    def __init__(self, service: GameService | None, *, activity: bool = False, **options) -> None:
        self.activity_on = activity  # boards offer Open board, which launches the Activity
        options.setdefault("intents", discord.Intents(guilds=True))
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        options.setdefault("http_trace", counted_calls())
        super().__init__(**options)
        self.bridge = DiscordBridge(service, self)
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(escape_group(self.bridge, GameService.game_list()))
        self.tree.on_error = self._on_tree_error
        self._watch_channels()
        self._concurrency: int | None = None  # Discord's max_concurrency, asked once

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A component whose custom id is none of ours (forged, or another app's) would get
        no answer at all, and Discord would show "This interaction failed": it gets the
        same short refusal as a stale button."""
        if interaction.type != discord.InteractionType.component:
            return
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in OURS):
            return  # dispatched to its button or menu
        if re.fullmatch(re.escape(ACTIVITY_PREFIX) + r"[0-9]{1,12}", custom_id):
            await self.bridge.launch_activity(interaction)
            return
        await self.bridge.refuse_junk(interaction)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Logins spaced across every process of the bot (issue 58): Discord takes one
        IDENTIFY per 5 seconds in each `max_concurrency` bucket (shard id modulo it), per
        token, so a shard waits for its bucket's turn in the windows the processes share
        (PostgreSQL), however many start at once (a deploy, a host's reboot). discord.py's
        own hook sleeps 5 seconds in this process only."""
        service = self.bridge._service
        if service is None:  # (sync: no service, no gateway)
            await super().before_identify_hook(shard_id, initial=initial)
            return
        bucket = (shard_id or 0) % await self._max_concurrency()
        await service.rates.turn(
            [(f"discord:identify:{bucket}", Rate(1, IDENTIFY_EVERY))], "discord"
        )

    async def _max_concurrency(self) -> int:
        """How many buckets of IDENTIFY Discord gives this bot (asked once; 1 if it cannot
        be asked). Warns when a tenth of the day's budget of logins is left: past it
        Discord resets the token."""
        if self._concurrency is None:
            try:
                _, _, limits = await self.http.get_bot_gateway()
            except (discord.HTTPException, discord.GatewayNotFound) as exc:
                log.info("could not ask Discord how logins may be spread (%s): one at a time", exc)
                self._concurrency = 1
            else:
                self._concurrency = max(1, int(limits.get("max_concurrency") or 1))
                total, left = limits.get("total") or 0, limits.get("remaining")
                if total and left is not None and left < total / 10:
                    log.warning("only %d of Discord's %d logins a day are left", left, total)
        return self._concurrency

    def links(self) -> list[Link]:
        """This connection to the gateway (one shard, or the only one): up once READY and
        while its websocket is open; discord.py reconnects by itself after a drop."""
        ws = self.ws
        up = self.is_ready() and not self.is_closed() and ws is not None and ws.open
        return [Link(str(self.shard_id or 0), up, latency_seconds(self.latency) if up else None)]

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogueTranslator())  # (used by `sync`)
        # what this client says names commands in their groups (`/escape admin unbar`)
        languages.spell_in_groups(GROUPED)
        # buttons and menus of any earlier run keep working: they are matched by custom id
        self.add_dynamic_items(*OURS)

    def _watch_channels(self) -> None:
        """Learn each channel's newest message from the interactions themselves: their
        payload carries the channel as Discord has it now. (discord.py's cached channel is
        updated only by message events, which a bot with the guilds intent alone never
        receives, so it would never notice a channel that has moved on past a board.)"""
        parsers = self._connection.parsers
        parse = parsers["INTERACTION_CREATE"]

        def watched(data: dict) -> None:
            channel = data.get("channel") or {}
            newest = channel.get("last_message_id")
            if channel.get("id") and newest:
                self.bridge.saw(int(channel["id"]), int(newest))
            parse(data)

        parsers["INTERACTION_CREATE"] = watched

    async def _on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
            # a Discord app that still holds the commands as they were before they changed
            # (a group added, an option renamed): told, not a traceback
            log.info("a slash command not as published now: %s", error)
            said = msg(
                "That command has changed since your Discord app loaded it: type /escape again and pick it anew."
            )
        else:
            log.error("slash command failed", exc_info=error)
            said = msg("Something went wrong on our side; try again in a moment.")
        text = say(said, languages.resolve(str(interaction.locale)))
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            pass


def latency_seconds(latency: float) -> float | None:
    """A heartbeat latency, or None before the first acknowledgement (discord.py: inf/nan)."""
    return latency if math.isfinite(latency) else None


def counted_calls() -> aiohttp.TraceConfig:
    """Every HTTP call discord.py makes (its own retries after a 429 included), counted by
    result in `escape_platform_calls_total`."""
    trace = aiohttp.TraceConfig()

    async def ended(_session, _context, params: aiohttp.TraceRequestEndParams) -> None:
        status = params.response.status
        result = "ok" if status < 400 else "rate_limited" if status == 429 else "failed"
        metrics.PLATFORM_CALLS.labels("discord", result).inc()

    async def failed(_session, _context, _params) -> None:
        metrics.PLATFORM_CALLS.labels("discord", "failed").inc()

    trace.on_request_end.append(ended)
    trace.on_request_exception.append(failed)
    return trace


def point_at(settings: Settings) -> None:
    """Send discord.py to another API base and gateway when configured. Only the tests (a
    stand-in Discord on 127.0.0.1) and self-hosted proxies set these; the defaults are
    Discord's own. discord.py keeps both process-wide, on the classes."""
    if settings.discord_api_base:
        base = settings.discord_api_base.rstrip("/")
        if not re.search(r"/api/v\d+$", base):
            base += "/api/v10"
        discord.http.Route.BASE = base
    if settings.discord_gateway:
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway)
