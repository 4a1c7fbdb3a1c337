"""What the web board asks of the service (`service.web_board`): a personal link claimed,
a page, its pushes, pictures, replay frames, a press, a lesson, a review, an Activity's
table. Each is one entry, guarded as every entry is; who may see or act is the access
rule's, asked here and never by the web front end. Kept apart from GameService so that the
chat's entries and the web's read each on their own.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.service.base import buttons
from bot.service.base.delivery_plan import Picture, Plan
from bot.service.base.entry_guard import entry
from bot.service.base.requests import ChatRef, UserError, UserRef
from bot.service.base.web_links import USED, WebSession, WebSigner, link_fields
from bot.service.community.entries import WEB_OFF
from bot.service.learning.reviews import Reviews
from bot.service.learning.tutorial import Tutorials, page_of
from bot.service.tables.access import Access, Visitor
from bot.service.tables.table import chat_of
from bot.service.web.web_tables import WebPass, WebTables
from bot.store import SessionRow, Store, StoreError
from engines.text import msg

log = logging.getLogger("bot.service")

Pressed = Callable[[SessionRow, UserRef, buttons.Button], Awaitable[Plan]]


class WebEntries:
    def __init__(
        self,
        store: Store,
        access: Access,
        web_tables: WebTables,
        tutorials: Tutorials,
        reviews: Reviews,
        pressed: Pressed,
        signer: Callable[[], WebSigner | None],
    ) -> None:
        self.store = store
        self.access = access
        self.web_tables = web_tables
        self.tutorials = tutorials
        self.reviews = reviews
        self._pressed = pressed  # the same press as in the table's chat
        self._signer = signer  # the web door's, once it serves

    async def claim_web_link(self, token: str) -> tuple[WebSession, int]:
        """A personal link opened: its user (as a week's session) and table; refused when
        forged, expired or opened before (in any process: the nonce is claimed in the store).
        (Not `@entry`: the token is checked whole by its signature, never cut like text.)"""
        signer = self._signer()
        if signer is None:
            raise UserError(WEB_OFF)
        user, session_id, nonce = link_fields(signer.read(token, "link"))
        try:
            opened = await self.store.swap_meta(f"web.link.{nonce}", "opened")
        except StoreError as exc:
            raise UserError(
                msg("The game store could not check that link just now; try again.")
            ) from exc
        if opened is not None:
            raise UserError(USED, reason="replayed")
        return signer.read_session(signer.session(user)), session_id

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
    async def picture(self, token: str, requester: UserRef | None) -> Picture:
        return await self.web_tables.picture(token, requester)

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
        button = buttons.parse(data)
        if button.session_id != web.table:
            raise UserError(msg("That button is for another table."))
        row = await self.web_tables.row(web.table)
        admission = await self.access.presser(row, web.visitor, button)
        if web.visitor.user is None:
            raise UserError(msg("Spectators watch; players sign in to move."))
        user = self.web_tables.acting_user(row, web.visitor.user, admission, web.wanted)
        return chat_of(row), await self._pressed(row, replace(user, language=web.language), button)

    @entry
    async def lesson(
        self, visitor: Visitor, what: str | None, data: str | None, language: str
    ) -> dict:
        """The web page's Learn: the visitor's own lesson (`what`: a game, or a move typed;
        `data`: a lesson button pressed), as the page shows a step."""
        user = replace(self.access.learner(visitor), language=language)
        chat = ChatRef(user.platform, f"lesson:{user.id}")
        if data is not None:
            if data.endswith(":p"):  # the page starts the real game itself, where it can
                raise UserError(msg("Start a real game from your chat: /escape start GAME bots=1."))
            plan = await self.tutorials.press(chat, user, data)
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
