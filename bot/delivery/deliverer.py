"""Delivering a plan, written once for every front end (over its `Transport`).

- **The live board.** A new board or lobby edits the session's live message in place while
  the game is played live (it changed in the last few minutes), the chat has not moved on
  past it, and it has the same shape; otherwise it is posted anew and the old one retired
  (deleted, or stripped of its buttons), so older boards never show live buttons and the
  player to act is notified (an edit notifies nobody). A board overtaken by a newer one is
  never shown. Asked to show the board, and for a plan nobody asked for (a deadline
  served), the board is posted anew.
- **Owed posts.** What the platform refuses for a passing reason (a rate limit, the
  network, a flooded group) is owed to its chat and posted later from a task of its own,
  the wait doubling; a newer board of the same game overtakes an owed one. An owed board
  is also noted with the table, so that if this process dies the timer loop of another
  shows it (`Timers`). No move is left unshown.
- **Private messages.** A reply for one person goes to the asker in place where the front
  end can show them alone an answer, else to the person's private channel (their private
  chat, a DM they asked for); if there is none the chat is told how to open one (once a
  game, unless they asked). A private view is drawn only when it is sent. Only a player's
  newest private moves keep their buttons; a pressed private message is replaced by the
  presser's next view and moves.
- **The end.** A front end that tidies deletes the notices a game left once it ends.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field, replace

from bot.delivery.live_boards import LiveBoards, Slot
from bot.delivery.service_needs import ServiceNeeds
from bot.delivery.transport import Asked, Sent, Transient, Transport, Unreachable
from bot.service import ChatRef, Contact, Plan, Reply, TableFacts, UserRef
from bot.telemetry import logs, metrics
from languages import CHAT, DEFAULT, joined, resolve, say, spelled

log = logging.getLogger(__name__)

REPAY_ROUNDS = 8  # tries to post what is owed, the wait doubling from the platform's
REPAY_LONGEST = 300.0  # seconds: the longest wait between two tries


@dataclass
class Delivered:
    """What delivering a plan did (some front ends act on it)."""

    owe: bool = True  # a refusal for now is owed (else raised)
    board_anew: bool = False  # a live board or lobby was posted as a new message
    asker_moves: bool = False  # the asker was sent private moves
    posted: list[Sent] = field(default_factory=list)


@dataclass
class Owed:
    chat: ChatRef
    via: Transport
    replies: list[tuple[Reply, TableFacts | None]] = field(default_factory=list)
    task: asyncio.Task | None = None


class Delivery:
    def __init__(self, service: ServiceNeeds | None, platform: str) -> None:
        self.service = service
        self.platform = platform
        self.boards = LiveBoards(service, platform)
        self.owed: dict[str, Owed] = {}  # chat key -> what it is owed
        self._locks: dict[str, asyncio.Lock] = {}

    def close(self) -> None:
        """The front end stops: what is owed stays owed (the next board replaces it)."""
        for debt in self.owed.values():
            if debt.task is not None:
                debt.task.cancel()
        self.owed.clear()
        self._count_owed()

    def _count_owed(self) -> None:
        """`escape_boards_owed`: what this platform's chats are owed now."""
        owed = sum(len(debt.replies) for debt in self.owed.values())
        metrics.BOARDS_OWED.labels(self.platform).set(owed)

    def lock(self, chat: ChatRef) -> asyncio.Lock:
        return self._locks.setdefault(_key(chat), asyncio.Lock())

    # ----- a plan ---------------------------------------------------------------------
    async def deliver(
        self,
        chat: ChatRef,
        plan: Plan,
        via: Transport,
        asked: Asked | None = None,
        *,
        owe: bool = True,
    ) -> Delivered:
        """`owe`: what the platform refuses for now is owed (False: `Transient` is raised)."""
        table = plan.table
        with logs.bound(
            platform=chat.platform,
            chat=chat.chat,
            thread=chat.thread,
            table=table.session_id if table else None,
            game=table.game_id if table else None,
            version=table.version if table else None,
        ):
            return await self._deliver(chat, plan, via, asked, owe)

    async def _deliver(
        self, chat: ChatRef, plan: Plan, via: Transport, asked: Asked | None, owe: bool
    ) -> Delivered:
        done = Delivered(owe=owe)
        # each person's contact is asked for once a plan; kept per call, since other chats
        # deliver on this same instance meanwhile
        contacts: dict[str, Contact] = {}
        plan = await self._seated_privately(chat, plan)
        public = plan.language or (plan.table.language if plan.table else "") or DEFAULT
        asker = asked.user.id if asked is not None else None
        # the asker's next moves first: their screen answers their press before the chat's
        ordered = sorted(
            plan, key=lambda r: not (r.to is not None and r.to.id == asker and r.moves())
        )
        async with self.lock(chat):
            for reply in ordered:
                if reply.to is not None:
                    await self._private(chat, reply, plan, via, asked, done, contacts)
                elif plan.quiet and asked is not None and via.answers_in_place:
                    language = await self._language_of(asked.user, public, asked, contacts)
                    sent = await via.answer_in_place(await said(reply, language, via), asked)
                    done.posted += [sent] if sent else []
                elif reply.live:
                    await self._show_live(
                        chat, await said(reply, public, via), plan, via, asked, done
                    )
                else:
                    reply = await said(reply, public, via)
                    await self._notice(chat, reply, plan.table, via, asked, done)
            pressed = asked.pressed if asked is not None else None
            spent = pressed is not None and pressed.private and not done.asker_moves
            if spent and plan.table is not None and not plan.quiet:
                await via.strip(pressed)  # the pressed private moves are spent
            if plan.table is not None and (plan.table.over or any(r.final for r in plan)):
                await self._tidy(plan, via)
        return done

    async def _seated_privately(self, chat: ChatRef, plan: Plan) -> Plan:
        """A table with no public place (a tournament's table in a group without topics):
        what it would show its chat goes to each of its players privately (the service
        says who sits there); its players also follow it on the web board."""
        seated = await self.service.seated_at(chat) if self.service is not None else None
        if seated is None:
            return plan
        replies = []
        for reply in plan:
            if reply.to is not None:
                replies.append(reply)
            else:
                replies += [replace(reply, to=user, mention=[]) for user in seated]
        return replace(plan, replies=replies, quiet=False)

    async def adopt(self, session_id: int, chat: ChatRef, sent: Sent, kind: str) -> None:
        """A button pressed on a public message of a session whose live message is not
        known (a record lost): that message is taken as the live one."""
        await self.boards.adopt(session_id, chat, sent, kind)

    # ----- the live board ---------------------------------------------------------------
    async def _show_live(
        self,
        chat: ChatRef,
        reply: Reply,
        plan: Plan,
        via: Transport,
        asked: Asked | None,
        done: Delivered,
    ) -> None:
        sid = reply.session_id
        old = await self.boards.live(sid)
        versions = (reply.version, old.version if old is not None else None)
        if None not in versions and versions[0] < versions[1]:
            return  # overtaken by a newer board (two clicks racing): never show it
        self._overtake(chat, sid)
        fresh = plan.fresh or asked is None
        if (
            old is not None
            and not fresh
            and old.kind == reply.kind
            and old.sent.picture == (reply.picture is not None)
            and old.fresh_enough(time.time())
            and not via.moved_on(old.sent, old.later)
            and await via.edit(old.sent, reply, asked, plan.table)
        ):
            await self.boards.edited(sid, old, reply.version)
            return
        try:
            sent = await via.post(chat, reply, asked, plan.table)
        except Transient as exc:
            if not done.owe:
                raise
            self._owe(chat, via, reply, plan.table, exc.delay)
            await self.boards.owed(sid)  # noted with the table: a process that dies owes it
            return
        if not sent:
            return
        done.board_anew = True
        done.posted += sent
        await self.boards.add_litter(sid, sent[:-1] if via.tidies else [])
        ours = Slot(sent[-1], reply.kind, reply.version, time.time())
        stored, other = await self.boards.replace(sid, chat, ours, old)
        if not stored:  # another process posted a newer board meanwhile: ours is history
            if other is not None:
                await via.retire(sent[-1])
            return
        if other is not None and other.sent != sent[-1]:
            await via.retire(other.sent)
            await self.boards.retired(sid, other.sent)

    async def retire_leftovers(self, session_id: int, via: Transport) -> None:
        """Boards a process replaced and died before retiring (their notes say which):
        retired now, by the process that took its work over."""
        for sent in await self.boards.left_to_retire(session_id):
            await via.retire(sent)
            await self.boards.retired(session_id, sent)

    # ----- notices ----------------------------------------------------------------------
    async def _notice(
        self,
        chat: ChatRef,
        reply: Reply,
        table: TableFacts | None,
        via: Transport,
        asked: Asked | None,
        done: Delivered,
    ) -> None:
        try:
            sent = await via.post(chat, reply, asked, table)
        except Transient as exc:
            if not done.owe:
                raise
            self._owe(chat, via, reply, table, exc.delay)
            return
        done.posted += sent
        sid = reply.session_id or (table.session_id if table else None)
        if sid is None and via.tidies and self.service is not None:
            live = await self.service.live(chat)  # a refusal or a log of the game here
            sid = live.id if live is not None else None
        if sid is not None and via.tidies and not reply.final:
            await self.boards.add_litter(sid, sent)

    async def notice(
        self, chat: ChatRef, reply: Reply, via: Transport, asked: Asked | None = None
    ) -> None:
        """A message the front end itself says in a chat (a refusal, a menu): tidied at the
        end of the game running there, like the game's own notices."""
        async with self.lock(chat):
            await self._notice(chat, reply, None, via, asked, Delivered())

    # ----- private messages -------------------------------------------------------------
    async def _private(
        self,
        chat: ChatRef,
        reply: Reply,
        plan: Plan,
        via: Transport,
        asked: Asked | None,
        done: Delivered,
        contacts: dict[str, Contact],
    ) -> None:
        user = reply.to
        is_asker = asked is not None and asked.user.id == user.id
        table_language = plan.language or (plan.table.language if plan.table else DEFAULT)
        language = await self._language_of(user, table_language, asked, contacts)
        if is_asker and via.answers_in_place:
            sent = await via.answer_in_place(await said(reply, language, via), asked)
            done.asker_moves |= bool(reply.moves()) and sent is not None
            return
        place = None
        if is_asker and asked.private_chat is not None:
            place = asked.private_chat
        elif self.service is not None:
            place = await via.private_place(user, await self._contact(user, contacts))
        sid = reply.session_id or (plan.table.session_id if plan.table else None)
        if place is None:
            await self._unreachable(chat, user, sid, via, is_asker, language)
            return
        reply = await said(reply, language, via)  # (its picture drawn only now: it is sent)
        pressed = asked.pressed if is_asker and asked is not None else None
        if (
            pressed is not None
            and pressed.private
            and reply.moves()
            and pressed.picture == (reply.picture is not None)
            and await via.edit(pressed, reply, asked, plan.table)
        ):
            sent = [pressed]
        else:
            try:
                sent = await via.post(place, reply, asked, plan.table)
            except Transient:
                log.warning("a private message to %s was refused for now; not sent", user.id)
                return
            except Unreachable:
                if is_asker and asked.private_chat == place:
                    return  # asked in that very private chat, which refuses us: nowhere else
                await self._unreachable(chat, user, sid, via, is_asker, language)
                return
        if not sent:
            return
        if sid is not None:
            await self.boards.reached(sid, user.id)
            if reply.moves():
                for previous in await self.boards.newest_moves(sid, user.id, sent[-1]):
                    await via.strip(previous)
        done.asker_moves |= is_asker and bool(reply.moves())

    # ----- the end ----------------------------------------------------------------------
    async def _tidy(self, plan: Plan, via: Transport) -> None:
        """The game ended: its live board stays as the record (an aborted game's, and a
        lobby that never began, lose their buttons; a tidying front end deletes the lobby
        and every notice the game left); private moves lose their buttons."""
        t = await self.boards.forget(plan.table.session_id)
        for sent in t.retiring:
            await via.retire(sent)
        if via.tidies and t.litter:
            await via.delete(t.litter)
        for sent in t.moves:
            await via.strip(sent)
        if t.slot is None or any(r.kind == "board" and r.final for r in plan):
            return
        if t.slot.kind == "lobby" and via.tidies:
            await via.retire(t.slot.sent)
        else:
            await via.strip(t.slot.sent)

    async def _contact(self, user: UserRef, contacts: dict[str, Contact]) -> Contact:
        """`contacts`: what this one delivery has asked for already."""
        if user.id not in contacts:
            contacts[user.id] = await self.service.contact(user)
        return contacts[user.id]

    async def _language_of(
        self, user: UserRef, table: str, asked: Asked | None, contacts: dict[str, Contact]
    ) -> str:
        """What one person reads: their own setting, else what their app says now (they
        asked), else what it said when last seen, else the table's language."""
        contact = await self._contact(user, contacts) if self.service is not None else Contact()
        if contact.language:
            return contact.language
        if asked is not None and asked.user.id == user.id and asked.user.language:
            return resolve(asked.user.language, table)
        return resolve(contact.seen_language, table)

    async def _unreachable(
        self, chat: ChatRef, user, sid: int | None, via: Transport, asked: bool, language: str
    ) -> None:
        """Tell the chat how `user` can open their private channel: once a game, unless
        they asked for what could not be sent."""
        first = await self.boards.warn_once(sid, user.id) if sid is not None else True
        if not first and not asked:
            return
        told = await via.cannot_reach(chat, user, sid, language)
        if told is not None and sid is not None and via.tidies:
            await self.boards.add_litter(sid, [told])

    # ----- owed -------------------------------------------------------------------------
    def _overtake(self, chat: ChatRef, session_id: int) -> None:
        """A newer board of a session: an owed older one of it is dropped."""
        debt = self.owed.get(_key(chat))
        if debt is not None:
            debt.replies = [
                (r, t) for r, t in debt.replies if not (r.live and r.session_id == session_id)
            ]
            self._count_owed()

    def _owe(
        self, chat: ChatRef, via: Transport, reply: Reply, table: TableFacts | None, delay: float
    ) -> None:
        key = _key(chat)
        debt = self.owed.setdefault(key, Owed(chat, via))
        debt.via = via
        debt.replies.append((reply, table))
        metrics.POSTS_OWED.labels(self.platform).inc()
        self._count_owed()
        log.info("a %s is owed to chat %s; trying again in %.1f s", reply.kind, key, delay)
        if debt.task is None or debt.task.done():
            debt.task = asyncio.create_task(self._repay(key, delay))

    async def _repay(self, key: str, delay: float) -> None:
        """Post what a chat is owed once the platform takes it again; the chat's lock is
        taken only to post, so other chats and commands go on meanwhile."""
        for _ in range(REPAY_ROUNDS):
            await asyncio.sleep(delay)
            delay = min(max(delay, 1.0) * 2, REPAY_LONGEST)
            debt = self.owed.get(key)
            if debt is None or not debt.replies:
                break
            owed, debt.replies = debt.replies, []
            for n, (reply, table) in enumerate(owed):
                plan = Plan([reply], table)
                try:
                    await self.deliver(debt.chat, plan, debt.via, owe=False)
                except Transient:
                    debt.replies = owed[n:] + debt.replies
                    break
            self._count_owed()
            if not debt.replies:
                break
        debt = self.owed.pop(key, None)
        if debt is not None and debt.replies:
            metrics.OWED_GIVEN_UP.labels(self.platform).inc(len(debt.replies))
            log.error("gave up posting %d owed message(s) in chat %s", len(debt.replies), key)
        self._count_owed()


def _key(chat: ChatRef) -> str:
    return f"{chat.chat}/{chat.thread}"


async def said(reply: Reply, language: str, via: Transport | None = None) -> Reply:
    """A copy of `reply` in `language`: its text and labels said, its picture drawn in it
    (a picture that has none other keeps the one it has), its aside where `via` shows
    the My hand button the aside speaks of, and a private view by its own lines where `via`
    says the whole on request. The commands it names are spelled as `via` spells them (its
    `spelling`: the terminal's `start GAME`), else as a chat does (`/escape start GAME`)."""
    await reply.drawn(language)
    text = reply.text
    if reply.brief and getattr(via, "brief_views", False):
        text = reply.brief
    if reply.aside and getattr(via, "view_button", False):
        text = joined([text, reply.aside], "\n")
    # the commands it names, as typed there (and in their groups there: Discord's)
    with spelled(getattr(via, "spelling", CHAT), getattr(via, "spelling_groups", None)):
        return replace(
            reply,
            text=say(text, language),
            choices=[replace(c, label=say(c.label, language)) for c in reply.choices],
            language=language,
        )
