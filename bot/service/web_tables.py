"""The table as the web board shows it: one page for one viewer, decided here like every
other plan (who sees what is the service's to say, never the page's).

- **Whom**: a viewer is a `UserRef` the web front end has proved (a signed link, Telegram's
  initData, Discord's OAuth2), or nobody (a spectator). A viewer who holds a seat gets that
  seat's private view and moves; a local session (the person at this machine, for the
  terminal's tables) may act for any human seat of a terminal table, hot-seat; anyone
  else sees the public board only, as a spectator would.
- **What**: the public board (the same picture and words the chat gets), the viewer's
  private view in a game with secrets, their legal moves as buttons with the regions on
  the picture where each can be tapped (`render.board_regions`, for the picture they are
  drawn on), the log (public, and the viewer's own private lines), the clock and who is to
  act, and how many public boards a replay has.
- **Moves** go through `GameService.press` with the button's data, which carries the
  board's version: a stale page is refused there like a stale chat button.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import render
from bot.service import buttons, deadlines
from bot.service import replay_frames as replays
from bot.service.board_plans import BoardPlans, ViewWords
from bot.service.drawing import draw_on
from bot.service.game_records import GameRecords
from bot.service.moves import stored
from bot.service.plan import Picture
from bot.service.requests import ChatRef, UserError, UserRef
from bot.service.table import Loaded, Table, chat_of
from bot.service.web_links import LOCAL
from bot.store import SessionRow
from engines import REGISTRY
from languages import Text, msg, say

NO_TABLE = msg("There is no such table (it may have been removed).")
STALE = msg("The board has moved on; here is the latest.")


@dataclass(frozen=True)
class WebMove:
    label: Text
    data: str  # hand it back to GameService.press as it is
    region: tuple[int, int, int, int] | None = None  # where it can be tapped (on `on`)
    on: str = "board"  # the picture the region is on: board or view


@dataclass
class WebPage:
    session_id: int
    version: int
    game_id: str
    title: Text
    status: str  # lobby, active, finished, aborted
    platform: str
    caption: Text  # what the chat's board says under it
    alt: Text  # the public picture in words
    clock: Text
    players: list[dict] = field(default_factory=list)  # name, kind, acting, you
    seat: int | None = None  # the viewer's seat (None: watching)
    seats_you_may_play: list[int] = field(default_factory=list)  # local hot-seat
    secrets: bool = False
    private_text: Text = ""  # the viewer's own view in words
    moves: list[WebMove] = field(default_factory=list)
    shared: list[WebMove] = field(default_factory=list)  # the lobby's buttons
    log: list[Text] = field(default_factory=list)
    own_log: list[Text] = field(default_factory=list)  # what only the viewer saw
    frames: int = 0  # public boards a replay shows
    language: str = "en"  # what the page is said in

    def as_json(self, language: str = "en") -> dict:
        """The page as JSON, every text said in `language` (the viewer's)."""
        out = {k: say(v, language) if isinstance(v, str) and k not in _IDS else v for k, v in vars(self).items()}  # fmt: skip
        out["log"] = [say(line, language) for line in self.log]
        out["own_log"] = [say(line, language) for line in self.own_log]
        out["moves"] = [{**vars(m), "label": say(m.label, language)} for m in self.moves]
        out["shared"] = [{**vars(m), "label": say(m.label, language)} for m in self.shared]
        out["language"] = language
        return out


_IDS = {"game_id", "status", "platform", "language"}  # (not words: never said)


class WebTables:
    def __init__(self, table: Table, plans: BoardPlans, records: GameRecords) -> None:
        self.table = table
        self.store = table.store
        self.plans = plans
        self.records = records
        self.cpu = plans.cpu

    async def row(self, session_id: int) -> SessionRow:
        row = await self.store.session(session_id)
        if row is None:
            raise UserError(NO_TABLE, reason="no_table")
        return row

    async def chat(self, session_id: int) -> ChatRef:
        return chat_of(await self.row(session_id))

    def seat_of(self, row: SessionRow, viewer: UserRef | None, wanted: int | None) -> int | None:
        """The seat this viewer sees and plays: their own; for a local session on a
        terminal table, the human seat asked for (or the first human to act)."""
        if viewer is None or (viewer.platform != row.platform and not _local(viewer, row)):
            return None
        if _local(viewer, row):
            humans = [s.seat for s in row.seats if s.kind == "human"]
            if wanted in humans:
                return wanted
            acting = []
            if row.status == "active":
                loaded = self.table.load(row)
                acting = [s for s in loaded.game.to_act(loaded.state) if s in humans]
            return (acting or humans or [None])[0]
        return next((s.seat for s in row.seats if s.user_id == viewer.id), None)

    def acting_user(self, row: SessionRow, viewer: UserRef, seat: int | None) -> UserRef:
        """Whom a press acts as: the viewer, or for a local session the local player of
        the seat it plays."""
        if _local(viewer, row) and seat is not None and seat < len(row.seats):
            s = row.seats[seat]
            return UserRef(row.platform, s.user_id, s.name)
        return viewer

    # ----- the page -----------------------------------------------------------------------
    async def page(self, session_id: int, viewer: UserRef | None, wanted: int | None = None) -> WebPage:  # fmt: skip
        row = await self.row(session_id)
        game = REGISTRY.get(row.game)
        if game is None:
            raise UserError(msg("This bot no longer has the game {game}.", game=repr(row.game)))
        seat = self.seat_of(row, viewer, wanted)
        page = WebPage(
            row.id, row.version, game.id, msg(game.title), row.status, row.platform, "", "", "",
            seat=seat, secrets=game.hidden_information,
        )  # fmt: skip
        if _local(viewer, row):
            page.seats_you_may_play = [s.seat for s in row.seats if s.kind == "human"]
        acting: list[int] = []
        if row.status == "lobby":
            lobby = self.plans.lobby(row, game, msg("Waiting for players."))
            page.caption = lobby.text
            page.shared = [WebMove(c.label, c.data) for c in lobby.choices]
        elif row.state is not None:
            loaded = self.table.load(row)
            acting = [s for s in game.to_act(loaded.state) if 0 <= s < len(row.seats)]
            board = await self.plans.board(loaded, [], None, draw=False, private=False)
            page.caption = board[0].text
            page.alt = ViewWords(game.id, game.view(loaded.state, None), game.title)
            if seat is not None:
                self._viewer_part(page, loaded, seat)
            page.log, page.own_log = await self._log(row, seat)
            page.frames = await self._frames(row)
        page.clock = deadlines.describe(row.clock, self.table.now()) if row.clock and row.status == "active" else ""  # fmt: skip
        page.players = [
            {"name": s.name, "kind": s.kind, "acting": s.seat in acting, "you": s.seat == seat}
            for s in row.seats
        ]
        return page

    def _viewer_part(self, page: WebPage, loaded: Loaded, seat: int) -> None:
        game, state, row = loaded.game, loaded.state, loaded.row
        if game.hidden_information:
            page.private_text = ViewWords(game.id, game.view(state, seat), game.title)
        if row.status != "active" or seat not in game.to_act(state):
            return
        legal = game.legal_actions(state, seat)
        on = "view" if game.hidden_information else "board"
        drawn = game.view(state, seat if on == "view" else None)
        try:
            regions = render.board_regions(game.id, drawn, legal)
        except KeyError:  # a game without a renderer: buttons only
            regions = {}
        page.moves = [
            WebMove(game.label(state, action), buttons.act(row.id, row.version, seat, i),
                    regions.get(action), on)
            for i, action in enumerate(legal)
        ]  # fmt: skip

    async def _log(self, row: SessionRow, seat: int | None) -> tuple[list[Text], list[Text]]:
        entries = await self.store.log(row.id)
        public = replays.log_lines(entries)
        own = [
            stored(e)
            for entry in entries
            for e in entry.events
            if seat is not None and e.get("to") == seat and e.get("text")
        ]
        return public, own

    async def _frames(self, row: SessionRow) -> int:
        game = REGISTRY[row.game]
        try:
            return len(replays.steps(game, row, await self.store.log(row.id)))
        except UserError:
            return 0

    # ----- pictures -----------------------------------------------------------------------
    async def picture(
        self,
        session_id: int,
        version: int,
        viewer: UserRef | None,
        wanted: int | None,
        which: str,
        language: str = "en",
    ) -> Picture:
        """The public board (`board`) or the viewer's own view (`view`) at `version`;
        refused once the table has moved on (the page fetches the new one)."""
        row = await self.row(session_id)
        if row.version != version:
            raise UserError(STALE, reason="stale")
        if row.state is None:
            raise UserError(msg("The game has not begun yet."))
        loaded = self.table.load(row)
        seat = None
        if which == "view":
            seat = self.seat_of(row, viewer, wanted)
            if seat is None:
                raise UserError(msg('Only a player of this game has a view of their own.'), reason="not_a_player")  # fmt: skip
        view = loaded.game.view(loaded.state, seat)
        name = f"{which}-{row.id}-{version}-{language}.png"
        picture = await draw_on(self.cpu, loaded.game.id, view, name, None, language)
        if picture is None:
            raise UserError(msg("This game has no pictures."))
        return picture

    async def frame(self, session_id: int, n: int, language: str = "en") -> tuple[Picture, str]:
        """Board `n` of the replay (public views only), and what its move did."""
        row = await self.row(session_id)
        if row.status == "lobby":
            raise UserError(msg("That game has not begun yet."))
        plan = await self.records.replay_page(row, n, language)
        reply = plan[0]
        if reply.picture is None:
            raise UserError(msg("This game has no pictures."))
        return reply.picture, say(reply.text, language)

    # ----- finding tables -------------------------------------------------------------
    async def in_channel(self, platform: str, channel: str) -> int | None:
        row = await self.store.live_session_in_channel(platform, channel)
        return row.id if row is not None else None


def _local(viewer: UserRef | None, row: SessionRow) -> bool:
    """A local session on a terminal table (the person at this machine)."""
    return viewer is not None and viewer.id == LOCAL and row.platform == viewer.platform
