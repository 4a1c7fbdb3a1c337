"""Discord interactions in, service replies out: the whole adapter's behaviour in one place.

Every slash command and click defers first (Discord wants an answer within 3 s; the
service touches SQLite and Pillow), then calls the service and posts what it returns:
public replies as messages with the board picture, its alt text and the choices as
components; replies addressed to a user as ephemeral messages to that user only, never in
the channel. Refusals (`UserError`) are ephemeral too, and quote at most a short excerpt
of what the user typed.

Text is plain: whatever the service says (player names, echoed input) is escaped for
Discord's markdown and mentions, except the rules and help, written by us. A post Discord
still refuses with 429 after discord.py's own retries is tried again later by the bot
(within the interaction's 15 minutes; a board posted unasked is owed to its channel).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

import discord

from bot.discord.boards import LiveBoards, edit_kwargs
from bot.discord.components import layout
from bot.discord.direct import DirectMessages, with_moves
from bot.discord.retry import RETRY_LONGEST, RETRY_ROUNDS, fresh_file, persist, transient
from bot.service import ChatRef, GameService, Reply, UserError, UserRef, chat_of
from bot.service import buttons as service_buttons
from bot.service.excerpt import short_refusal

log = logging.getLogger(__name__)

PLATFORM = "discord"
MAX_CONTENT = 2000
MAX_ALT = 1024
OOPS = "Something went wrong on our side. Look at the latest board and try again in a moment."
AUTOCOMPLETE_SECONDS = 2.0
NO_GUILD = "Escape runs in server channels and threads, not in direct messages."
THREAD_ARCHIVED = 50083  # Discord refuses posts in an archived thread until it is reopened
OUR_MARKDOWN = ("rules", "help")  # kinds whose text we wrote with markdown in mind

Call = Callable[[ChatRef, UserRef], Awaitable[list[Reply]]]


def chat_ref(interaction: discord.Interaction) -> ChatRef:
    """The channel is the chat; a thread is kept apart from its parent channel."""
    channel = interaction.channel
    scope = str(interaction.guild_id or "")
    if isinstance(channel, discord.Thread) and channel.parent_id:
        return ChatRef(PLATFORM, str(channel.parent_id), str(channel.id), scope)
    return ChatRef(PLATFORM, str(interaction.channel_id), "", scope)


def user_ref(user: discord.abc.User) -> UserRef:
    return UserRef(PLATFORM, str(user.id), user.display_name)


def plain(text: str) -> str:
    """Text shown as written: no markdown, no mention syntax, from whatever a user typed."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(text))


def fit_alt(alt: str, limit: int = MAX_ALT) -> str:
    """A description within Discord's limit, cut after a whole sentence where it can be."""
    alt = " ".join(alt.split())
    if len(alt) <= limit:
        return alt
    head = alt[: limit - 1]
    cut = max(head.rfind(". "), head.rfind("; "))
    if cut >= limit // 2:
        head = head[: cut + 1]
    return head.rstrip() + "…"


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


def refusal(message: str, typed: str = "") -> str:
    return split_text(plain(short_refusal(message, typed)))[0]


def split_text(text: str, limit: int = MAX_CONTENT) -> list[str]:
    """Cut at line ends where possible, so long rules or logs stay readable."""
    parts: list[str] = []
    rest = text
    while len(rest) > limit:
        cut = rest.rfind("\n", 0, limit)
        if cut <= 0:
            cut = limit
        parts.append(rest[:cut])
        rest = rest[cut:].lstrip("\n")
    parts.append(rest)
    return parts


def keeps_secrets(reply: Reply) -> bool:
    """A reply offering the service's private-view button ("My hand / my view") belongs to
    a game with secrets: there the labels of a player's moves ("Play blue key") would show
    that player's hand to the whole channel. The service's own parser recognises that
    button; its data stays opaque to this adapter otherwise."""
    return any(c.for_user is None and _is_private_view(c.data) for c in reply.choices)


