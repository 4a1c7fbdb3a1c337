"""Bars and blocks: who may not sit at whose table.

- **A bar** (`/escape bar PLAYER`, the chat's admins; `unbar` lifts it) keeps a user from
  the bot's tables in that server or group: they cannot open one, join one, take a seat or
  enter a tournament there. Watching stays as the access rule says.
- **A block** (`/escape block PLAYER`, anyone; `unblock`): neither person joins a table
  where the other sits, nor takes a seat there, and a tournament pairs them apart while
  another pairing exists. The blocked person is never told who: they hear only that they
  cannot join this table.

`gate` is asked at every door that seats someone (the lobby's start and join, a seat
taken, a tournament's entry); the access rule (access.py) decides who may watch and act,
this who may sit. A person named in a command is one the platform resolved (a Discord
member, a Telegram user replied to) or a name as shown at this server's or group's tables.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.service.base.delivery_plan import Plan, Reply
from bot.service.base.requests import ChatRef, UserError, UserRef
from bot.store import SeatRow, Store
from engines.text import Text, command, joined, msg

BARRED = msg(
    "An admin of this server or group has barred you from the bot's tables here: you cannot play here."
)
BLOCKED = msg("You cannot join this table.")
ADMINS_ONLY = msg("Only an admin of this chat can do that.")
FORMER = msg("a former player")  # a person who had what is kept about them erased


class Moderation:
    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self.store = store
        self.now = clock

    # ----- who may sit ----------------------------------------------------------------
    async def gate(
        self, platform: str, scope: str, user: UserRef, seated: Sequence[SeatRow]
    ) -> None:
        """Refused (and nothing changes) when `user` is barred in this scope, or blocks or
        is blocked by someone seated (the blocked person is not told by whom)."""
        if await self.store.barred(platform, scope, user.id):
            raise UserError(BARRED, reason="barred")
        others = [s.user_id for s in seated if s.kind == "human" and s.user_id != user.id]
        pairs = await self.store.blocks_among(platform, [user.id, *others])
        if any(user.id in pair for pair in pairs):
            if any(blocker == user.id for blocker, _ in pairs):
                raise UserError(
                    msg("You cannot join this table: someone you block sits there."),
                    reason="blocked",
                )
            raise UserError(BLOCKED, reason="blocked")

    async def apart(self, platform: str, user_ids: list[str]) -> set[frozenset[str]]:
        """The pairs of these people who are to be kept apart (one blocks the other)."""
        return {frozenset(p) for p in await self.store.blocks_among(platform, user_ids)}

    # ----- a person named in a command ------------------------------------------------
    async def person(self, chat: ChatRef, who: UserRef | str | None) -> UserRef:
        """The person a command names: as the platform resolved them, or by a name as shown
        at this server's or group's tables (refused when nobody, or several, have it)."""
        if isinstance(who, UserRef):
            if who.platform != chat.platform:
                raise UserError(msg("That person is not on this platform."))
            return who
        name = (who or "").strip().lstrip("@")
        if not name:
            raise UserError(
                msg(
                    "Whom? Name a player as shown at the tables here, or pick them (Discord) or reply to one of their messages (Telegram)."
                )
            )
        found = await self.store.people_named(chat.platform, chat.scope, name)
        if not found:
            raise UserError(
                msg("Nobody called {name} has played at the tables here.", name=name[:64])
            )
        if len(found) > 1:
            raise UserError(
                msg(
                    "Several people called {name} have played here: pick one (Discord) or reply to one of their messages (Telegram).",
                    name=name[:64],
                )
            )
        user_id, shown = found[0]
        return UserRef(chat.platform, user_id, shown)

    # ----- bars -----------------------------------------------------------------------
    async def bar(
        self, chat: ChatRef, admin: UserRef, who: UserRef | str | None, is_admin: bool
    ) -> Plan:
        """`/escape bar [PLAYER]`: bar them from the bot's tables here (none named: the bars
        here)."""
        if not is_admin:
            raise UserError(ADMINS_ONLY, reason="not_admin")
        if who is None or (isinstance(who, str) and not who.strip()):
            bars = await self.store.bars_in(chat.platform, chat.scope)
            if not bars:
                return _quiet(admin, msg("Nobody is barred from the bot's tables here."))
            names = joined([b.name or FORMER for b in bars], ", ")
            return _quiet(admin, msg("Barred from the bot's tables here: {names}.", names=names))
        person = await self.person(chat, who)
        if person.id == admin.id:
            raise UserError(msg("You cannot bar yourself."))
        added = await self.store.bar(
            chat.platform, chat.scope, person.id, person.name, admin.id, self.now()
        )
        if not added:
            return _quiet(admin, msg("{name} is barred here already.", name=person.name))
        return _quiet(
            admin,
            msg(
                "{name} is barred from the bot's tables here: they cannot open, join or take a seat at one, nor enter a tournament ({unbar} lifts it). A game they play now goes on; {remove} takes their seat.",
                name=person.name,
                unbar=command("unbar"),
                remove=command("remove"),
            ),
        )

    async def unbar(
        self, chat: ChatRef, admin: UserRef, who: UserRef | str | None, is_admin: bool
    ) -> Plan:
        if not is_admin:
            raise UserError(ADMINS_ONLY, reason="not_admin")
        person = await self.person(chat, who)
        if not await self.store.unbar(chat.platform, chat.scope, person.id):
            return _quiet(admin, msg("{name} is not barred here.", name=person.name))
        return _quiet(
            admin, msg("{name} may play at the bot's tables here again.", name=person.name)
        )

    # ----- blocks ---------------------------------------------------------------------
    async def block(self, chat: ChatRef, user: UserRef, who: UserRef | str | None) -> Plan:
        """`/escape block [PLAYER]`: neither sits at the other's table (none named: whom
        the asker blocks)."""
        if who is None or (isinstance(who, str) and not who.strip()):
            names = await self.store.blocked_names(user.platform, user.id)
            if not names:
                return _quiet(user, msg("You block nobody."))
            listed = joined([n or FORMER for n in names], ", ")
            return _quiet(user, msg("You block: {names}.", names=listed))
        person = await self.person(chat, who)
        if person.id == user.id:
            raise UserError(msg("You cannot block yourself."))
        added = await self.store.block(user.platform, user.id, person.id, person.name, self.now())
        if not added:
            return _quiet(user, msg("You block {name} already.", name=person.name))
        return _quiet(
            user,
            msg(
                "You block {name}: neither of you can join a table where the other sits, and tournaments pair you apart where they can. They are not told. {unblock} lifts it.",
                name=person.name,
                unblock=command("unblock"),
            ),
        )

    async def unblock(self, chat: ChatRef, user: UserRef, who: UserRef | str | None) -> Plan:
        person = await self.person(chat, who)
        if not await self.store.unblock(user.platform, user.id, person.id):
            return _quiet(user, msg("You do not block {name}.", name=person.name))
        return _quiet(user, msg("You no longer block {name}.", name=person.name))


def _quiet(user: UserRef, text: Text | list[Text]) -> Plan:
    said = joined(text, "\n") if isinstance(text, list) else text
    return Plan([Reply(said, kind="info", to=user)], asker=user, quiet=True)
