"""Fixtures for the Discord end-to-end tests: the stand-in, the real discord.py client
running `bot.discord.run_discord`, and a small driver that plays members of a server.

Imported by the test modules (`from tests.e2e.discord_fixtures import *`), so that these
names do not collide with another platform's conftest.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import socket
from dataclasses import dataclass, field
from pathlib import Path

import discord
import pytest
from discord.gateway import DiscordWebSocket

from bot.discord import run_discord
from bot.service import GameService
from bot.service.commands import BY_NAME
from bot.settings import Settings
from bot.store import Store
from tests.e2e.discord_standin import (
    GUILD_ID,
    MANAGE_MESSAGES,
    MEMBER_PERMISSIONS,
    DiscordStandIn,
    Message,
    user_payload,
)

CHANNEL = 920000000000000001
ANN = user_payload(930000000000000011, "Ann")
BOB = user_payload(930000000000000022, "Bob")
CID = user_payload(930000000000000033, "Cid")
ADMIN_PERMISSIONS = str(int(MEMBER_PERMISSIONS) | MANAGE_MESSAGES)
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
MENTION = re.compile(r"<@!?(\d+)>")

__all__ = [
    "ADMIN_PERMISSIONS",
    "ANN",
    "BOB",
    "CHANNEL",
    "CID",
    "GUILD_ID",
    "DiscordBot",
    "Message",
    "discord_bot",
    "local_only",
    "mentioned",
    "standin",
]


@pytest.fixture
def local_only(monkeypatch):
    """No test may reach Discord: name resolution refuses anything but 127.0.0.1, and the
    process-wide API base and gateway are put back after the test."""
    real = socket.getaddrinfo

    def guarded(host, *args, **kwargs):
        name = host.decode() if isinstance(host, bytes) else host
        if name not in LOCAL_HOSTS:
            raise OSError(f"test tried to reach {name!r}: only the stand-in is allowed")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", guarded)
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", DiscordWebSocket.DEFAULT_GATEWAY)


@pytest.fixture
async def standin(local_only):
    server = DiscordStandIn()
    await server.start()
    server.text_channel(CHANNEL)
    yield server
    await server.stop()


@dataclass
class DiscordBot:
    """The bot under test: `run_discord` in a task, restartable over the same database."""

    server: DiscordStandIn
    db_path: Path
    service: GameService | None = None
    task: asyncio.Task | None = None
    finished: dict[int, asyncio.Event] = field(default_factory=dict)
    overrides: dict = field(default_factory=dict)  # more settings, e.g. shards
    seed: int = 1234  # the chance seed of every game the service starts from now on

    @property
    def settings(self) -> Settings:
        return Settings(
            db_path=self.db_path,
            discord_token="standin-token",
            discord_api_base=self.server.api_base,
            discord_gateway=self.server.gateway_url,
            **self.overrides,
        )

    async def start(self) -> None:
        store = await Store.open(self.db_path)
        self.service = GameService(store, seed_source=lambda: self.seed)
        self.server.identified.clear()
        self.task = asyncio.create_task(
            run_discord(self.settings, self.service, guild_ready_timeout=0.01)
        )
        identified = asyncio.create_task(self.server.identified.wait())
        done, _ = await asyncio.wait(
            {identified, self.task}, timeout=10, return_when=asyncio.FIRST_COMPLETED
        )
        if identified not in done:
            identified.cancel()
            if self.task.done():
                self.task.result()  # raises what stopped the client
            raise TimeoutError("the client never identified on the stand-in gateway")
        assert self.server.api_base == discord.http.Route.BASE  # never the real Discord

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            assert self.task.done()
            self.task = None
            # the client closed its gateway connection on the way out
            await self.server.wait_for(lambda: not self.server.connected, timeout=5)
        if self.service is not None:
            await self.service.store.close()
            self.service = None

    async def restart(self) -> None:
        await self.stop()
        await self.start()

    # ----- members acting ---------------------------------------------------------------
    async def push_and_settle(self, payload: dict, timeout: float = 10.0):
        event = self.finished.setdefault(int(payload["id"]), asyncio.Event())
        record = await self.server.push(payload)
        await asyncio.wait_for(event.wait(), timeout)
        return record

    async def slash(self, user: dict, sub: str, options: dict | None = None, **kw):
        """`/escape SUB` as a member picks it from Discord's menu: in its group there, if
        the command declares one."""
        channel = kw.pop("channel", CHANNEL)
        declared = BY_NAME.get(sub)
        if declared is not None and declared.group:
            sub = f"{declared.group} {sub}"
        payload = self.server.slash_payload(user, channel, sub, options, **kw)
        return await self.push_and_settle(payload)

    async def click(self, user: dict, message: Message, custom_id: str, **kw):
        return await self.push_and_settle(self.server.click_payload(user, message, custom_id, **kw))

    async def choose(self, user: dict, message: Message, custom_id: str, value: str):
        payload = self.server.select_payload(user, message, custom_id, value)
        return await self.push_and_settle(payload)

    async def autocomplete(self, user: dict, typed: str, channel: int = CHANNEL):
        payload = self.server.autocomplete_payload(user, channel, typed)
        return await self.push_and_settle(payload)

    # ----- reading what the bot posted --------------------------------------------------
    def public(self) -> list[Message]:
        """What everyone in the channel can see (not ephemeral, not deleted)."""
        return [
            m
            for m in self.server.messages.values()
            if not m.ephemeral and not m.deleted and not m.thinking
        ]

    def answers(self, record) -> list[Message]:
        """The messages an interaction produced (followups and its original response)."""
        return [m for m in self.server.messages_for(record.token) if not m.thinking]

    def latest_board(self) -> Message:
        boards = [m for m in self.public() if m.attachments or m.components]
        assert boards, "the bot posted no board"
        return boards[-1]


def mentioned(message: Message) -> list[int]:
    return [int(x) for x in MENTION.findall(message.content)]


@pytest.fixture
async def discord_bot(standin, tmp_path, monkeypatch):
    """A running bot. Interactions are "settled" when discord.py has finished handling
    them (the tree call or the component callback returned), which the test awaits."""
    bot = DiscordBot(standin, tmp_path / "escape.sqlite3")

    def mark(interaction: discord.Interaction) -> None:
        bot.finished.setdefault(interaction.id, asyncio.Event()).set()

    tree_call = discord.app_commands.CommandTree._call

    async def traced_call(self, interaction):
        try:
            await tree_call(self, interaction)
        finally:
            mark(interaction)

    from bot.discord.bridge import DiscordBridge

    press = DiscordBridge.press

    async def traced_press(self, interaction, data):
        try:
            await press(self, interaction, data)
        finally:
            mark(interaction)

    monkeypatch.setattr(discord.app_commands.CommandTree, "_call", traced_call)
    monkeypatch.setattr(DiscordBridge, "press", traced_press)
    await bot.start()
    yield bot
    await bot.stop()
