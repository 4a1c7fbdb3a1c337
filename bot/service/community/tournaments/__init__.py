"""Tournaments in a server or group: sign-up, Swiss pairs or tables grouped by standing,
a place per table, standings with tie-breaks after every round (docs/tournaments.md).

`Tournaments` is the service's collaborator: the commands and buttons (`desk.py`), the
rounds the timer loop moves on (`rounds.py`), pairing and scores as pure functions
(`pairing.py`, `scores.py`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.service.base.buttons import TournamentButton
from bot.service.base.delivery_plan import Plan
from bot.service.base.requests import ChatRef, UserRef
from bot.service.community.tournaments.desk import Desk
from bot.service.community.tournaments.rounds import (
    Notify,
    OpenPlace,
    PlaceName,
    Progress,
    Rounds,
    is_virtual,
)
from bot.service.pictures.workers import CpuPool
from bot.service.tables.board_plans import BoardPlans
from bot.service.tables.bot_turns import BotTurns
from bot.service.tables.lobby import Lobby
from bot.service.tables.table import Table
from bot.store import Store, StoreError

log = logging.getLogger(__name__)

__all__ = ["Progress", "Tournaments", "is_virtual"]


class Tournaments:
    def __init__(
        self,
        store: Store,
        table: Table,
        plans: BoardPlans,
        turns: BotTurns,
        lobby: Lobby,
        *,
        cpu: CpuPool,
        pictures: bool,
        notify: Notify,
        open_place: OpenPlace,
        place_name: PlaceName,
        seed: Callable[[], int],
        language: Callable[[ChatRef, UserRef], Awaitable[str]],
    ) -> None:
        self.store = store
        self.rounds = Rounds(
            store,
            table,
            plans,
            turns,
            cpu=cpu,
            pictures=pictures,
            notify=notify,
            open_place=open_place,
            place_name=place_name,
            seed=seed,
            check_options=lobby.check_options,
        )
        self.desk = Desk(store, lobby, self.rounds, clock=table.now, language=language)

    async def command(self, chat: ChatRef, user: UserRef, text: str, is_admin: bool) -> Plan:
        return await self.desk.command(chat, user, text, is_admin)

    async def press(self, chat: ChatRef, user: UserRef, button: TournamentButton) -> Plan:
        """A tournament's button, pressed in its chat."""
        return await self.desk.press(chat, user, button.tournament_id, button.what)

    async def seated_at(self, chat: ChatRef) -> list[UserRef] | None:
        """The human players of a table with no public place of its own (a tournament's
        table in a group without topics), to whom what the table shows goes privately;
        None for any other chat (it has a public place)."""
        if not is_virtual(chat):
            return None
        row = await self.store.live_session(chat.platform, chat.chat, chat.thread)
        row = row or await self.store.latest_in_place(chat.platform, chat.chat, chat.thread)
        if row is None:
            return []
        return [UserRef(row.platform, s.user_id, s.name) for s in row.seats if s.kind == "human"]

    async def tick(self, now: float, platforms: list[str]) -> dict[int, Progress]:
        """Every tournament due on these platforms moved on; one that fails is looked at
        again one scan later, the others regardless."""
        done = {}
        for t in await self.store.due_tournaments(now, platforms):
            try:
                done[t.id] = await self.rounds.advance(t.id)
            except StoreError as exc:
                log.warning("tournament %s could not move on now: %s", t.id, exc)
            except Exception:
                log.exception("tournament %s failed", t.id)
        return done
