"""What the web board asks of the service (`service.web_board`): a personal link made and
claimed, a page, its pushes, pictures, replay frames, a press, a lesson, a review, an
Activity's table, a tournament's page. Each is one entry, guarded as every entry is; who
may see or act is the access rule's, asked here and never by the web front end. The web
board's part of the service's door (the chats' is `GameService`): the web front end calls
only these.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.service.base import buttons
from bot.service.base.command_words import GAME
from bot.service.base.delivery_plan import Picture, Plan, Reply
from bot.service.base.entry_guard import entry
from bot.service.base.requests import ChatRef, UserError, UserRef
from bot.service.base.web_links import USED, WEB_OFF, WebDoor, WebSession, WebSigner, link_fields
from bot.service.community.tournaments import Tournaments
from bot.service.community.tournaments.page import TournamentPage
from bot.service.learning.reviews import Reviews
from bot.service.learning.tutorial import Tutorials, page_of
from bot.service.tables.access import NO_TOURNAMENT, Access, Standing, Visitor
from bot.service.tables.questions import Questions
from bot.service.tables.table import NO_TABLE, Table, chat_of
from bot.service.web.web_keys import WebKeys
from bot.service.web.web_tables import WebPass, WebTables
from bot.store import SessionRow, StoreError
from engines.text import command, msg
from languages import say

log = logging.getLogger("bot.service")

Pressed = Callable[[SessionRow, UserRef, buttons.Button], Awaitable[Plan]]
WATCHER = UserRef("web", "watching", "")  # a spectator asking about the board


class WebEntries:
    def __init__(
        self,
        table: Table,
        access: Access,
        web_tables: WebTables,
        tutorials: Tutorials,
        reviews: Reviews,
        tournaments: Tournaments,
        pressed: Pressed,
        door: Callable[[], WebDoor | None],
        questions: Questions | None = None,
    ) -> None:
        self.table = table
        self.store = table.store
        self.access = access
        self.web_tables = web_tables
        self.tutorials = tutorials
        self.reviews = reviews
        self.tournaments = tournaments
        self.tournament_pages = TournamentPage(self.store, tournaments.rounds, access)
        self._pressed = pressed  # the same press as in the table's chat
        self._door = door  # the web front end's, once it serves
        self.questions = questions if questions is not None else Questions(table)
        self.keys = WebKeys(self.store)
        self._kept: WebSigner | None = None  # the signer over the kept keys, if any

    # ----- the signing keys ----------------------------------------------------------
    async def signer(self, fixed: bytes | None, first: bytes | None = None) -> WebSigner:
        """The web board's signer: the operator's own key (`fixed`, ESCAPE_WEB_SECRET),
        else the keys kept in the store (web_keys.py), which a restart keeps and which
        rotate; `first` is the key a new ring starts with (the one derived from the chat
        tokens, which signed before the keys were kept)."""
        if fixed is not None:
            return WebSigner(fixed)
        self._kept = await self.keys.signer(first)
        return self._kept

    async def refresh_keys(self, signer: WebSigner) -> float | None:
        """The kept keys read again (and rotated when due): the seconds until the next
        time, or None for a key of the operator's, which never changes here."""
        if signer is not self._kept:
            return None
        return await self.keys.refresh(signer)

    def door(self) -> WebDoor:
        door = self._door()
        if door is None:
            raise UserError(WEB_OFF)
        return door

    # ----- links, made in a chat and opened in a browser ---------------------------------
    async def table_link(self, chat: ChatRef, user: UserRef) -> Plan:
        """`/escape web`: a link to the table here, signed for the asker, shown to them
        alone (and the table's spectator link, which shows the public board only)."""
        door = self.door()
        row = await self.table.live_row(chat)
        if row is None:
            raise UserError(NO_TABLE)
        url = f"{door.base}/link/{door.signer.link(user, row.id)}"
        watch = f"{door.base}/watch/{row.id}/{door.signer.watch(row.id)}"
        text = msg(
            "Your board of game #{id} in the browser, signed in as {name}: {url}\n"
            "It opens once, within 15 minutes: keep it to yourself. "
            "For spectators (the public board only): {watch}",
            id=row.id,
            name=user.name,
            url=url,
            watch=watch,
        )
        reply = Reply(text, kind="private", to=user, session_id=row.id, version=row.version)
        return Plan([reply], asker=user, quiet=True)

    async def tournament_link(self, chat: ChatRef, user: UserRef) -> Plan:
        """`/escape tournament web`: the tournament of this chat on the web board, by a link
        signed for the asker and shown to them alone."""
        door = self.door()
        t = await self.tournaments.desk.here(chat)
        if t is None:
            found = await self.store.tournaments_in_chat(chat.platform, chat.chat, ("finished",))
            t = found[0] if found else None
        if t is None:
            raise UserError(
                msg(
                    "There is no tournament here. Open one with {tournament_create}.",
                    tournament_create=command("tournament", "create", GAME, "rounds=4"),
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

    async def _claim(self, token: str, kind: str) -> tuple[WebSession, int]:
        """A personal link opened: its user (as a week's session) and what it names;
        refused when forged, expired or opened before (in any process: the nonce is claimed
        in the store)."""
        signer = self.door().signer
        user, named, nonce = link_fields(signer.read(token, kind))
        try:
            opened = await self.store.swap_meta(f"web.link.{nonce}", "opened")
        except StoreError as exc:
            raise UserError(
                msg("The game store could not check that link just now; try again.")
            ) from exc
        if opened is not None:
            raise UserError(USED, reason="replayed")
        return signer.read_session(signer.session(user)), named

    async def claim_web_link(self, token: str) -> tuple[WebSession, int]:
        """A table's personal link opened: its user and table. (Not `@entry`: the token is
        checked whole by its signature, never cut like text.)"""
        return await self._claim(token, "link")

    async def claim_tournament_link(self, token: str) -> tuple[WebSession, int]:
        """A tournament's personal link opened: its user and tournament (not `@entry`, as
        `claim_web_link`)."""
        return await self._claim(token, "tlink")

    @entry
    async def tournament_page(
        self, tournament_id: int, visitor: Visitor, language: str = "en"
    ) -> dict:
        """A tournament's page as its viewer may see it (anyone else: no such tournament);
        who may is the access rule's to say (`Access.tournament_watcher`)."""
        if tournament_id <= 0:
            raise UserError(NO_TOURNAMENT, reason="no_table")
        return await self.tournament_pages.page(tournament_id, visitor, language)

    # ----- an open page --------------------------------------------------------------

    @entry
    async def page(self, web: WebPass) -> dict:
        """The whole table as one open page shows it to its viewer (a stranger to the table
        hears that there is no such table)."""
        return await self.web_tables.page(web)

    async def updates(
        self, session_id: int, version: int, pages: list[WebPass]
    ) -> list[dict | None]:
        """What each open page of a table is pushed after a change (None: a page whose
        viewer may no longer watch)."""
        try:
            return await self.web_tables.updates(session_id, version, pages)
        except StoreError:
            log.warning(
                "could not read table %s for its pages; they are told at its next change",
                session_id,
            )
            return []

    @entry
    async def picture(self, token: str, requester: UserRef | None, layout: str = "wide") -> Picture:
        return await self.web_tables.picture(token, requester, layout)

    @entry
    async def frame(
        self, session_id: int, visitor: Visitor, n: int, language: str = "en"
    ) -> tuple[Picture, str]:
        return await self.web_tables.frame(session_id, visitor, n, language)

    @entry
    async def press(self, web: WebPass, data: str) -> tuple[ChatRef, Plan]:
        """A button of the web board: the same press as in the table's chat, by the page's
        viewer (for a local session, the local player of the seat it plays), if the table's
        rule lets them press it. Returns the table's chat, where the plan is delivered."""
        button = buttons.table_button(data)
        if button.session_id != web.table:
            raise UserError(msg("That button is for another table."))
        row = await self.web_tables.row(web.table)
        admission = await self.access.presser(row, web.visitor, button)
        if web.visitor.user is None:
            raise UserError(msg("Spectators watch; players sign in to move."))
        user = self.web_tables.acting_user(row, web.visitor.user, admission, web.wanted, button)
        return chat_of(row), await self._pressed(row, replace(user, language=web.language), button)

    @entry
    async def describe(self, web: WebPass, what: str | None) -> str:
        """The page's question about the board (`/escape describe`): asked as the page's
        player (for a local session, the seat it plays), or as a watcher, who may ask
        about places and players but has no `near` nor `hand`."""
        row = await self.web_tables.row(web.table)
        admission = await self.access.watcher(row, web.visitor)
        user = web.visitor.user or WATCHER
        if admission.standing == Standing.PLAYER:
            user = self.web_tables.acting_user(row, user, admission, web.wanted)
        elif user.platform == row.platform:
            user = replace(user, id=f"watching:{user.id}")  # (never a seat's id)
        plan = await self.questions.describe(chat_of(row), user, what)
        return "\n".join(say(r.text, web.language) for r in plan)

    @entry
    async def lesson(
        self, visitor: Visitor, what: str | None, data: str | None, language: str
    ) -> dict:
        """The web page's Learn: the visitor's own lesson (`what`: a game, or a move typed;
        `data`: a lesson button pressed), as the page shows a step."""
        user = replace(self.access.learner(visitor), language=language)
        chat = ChatRef(user.platform, f"lesson:{user.id}")
        if data is not None:
            button = buttons.parse(data)
            if not isinstance(button, buttons.LessonButton):
                raise UserError(buttons.NOT_OURS)
            if button.step is None:  # the page starts the real game itself, where it can
                raise UserError(
                    msg(
                        "Start a real game from your chat: {start}.",
                        start=command("start", GAME, "bots=1"),
                    )
                )
            plan = await self.tutorials.press(chat, user, button)
        else:
            plan = await self.tutorials.learn(chat, user, what)
        return await page_of(plan, language)

    @entry
    async def review(
        self, session_id: int, visitor: Visitor, language: str, seat: int | None = None
    ) -> dict:
        """The web page's Review beside the replay: the visitor's review of that table (as
        `seat` saw it, where the visitor plays more than one: a table at this machine)."""
        row = await self.web_tables.row(session_id)
        return await self.reviews.page(row, visitor, language, seat)

    @entry
    async def table_in_channel(self, platform: str, channel: str, visitor: Visitor) -> int | None:
        """The live table of a channel or thread given by its id alone (an Activity), if
        the visitor may watch it."""
        return await self.web_tables.in_channel(platform, channel, visitor)
