"""Discord as a delivery transport: a reply as messages with the picture, its alt text and
the choices as components.

Two transports share the message building: `ChannelTransport` posts in a channel nobody
asked in (reminders, deadlines served, a new thread's lobby) and in a player's DMs;
`InteractionTransport` answers one interaction: followups (the first replacing the
deferred "thinking" message where it may), the clicked message edited in place, and
ephemeral answers that only the asker sees. Discord has no message only one member of a
channel sees unless that member clicked something, so a private message for anyone else
goes by DM when they asked for DMs (`/escape clock dm on`), and otherwise is not sent:
they press My hand.

Text is plain: whatever the service says (player names, echoed input) is escaped for
Discord's markdown and mentions, except the rules and help, written by us. A post Discord
still refuses with 429 after discord.py's own retries is retried in the caller's task
(`persist`) and, for posts in a channel, then owed.
"""

from __future__ import annotations

import io
import logging

import discord

from bot.delivery import Asked, Sent, Transient, Unreachable
from bot.delivery.text import parts, sentences_within
from bot.discord.components import layout
from bot.discord.retry import fresh_file, persist, transient
from bot.discord.slash_commands import GROUPED
from bot.service import ChatRef, Contact, Reply, TableFacts, UserRef
from languages import DEFAULT, msg, plural, say

log = logging.getLogger(__name__)

PLATFORM = "discord"
MAX_CONTENT = 2000
MAX_ALT = 1024
THREAD_ARCHIVED = 50083  # Discord refuses posts in an archived thread until it is reopened
OUR_MARKDOWN = ("rules", "help")  # kinds whose text we wrote with markdown in mind


def plain(text: str) -> str:
    """Text shown as written: no markdown, no mention syntax, from whatever a user typed."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(text))


def fit_alt(alt: str, limit: int = MAX_ALT) -> str:
    """A description within Discord's limit, cut after a whole sentence where it can be."""
    return sentences_within(alt, limit)


def messages(reply: Reply, *, ephemeral: bool, open_board: bool = False) -> list[dict]:
    """The keyword arguments of the message(s) one reply becomes: long text is split, and
    the picture and components go with the last part, right above the buttons."""
    language = reply.language or DEFAULT
    text = say(reply.text, language) or reply.kind
    if reply.kind not in OUR_MARKDOWN:
        text = plain(text)
    built = layout(reply, open_board and not ephemeral)
    if built.left_out:
        text += "\n" + say(
            plural(
                "({count} more move is not listed: type /escape move and pick one.)",
                "({count} more moves are not listed: type /escape move and pick one.)",
                built.left_out,
            ),
            language,
        )
    mention = [] if ephemeral else reply.mention
    if mention:
        pings = " ".join(f"<@{u.id}>" for u in mention)
        text += "\n" + say(msg("{pings} your move.", pings=pings), language)
    if ephemeral:
        allowed = discord.AllowedMentions.none()
    else:
        allowed = discord.AllowedMentions(
            everyone=False,
            roles=False,
            replied_user=False,
            users=[discord.Object(int(u.id)) for u in mention if u.id.isdigit()],
        )
    out = [{"content": part, "allowed_mentions": allowed} for part in parts(text, MAX_CONTENT)]
    last = out[-1]
    if reply.picture is not None:
        last["file"] = discord.File(
            io.BytesIO(reply.picture.png),
            filename=reply.picture.filename,
            description=fit_alt(reply.picture.alt),
        )
    if built.view is not None:
        last["view"] = built.view
    return out


def edit_kwargs(kwargs: dict) -> dict:
    """A message's keyword arguments as those of an edit: the picture replaces the old one,
    and no view means no buttons any more."""
    out = {
        "content": kwargs["content"],
        "allowed_mentions": kwargs["allowed_mentions"],
        "view": kwargs.get("view"),
    }
    if "file" in kwargs:
        kwargs["file"].reset()
        out["attachments"] = [kwargs["file"]]
    return out


def sent_of(message: discord.Message, *, private: bool = False) -> Sent:
    return Sent(
        str(message.channel.id),
        message.id,
        message.created_at.timestamp(),
        picture=bool(message.attachments),
        private=private,
    )


