"""`/escape ...`: one slash-command group; each subcommand hands its work to the bridge."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.discord.bridge import OOPS, DiscordBridge, messages, plain, user_ref
from bot.service import ChatRef, Reply, UserError, UserRef, parse_options
from engines import REGISTRY, BadOption

log = logging.getLogger(__name__)

GAME_CHOICES = [
    app_commands.Choice(name=f"{game.title} ({game.player_range()} players)"[:100], value=game.id)
    for game in list(REGISTRY.values())[:25]
]

# what the bot needs in a channel to post boards later (reminders use channel.send)
CHANNEL_NEEDS = ("view_channel", "send_messages", "attach_files")
THREAD_NEEDS = ("view_channel", "create_public_threads", "send_messages_in_threads", "attach_files")
THREAD_ARCHIVE_MINUTES = 10080  # the longest Discord allows: a week
INVITE_SCOPES = ("bot", "applications.commands")


def invite_permissions() -> discord.Permissions:
    """What the invite link asks for: exactly what the bot checks it has when a table opens
    (answers to commands and clicks need no permission; boards it posts itself do)."""
    return discord.Permissions(**dict.fromkeys({*CHANNEL_NEEDS, *THREAD_NEEDS}, True))


def invite_url(application_id: int | str) -> str:
    return discord.utils.oauth_url(
        application_id, permissions=invite_permissions(), scopes=INVITE_SCOPES
    )


class EscapeGroup(app_commands.Group, name="escape", description="Escape-themed board games"):
    def __init__(self, bridge: DiscordBridge) -> None:
        super().__init__(guild_only=True)
        self.bridge = bridge

    # ----- lobby ----------------------------------------------------------------------
    @app_commands.command(description="Open a table for a game in this channel")
    @app_commands.describe(
        game="The game to play",
        options="Game options as name=value, e.g. variant=short",
        thread="Open the table in a new thread of this channel",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def start(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        options: str = "",
        thread: bool = False,
    ) -> None:
        if thread:
            await self._start_in_thread(interaction, game.value, options)
            return
        service = self.bridge.service

        async def call(chat: ChatRef, user: UserRef) -> list[Reply]:
            replies = await service.start(chat, user, game.value, options)
            return replies + _permission_note(interaction, user, CHANNEL_NEEDS)

        await self.bridge.command(interaction, call)

    @app_commands.command(description="Take a seat at the table waiting here")
    async def join(self, interaction: discord.Interaction) -> None:
        await self.bridge.command(interaction, self.bridge.service.join)

    @app_commands.command(description="Give up your seat before the game begins")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.bridge.command(interaction, self.bridge.service.leave)

    @app_commands.command(description="Start the game once enough players have joined")
    async def begin(self, interaction: discord.Interaction) -> None:
        await self.bridge.command(interaction, self.bridge.service.begin)

    # ----- play -----------------------------------------------------------------------
    @app_commands.command(description="Make a move (or press a button under the board)")
    @app_commands.describe(action="Your move: start typing to see your legal moves")
    async def move(self, interaction: discord.Interaction, action: str) -> None:
        service = self.bridge.service

        async def call(chat: ChatRef, user: UserRef) -> list[Reply]:
            return await service.move(chat, user, action)

        await self.bridge.command(interaction, call)

    @move.autocomplete("action")
    async def move_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        found = await self.bridge.autocomplete_moves(interaction, current)
        return [
            app_commands.Choice(name=label[:100] or action[:100], value=action[:100])
            for label, action in found
        ]

    @app_commands.command(description="Show the board of the game here")
    async def board(self, interaction: discord.Interaction) -> None:
        service = self.bridge.service

        async def call(chat: ChatRef, user: UserRef) -> list[Reply]:
            return await service.board(chat, user)

        await self.bridge.command(interaction, call)

    @app_commands.command(description="Your hand and private view, shown only to you")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.bridge.command(interaction, self.bridge.service.private_view, private=True)

    @app_commands.command(description="What has happened in the game here (only to you)")
    @app_commands.describe(game="An ended game's number (see /escape history)")
    async def log(self, interaction: discord.Interaction, game: str = "") -> None:
        service = self.bridge.service

        async def call(chat: ChatRef, user: UserRef) -> list[Reply]:
            return await service.game_log(chat, user, game or None)

        await self.bridge.command(interaction, call, private=True)

    # ----- the table's memory ---------------------------------------------------------
    @app_commands.command(description="Replay a game as an animation, or board by board")
    @app_commands.describe(game="The game's number (default: the game here, or the last one)")
    async def replay(self, interaction: discord.Interaction, game: str = "") -> None:
        service = self.bridge.service

        async def call(chat: ChatRef, user: UserRef) -> list[Reply]:
            return await service.replay(chat, game or None)

        await self.bridge.command(interaction, call)

    @app_commands.command(description="The games that ended in this channel (only to you)")
    async def history(self, interaction: discord.Interaction) -> None:
        service = self.bridge.service

        async def call(chat: ChatRef, user: UserRef) -> list[Reply]:
            return await service.ended_games(chat)

        await self.bridge.command(interaction, call, private=True)

    @app_commands.command(description="A player's ratings on this server (only to you)")
    @app_commands.describe(player="Whose (default: yours)")
    async def stats(
        self, interaction: discord.Interaction, player: discord.Member | None = None
    ) -> None:
        service = self.bridge.service

        async def call(chat: ChatRef, user: UserRef) -> list[Reply]:
            return await service.stats(chat, user, user_ref(player) if player else None)

        await self.bridge.command(interaction, call, private=True)

    @app_commands.command(description="This server's leaderboard of a game, as a picture")
    @app_commands.describe(game="Which game (default: the one played here)")
    @app_commands.choices(game=GAME_CHOICES)
    async def top(
        self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None
    ) -> None:
        service = self.bridge.service

        async def call(chat: ChatRef, user: UserRef) -> list[Reply]:
            return await service.top(chat, game.value if game else None)

        await self.bridge.command(interaction, call)

    @app_commands.command(description="Ask to take back your last move (the others must accept)")
    async def undo(self, interaction: discord.Interaction) -> None:
        await self.bridge.command(interaction, self.bridge.service.ask_undo)

    # ----- about ----------------------------------------------------------------------
    @app_commands.command(description="The rules of a game, with a picture (only to you)")
    @app_commands.describe(game="Which game (default: the one played here)")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(
        self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None
    ) -> None:
        service = self.bridge.service

        async def call(chat: ChatRef, user: UserRef) -> list[Reply]:
            return [await service.rules(game.value if game else None, chat)]

        await self.bridge.command(interaction, call, private=True)

    @app_commands.command(description="How to play Escape here (only to you)")
    async def help(self, interaction: discord.Interaction) -> None:
        reply = self.bridge.service.help()
        await interaction.response.send_message(
            reply.text[:2000], ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(description="The games running in this server (only to you)")
    async def games(self, interaction: discord.Interaction) -> None:
        service = self.bridge.service

        async def call(chat: ChatRef, user: UserRef) -> list[Reply]:
            return [await service.games_here(chat.platform, chat.scope)]

        await self.bridge.command(interaction, call, private=True)

    @app_commands.command(
        description="End the game here (its creator, or members who can manage messages)"
    )
    async def abort(self, interaction: discord.Interaction) -> None:
        service = self.bridge.service
        is_admin = bool(interaction.permissions.manage_messages)

        async def call(chat: ChatRef, user: UserRef) -> list[Reply]:
            return await service.abort(chat, user, is_admin=is_admin)

        await self.bridge.command(interaction, call)

    @app_commands.command(description="The turn clock: show it, or mute, vacation, pause, vote")
    @app_commands.describe(
        what="mute | vacation 2 | vacation end | pause | resume | vote | dm on | tz Europe/Berlin | quiet 22-7 | help"
    )
    async def clock(self, interaction: discord.Interaction, what: str = "") -> None:
        service = self.bridge.service

        async def call(chat: ChatRef, user: UserRef) -> list[Reply]:
            return await service.clock_command(chat, user, what)

        await self.bridge.command(interaction, call)

    # ----- a table in a new thread ----------------------------------------------------
    async def _start_in_thread(
        self, interaction: discord.Interaction, game_id: str, options: str
    ) -> None:
        channel = interaction.channel
        if interaction.guild_id is None or not isinstance(channel, discord.TextChannel):
            await interaction.response.send_message(
                "A new thread can be opened from a text channel only; run /escape start "
                "without `thread` here.",
                ephemeral=True,
            )
            return
        await interaction.response.defer(thinking=True)
        service = self.bridge.service
        user = user_ref(interaction.user)
        try:
            game = service.game(game_id)
            try:  # refuse bad options before a thread is created for nothing
                game.check_options(parse_options(options))
            except BadOption as exc:
                raise UserError(str(exc)) from exc
            try:
                thread = await channel.create_thread(
                    name=f"{game.title} — Escape"[:100],
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                )
            except discord.HTTPException as exc:
                log.info("could not open a thread in %s: %s", channel.id, exc)
                raise UserError(
                    "I could not open a thread here (I need Create Public Threads). "
                    "Start without `thread`, or ask an admin for that permission."
                ) from exc
            chat = ChatRef("discord", str(channel.id), str(thread.id), str(interaction.guild_id))
            replies = await service.start(chat, user, game_id, options)
        except UserError as exc:
            await self.bridge.refuse(interaction, str(exc), public_original=True)
            return
        except Exception:
            log.exception("starting a game in a new thread failed")
            await self.bridge.refuse(interaction, OOPS, public_original=True)
            return
        try:
            for reply in replies:
                if reply.to is None and reply.session_id is not None:  # the live lobby
                    await self.bridge.boards.show(
                        reply.session_id, reply.kind, messages(reply, ephemeral=False),
                        channel_id=thread.id, post=lambda kw: thread.send(**kw), fresh=True,
                    )  # fmt: skip
        except discord.HTTPException as exc:
            log.warning("could not post the lobby in thread %s: %s", thread.id, exc)
            await self.bridge.refuse(
                interaction,
                f"The table is open in {thread.mention}, but I could not post there: "
                "use /escape board in the thread once I may send messages in threads.",
                public_original=True,
            )
            return
        # in the channel, for everyone: where the new table is
        await interaction.followup.send(
            f"{plain(user.name)} opened a table for {game.title} in {thread.mention}: join there.",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        for note in _permission_note(interaction, user, THREAD_NEEDS):
            await interaction.followup.send(note.text, ephemeral=True)


def _permission_note(
    interaction: discord.Interaction, user: UserRef, needs: tuple[str, ...]
) -> list[Reply]:
    """Boards posted later (reminders, timeouts) use the bot's own channel permissions,
    unlike interaction answers: tell the starter now if any is missing."""
    perms = interaction.app_permissions
    missing = [n.replace("_", " ").title() for n in needs if not getattr(perms, n, False)]
    if not missing:
        return []
    return [
        Reply(
            "Note: I lack " + ", ".join(missing) + " here, so boards I post on my own "
            "(reminders, timeouts) may not arrive. Ask an admin to grant them.",
            kind="info",
            to=user,
        )
    ]
