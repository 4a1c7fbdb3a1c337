"""`/escape ...`: one slash-command group, made from the service's command table.

Each command of the table becomes a subcommand with its options (a game is a choice of
the catalogue, a move completes from the asker's legal moves, a player is a member), and
hands its work to the bridge. A command that opens a table has one option of Discord's own:
a new thread.
"""

from __future__ import annotations

import inspect
import logging
from typing import Protocol

import discord
from discord import app_commands

from bot.service import COMMANDS, Command, commands
from languages import PSEUDO, LanguageName, available, msg

log = logging.getLogger(__name__)

# what the bot needs in a channel to post boards later (reminders use channel.send)
CHANNEL_NEEDS = ("view_channel", "send_messages", "attach_files")
THREAD_NEEDS = ("view_channel", "create_public_threads", "send_messages_in_threads", "attach_files")
INVITE_SCOPES = ("bot", "applications.commands")
THREAD_OPTION = msg("Open the table in a new thread of this channel")

ANNOTATIONS = {
    commands.TEXT: str,
    commands.MOVE: str,
    commands.GAME: app_commands.Choice[str],
    commands.LANGUAGE: app_commands.Choice[str],
    commands.PLAYER: discord.Member,
    commands.PAGE: int,
}


def invite_permissions() -> discord.Permissions:
    """What the invite link asks for: exactly what the bot checks it has when a table opens
    (answers to commands and clicks need no permission; boards it posts itself do)."""
    return discord.Permissions(**dict.fromkeys({*CHANNEL_NEEDS, *THREAD_NEEDS}, True))


def invite_url(application_id: int | str) -> str:
    return discord.utils.oauth_url(
        application_id, permissions=invite_permissions(), scopes=INVITE_SCOPES
    )


class DiscordBridge(Protocol):
    """What a slash command hands its work to (bridge.py's `DiscordBridge`, which imports
    this module): the command run, the asker's moves suggested."""

    async def slash(
        self, interaction: discord.Interaction, command: Command, options: dict
    ) -> None: ...
    async def autocomplete_moves(
        self, interaction: discord.Interaction, typed: str
    ) -> list[tuple[str, str]]: ...


def escape_group(bridge: DiscordBridge, games: list[tuple[str, str]]) -> app_commands.Group:
    """The `/escape` group: every command of the table (at most 25, Discord's limit)."""
    group = app_commands.Group(
        name="escape", description=msg("Escape-themed board games"), guild_only=True
    )
    choices = [app_commands.Choice(name=title[:100], value=gid) for gid, title in games[:25]]
    for command in COMMANDS[:25]:
        group.add_command(_slash(bridge, command, choices))
    return group


def _slash(
    bridge: DiscordBridge, command: Command, games: list[app_commands.Choice[str]]
) -> app_commands.Command:
    """One subcommand: a callback whose signature is the command's arguments."""
    parameters = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        )
    ]
    described: dict[str, str] = {}
    for arg in command.args:
        annotation = ANNOTATIONS[arg.kind]
        default = inspect.Parameter.empty if arg.required else None
        if not arg.required:
            annotation = annotation | None
        parameters.append(
            inspect.Parameter(
                arg.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
            )
        )
        described[arg.name] = arg.help[:100]
    if command.opens_table:  # in this channel, or in a thread of its own
        parameters.append(
            inspect.Parameter(
                "thread", inspect.Parameter.KEYWORD_ONLY, default=False, annotation=bool
            )
        )
        described["thread"] = THREAD_OPTION

    async def callback(interaction: discord.Interaction, **options) -> None:
        await bridge.slash(interaction, command, options)

    callback.__signature__ = inspect.Signature(parameters)
    callback.__discord_app_commands_param_description__ = described
    offered = {commands.GAME: games, commands.LANGUAGE: language_choices()}
    callback.__discord_app_commands_param_choices__ = {
        arg.name: offered[arg.kind] for arg in command.args if arg.kind in offered
    }
    slash = app_commands.Command(
        name=command.name, description=command.help[:100], callback=callback
    )
    for arg in command.args:
        if arg.kind == commands.MOVE:
            slash.autocomplete(arg.name)(_moves_of(bridge))
    return slash


def language_choices() -> list[app_commands.Choice[str]]:
    """Each language by its own name ("Deutsch (de)"), and `auto` (one's app's language)."""
    spoken = [c for c in available() if c != PSEUDO]
    return [
        *(app_commands.Choice(name=LanguageName(c).said_in(c)[:100], value=c) for c in spoken),
        app_commands.Choice(name="auto", value="auto"),
    ]


def _moves_of(bridge: DiscordBridge):
    async def complete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        found = await bridge.autocomplete_moves(interaction, current)
        return [
            app_commands.Choice(name=label[:100] or action[:100], value=action[:100])
            for label, action in found
        ]

    return complete
