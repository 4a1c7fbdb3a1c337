"""Discord interactions in, service plans out through the one `Delivery`.

Every slash command and click defers first (Discord wants an answer within 3 s; the
service touches the store and Pillow), then calls the service and delivers the plan it
returns over an `InteractionTransport`. Refusals (`UserError`) are ephemeral, and quote at
most a short excerpt of what the user typed. Nothing here decides who sees what.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.delivery import Asked, Delivery
from bot.delivery.text import parts
from bot.discord.posting import (
    PLATFORM,
    ChannelTransport,
    InteractionTransport,
    plain,
    sent_of,
)
from bot.discord.retry import persist
from bot.discord.slash_commands import CHANNEL_NEEDS, THREAD_NEEDS
from bot.service import (
    Call,
    ChatRef,
    Command,
    GameService,
    Plan,
    Reply,
    UserError,
    UserRef,
    short_refusal,
)
from languages import DEFAULT, Text, msg, resolve, say

log = logging.getLogger(__name__)

OOPS = msg("Something went wrong on our side. Look at the latest board and try again in a moment.")
AUTOCOMPLETE_SECONDS = 2.0
NOT_OURS = msg("That button is not one of ours; use the buttons under the latest board.")
NO_GUILD = msg("Escape runs in server channels and threads, not in direct messages.")
THREAD_ARCHIVE_MINUTES = 10080  # the longest Discord allows: a week
DM_NOTE = msg(
    " On Discord they come as direct messages, with your view and moves in games with "
    "secrets, if your privacy settings let the bot write to you."
)


def chat_ref(interaction: discord.Interaction) -> ChatRef:
    """The channel is the chat; a thread is kept apart from its parent channel. The
    server's preferred language goes with it (a new table speaks it)."""
    channel = interaction.channel
    scope = str(interaction.guild_id or "")
    language = str(interaction.guild_locale or "")
    if isinstance(channel, discord.Thread) and channel.parent_id:
        return ChatRef(PLATFORM, str(channel.parent_id), str(channel.id), scope, language)
    return ChatRef(PLATFORM, str(interaction.channel_id), "", scope, language)


def user_ref(user: discord.abc.User, interaction: discord.Interaction | None = None) -> UserRef:
    """`interaction`: the asker's, whose app language comes with it."""
    language = str(interaction.locale) if interaction is not None else ""
    return UserRef(PLATFORM, str(user.id), user.display_name, language)


def language_of(interaction: discord.Interaction) -> str:
    """What the asker reads: their app's language."""
    return resolve(str(interaction.locale), DEFAULT)


def place(chat: ChatRef) -> str:
    """A channel as a link, for `/escape games` and reminders."""
    where = chat.thread or chat.chat
    return f"<#{where}>" if where.isdigit() else where


def said(interaction: discord.Interaction) -> str:
    """Everything the user typed into a slash command's options (for refusals to excerpt)."""
    found: list[str] = []

    def walk(options: list) -> None:
        for option in options or []:
            if "value" in option:
                found.append(str(option["value"]))
            walk(option.get("options", []))

    data = interaction.data or {}
    walk(data.get("options", []) if isinstance(data, dict) else [])
    return " ".join(found)


def refusal(message: Text, typed: str = "", language: str = DEFAULT) -> str:
    return parts(plain(short_refusal(say(message, language), typed)), 2000)[0]


