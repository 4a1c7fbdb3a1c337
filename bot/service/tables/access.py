"""Who may watch a table and who may act on it: one rule, asked by every door.

- **Act** (a move, leave, begin, a bot added, a vote, undo, a hint, a rematch, a button
  that posts into the chat): a seated player, for their own seat. A local session (the
  person at this machine) plays every human seat of a terminal table.
- **Join a lobby**: a member of the table's chat, as its platform says (Telegram: the
  bot's getChatMember; Discord: the member's view permission in the channel, asked over
  the bot's REST API). A user of another platform never acts on a table.
- **Watch**: a seated player, a member of the chat, or whoever holds the table's
  spectator key.
- Anyone else learns nothing: not the table, not its spectator key, not that it exists
  (`NO_TABLE`, the very words a table that does not exist gets).
- **A tournament's page** (its standings, rounds and tables): its players and the members
  of its chat; anyone else hears that there is no such tournament.
- **Learn** (`/escape learn`, the web page's Learn): a lesson is private to its player;
  whoever proved who they are has their own, and a spectator key or nobody has none.

Who may *sit* (open a table, join one, take a seat, enter a tournament) is further bounded
by bars and blocks, asked at every door that seats someone (moderation.py's `gate`).

A request the platform delivered from the table's own chat (a button under its board) is
a member's by construction, and a member pressing there may also use the buttons that
post into that chat (replay, log, the board again). A web door asks the platform through
the front end that registered for it (`MemberLookup`); its answers are kept for a minute,
and when the platform cannot be asked the rule refuses.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import IntEnum

from bot.service.base.buttons import Button
from bot.service.base.requests import ChatRef, UserError, UserRef
from bot.service.base.web_links import LOCAL
from bot.service.tables.table import not_a_player, seat_of
from bot.store import SessionRow
from engines.text import command, msg

log = logging.getLogger(__name__)

NO_TABLE = msg("There is no such table (it may have been removed).")
NO_TOURNAMENT = msg("There is no such tournament.")
MEMBERS_ONLY = msg("Only the people of this table's chat can join it; ask for a link there.")
LEARNERS_SIGN_IN = msg(
    "A lesson is for one player: open the board from your own link ({web}) to learn.",
    web=command("web"),
)
REMEMBER_SECONDS = 60.0  # a platform's answer about a member, kept this long
REMEMBER_MOST = 10_000  # answers kept at most (the oldest are forgotten first)

# True: a member; False: not one; raise `MemberUnknown` when the platform cannot be asked
MemberLookup = Callable[[ChatRef, UserRef], Awaitable[bool]]


class MemberUnknown(Exception):
    """The platform could not say whether someone is a member (it is away, or refused)."""


class Standing(IntEnum):
    STRANGER = 0
    SPECTATOR = 1  # holds the table's spectator key
    MEMBER = 2  # of the table's chat
    PLAYER = 3  # seated (a local session: every human seat of a terminal table)


@dataclass(frozen=True)
class Visitor:
    """Who asks, as far as their door proved it. `here`: the chat the platform delivered
    the request from (a chat door); None for the web doors."""

    user: UserRef | None
    watch_key: str | None = None
    here: ChatRef | None = None


@dataclass(frozen=True)
class Admission:
    """What the rule decided for one visitor at one table."""

    standing: Standing
    seats: tuple[int, ...] = ()  # the seats they may play
    in_chat: bool = False  # the request came from the table's own chat

    @property
    def watches(self) -> bool:
        return self.standing > Standing.STRANGER


def is_local(user: UserRef | None, row: SessionRow) -> bool:
    """A local session on a terminal table (the person at this machine)."""
    return user is not None and user.id == LOCAL and user.platform == row.platform


class Access:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.now = clock
        self._lookups: dict[str, MemberLookup] = {}
        self._remembered: dict[tuple[str, str, str], tuple[bool, float]] = {}
        self._watch_key: Callable[[int, str], bool] | None = None

    def ask_members(self, platform: str, lookup: MemberLookup) -> None:
        """A front end says how its platform is asked who is in a chat."""
        self._lookups[platform] = lookup

    def check_keys(self, valid: Callable[[int, str], bool]) -> None:
        """The web board's spectator keys (`valid(table, key)`), once it serves."""
        self._watch_key = valid

    # ----- the rule ---------------------------------------------------------------------
    async def admit(self, row: SessionRow, visitor: Visitor, *, ask: bool = True) -> Admission:
        """`ask`: may the platform be asked whether they are in the chat (a button only
        a player may press needs no answer: none is asked for it)."""
        user = visitor.user
        in_chat = visitor.here is not None and _same_chat(visitor.here, row)
        if user is not None and user.platform == row.platform:
            if is_local(user, row):
                humans = tuple(s.seat for s in row.seats if s.kind == "human")
                return Admission(Standing.PLAYER, humans, in_chat)
            seat = seat_of(row, user)
            if seat is not None:
                return Admission(Standing.PLAYER, (seat,), in_chat)
            if in_chat or (ask and await self.is_member(row, user)):
                return Admission(Standing.MEMBER, (), in_chat)
        if (
            visitor.watch_key
            and self._watch_key is not None
            and self._watch_key(row.id, visitor.watch_key)
        ):
            return Admission(Standing.SPECTATOR)
        return Admission(Standing.STRANGER)

    async def watcher(self, row: SessionRow, visitor: Visitor, *, ask: bool = True) -> Admission:
        """The visitor's admission; a stranger hears that there is no such table."""
        admission = await self.admit(row, visitor, ask=ask)
        if not admission.watches:
            raise UserError(NO_TABLE, reason="no_table")
        return admission

    async def presser(self, row: SessionRow, visitor: Visitor, button: Button) -> Admission:
        """May this visitor press this button of this table? Refused with why."""
        members_may = button.members_may or (visitor.here is not None and button.posts_here)
        admission = await self.watcher(row, visitor, ask=members_may)
        if button.members_may:
            if admission.standing < Standing.MEMBER:
                raise UserError(MEMBERS_ONLY, reason="not_a_member")
        elif admission.standing < Standing.PLAYER and not (admission.in_chat and button.posts_here):
            raise UserError(not_a_player(row), reason="not_a_player")
        return admission

    async def tournament_watcher(
        self, home: ChatRef, players: set[str], visitor: Visitor
    ) -> Standing:
        """A tournament's page: its players, and the members of its chat (as its platform
        says) see it; anyone else hears that there is no such tournament."""
        user = visitor.user
        if user is not None and user.platform == home.platform:
            if user.id in players:
                return Standing.PLAYER
            if await self.is_member_of(home, user):
                return Standing.MEMBER
        raise UserError(NO_TOURNAMENT, reason="no_table")

    def learner(self, visitor: Visitor) -> UserRef:
        """Whose lesson a door's request is: the signed-in visitor's own (a lesson is no
        table: nobody else's can be named); a spectator key alone is refused."""
        if visitor.user is None:
            raise UserError(LEARNERS_SIGN_IN, reason="signed_out")
        return visitor.user

    # ----- the platforms ----------------------------------------------------------------
    async def is_member(self, row: SessionRow, user: UserRef) -> bool:
        return await self.is_member_of(ChatRef(row.platform, row.chat, row.thread, row.scope), user)

    async def is_member_of(self, chat: ChatRef, user: UserRef) -> bool:
        lookup = self._lookups.get(chat.platform)
        if lookup is None:
            return False
        key = (f"{chat.platform}:{chat.chat}", chat.thread, user.id)
        known = self._remembered.get(key)
        now = self.now()
        if known is not None and known[1] > now:
            return known[0]
        try:
            member = bool(await lookup(chat, user))
        except MemberUnknown as exc:
            log.info("could not ask %s who is in chat %s: %s", chat.platform, chat.chat, exc)
            return False  # when the platform cannot be asked, the rule refuses
        if len(self._remembered) >= REMEMBER_MOST:
            self._forget(now)
        self._remembered[key] = (member, now + REMEMBER_SECONDS)
        return member

    def _forget(self, now: float) -> None:
        self._remembered = {k: v for k, v in self._remembered.items() if v[1] > now}
        while len(self._remembered) >= REMEMBER_MOST:
            self._remembered.pop(next(iter(self._remembered)))


def _same_chat(chat: ChatRef, row: SessionRow) -> bool:
    return chat.platform == row.platform and chat.chat == row.chat
