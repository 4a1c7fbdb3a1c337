"""The service's entry points for what a community plays together over weeks: its
seasons (`/escape season`, and their ends, which the timer loop serves) and its
tournaments on the web board (the tournament's page and a personal link to it).

A collaborator of `GameService` with entry points of its own (`@entry`, as the service's):
the front ends call `service.community.<entry>`. Who may see a tournament's page is the
access rule's to say (`Access.tournament_watcher`), never the page's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.service.base.delivery_plan import Plan, Reply
from bot.service.base.entry_guard import entry
from bot.service.base.requests import ChatRef, UserError, UserRef
from bot.service.base.web_links import USED, WebDoor, WebSession, link_fields
from bot.service.community.tournaments import Tournaments
from bot.service.community.tournaments.page import TournamentPage
from bot.service.pictures.workers import CpuPool
from bot.service.records.seasons import Seasons, SeasonsDone
from bot.service.tables.access import NO_TOURNAMENT, Access, Visitor
from bot.store import Store, StoreError
from engines.text import Msg, msg

WEB_OFF = msg(
    "The web board is not turned on for this bot (its operator sets ESCAPE_WEB and ESCAPE_PUBLIC_URL)."
)


class Community:
    def __init__(
        self,
        store: Store,
        access: Access,
        tournaments: Tournaments,
        *,
        cpu: CpuPool,
        pictures: bool,
        clock: Callable[[], float],
        notify: Callable[[ChatRef, Plan], Awaitable[bool]],
        scope_word: Callable[[str], Msg],
        language: Callable[[ChatRef, UserRef], Awaitable[str]],
        web: Callable[[], WebDoor | None],
    ) -> None:
        self.store = store
        self.tournaments = tournaments
        self.web = web  # the web board's door, once it serves
        self.seasons = Seasons(
            store,
            cpu,
            pictures=pictures,
            clock=clock,
            notify=notify,
            scope_word=scope_word,
            language=language,
        )
        self.pages = TournamentPage(store, tournaments.rounds, access)

    # ----- seasons ----------------------------------------------------------------------
    @entry
    async def season(
        self, chat: ChatRef, user: UserRef, text: str = "", is_admin: bool = False
    ) -> Plan:
        """`/escape season [start 3mo | end | off]`: this server's or group's seasons."""
        return await self.seasons.command(chat, user, text, is_admin)

    async def tick(self, now: float, platforms: list[str]) -> SeasonsDone:
        """The timer loop's: every season past its end ended, and its standings posted."""
        return await self.seasons.tick(now, platforms)

    # ----- tournaments on the web board -------------------------------------------------
    def _door(self) -> WebDoor:
        door = self.web()
        if door is None:
            raise UserError(WEB_OFF)
        return door

    @entry
    async def tournament_link(self, chat: ChatRef, user: UserRef) -> Plan:
        """`/escape tournament web`: the tournament of this chat on the web board, by a link
        signed for the asker and shown to them alone."""
        door = self._door()
        t = await self.tournaments.desk.here(chat)
        if t is None:
            found = await self.store.tournaments_in_chat(chat.platform, chat.chat, ("finished",))
            t = found[0] if found else None
        if t is None:
            raise UserError(
                msg(
                    "There is no tournament here. Open one with /escape tournament create GAME rounds=4."
                )
            )
        url = f"{door.base}/tournament-link/{door.signer.tournament_link(user, t.id)}"
        text = msg(
            "Tournament #{id} in the browser (its standings, its rounds and a link to each table), signed in as {name}: {url}\n"
            "It opens once, within 15 minutes: keep it to yourself.",
            id=t.id,
            name=user.name,
            url=url,
        )
        return Plan([Reply(text, kind="private", to=user)], asker=user, quiet=True)

    async def claim_tournament_link(self, token: str) -> tuple[WebSession, int]:
        """A tournament's personal link opened: its user (as a week's session) and the
        tournament; refused when forged, expired or opened before (in any process).
        (Not `@entry`: the token is checked whole by its signature, never cut like text.)"""
        door = self._door()
        user, tournament_id, nonce = link_fields(door.signer.read(token, "tlink"))
        try:
            opened = await self.store.swap_meta(f"web.link.{nonce}", "opened")
        except StoreError as exc:
            raise UserError(
                msg("The game store could not check that link just now; try again.")
            ) from exc
        if opened is not None:
            raise UserError(USED, reason="replayed")
        return door.signer.read_session(door.signer.session(user)), tournament_id

    @entry
    async def tournament_page(
        self, tournament_id: int, visitor: Visitor, language: str = "en"
    ) -> dict:
        """A tournament's page as its viewer may see it (anyone else: no such tournament)."""
        if tournament_id <= 0:
            raise UserError(NO_TOURNAMENT, reason="no_table")
        return await self.pages.page(tournament_id, visitor, language)
