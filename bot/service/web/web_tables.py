"""The table as the web board shows it: what each open page is pushed, decided here like
every other plan (who may see what is the access rule's to say, never the page's).

- **A page** opens with the whole table for its viewer (`page`): the public board, and
  for a player their own view, moves and the regions where each can be tapped, the log
  (public, and the player's own private lines), the clock, who is to act, how many boards
  a replay has, the result once the game is over.
- **Then it is pushed** (`updates`): after every change, each open page gets the table as
  it is now for its viewer, with only the log lines the change added and what the change
  told that viewer (its notes). A change this process made is taken as the table core
  noted it (`RecentChanges`): no table or log read. Any other change (another process,
  a seat, the clock, an undo) is read once for every page of the table.
- **Pictures** have signed addresses (`WebSigner.picture`), so an app's page, which has no
  cookie, loads them; a private view's address works only with its owner's session.
  Each is drawn once per version, language and seat (`DrawnPictures`), shared with the
  chat. The replay's length is counted from the stored moves, never by replaying.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

import render
from bot.service.base import buttons, deadlines
from bot.service.base.delivery_plan import Picture
from bot.service.base.move_records import stored
from bot.service.base.requests import ChatRef, UserError, UserRef
from bot.service.base.web_links import LOCAL, PictureTicket, WebSigner
from bot.service.pictures.drawn_pictures import PictureKey
from bot.service.records import replay_frames as replays
from bot.service.records.game_records import GameRecords
from bot.service.tables.access import Access, Admission, Standing, Visitor, is_local
from bot.service.tables.board_plans import BoardPlans, described
from bot.service.tables.bot_seats import seat_name
from bot.service.tables.table import Loaded, Table, chat_of, result_of
from bot.store import NewEntry, SessionRow
from engines import CHANCE, REGISTRY, Event, Game
from engines.text import Text, joined, msg
from languages import say
from render import work

NO_TABLE = msg("There is no such table (it may have been removed).")
STALE = msg("The board has moved on; here is the latest.")
NOT_YOURS = msg("That picture is another player's view.")
KNOWN = 4096  # tables whose last shown version and replay length are kept
LOG_SHOWN = 60  # log rows a page is sent when it opens (the rest: /escape log, the replay)
NARROW_KEPT = 256  # phone-width boards kept drawn (by table, version, seat, language)


@dataclass(frozen=True)
class WebPass:
    """One open page: which table, who looks (as their door proved it), the seat a local
    session asked to play, and the language it is said in."""

    table: int
    visitor: Visitor
    wanted: int | None = None
    language: str = "en"


@dataclass
class Moment:
    """A table at one version, as its pages show it: read (or taken from the change) once
    for all of them."""

    row: SessionRow
    game: Game
    loaded: Loaded | None  # None in the lobby
    frames: int  # boards a replay shows
    log: list[Text] | None = None  # the whole public log (None: only `added`)
    own: dict[int, list[Text]] | None = None  # the whole private log, by seat
    added: list[Text] = field(default_factory=list)  # public lines the change added
    added_own: dict[int, list[Text]] = field(default_factory=dict)  # and private, by seat
    events: list[Event] = field(default_factory=list)  # what the change said (the caption)
    # said or drawn once a moment, for all its pages
    words: dict[tuple[int | None, str], str] = field(default_factory=dict)  # a view in words
    public: dict[str, dict] = field(default_factory=dict)  # by language
    _regions: dict[int, tuple[list[str], dict, dict]] = field(default_factory=dict)

    def legal(self, seat: int) -> tuple[list[str], dict, dict]:
        """A seat's legal moves and where each is tapped, on the wide board and on the
        narrow one (a phone's), worked out once a moment."""
        if seat not in self._regions:
            game, state = self.game, self.loaded.state
            legal = game.legal_actions(state, seat)
            drawn = game.view(state, seat if game.hidden_information else None)
            try:
                regions = render.board_regions(game.id, drawn, legal)
            except KeyError:  # a game without a renderer: buttons only
                regions = {}
            narrow = render.narrow.regions(game.id, drawn, legal)
            self._regions[seat] = (legal, regions, narrow)
        return self._regions[seat]


class WebTables:
    def __init__(
        self, table: Table, plans: BoardPlans, records: GameRecords, access: Access
    ) -> None:
        self.table = table
        self.store = table.store
        self.plans = plans
        self.records = records
        self.access = access
        self.signer: WebSigner | None = None  # the web board's, once it serves
        self._known: OrderedDict[int, tuple[int, int]] = OrderedDict()  # table -> (version, frames)
        self._narrow_drawn: OrderedDict[tuple, asyncio.Future] = OrderedDict()

    def serve(self, signer: WebSigner) -> None:
        self.signer = signer
        self.access.check_keys(signer.valid_watch)

    async def row(self, session_id: int) -> SessionRow:
        row = await self.store.session(session_id)
        if row is None:
            raise UserError(NO_TABLE, reason="no_table")
        return row

    async def admitted(self, session_id: int, visitor: Visitor) -> tuple[SessionRow, Admission]:
        """The table and what its rule says of the visitor; a stranger hears that there is
        no such table, as if it did not exist."""
        row = await self.row(session_id)
        return row, await self.access.watcher(row, visitor)

    # ----- a whole page ---------------------------------------------------------------
    async def page(self, web: WebPass) -> dict:
        row, admission = await self.admitted(web.table, web.visitor)
        moment = await self._read(row)
        return (await self._pages(moment, [web], [admission]))[0]

    async def _read(self, row: SessionRow) -> Moment:
        """A table with its recent log, read from the store (at the same cost at any
        length of game: the page shows the last `LOG_SHOWN` rows; `/escape log` pages
        through the rest)."""
        game = _game(row)
        if row.status == "lobby" or row.state is None:
            return Moment(row, game, None, 0, log=[], own={})
        entries = await self.store.log_tail(row.id, LOG_SHOWN)
        own: dict[int, list[Text]] = {}
        for entry in entries:
            for e in entry.events:
                if isinstance(e.get("to"), int) and e.get("text"):
                    own.setdefault(e["to"], []).append(stored(e))
        replayable = row.rules_version == game.rules_version
        frames = 1 + await self.store.moves_made(row.id) if replayable else 0
        self._remember(row.id, row.version, frames)
        return Moment(
            row, game, self.table.load(row), frames, log=replays.log_lines(entries), own=own
        )

    # ----- pushed after a change ----------------------------------------------------------
    async def updates(
        self, session_id: int, version: int, pages: Sequence[WebPass]
    ) -> list[dict | None]:
        """What each open page of a table is pushed now (None: a page whose viewer may no
        longer watch; it is told so and closed)."""
        moment = await self._moment(session_id, version)
        if moment is None:
            return [None] * len(pages)
        admissions = [await self.access.admit(moment.row, web.visitor) for web in pages]
        return await self._pages(moment, pages, admissions)

    async def _moment(self, session_id: int, version: int) -> Moment | None:
        known = self._known.get(session_id)
        changes = self.table.changes.between(session_id, known[0], version) if known else None
        if changes:
            row = changes[-1].row
            entries = [e for c in changes for e in c.entries]
            moves = sum(1 for e in entries if e.seat >= 0)
            frames = known[1] + moves if known[1] else 0
            self._remember(session_id, version, frames)
            added, added_own, events = _told(entries)
            return Moment(
                row,
                _game(row),
                self.table.load(row),
                frames,
                added=added,
                added_own=added_own,
                events=events,
            )
        row = await self.store.session(session_id)
        if row is None:
            return None
        return await self._read(row)

    def _remember(self, session_id: int, version: int, frames: int) -> None:
        self._known[session_id] = (version, frames)
        self._known.move_to_end(session_id)
        while len(self._known) > KNOWN:
            self._known.popitem(last=False)

    # ----- each viewer's page -----------------------------------------------------------
    async def _pages(
        self, moment: Moment, pages: Sequence[WebPass], admissions: Sequence[Admission]
    ) -> list[dict | None]:
        """Each page as its viewer sees it. Pages that see the same (a hundred spectators
        of one language) share one; each picture they show is drawn once, and its words
        (the board described) come with it from the picture pool."""
        seats = [
            _seat(moment, a, web.wanted) if a.watches else None
            for web, a in zip(pages, admissions, strict=True)
        ]
        secrets = moment.game.hidden_information
        shown = {
            (s if secrets else None, web.language)
            for web, s, a in zip(pages, seats, admissions, strict=True)
            if a.watches
        }
        await self._draw(moment, shown)
        made: dict[tuple, dict] = {}
        out: list[dict | None] = []
        for web, admission, seat in zip(pages, admissions, seats, strict=True):
            if not admission.watches:
                out.append(None)
                continue
            user = web.visitor.user
            key = (admission, seat, web.language, (user.platform, user.id) if user else None)
            if key not in made:
                made[key] = self._said(moment, web, admission, seat)
            out.append(made[key])
        return out

    async def _draw(self, moment: Moment, wanted: set[tuple[int | None, str]]) -> None:
        """The pictures these (seat or None, language) pairs show, drawn (or found drawn)
        at once, and what each says in words."""
        if moment.loaded is None or not self.plans.pictures:
            return
        game, state, row = moment.game, moment.loaded.state, moment.row
        keys = [k for k in wanted if k not in moment.words]
        drawn = await asyncio.gather(
            *(
                self.plans.view_picture(
                    row.id, row.version, seat, game.view(state, seat), game.id, language
                )
                for seat, language in keys
            ),
            return_exceptions=True,
        )
        for key, picture in zip(keys, drawn, strict=True):
            if isinstance(picture, Picture):
                moment.words[key] = picture.alt

    def _said(self, moment: Moment, web: WebPass, admission: Admission, seat: int | None) -> dict:
        row, _game, language = moment.row, moment.game, web.language
        whole = moment.log is not None
        page = dict(self._public(moment, language))
        page |= {
            "standing": admission.standing.name.lower(),
            "you": _you(web.visitor, admission),
            "seat": seat,
            "seats_you_may_play": list(admission.seats) if is_local(web.visitor.user, row) else [],
            "players": [{**p, "you": p["seat"] == seat} for p in page["players"]],
            # the spectator link, as the chat's /escape web gives it to the people of the table
            "watch_key": self.signer.watch(row.id)
            if self.signer is not None and admission.standing >= Standing.MEMBER
            else None,
            "moves": [],
            "shared": [],
            "private_text": "",
            "view": None,
        }
        if row.status == "lobby":
            standing = admission.standing  # Join for a member, the rest for a seated player
            page["shared"] = [
                b
                for b in page.pop("lobby_buttons")
                if standing in (Standing.MEMBER, Standing.PLAYER)
                and buttons.table_button(b["data"]).members_may == (standing == Standing.MEMBER)
            ]
        page.pop("lobby_buttons", None)
        if seat is not None and moment.loaded is not None:
            self._own_part(page, moment, seat, web)
        if moment.loaded is not None and not (moment.game.hidden_information and seat is not None):
            page["alt"] = self._words(moment, None, language)  # (a player's view tells it too)
        own = (moment.own or {}).get(seat, []) if whole else moment.added_own.get(seat, [])
        own_said = [say(line, language) for line in own] if seat is not None else []
        if whole:
            page["own_log"] = own_said
        else:
            page["own_log_add"] = own_said
            page["notes"] = [*page["log_add"], *own_said]  # what changed, not the whole view
        return page

    def _public(self, moment: Moment, language: str) -> dict:
        """What every page of one language shows alike, said once a moment."""
        if language in moment.public:
            return moment.public[language]
        row, game = moment.row, moment.game
        active = row.status == "active" and moment.loaded is not None
        acting: list[int] = []
        caption: list[Text] = []
        result = None
        if moment.loaded is not None:
            result = result_of(moment.loaded)
            caption, acting, _humans = self.plans.caption(moment.loaded, moment.events, result)
        page: dict = {
            "table": row.id,
            "version": row.version,
            "game": game.id,
            "title": say(msg(game.title), language),
            "status": row.status,
            "language": language,
            "secrets": game.hidden_information,
            # a board drawn for a phone's width (`?layout=narrow` on its address)
            "narrow": render.narrow.has(game.id),
            "players": [
                {
                    "name": say(seat_name(s), language),
                    "kind": s.kind,
                    "acting": s.seat in acting and active,
                    "seat": s.seat,
                }
                for s in row.seats
            ],
            # (a table at this machine has no turn clock: nobody there is reminded)
            "clock": say(deadlines.describe(row.clock, self.table.now()), language)
            if row.clock and active and self.plans.timed(row.platform)
            else "",
            "frames": moment.frames,
            "board": None,
            "result": "",
            "alt": "",
            "caption": say(_lines(caption), language),
        }
        if row.status == "lobby":
            lobby = self.plans.lobby(row, game, msg("Waiting for players."))
            page["caption"] = say(lobby.text, language)
            page["lobby_buttons"] = [
                {"label": say(c.label, language), "data": c.data} for c in lobby.choices
            ]
        elif moment.loaded is not None:
            page["board"] = self._address(PictureTicket(row.id, row.version, language))
            if result is not None or row.status != "active":
                page["result"] = say(
                    result.summary
                    if result is not None
                    else msg("This game was ended before its end."),
                    language,
                )
        if moment.log is not None:
            page["log"] = [say(line, language) for line in moment.log]
        else:
            page["log_add"] = [say(line, language) for line in moment.added]
        moment.public[language] = page
        return page

    def _words(self, moment: Moment, seat: int | None, language: str) -> str:
        """A view in words: as its picture came with it, else said here."""
        key = (seat, language)
        if key not in moment.words:
            game = moment.game
            moment.words[key] = described(
                game.id, game.view(moment.loaded.state, seat), game.title, language
            )
        return moment.words[key]

    def _own_part(self, page: dict, moment: Moment, seat: int, web: WebPass) -> None:
        """A player's own view (in a game with secrets it is their board: the public board
        with their hand), and their moves while they are to act."""
        game, state, row, language = moment.game, moment.loaded.state, moment.row, web.language
        if game.hidden_information:
            page["private_text"] = self._words(moment, seat, language)
            viewer = web.visitor.user or _acting_user(row, None, seat)
            page["view"] = self._address(PictureTicket(row.id, row.version, language, seat, viewer))
        if row.status != "active" or seat not in game.to_act(state):
            return
        legal, regions, narrow = moment.legal(seat)
        on = "view" if game.hidden_information else "board"
        page["moves"] = [
            {
                "label": say(game.label(state, action), language),
                "data": buttons.Act(row.id, row.version, seat, i).data,
                "region": regions.get(action),
                "narrow": narrow.get(action),
                "kind": action.split()[0] if action else "",
                "on": on,
            }
            for i, action in enumerate(legal)
        ]

    def _address(self, ticket: PictureTicket) -> str | None:
        if self.signer is None or not self.plans.pictures:
            return None
        return f"/api/pictures/{self.signer.picture(ticket)}.png"

    # ----- pictures -----------------------------------------------------------------------
    async def picture(self, token: str, requester: UserRef | None, layout: str = "wide") -> Picture:
        """The picture a signed address names: the public board at its version, or one
        seat's view, for its viewer alone (their session must come with the request);
        `layout` narrow: drawn for a phone's width (render/narrow), where the game has it."""
        if self.signer is None:
            raise UserError(NO_TABLE, reason="no_table")
        ticket = self.signer.read_picture(token)
        if ticket.seat is not None and (
            requester is None
            or (requester.platform, requester.id) != (ticket.viewer.platform, ticket.viewer.id)
        ):
            raise UserError(NOT_YOURS, reason="not_a_player")
        if layout == "narrow":
            return await self._narrow(ticket)
        drawing = self.plans.drawn.found(
            PictureKey(ticket.table, ticket.version, ticket.seat, ticket.language)
        )
        if drawing is not None:
            picture = await asyncio.shield(drawing)
        else:
            row = await self.row(ticket.table)
            if row.version != ticket.version:
                raise UserError(STALE, reason="stale")
            if row.state is None:
                raise UserError(msg("The game has not begun yet."))
            loaded = self.table.load(row)
            view = loaded.game.view(loaded.state, ticket.seat)
            picture = await self.plans.view_picture(
                row.id, row.version, ticket.seat, view, loaded.game.id, ticket.language
            )
        if picture is None:
            raise UserError(msg("This game has no pictures."))
        return picture

    async def _narrow(self, ticket: PictureTicket) -> Picture:
        """A board for a phone's width, drawn once per version, seat and language (the last
        `NARROW_KEPT` kept: a phone's page asks again only after a change)."""
        key = (ticket.table, ticket.version, ticket.seat, ticket.language)
        if key not in self._narrow_drawn:
            row = await self.row(ticket.table)
            if row.version != ticket.version:
                raise UserError(STALE, reason="stale")
            if row.state is None or not render.narrow.has(row.game):
                raise UserError(msg("This game has no pictures."))
            loaded = self.table.load(row)
            view = loaded.game.view(loaded.state, ticket.seat)
            self._narrow_drawn[key] = asyncio.ensure_future(
                self.plans.cpu.run(work.narrow_board, row.game, view, ticket.language)
            )
            while len(self._narrow_drawn) > NARROW_KEPT:
                self._narrow_drawn.popitem(last=False)
        try:
            png = await asyncio.shield(self._narrow_drawn[key])
        except Exception:
            self._narrow_drawn.pop(key, None)
            raise
        if png is None:
            raise UserError(msg("This game has no pictures."))
        return Picture(png, "", "board.png", ticket.language)

    async def frame(
        self, session_id: int, visitor: Visitor, n: int, language: str
    ) -> tuple[Picture, str]:
        """Board `n` of the replay (public views only), and what its move did."""
        row, _ = await self.admitted(session_id, visitor)
        if row.status == "lobby":
            raise UserError(msg("That game has not begun yet."))
        plan = await self.records.replay_page(row, n, language)
        reply = plan[0]
        if reply.picture is None:
            raise UserError(msg("This game has no pictures."))
        return reply.picture, say(reply.text, language)

    # ----- finding tables ---------------------------------------------------------------
    async def in_channel(self, platform: str, channel: str, visitor: Visitor) -> int | None:
        """The live table of a channel (an Activity), if the visitor may watch it."""
        row = await self.store.live_session_in_channel(platform, channel)
        if row is None or not (await self.access.admit(row, visitor)).watches:
            return None
        return row.id

    def acting_user(
        self,
        row: SessionRow,
        user: UserRef,
        admission: Admission,
        wanted: int | None,
        button: buttons.Button | None = None,
    ) -> UserRef:
        """Whom a press acts as: the visitor, or for a local session (hot-seat at this
        machine) the local player of the seat the move was offered to (a move button names
        its seat), else of the seat the page plays, else of the seat to act."""
        if is_local(user, row):
            seats = admission.seats
            offered = button.seat if isinstance(button, buttons.Act) else None
            if offered in seats:
                seat = offered
            elif wanted in seats:
                seat = wanted
            else:
                seat = _first_to_act(row, self.table, seats)
            if seat is not None:
                return _acting_user(row, user, seat)
        return user

    def chat(self, row: SessionRow) -> ChatRef:
        return chat_of(row)


# ----- helpers ------------------------------------------------------------------------
def _game(row: SessionRow) -> Game:
    game = REGISTRY.get(row.game)
    if game is None:
        raise UserError(msg("This bot no longer has the game {game}.", game=repr(row.game)))
    return game


def _told(entries: Sequence[NewEntry]) -> tuple[list[Text], dict[int, list[Text]], list[Event]]:
    """What appended log rows said: in public, to each seat, and as events."""
    public: list[Text] = []
    own: dict[int, list[Text]] = {}
    events: list[Event] = []
    for entry in entries:
        for e in entry.events:
            if not e.get("text"):
                continue
            text, to = stored(e), e.get("to")
            events.append(Event(text, to, e.get("kind", "info")))
            if to is None:
                public.append(text)
            elif isinstance(to, int) and to != CHANCE:
                own.setdefault(to, []).append(text)
    return public, own, events


def _seat(moment: Moment, admission: Admission, wanted: int | None) -> int | None:
    """The seat a page shows and plays: the player's own; a local session's choice among
    the human seats (else the first to act, else the first)."""
    seats = admission.seats
    if admission.standing != Standing.PLAYER or not seats:
        return None
    if wanted in seats:
        return wanted
    if len(seats) > 1 and moment.loaded is not None and moment.row.status == "active":
        acting = [s for s in moment.game.to_act(moment.loaded.state) if s in seats]
        if acting:
            return acting[0]
    return seats[0]


def _first_to_act(row: SessionRow, table: Table, seats: tuple[int, ...]) -> int | None:
    """Of these seats, the first to act on the stored table (else the first)."""
    if row.status == "active" and row.state is not None and len(seats) > 1:
        loaded = table.load(row)
        acting = [s for s in loaded.game.to_act(loaded.state) if s in seats]
        if acting:
            return acting[0]
    return seats[0] if seats else None


def _acting_user(row: SessionRow, user: UserRef | None, seat: int) -> UserRef:
    if is_local(user, row) and 0 <= seat < len(row.seats):
        s = row.seats[seat]
        return UserRef(row.platform, s.user_id, s.name)
    return user


def _you(visitor: Visitor, admission: Admission) -> str | None:
    """The name the page is signed in as (none for a spectator, or the person at this
    machine, who plays under the players' own names)."""
    if visitor.user is None or admission.standing == Standing.SPECTATOR or visitor.user.id == LOCAL:
        return None
    return visitor.user.name


def _lines(lines: list[Text]) -> Text:
    return joined(lines, "\n") if lines else ""