def _is_private_view(data: str) -> bool:
    try:
        return service_buttons.parse(data).kind == "v"
    except UserError:
        return False


def messages(reply: Reply, *, ephemeral: bool) -> list[dict]:
    """The keyword arguments of the message(s) one reply becomes: long text is split, and
    the picture and components go with the last part, right above the buttons.

    In games with secrets a public board shows only the shared buttons; each player gets
    their moves privately (My hand / my view, /escape hand, /escape move)."""
    text = reply.text or reply.kind
    if reply.kind not in OUR_MARKDOWN:
        text = plain(text)
    if not ephemeral and keeps_secrets(reply):
        hidden = [c for c in reply.choices if c.for_user is not None]
        if hidden:
            reply = replace(reply, choices=[c for c in reply.choices if c.for_user is None])
            text += "\n(Your moves are private: press the hand button below, or /escape move.)"
    built = layout(reply)
    if built.left_out:
        text += f"\n({built.left_out} more moves are not listed: type /escape move and pick one.)"
    mention = [] if ephemeral else reply.mention
    if mention:
        text += "\n" + " ".join(f"<@{u.id}>" for u in mention) + " your move."
    if ephemeral:
        allowed = discord.AllowedMentions.none()
    else:
        allowed = discord.AllowedMentions(
            everyone=False,
            roles=False,
            replied_user=False,
            users=[discord.Object(int(u.id)) for u in mention if u.id.isdigit()],
        )
    parts = split_text(text)
    out = [{"content": part, "allowed_mentions": allowed} for part in parts]
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