class ChannelTransport:
    """Posts in a channel, a thread or a DM with the bot's own permissions."""

    platform = PLATFORM
    answers_in_place = False
    view_button = True  # shows the shared My hand button
    brief_views = False  # a private view's message holds its whole words
    tidies = False  # a channel keeps its history
    open_board = False  # boards carry Open board (the Activity is set up)
    # the commands a message names, in their groups as Discord lays /escape out
    # (`/escape admin unbar`)
    spelling_groups = GROUPED

    def __init__(self, client: discord.Client, newest: dict[int, int]) -> None:
        self.client = client
        self.newest = newest  # channel id -> the newest message id Discord told us of
        self.open_board = bool(getattr(client, "activity_on", False))

    def channel(self, where: ChatRef | str) -> discord.PartialMessageable:
        if isinstance(where, ChatRef):
            guild = int(where.scope) if where.scope.isdigit() else None
            return self.client.get_partial_messageable(
                int(where.thread or where.chat), guild_id=guild
            )
        return self.client.get_partial_messageable(int(where))

    def moved_on(self, live: Sent, later: int) -> bool:
        return self.newest.get(int(live.chat), 0) > live.message

    async def post(
        self, where: ChatRef, reply: Reply, asked: Asked | None, table: TableFacts | None
    ) -> list[Sent]:
        private = reply.to is not None
        channel = self.channel(where)
        out = []
        try:
            for kwargs in messages(reply, ephemeral=private, open_board=self.open_board):
                message = await self._send_in(where, channel, kwargs)
                out.append(sent_of(message, private=private))
        except (discord.HTTPException, discord.RateLimited) as exc:
            if private:
                log.info("could not send a direct message to %s: %s", reply.to.id, exc)
                raise Unreachable(reply.to.id) from exc
            wait = transient(exc)
            if wait is not None:
                raise Transient(wait) from exc
            raise
        return out

    async def _send_in(
        self, where: ChatRef, channel: discord.PartialMessageable, kwargs: dict
    ) -> discord.Message:
        """channel.send, reopening a thread Discord archived after a quiet week. (A 429
        past discord.py's own retries is owed by delivery, not waited out here: the timer
        loop that posts unasked serves other games meanwhile.)"""
        try:
            return await channel.send(**fresh_file(kwargs))
        except discord.HTTPException as exc:
            if exc.code != THREAD_ARCHIVED or not where.thread.isdigit():
                raise
        log.info("reopening archived thread %s to post in it", where.thread)
        await self.client.http.edit_channel(int(where.thread), archived=False)
        return await channel.send(**fresh_file(kwargs))

    async def edit(
        self, sent: Sent, reply: Reply, asked: Asked | None, table: TableFacts | None
    ) -> bool:
        built = messages(reply, ephemeral=reply.to is not None, open_board=self.open_board)
        if len(built) != 1:
            return False
        message = self.channel(sent.chat).get_partial_message(sent.message)
        try:
            await persist(lambda: message.edit(**edit_kwargs(built[0])), "an edit")
        except discord.HTTPException as exc:
            log.info("could not edit message %s, posting anew: %s", sent.message, exc)
            return False
        return True

    async def retire(self, sent: Sent) -> None:
        """A replaced live message: deleted (a bot may delete its own), else disarmed."""
        message = self.channel(sent.chat).get_partial_message(sent.message)
        try:
            await message.delete()
            return
        except discord.NotFound:
            return
        except discord.HTTPException as exc:
            log.info("could not delete old board %s: %s", sent.message, exc)
        await self.strip(sent)

    async def strip(self, sent: Sent) -> None:
        message = self.channel(sent.chat).get_partial_message(sent.message)
        try:
            await message.edit(view=None)
        except discord.HTTPException as exc:
            log.info("could not take the buttons off %s: %s", sent.message, exc)

    async def delete(self, sent: list[Sent]) -> None:
        for s in sent:
            await self.retire(s)

    async def answer_in_place(self, reply: Reply, asked: Asked) -> Sent | None:
        raise NotImplementedError("nobody asked: there is no place to answer in")

    async def private_place(self, user: UserRef, contact: Contact) -> ChatRef | None:
        """A DM, for a player who asked for them; none for anyone else."""
        if not contact.wants_dm or not user.id.isdigit():
            return None
        try:
            channel = await self.client.create_dm(discord.Object(int(user.id)))
        except discord.HTTPException as exc:
            log.info("could not open a direct message to %s: %s", user.id, exc)
            return None
        return ChatRef(PLATFORM, str(channel.id), "", "")

    async def cannot_reach(
        self, chat: ChatRef, user: UserRef, session_id: int | None, language: str
    ) -> Sent | None:
        log.info(
            "not sending a private message of session %s to %s: on Discord only who clicked "
            "can get an ephemeral message (they can press My hand)",
            session_id,
            user.id,
        )
        return None


