"""`/escape ...`: one slash-command group, made from the service's command table.

Each command of the table becomes a subcommand with its options (a game is a choice of
the catalogue, a move completes from the asker's legal moves, a player is a member), and
hands its work to the bridge. A command that opens a table has one option of Discord's own:
a new thread.
"""

from __future__ import annotations

import inspect
import logging
import re
from types import SimpleNamespace
from typing import Protocol

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.discord.translator import translated
from bot.service import COMMANDS, Command, commands
from bot.startup_errors import StartupError
from languages import PSEUDO, LanguageName, available, msg, resolve, say

log = logging.getLogger(__name__)

# what the bot needs in a channel to post boards later (reminders use channel.send)
CHANNEL_NEEDS = ("view_channel", "send_messages", "attach_files")
THREAD_NEEDS = ("view_channel", "create_public_threads", "send_messages_in_threads", "attach_files")
INVITE_SCOPES = ("bot", "applications.commands")
THREAD_OPTION = msg("Open the table in a new thread of this channel")
# the group each grouped command sits in under /escape: what the bot says names it there
GROUPED = {c.name: c.group for c in COMMANDS if c.group}

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


def escape_group(
    bridge: DiscordBridge,
    games: list[tuple[str, str]],
    table: tuple[Command, ...] | None = None,
) -> app_commands.Group:
    """The `/escape` group: every command of the table, at its top or in its declared group
    (`commands.GROUPS`). A table that does not fit Discord's limits (25 entries a level,
    names and descriptions, 4,000 characters) raises `DoesNotFit`: nothing is dropped."""
    group = app_commands.Group(
        name="escape", description=msg("Escape-themed board games"), guild_only=True
    )
    if len(games) > MOST_OPTIONS:
        raise DoesNotFit(f"{len(games)} games are more than a menu's {MOST_OPTIONS} choices")
    choices = [app_commands.Choice(name=title[:100], value=gid) for gid, title in games]
    groups: dict[str, app_commands.Group] = {}
    for command in COMMANDS if table is None else table:
        parent = group
        if command.group:
            if command.group not in groups:
                about = commands.GROUPS[command.group]
                groups[command.group] = app_commands.Group(name=command.group, description=about)
                _add(group, groups[command.group])
            parent = groups[command.group]
        _add(parent, _slash(bridge, command, choices))
    check_fits(group)
    return group


class DoesNotFit(StartupError):
    """The command table does not fit Discord's limits for one command: the bot does not
    start (and `sync` publishes nothing) rather than drop a command."""

    def __init__(self, why: str) -> None:
        super().__init__(f"/escape does not fit Discord's limits for a command: {why}")


MOST_OPTIONS = 25  # subcommands and groups at a level, options of a command, choices
MOST_SIZE = 4000  # characters of a command's names, descriptions and values, all levels
NAME = re.compile(r"[-_'\w]{1,32}")  # a command's or option's name, lower case
OUR_LANGUAGES = [c for c in available() if c != PSEUDO]
# what `to_dict` reads of a command tree (where the command may be used), for the check
_TREE = SimpleNamespace(
    allowed_contexts=app_commands.AppCommandContext(),
    allowed_installs=app_commands.AppInstallationType(),
)


def _add(parent: app_commands.Group, child: app_commands.Command | app_commands.Group) -> None:
    try:
        parent.add_command(child)
    except ValueError as exc:  # discord.py's own: more than 25 at one level
        raise DoesNotFit(
            f"/{parent.qualified_name} {child.name}: more than {MOST_OPTIONS} at one level ({exc})"
        ) from exc


def check_fits(group: app_commands.Group) -> None:
    """Discord's limits for one command, as its API checks them at sync: at most 25 entries
    a level, names of 1 to 32 lower-case letters, descriptions of 1 to 100 characters, and
    at most 4,000 characters over every name, description and choice (for each field, its
    longest language counts, as Discord counts localizations)."""
    problems: list[str] = []
    size = _size(group.to_dict(_TREE), Where.group_name, problems, "/escape")  # type: ignore[arg-type]
    if size > MOST_SIZE:
        problems.append(f"/escape has {size} characters, more than Discord's {MOST_SIZE}")
    if problems:
        raise DoesNotFit("; ".join(problems))


def _longest(text: str, where: Where) -> int:
    said = [translated(text, where, language) for language in OUR_LANGUAGES]
    return max([len(text), *(len(s) for s in said if s)])


def _size(entry: dict, where: Where, problems: list[str], path: str) -> int:
    name, about = entry["name"], entry.get("description", "")
    if not NAME.fullmatch(name) or name != name.lower():
        problems.append(f"{path}: the name {name!r} is not one Discord takes")
    if not 1 <= len(about) <= 100:
        problems.append(f"{path}: its description has {len(about)} characters (1 to 100)")
    described = {
        Where.group_name: Where.group_description,
        Where.command_name: Where.command_description,
    }.get(where, Where.parameter_description)
    size = _longest(name, where) + _longest(about, described)
    options = entry.get("options") or []
    choices = entry.get("choices") or []
    if len(options) > MOST_OPTIONS or len(choices) > MOST_OPTIONS:
        problems.append(f"{path}: more than {MOST_OPTIONS} options or choices")
    for choice in choices:
        size += _longest(choice["name"], Where.choice_name) + len(str(choice["value"]))
    for option in options:
        inner = {1: Where.command_name, 2: Where.group_name}.get(
            option.get("type"), Where.parameter_name
        )
        size += _size(option, inner, problems, f"{path} {option['name']}")
    return size


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
        annotation = str if _completed(arg) else ANNOTATIONS[arg.kind]
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
        arg.name: offered[arg.kind]
        for arg in command.args
        if arg.kind in offered and not _completed(arg)
    }
    slash = app_commands.Command(
        name=command.name, description=command.help[:100], callback=callback
    )
    for arg in command.args:
        if arg.kind == commands.MOVE:
            slash.autocomplete(arg.name)(_moves_of(bridge))
        elif _completed(arg):
            slash.autocomplete(arg.name)(_among(offered[arg.kind]))
    return slash


def _completed(arg: commands.Arg) -> bool:
    """An argument offered as the member types rather than as a fixed menu: a game that may
    be left out, a language. (A menu's choices count against the command's 4,000
    characters, in the longest language; suggestions cost nothing there. Starting a game
    keeps its menu.)"""
    return arg.kind == commands.LANGUAGE or (arg.kind == commands.GAME and not arg.required)


def _among(offered: list[app_commands.Choice[str]]):
    """Suggestions from a fixed list: those whose name (in the member's language) or value
    holds what was typed."""

    async def complete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        language = resolve(str(interaction.locale))
        typed = current.strip().lower()
        said = [(say(msg(c.name), language)[:100], c.value) for c in offered]
        return [
            app_commands.Choice(name=name, value=value)
            for name, value in said
            if typed in name.lower() or typed in value.lower()
        ][:MOST_OPTIONS]

    return complete


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