class DiscordBridge:
    def __init__(self, service: GameService | None, client: discord.Client) -> None:
        self._service = service
        self.client = client
        self.owed: dict[str, tuple[ChatRef, list[Reply]]] = {}  # channel -> unposted replies
        self._debts: dict[str, asyncio.Task] = {}
        self.boards = LiveBoards(client, service.store if service is not None else None)
        self.direct = DirectMessages(client, service)

    def close(self) -> None:
        for task in self._debts.values():
            task.cancel()
        self._debts.clear()

    @property
    def service(self) -> GameService:
        if self._service is None:
            raise RuntimeError("this Discord client has no game service (sync only)")
        return self._service

    # ----- slash commands -------------------------------------------------------------
    async def command(
        self, interaction: discord.Interaction, call: Call, *, private: bool = False
    ) -> None:
        """Defer, call the service off the 3-second clock, post its replies.

        `private`: everything is answered to the asker only (hand, log, rules, games).
        The "thinking" message is the asker's alone: a refusal or a private answer fills it
        in; what is for everyone comes after it as new messages (a new message pings the
        player to act, an edit would not; and the channel never sees a message appear and
        vanish, which would make the live board look buried)."""
        if interaction.guild_id is None:
            await interaction.response.send_message(NO_GUILD, ephemeral=True)
            return
        if not await _acknowledge(interaction, thinking=True, ephemeral=True):
            return
        try:
            replies = await call(chat_ref(interaction), user_ref(interaction.user))
        except UserError as exc:
            await self.refuse(interaction, str(exc), public_original=False, typed=said(interaction))  # fmt: skip
            return
        except Exception:
            log.exception("command %s failed", _command_name(interaction))
            await self.refuse(interaction, OOPS, public_original=False)
            return
        if private:
            replies = await self._own_moves(interaction, replies) or replies
        await self.send(
            interaction, replies, only_private=private, pending_public=False, typed=not private
        )
        if not private:
            await self.direct.your_turn(chat_ref(interaction), replies)

    async def autocomplete_moves(
        self, interaction: discord.Interaction, typed: str
    ) -> list[tuple[str, str]]:
        """(label, action) of the asker's legal moves whose action or label contains every
        typed word; at most 25 (Discord's limit)."""
        if interaction.guild_id is None:
            return []
        try:  # an autocomplete cannot be deferred: give up rather than be late
            pairs = await asyncio.wait_for(
                self.service.choices(chat_ref(interaction), user_ref(interaction.user)),
                AUTOCOMPLETE_SECONDS,
            )
        except UserError:
            return []
        except Exception:
            log.warning("no move suggestions this time", exc_info=True)
            return []
        words = typed.lower().split()
        found = []
        for action, label in pairs:
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
        if interaction.guild_id is None:
            await self._press_in_dm(interaction, data)
            return
        try:
            replies = await self.service.press(
                chat_ref(interaction), user_ref(interaction.user), data
            )
        except UserError as exc:
            text = refusal(str(exc))
            await persist(
                lambda: interaction.followup.send(
                    text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
                ),
                "a refusal",
            )  # fmt: skip
            return
        except Exception:
            log.exception("a click failed")
            await interaction.followup.send(OOPS, ephemeral=True)
            return
        replies = await self._own_moves(interaction, replies) or replies
        step = await self._next_step(interaction, replies)
        asker = str(interaction.user.id)
        mine = [r for r in replies if r.to is not None and r.to.id == asker]
        if step is not None:
            replies = [r for r in replies if not any(r is m for m in mine)]
        replaced = await self.send(interaction, replies, only_private=False, pending_public=None)
        await self.direct.your_turn(chat_ref(interaction), replies)
        if step is not None:
            await self._replace_pressed(interaction, mine + step)
        elif replaced:
            # the clicked message is history now: take its buttons away so nobody is tempted
            try:
                await interaction.edit_original_response(view=None)
            except discord.HTTPException as exc:
                log.debug("could not clear the old buttons: %s", exc)

    async def _next_step(
        self, interaction: discord.Interaction, replies: list[Reply]
    ) -> list[Reply] | None:
        """A move pressed under the presser's own view (an ephemeral message): when the
        board waits for them again (a choice in several steps), their view as it is now
        with the next moves, to replace that message ([] if they have no moves left, so it
        loses its buttons); None for a press anywhere else."""
        message = interaction.message
        if message is None or not message.flags.ephemeral:
            return None
        asker = str(interaction.user.id)
        board = next((r for r in replies if r.kind == "board" and r.to is None), None)
        if board is None or board.final or not keeps_secrets(board):
            return []
        if not any(c.for_user == asker for c in board.choices):
            return []
        try:
            view = await self.service.private_view(chat_ref(interaction), user_ref(interaction.user))  # fmt: skip
        except UserError:
            return []
        return with_moves(view, board, asker)

    async def _replace_pressed(self, interaction: discord.Interaction, mine: list[Reply]) -> None:
        """The pressed private message becomes the presser's next view and moves (or loses
        its buttons); what else this move told them follows in the same message."""
        mine = _merge_private_lines(_fold_into_view(mine))
        target = next((r for r in mine if r.choices and r.picture is not None), None) or next(
            (r for r in mine if r.choices), None
        )
        first = messages(target, ephemeral=True) if target is not None else []
        try:
            if len(first) == 1:
                await persist(lambda: interaction.edit_original_response(**edit_kwargs(first[0])), "an edit")  # fmt: skip
                mine = [r for r in mine if r is not target]
            else:
                await persist(lambda: interaction.edit_original_response(view=None), "an edit")
        except discord.HTTPException as exc:
            log.info("could not update the pressed private message: %s", exc)
        for reply in mine:
            for kwargs in messages(reply, ephemeral=True):
                await persist(
                    lambda kw=kwargs: interaction.followup.send(ephemeral=True, wait=True, **fresh_file(kw)),
                    "a private reply",
                )  # fmt: skip

    async def _own_moves(
        self, interaction: discord.Interaction, replies: list[Reply]
    ) -> list[Reply]:
        """After a private view (My hand, /escape hand), the asker's own moves as buttons
        only they see, under the view: in games with secrets that is where they are
        offered. The replies with those moves added (empty: nothing to add)."""
        asker = str(interaction.user.id)
        views = [
            r for r in replies if r.kind == "private" and r.to is not None and r.to.id == asker
        ]
        if not views or any(r.to is None for r in replies):
            return []
        try:
            boards = await self.service.board(chat_ref(interaction))
        except UserError:
            return []
        if not any(keeps_secrets(b) for b in boards):
            return []  # the public board already shows everyone's moves
        board = next((b for b in boards if b.kind == "board"), None)
        if board is None or not any(c.for_user == asker for c in board.choices):
            return []
        return with_moves(replies, board, asker)  # the moves right under the view: one message

    # ----- posting --------------------------------------------------------------------
    async def send(
        self,
        interaction: discord.Interaction,
        replies: list[Reply],
        *,
        only_private: bool,
        pending_public: bool | None,
        typed: bool = False,
    ) -> bool:
        """Post replies as followups. `pending_public`: a deferred "thinking" message the
        first followup replaces (True public, False ephemeral, None: there is none).
        `typed`: a slash command, whose board is posted anew (see `boards`).
        Returns whether a public board or lobby was posted anew."""
        asker = str(interaction.user.id)
        posted_board = False
        sent_any = False
        for reply in _merge_private_lines(replies):
            if reply.to is not None and reply.to.id != asker:
                if await self.direct.wants(reply.to.id):
                    await self.direct.send(reply.to, [reply])
                    continue
                log.info(
                    "not posting a private %s reply of session %s for user %s: on Discord "
                    "only the person who clicked can get an ephemeral message (they can press "
                    "My hand / my view)",
                    reply.kind,
                    reply.session_id,
                    reply.to.id,
                )
                continue
            ephemeral = only_private or reply.to is not None
            if pending_public is not None and ephemeral != (not pending_public):
                # the "thinking" message would become this reply, seen by the wrong people
                await _delete_original(interaction)
                pending_public = None
            if not ephemeral and _is_live(reply):
                posted_board |= await self._show_board(interaction, reply, fresh=typed)
                sent_any = True
                pending_public = None
                continue
            for kwargs in messages(reply, ephemeral=ephemeral):
                await persist(
                    lambda kwargs=kwargs, ephemeral=ephemeral: interaction.followup.send(
                        ephemeral=ephemeral, wait=True, **fresh_file(kwargs)
                    ),
                    f"a {reply.kind}",
                )  # fmt: skip
                pending_public = None
                sent_any = True
            if not ephemeral and reply.final:
                posted_board = True
        if not sent_any and pending_public is not None:
            await _delete_original(interaction)
        return posted_board

    async def _show_board(
        self, interaction: discord.Interaction, reply: Reply, *, fresh: bool
    ) -> bool:
        """A session's lobby or board in answer to an interaction: the live message edited
        (a click while play is live) or a new followup (see `boards`)."""
        channel_id = interaction.channel_id or 0
        clicked = interaction.message.id if interaction.message is not None else None
        edit_clicked = None
        if interaction.type == discord.InteractionType.component:

            async def edit_clicked(kwargs: dict) -> None:
                await persist(lambda: interaction.edit_original_response(**kwargs), "an edit")

        async def post(kwargs: dict) -> discord.Message:
            return await persist(
                lambda: interaction.followup.send(wait=True, **fresh_file(kwargs)),
                f"a {reply.kind}",
            )

        async with self.boards.lock(channel_id):
            return await self.boards.show(
                reply.session_id,
                reply.kind,
                messages(reply, ephemeral=False),
                channel_id=channel_id,
                post=post,
                fresh=fresh,
                last_message_id=getattr(interaction.channel, "last_message_id", None),
                clicked_id=clicked,
                edit_clicked=edit_clicked,
                final=reply.final,
                version=reply.version,
            )

    async def refuse(
        self,
        interaction: discord.Interaction,
        message: str,
        *,
        public_original: bool,
        typed: str = "",
    ) -> None:
        """A refusal to the asker alone: escaped, within limits, quoting little of `typed`."""
        if public_original:
            await _delete_original(interaction)
        await persist(
            lambda: interaction.followup.send(
                refusal(message, typed), ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            ),
            "a refusal",
        )  # fmt: skip

    async def deliver(self, chat: ChatRef, replies: list[Reply]) -> None:
        """The service's notifier: replies nobody asked for (reminders, timeouts), posted
        in the game's channel or thread. Private ones cannot reach a user unprompted
        without DMs, which we do not use: they are skipped (the user can press My hand).
        A thread quiet for a week is archived by Discord: it is reopened and the post
        retried (the bot created it, so it may, unless a moderator locked it). What
        Discord refuses with 429 even after discord.py's retries is owed to the channel
        and posted later from a task of its own (the timer loop serves other games)."""
        key = chat.thread or chat.chat
        self.owed.pop(key, None)  # these replies are newer than any still owed here
        try:
            await self._post_unasked(chat, replies)
            await self.direct.your_turn(chat, replies)
        except _Owe as debt:
            log.warning("%d replies owed to channel %s; trying again in %.1f s", len(debt.replies), key, debt.wait)  # fmt: skip
            self.owed[key] = (chat, debt.replies)
            task = self._debts.get(key)
            if task is None or task.done():
                self._debts[key] = asyncio.create_task(self._repay(key, debt.wait))

    async def _repay(self, key: str, wait: float) -> None:
        for _ in range(RETRY_ROUNDS + 3):
            await asyncio.sleep(wait)
            wait = min(max(wait, 1.0) * 2, RETRY_LONGEST * 5)
            debt = self.owed.pop(key, None)
            if debt is None:
                break
            try:
                await self._post_unasked(*debt)
            except _Owe as again:
                self.owed[key] = (debt[0], again.replies)
                continue
            except Exception:
                log.exception("could not post owed replies in channel %s", key)
            break
        else:
            log.error("gave up posting %d owed replies in channel %s", len(self.owed.pop(key, (None, []))[1]), key)  # fmt: skip
        self._debts.pop(key, None)

    async def _press_in_dm(self, interaction: discord.Interaction, data: str) -> None:
        """A move button in a player's DM: it acts on the game of the session its data
        names, in that game's channel, as the user who pressed it (the service checks the
        seat and the version as for any press). The board in the channel shows the move;
        the pressed DM becomes the presser's next view and moves, or loses its buttons."""
        user = user_ref(interaction.user)
        try:
            button = service_buttons.parse(data)
            row = await self.service.store.session(button.session_id)
            if button.kind != "a" or row is None or row.platform != PLATFORM:
                raise UserError(NO_GUILD)
            chat = chat_of(row)
            replies = await self.service.press(chat, user, data)
        except UserError as exc:
            text = refusal(str(exc))
            await persist(lambda: interaction.followup.send(text), "a refusal")
            return
        public = [r for r in replies if r.to is None]
        mine = [r for r in replies if r.to is not None and r.to.id == user.id]
        others = [r for r in replies if r.to is not None and r.to.id != user.id]
        await self._post_unasked(chat, public + others, fresh=False)
        board = next((r for r in public if r.kind == "board" and not r.final), None)
        if board is not None and any(c.for_user == user.id for c in board.choices):
            with contextlib.suppress(UserError):  # a further step of their own move
                mine = mine + with_moves(await self.service.private_view(chat, user), board, user.id)  # fmt: skip
        await self._replace_pressed(interaction, mine)
        await self.direct.your_turn(chat, public, told=user.id)

    async def _post_unasked(
        self, chat: ChatRef, replies: list[Reply], *, fresh: bool = True
    ) -> None:
        channel = self.client.get_partial_messageable(
            int(chat.thread or chat.chat),
            guild_id=int(chat.scope) if chat.scope.isdigit() else None,
        )
        for n, reply in enumerate(_merge_private_lines(replies)):
            if reply.to is not None:
                if await self.direct.wants(reply.to.id):
                    await self.direct.send(reply.to, [reply])
                    continue
                log.info(
                    "skipping a private %s reply of session %s for user %s: Discord cannot "
                    "send it unprompted without a DM",
                    reply.kind,
                    reply.session_id,
                    reply.to.id,
                )
                continue
            try:
                if _is_live(reply):
                    async with self.boards.lock(channel.id):
                        await self.boards.show(
                            reply.session_id, reply.kind, messages(reply, ephemeral=False),
                            channel_id=channel.id, post=lambda kw: self._send_in(chat, channel, kw),
                            fresh=fresh, final=reply.final, version=reply.version,
                        )  # fmt: skip
                else:
                    for kwargs in messages(reply, ephemeral=False):
                        await self._send_in(chat, channel, kwargs)
            except (discord.HTTPException, discord.RateLimited) as exc:
                wait = transient(exc)
                if wait is not None:
                    raise _Owe(wait, [r for r in replies[n:] if r.to is None]) from exc
                raise

    async def _send_in(
        self, chat: ChatRef, channel: discord.PartialMessageable, kwargs: dict
    ) -> discord.Message:
        """channel.send, reopening a thread Discord archived after a quiet week."""
        try:
            return await channel.send(**fresh_file(kwargs))
        except discord.HTTPException as exc:
            if exc.code != THREAD_ARCHIVED or not chat.thread.isdigit():
                raise
        log.info("reopening archived thread %s to post in it", chat.thread)
        await self.client.http.edit_channel(int(chat.thread), archived=False)
        return await channel.send(**fresh_file(kwargs))