class DiscordBridge:
    def __init__(self, service: GameService | None, client: discord.Client) -> None:
        self._service = service
        self.client = client
        self.newest: dict[int, int] = {}  # channel id -> newest message id Discord told of
        self.delivery = Delivery(service, PLATFORM)
        self.channels = ChannelTransport(client, self.newest)

    def close(self) -> None:
        self.delivery.close()

    @property
    def service(self) -> GameService:
        if self._service is None:
            raise RuntimeError("this Discord client has no game service (sync only)")
        return self._service

    def saw(self, channel_id: int, message_id: int | None) -> None:
        """The newest message of a channel, as an interaction's payload told it."""
        if message_id and message_id > self.newest.get(channel_id, 0):
            self.newest[channel_id] = message_id

    def transport(
        self, interaction: discord.Interaction, *, thinking: bool
    ) -> InteractionTransport:
        return InteractionTransport(self.client, self.newest, interaction, thinking=thinking)

    # ----- the notifier (plans nobody asked for) ------------------------------------------
    async def deliver(self, chat: ChatRef, plan: Plan) -> None:
        await self.delivery.deliver(chat, plan, self.channels)

    # ----- slash commands -------------------------------------------------------------
    async def slash(
        self, interaction: discord.Interaction, command: Command, options: dict
    ) -> None:
        """Defer, run the command off the 3-second clock, deliver its plan. The "thinking"
        message is the asker's alone: a refusal or a private answer fills it in; what is
        for everyone comes after it as new messages (a new message pings the player to
        act, an edit would not)."""
        if interaction.guild_id is None:
            await interaction.response.send_message(
                say(NO_GUILD, language_of(interaction)), ephemeral=True
            )
            return
        if command.at_once:  # no picture: answered at once, in the asker's language
            await self._answer_at_once(interaction, command)
            return
        if command.opens_table and options.pop("thread", False):
            await self._start_in_thread(interaction, options)
            return
        if not await _acknowledge(interaction, thinking=True, ephemeral=True):
            return
        via = self.transport(interaction, thinking=True)
        user = user_ref(interaction.user, interaction)
        args = {
            name: (user_ref(v) if isinstance(v, discord.abc.User) else getattr(v, "value", v))
            for name, v in options.items()
            if v is not None
        }
        call = Call(
            chat_ref(interaction), user, args, bool(interaction.permissions.manage_messages)
        )
        try:
            plan = await self.service.run_command(command.name, call)
        except UserError as exc:
            await self.refuse(via, exc.msg, typed=said(interaction))
            return
        except Exception:
            log.exception("command %s failed", command.name)
            await self.refuse(via, OOPS)
            return
        if command.opens_table:  # what the bot may not do in the channel of a new table
            plan = plan.then(_permission_note(interaction, user, CHANNEL_NEEDS))
        plan.fresh = True  # a typed command shows in the channel: the board goes below it
        await self.delivery.deliver(call.chat, plan, via, Asked(user))
        await via.drop_thinking()

    async def _answer_at_once(self, interaction: discord.Interaction, command: Command) -> None:
        """A command declared to answer at once: its text, to the asker alone, without the
        "thinking" message (Discord's 3 seconds are enough)."""
        user = user_ref(interaction.user, interaction)
        language = await self.service.language_of(user)
        try:
            plan = await self.service.run_command(command.name, Call(chat_ref(interaction), user))
            text = "\n\n".join(say(reply.text, language) for reply in plan)
        except UserError as exc:
            text = say(exc.msg, language)
        await interaction.response.send_message(
            text[:2000], ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    async def autocomplete_moves(
        self, interaction: discord.Interaction, typed: str
    ) -> list[tuple[str, str]]:
        """(label, action) of the asker's legal moves whose action or label contains every
        typed word; at most 25 (Discord's limit)."""
        if interaction.guild_id is None:
            return []
        try:  # an autocomplete cannot be deferred: give up rather than be late
            pairs = await asyncio.wait_for(
                self.service.choices(
                    chat_ref(interaction), user_ref(interaction.user, interaction)
                ),
                AUTOCOMPLETE_SECONDS,
            )
        except UserError:
            return []
        except Exception:
            log.warning("no move suggestions this time", exc_info=True)
            return []
        words = typed.lower().split()
        found = []
        language = language_of(interaction)
        for action, label in ((a, say(label, language)) for a, label in pairs):
            hay = f"{action} {label}".lower()
            if all(w in hay for w in words):
                found.append((label, action))
            if len(found) == 25:
                break
        return found

    # ----- clicks ---------------------------------------------------------------------
    async def press(self, interaction: discord.Interaction, data: str) -> None:
        """A button or select: the data goes back to the service verbatim, which refuses
        stale or forged data; a refusal is told to the clicker alone."""
        if not await _acknowledge(interaction):  # silent: nothing is shown yet
            return
        via = self.transport(interaction, thinking=False)
        user = user_ref(interaction.user, interaction)
        message = interaction.message
        pressed = (
            sent_of(message, private=bool(message.flags.ephemeral) or interaction.guild_id is None)
            if message
            else None
        )
        try:
            if interaction.guild_id is None:  # a move pressed in a player's DM
                chat, plan = await self.service.press_privately(PLATFORM, user, data)
            else:
                chat = chat_ref(interaction)
                plan = await self.service.press(chat, user, data)
        except UserError as exc:
            await self.refuse(via, exc.msg)
            return
        except Exception:
            log.exception("a click failed")
            await self.refuse(via, OOPS)
            return
        board = plan.board
        if board is not None and pressed is not None and not pressed.private:
            await self.delivery.adopt(board.session_id, chat, pressed, board.kind)
        done = await self.delivery.deliver(chat, plan, via, Asked(user, pressed=pressed))
        if done.board_anew and pressed is not None and not pressed.private:
            await via.strip(pressed)  # the clicked message is history now

    async def launch_activity(self, interaction: discord.Interaction) -> None:
        """Open board: the interaction answered with LAUNCH_ACTIVITY (callback type 12), so
        Discord opens the Activity in this channel; its channel selects the table."""
        try:
            await interaction.response.launch_activity()
        except discord.HTTPException as exc:
            log.info("could not launch the Activity: %s", exc)

    async def refuse_junk(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_message(
                say(NOT_OURS, language_of(interaction)),
                ephemeral=interaction.guild_id is not None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as exc:
            log.info("could not refuse a component that is not ours: %s", exc)

    # ----- posting --------------------------------------------------------------------
    async def refuse(self, via: InteractionTransport, message: Text, *, typed: str = "") -> None:
        """A refusal to the asker alone, in their language: escaped, within limits, quoting
        little of `typed`."""
        text = refusal(message, typed, language_of(via.interaction))
        ephemeral = via.interaction.guild_id is not None
        await persist(
            lambda: via.interaction.followup.send(
                text, ephemeral=ephemeral, allowed_mentions=discord.AllowedMentions.none()
            ),
            "a refusal",
        )

    # ----- a tournament's table in a thread of its own ---------------------------------
    async def open_place(self, home: ChatRef, name: str) -> ChatRef | None:
        """A public thread under the tournament's channel for one of its tables; None
        where none can be opened (the table is then reached privately and on the web)."""
        try:
            channel = self.client.get_channel(int(home.chat)) or await self.client.fetch_channel(
                int(home.chat)
            )
        except (discord.HTTPException, ValueError) as exc:
            log.info("no channel %s to open a table's thread in: %s", home.chat, exc)
            return None
        if not isinstance(channel, discord.TextChannel):
            return None
        try:
            thread = await channel.create_thread(
                name=name[:100],
                type=discord.ChannelType.public_thread,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            )
        except discord.HTTPException as exc:
            log.info("could not open a table's thread in %s: %s", channel.id, exc)
            return None
        return ChatRef(PLATFORM, str(channel.id), str(thread.id), home.scope, home.language)

    # ----- a table in a new thread ----------------------------------------------------
    async def _start_in_thread(self, interaction: discord.Interaction, options: dict) -> None:
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            await interaction.response.send_message(
                say(
                    msg(
                        "A new thread can be opened from a text channel only; run /escape start without `thread` here."
                    ),
                    language_of(interaction),
                ),
                ephemeral=True,
            )
            return
        await interaction.response.defer(thinking=True)
        via = self.transport(interaction, thinking=True)
        user = user_ref(interaction.user, interaction)
        game_id = getattr(options.get("game"), "value", options.get("game"))
        try:
            game = self.service.game(game_id)
            self.service.check_options(game.id, options.get("options") or "")
            try:
                thread = await channel.create_thread(
                    name=f"{game.title} — Escape"[:100],
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                )
            except discord.HTTPException as exc:
                log.info("could not open a thread in %s: %s", channel.id, exc)
                raise UserError(
                    msg(
                        "I could not open a thread here (I need Create Public Threads). "
                        "Start without `thread`, or ask an admin for that permission."
                    )
                ) from exc
            chat = ChatRef(PLATFORM, str(channel.id), str(thread.id), str(interaction.guild_id))
            plan = await self.service.start(chat, user, game.id, options.get("options") or "")
        except UserError as exc:
            await via.drop_thinking()
            await self.refuse(via, exc.msg)
            return
        except Exception:
            log.exception("starting a game in a new thread failed")
            await via.drop_thinking()
            await self.refuse(via, OOPS)
            return
        try:
            await self.delivery.deliver(
                chat, Plan([r for r in plan if r.to is None], plan.table), self.channels, owe=False
            )
        except Exception as exc:
            log.warning("could not post the lobby in thread %s: %s", thread.id, exc)
            await via.drop_thinking()
            await self.refuse(
                via,
                msg(
                    "The table is open in {thread}, but I could not post there: use /escape board "
                    "in the thread once I may send messages in threads.",
                    thread=thread.mention,
                ),
            )
            return
        # in the channel, for everyone: where the new table is
        where = msg(
            "{name} opened a table for {game} in {thread}: join there.",
            name=plain(user.name),
            game=msg(game.title),
            thread=thread.mention,
        )
        table = resolve(chat.language, DEFAULT)
        await interaction.followup.send(
            say(where, table), allowed_mentions=discord.AllowedMentions.none()
        )
        for note in _permission_note(interaction, user, THREAD_NEEDS):
            await interaction.followup.send(
                say(note.text, language_of(interaction)), ephemeral=True
            )


def _permission_note(
    interaction: discord.Interaction, user: UserRef, needs: tuple[str, ...]
) -> list[Reply]:
    """Boards posted later (reminders, timeouts) use the bot's own channel permissions,
    unlike interaction answers: tell the starter now if any is missing."""
    perms = interaction.app_permissions
    missing = [n.replace("_", " ").title() for n in needs if not getattr(perms, n, False)]
    if not missing:
        return []
    note = msg(
        "Note: I lack {missing} here, so boards I post on my own (reminders, timeouts) may "
        "not arrive. Ask an admin to grant them.",
        missing=", ".join(missing),
    )
    return [Reply(note, kind="info", to=user)]


async def _acknowledge(interaction: discord.Interaction, **defer) -> bool:
    """Defer before any store or render work. False when Discord no longer takes an
    answer (error 10062 after 3 s, e.g. a paused process): then nothing is attempted."""
    try:
        await interaction.response.defer(**defer)
    except discord.NotFound:
        log.warning("an interaction expired before it could be acknowledged; nothing done")
        return False
    return True