class InteractionTransport(ChannelTransport):
    """Answers one interaction. `thinking`: a deferred "thinking" message is waiting, which
    the first ephemeral answer fills (it is the asker's alone: anything public is posted
    after it as new messages, and it is deleted if nothing fills it)."""

    answers_in_place = True

    def __init__(
        self,
        client: discord.Client,
        newest: dict[int, int],
        interaction: discord.Interaction,
        *,
        thinking: bool,
    ) -> None:
        super().__init__(client, newest)
        self.interaction = interaction
        self.thinking = thinking
        self.clicked = interaction.message.id if interaction.message is not None else None

    def _here(self, where: ChatRef) -> bool:
        return int(where.thread or where.chat) == self.interaction.channel_id

    async def post(
        self, where: ChatRef, reply: Reply, asked: Asked | None, table: TableFacts | None
    ) -> list[Sent]:
        if reply.to is not None or not self._here(where) or self.interaction.guild_id is None:
            return await super().post(where, reply, asked, table)
        await self.drop_thinking()
        out = []
        for kwargs in messages(reply, ephemeral=False, open_board=self.open_board):
            message = await persist(
                lambda kw=kwargs: self.interaction.followup.send(wait=True, **fresh_file(kw)),
                f"a {reply.kind}",
            )
            out.append(sent_of(message))
        return out

    async def edit(
        self, sent: Sent, reply: Reply, asked: Asked | None, table: TableFacts | None
    ) -> bool:
        if sent.message != self.clicked:
            return await super().edit(sent, reply, asked, table)
        built = messages(reply, ephemeral=sent.private, open_board=self.open_board)
        if len(built) != 1:
            return False
        try:
            await persist(
                lambda: self.interaction.edit_original_response(**edit_kwargs(built[0])), "an edit"
            )
        except discord.HTTPException as exc:
            log.info("could not edit the clicked message, posting anew: %s", exc)
            return False
        return True

    async def strip(self, sent: Sent) -> None:
        if sent.message != self.clicked:
            await super().strip(sent)
            return
        try:
            await self.interaction.edit_original_response(view=None)
        except discord.HTTPException as exc:
            log.debug("could not clear the old buttons: %s", exc)

    async def answer_in_place(self, reply: Reply, asked: Asked) -> Sent | None:
        """The asker's own answer: their pressed private message replaced (a further step
        of their move), else an ephemeral message (in a DM, a plain one)."""
        pressed = asked.pressed
        replaces = pressed is not None and pressed.private and bool(reply.moves())
        if replaces and await self.edit(pressed, reply, asked, None):
            return pressed
        ephemeral = self.interaction.guild_id is not None
        built = messages(reply, ephemeral=True)
        last = None
        for kwargs in built:
            last = await persist(
                lambda kw=kwargs: self.interaction.followup.send(
                    ephemeral=ephemeral, wait=True, **fresh_file(kw)
                ),
                "a private reply",
            )
            self.thinking = False
        return sent_of(last, private=True) if last is not None else None

    async def drop_thinking(self) -> None:
        """The "thinking" message would become a public post, seen by the wrong people."""
        if self.thinking:
            self.thinking = False
            try:
                await self.interaction.delete_original_response()
            except discord.HTTPException as exc:
                log.debug("could not delete the deferred message: %s", exc)