def _is_live(reply: Reply) -> bool:
    """A public lobby or board of a session: kept as the session's one live message."""
    return reply.to is None and reply.kind in ("board", "lobby") and reply.session_id is not None


class _Owe(Exception):
    """Discord refused for now: these replies are owed to the channel."""

    def __init__(self, wait: float, replies: list[Reply]) -> None:
        super().__init__(f"owed, try again in {wait:.1f} s")
        self.wait, self.replies = wait, replies


def _fold_into_view(replies: list[Reply]) -> list[Reply]:
    """A move's private notes to one user go into the same message as their view."""
    view = next((r for r in replies if r.picture is not None), None)
    notes = [r for r in replies if r.picture is None and not r.choices and r.kind != "private"]
    if view is None or not notes:
        return replies
    said = "\n".join([r.text for r in notes] + [view.text])
    kept = [r for r in replies if not any(r is n for n in notes)]
    return [replace(r, text=said) if r is view else r for r in kept]


def _merge_private_lines(replies: list[Reply]) -> list[Reply]:
    """Consecutive private text lines for one user ("You draw a ghost.") become one
    ephemeral message rather than a burst of them."""
    merged: list[Reply] = []
    for reply in replies:
        plain = reply.to is not None and reply.picture is None and not reply.choices
        last = merged[-1] if merged else None
        if (
            plain
            and last is not None
            and last.to == reply.to
            and last.picture is None
            and not last.choices
            and len(last.text) + len(reply.text) < MAX_CONTENT
        ):
            merged[-1] = replace(last, text=f"{last.text}\n{reply.text}")
        else:
            merged.append(reply)
    return merged


async def _acknowledge(interaction: discord.Interaction, **defer) -> bool:
    """Defer before any store or render work. False when Discord no longer takes an
    answer (error 10062 after 3 s, e.g. a paused process): then nothing is attempted."""
    try:
        await interaction.response.defer(**defer)
    except discord.NotFound:
        log.warning("an interaction expired before it could be acknowledged; nothing done")
        return False
    return True


async def _delete_original(interaction: discord.Interaction) -> None:
    try:
        await interaction.delete_original_response()
    except discord.HTTPException as exc:
        log.debug("could not delete the deferred message: %s", exc)


def _command_name(interaction: discord.Interaction) -> str:
    command = interaction.command
    return command.qualified_name if command is not None else "?"
