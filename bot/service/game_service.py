"""The service's front door: the entry points every front end and the timer loop call.

`GameService` composes collaborators with one job each and hands each what it needs:
- `Table` (table.py): load, apply, chance, commit; `BotTurns` (bot_turns.py): the bots'
  turns after a stored change, each stored as its own move;
- `BoardPlans` (board_plans.py): who sees what after a change;
- `Lobby`, `Play`, `TurnClock`, `GameRecords`, `Standings`, `Rematch`, `UndoRequests`:
  the lobby and seats, moves and looking, the clock, replays and logs, ratings, the
  rematch and undo by agreement; `Seasons`; `WebEntries`: the web board's entries;
- `commands.py`: the one command table.
Every entry point takes plain requests and returns a `Plan` (delivery_plan.py): what to show, to
whom, and where. It never imports a chat library and never names a platform: what differs
between front ends (how a chat is named, whether it can write to a player unasked) each
front end says when it registers (`FrontEnd`). A refused request raises `UserError` with a
message for the user and changes nothing.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace

from bot.service import commands
from bot.service.base import deadlines
from bot.service.base.delivery_plan import Plan, Reply
from bot.service.base.entry_guard import entry
from bot.service.base.platform_input import clean_text
from bot.service.base.requests import ChatRef, Contact, UserError, UserRef
from bot.service.base.web_links import WebDoor
from bot.service.clock.turn_clock import TurnClock
from bot.service.commands import Call
from bot.service.community.tournaments import Tournaments
from bot.service.learning import catalogue
from bot.service.learning.hints import Hints
from bot.service.learning.reviews import Reviews
from bot.service.learning.tutorial import Tutorials
from bot.service.pictures.workers import CpuPool
from bot.service.presses import Presses
from bot.service.records.game_records import GameRecords
from bot.service.records.personal_data import PersonalData
from bot.service.records.seasons import Seasons
from bot.service.records.standings import Standings
from bot.service.shared.delivery_records import DeliveryRecords
from bot.service.shared.rates import SharedRates
from bot.service.shared.update_queue import UpdateQueue
from bot.service.tables.access import Access, MemberLookup
from bot.service.tables.board_plans import BoardPlans
from bot.service.tables.bot_seats import LEVEL_WORDS, BotSeats, scale_from_env
from bot.service.tables.bot_turns import BotTurns
from bot.service.tables.leaving import Leaving
from bot.service.tables.lobby import Lobby, find_game, parse_options
from bot.service.tables.moderation import Moderation
from bot.service.tables.play import Play, TableSummary, Told
from bot.service.tables.questions import Questions
from bot.service.tables.rematch import Rematch
from bot.service.tables.table import Table, chat_of
from bot.service.tables.undo_requests import UndoRequests
from bot.service.web.web_entries import WebEntries
from bot.service.web.web_tables import WebTables
from bot.store import SessionRow, StaleVersion, Store
from engines import Game
from engines.ai import DEFAULT_LEVEL, LEVELS
from engines.text import Msg, msg
from languages import resolve

log = logging.getLogger(__name__)
CHAT = msg("chat")  # a platform's word for where a table plays, where it names none

Notifier = Callable[[ChatRef, Plan], Awaitable[None]]

__all__ = ["FrontEnd", "GameService", "Link", "WebDoor", "chat_of", "parse_options"]


@dataclass(frozen=True)
class Link:
    """One connection of a front end to its platform (a Discord shard, Telegram's updater),
    as the operator's readiness check and metrics see it."""

    name: str  # a shard id, or "" for a platform with one connection
    up: bool
    latency: float | None = None  # seconds (Discord's heartbeat), when the platform has one


@dataclass(frozen=True)
class FrontEnd:
    """What a front end tells the service when it starts: how to post a plan nobody asked
    for (reminders, deadlines served), and the words of its platform."""

    deliver: Notifier
    place: Callable[[ChatRef], str] | None = None  # how a chat is named in text (a link)
    scope_word: Msg = CHAT  # what a scope is called there: "server", "group"
    chat_word: Msg = CHAT  # what a table's chat is called there: "channel", "group"
    dm_note: Callable[[Contact], str] | None = None  # said when a player turns DMs on
    links: Callable[[], list[Link]] | None = None  # its connections now (/readyz, metrics)
    members: MemberLookup | None = None  # asks the platform whether someone is in a chat
    # makes a place of its own for a tournament's table (a thread, a forum topic) under a
    # home chat, named as given; None where the platform has none to give there
    open_place: Callable[[ChatRef, str], Awaitable[ChatRef | None]] | None = None


class GameService:
    def __init__(
        self,
        store: Store,
        *,
        seed_source: Callable[[], int] = lambda: secrets.randbits(62),
        clock: Callable[[], float] = time.time,
        pictures: bool = True,
        default_pace: str = deadlines.DEFAULT_PACE,
        cpu: CpuPool | None = None,
        ai_scale: float | None = None,
        keep_games_days: float | None = None,
    ) -> None:
        self.store = store
        self.cpu = cpu or CpuPool()  # pictures and AI decisions; a thread unless started
        self.pictures = pictures
        self._front_ends: dict[str, FrontEnd] = {}
        self.bots = BotSeats(self.cpu, scale_from_env() if ai_scale is None else ai_scale)
        self.standings = Standings(
            store, self.cpu, pictures=pictures, clock=clock, scope_word=self._scope_word
        )
        self.plans = BoardPlans(
            self.cpu, pictures=pictures, clock=clock, timed=self.timed, finish=self.standings.finish
        )
        self.table = Table(
            store, clock=clock, default_pace=default_pace, prefetch=self.plans.draw_early
        )
        self.turns = BotTurns(self.table, self.bots)
        self.moderation = Moderation(store, clock)  # bars and blocks: who may sit where
        self.personal = PersonalData(store, clock, keep_games_days)  # export, forget-me
        self.lobby = Lobby(
            self.table, self.plans, self.turns, seed_source=seed_source, moderation=self.moderation
        )
        self.leaving = Leaving(self.table, self.plans, self.turns, self.moderation)
        self.languages = self.lobby.languages
        self.play = Play(self.table, self.plans, self.turns)
        self.clock = TurnClock(self.table, self.plans, self.turns, dm_note=self._dm_note)
        self.records = GameRecords(
            self.table, self.cpu, pictures=pictures, recent_log=self.play.recent_log
        )
        self.rematches = Rematch(self.lobby)
        self.undo = UndoRequests(self.table, self.plans)
        self.hints = Hints(self.table, self.bots)
        self.questions = Questions(self.table)
        self.tutorials = Tutorials(store, self.cpu, self.lobby.start, pictures=pictures)
        self.access = Access()  # who may watch and act on a table: asked by every door
        # delivery's records (a table's live board, what to tidy), kept with the table
        self.deliveries = DeliveryRecords(store)  # (wall-clock time, as delivery reads it)
        # the platforms' limits, counted for every process of the bot (the front ends' pacers)
        self.rates = SharedRates(store)
        self.reviews = Reviews(self.table, self.cpu, self.access, pictures=pictures)
        self.web_tables = WebTables(self.table, self.plans, self.records, self.access)
        self.web: WebDoor | None = None  # set by the web front end when it serves
        self.tournaments = Tournaments(
            store,
            self.table,
            self.plans,
            self.turns,
            self.lobby,
            cpu=self.cpu,
            pictures=pictures,
            notify=self.notify,
            open_place=self._open_place,
            place_name=self.place,
            seed=seed_source,
            language=self.languages.opening,
        )
        self.presses = Presses(
            store,
            self.access,
            lobby=self.lobby,
            play=self.play,
            clock=self.clock,
            records=self.records,
            rematches=self.rematches,
            undo=self.undo,
            reviews=self.reviews,
            tutorials=self.tutorials,
            tournaments=self.tournaments,
            leaving=self.leaving,
            language_of=self.language_of,
            chat_word=self._chat_word,
        )
        self.web_board = WebEntries(
            self.table,
            self.access,
            self.web_tables,
            self.tutorials,
            self.reviews,
            self.tournaments,
            self.presses.pressed,
            door=lambda: self.web,
            questions=self.questions,
        )
        self.seasons = Seasons(
            store,
            self.cpu,
            pictures=pictures,
            clock=clock,
            notify=self.notify,
            scope_word=self._scope_word,
            language=self.languages.opening,
        )

    # ----- front ends -------------------------------------------------------------------
    def add_front_end(self, platform: str, front_end: FrontEnd) -> None:
        self._front_ends[platform] = front_end
        if front_end.members is not None:
            self.access.ask_members(platform, front_end.members)

    def add_notifier(self, platform: str, deliver: Notifier) -> None:
        """A front end that only posts what nobody asked for (reminders, timeouts)."""
        self.add_front_end(platform, FrontEnd(deliver))

    def platforms(self) -> list[str]:
        """The platforms that can be sent plans unasked (the timer loop serves only these)."""
        return sorted(self._front_ends)

    def links(self) -> dict[str, list[Link]]:
        """Each registered front end's connections, as it reports them now."""
        return {
            platform: front_end.links()
            for platform, front_end in sorted(self._front_ends.items())
            if front_end.links is not None
        }

    def timed(self, platform: str) -> bool:
        """Whether the turn clock runs for a platform's games (someone can be reminded)."""
        return platform in self._front_ends

    def place(self, chat: ChatRef, session_id: int) -> str:
        front_end = self._front_ends.get(chat.platform)
        if front_end is not None and front_end.place is not None:
            return front_end.place(chat) or f"#{session_id}"
        return f"#{session_id}"

    async def _open_place(self, home: ChatRef, name: str) -> ChatRef | None:
        front_end = self._front_ends.get(home.platform)
        if front_end is None or front_end.open_place is None:
            return None
        try:
            return await front_end.open_place(home, name)
        except Exception:  # no place of its own: the table is reached privately and on the web
            log.exception("could not open a place for a table in %s", home)
            return None

    def _scope_word(self, platform: str) -> Msg:
        front_end = self._front_ends.get(platform)
        return front_end.scope_word if front_end is not None else CHAT

    def _chat_word(self, platform: str) -> Msg:
        front_end = self._front_ends.get(platform)
        return front_end.chat_word if front_end is not None else CHAT

    def _dm_note(self, platform: str, contact: Contact) -> str:
        front_end = self._front_ends.get(platform)
        if front_end is not None and front_end.dm_note is not None:
            return front_end.dm_note(contact)
        return ""

    async def notify(self, chat: ChatRef, replies: Plan | list[Reply]) -> bool:
        front_end = self._front_ends.get(chat.platform)
        if front_end is None or not replies:
            return False
        plan = replies if isinstance(replies, Plan) else Plan(list(replies))
        try:
            await front_end.deliver(chat, plan)
        except Exception:  # a platform outage must not stop the timers of other games
            log.exception("could not deliver %d replies to %s", len(plan), chat)
            return False
        return True

    @entry
    async def contact(self, user: UserRef) -> Contact:
        """Where a person can be reached privately, as far as the bot knows."""
        known = await self.store.user(user.platform, user.id)
        if known is None:
            return Contact()
        prefs = known.get("prefs") or {}
        return Contact(
            known.get("private_chat") or None,
            bool(prefs.get("dm")),
            prefs.get("language", ""),
            prefs.get("seen_language", ""),
        )

    async def language_of(self, user: UserRef) -> str:
        """What one person reads: their own setting, else what their app says."""
        contact = await self.contact(user)
        return contact.language or resolve(user.language or contact.seen_language)

    @entry
    async def reachable_at(self, user: UserRef, private_chat: str) -> None:
        """A person wrote to the bot in their private chat: the bot may write there."""
        await self.store.upsert_user(user.platform, user.id, user.name, private_chat=private_chat)

    # ----- commands -------------------------------------------------------------------
    @entry
    async def run_command(self, name: str, call: Call) -> Plan:
        """A command of the command table, as any front end received it."""
        command = self._command(name, call)
        plan = await command.handler(self, call)
        plan.asker = plan.asker or call.user
        plan.quiet = plan.quiet or command.quiet
        if not plan.language and plan.table is None:  # no table to speak for the chat
            plan.language = await self.languages.opening(call.chat, call.user)
        return plan

    @entry
    async def run_in_private(self, name: str, call: Call) -> list[Plan]:
        """A command asked in the asker's private chat: its private answer, one plan for
        each of their tables, where it declares one (else its answer there)."""
        command = self._command(name, call)
        if command.in_private is None:
            return [await self.run_command(name, call)]
        return await command.in_private(self, call)

    @staticmethod
    def _command(name: str, call: Call) -> commands.Command:
        command = commands.find(name)
        call.args = {k: (clean_text(v) if isinstance(v, str) else v) for k, v in call.args.items()}
        call.is_admin = call.is_admin and command.who.asks_admin  # counted where it declares so
        return command

    @staticmethod
    def help() -> Reply:
        return commands.help_reply()

    @staticmethod
    def catalogue() -> Reply:
        return catalogue.catalogue()

    @entry
    def game(self, game_id: str) -> Game:
        return find_game(game_id)

    @entry
    def check_options(self, game_id: str, options: str | Mapping[str, str] | None) -> None:
        """Refuse bad start options before a front end prepares a place for the table."""
        self.lobby.check_options(find_game(game_id), options)

    @staticmethod
    def bot_levels() -> tuple[tuple[str, ...], str]:
        """The computer players' levels, and the one a table gets unless it says."""
        return tuple(LEVELS), DEFAULT_LEVEL

    @staticmethod
    def level_word(level: str) -> Msg:
        """A bots' level as the reader reads it (what is typed stays `hard`)."""
        return LEVEL_WORDS.get(level, level)

    @staticmethod
    def game_list() -> list[tuple[str, str]]:
        """(id, title) of every game, in the catalogue's order."""
        return catalogue.game_list()

    @entry
    async def rules(self, game_id: str | None = None, chat: ChatRef | None = None) -> Reply:
        if not game_id and chat is not None:
            row = await self.table.live_row(chat)
            game_id = row.game if row else None
        if not game_id:
            raise UserError(catalogue.which_game("rules"))
        return await catalogue.rules(find_game(game_id), self.cpu, pictures=self.pictures)

    # ----- the lobby --------------------------------------------------------------------
    @entry
    async def start(
        self,
        chat: ChatRef,
        user: UserRef,
        game_id: str,
        options: str | Mapping[str, str] | None = None,
    ) -> Plan:
        return await self.lobby.start(chat, user, game_id, options)

    @entry
    async def join(self, chat: ChatRef, user: UserRef) -> Plan:
        return await self.lobby.join(chat, user)

    @entry
    async def leave(self, chat: ChatRef, user: UserRef) -> Plan:
        return await self.lobby.leave(chat, user)

    @entry
    async def begin(self, chat: ChatRef, user: UserRef) -> Plan:
        return await self.lobby.begin(chat, user)

    @entry
    async def add_bot(self, chat: ChatRef, user: UserRef) -> Plan:
        return await self.lobby.add_bot(chat, user)

    @entry
    async def abort(self, chat: ChatRef, user: UserRef, is_admin: bool = False) -> Plan:
        return await self.lobby.abort(chat, user, is_admin)

    # ----- leaving, seats changing hands, bars and blocks ---------------------------------
    @entry
    async def resign(self, chat: ChatRef, user: UserRef) -> Plan:
        """`/escape resign`: the asker loses the game here (rated)."""
        return await self.leaving.resign(chat, user)

    @entry
    async def offer_seat(
        self, chat: ChatRef, user: UserRef, who: UserRef | str | None = None, is_admin: bool = False
    ) -> Plan:
        """`/escape offer [PLAYER]`: a seat offered to a member of the chat."""
        return await self.leaving.offer(chat, user, who, is_admin)

    @entry
    async def remove_player(
        self, chat: ChatRef, user: UserRef, who: UserRef | str | None, is_admin: bool = False
    ) -> Plan:
        """`/escape remove PLAYER` (an admin): the stand-in plays their seat, offered."""
        return await self.leaving.remove(chat, user, who, is_admin)

    @entry
    async def bar(
        self, chat: ChatRef, user: UserRef, who: UserRef | str | None = None, is_admin: bool = False
    ) -> Plan:
        return await self.moderation.bar(chat, user, who, is_admin)

    @entry
    async def unbar(
        self, chat: ChatRef, user: UserRef, who: UserRef | str | None, is_admin: bool = False
    ) -> Plan:
        return await self.moderation.unbar(chat, user, who, is_admin)

    @entry
    async def block(self, chat: ChatRef, user: UserRef, who: UserRef | str | None = None) -> Plan:
        return await self.moderation.block(chat, user, who)

    @entry
    async def unblock(self, chat: ChatRef, user: UserRef, who: UserRef | str | None) -> Plan:
        return await self.moderation.unblock(chat, user, who)

    @entry
    async def export_data(self, chat: ChatRef, user: UserRef) -> Plan:
        """`/escape export`: everything kept about the asker, to them alone."""
        return await self.personal.export(chat, user)

    @entry
    async def forget_me(self, chat: ChatRef, user: UserRef, confirm: str | None = None) -> Plan:
        """`/escape forget-me [confirm]`: what it erases; confirmed, the erasure."""
        return await self.personal.forget(chat, user, confirm)

    # ----- play -------------------------------------------------------------------------
    @entry
    async def move(
        self,
        chat: ChatRef,
        user: UserRef,
        action: str,
        version: int | None = None,
        told: Told | None = None,
    ) -> Plan:
        """`told`: shown each stored step (the move, each bot's turn) as it is stored."""
        return await self.play.move(chat, user, action, version, told)

    @entry
    async def wake_bots(self, session_id: int, told: Told | None = None) -> Plan:
        """A table whose bots are to act while no run plays them (their run stopped: a
        crash, a restart) plays on; the timer loop and the terminal call it."""
        return await self.play.wake_bots(session_id, told)

    @entry
    async def press(self, chat: ChatRef, user: UserRef, data: str) -> Plan:
        """A button click in a table's chat: the data is checked like any input (it may be
        stale or forged)."""
        return await self.presses.press(chat, user, data)

    @entry
    async def press_privately(
        self, platform: str, user: UserRef, data: str
    ) -> tuple[ChatRef, Plan]:
        """A move button pressed in a player's private chat: it acts on the game the data
        names, in that game's chat, as the player who pressed it. Returns that chat too."""
        return await self.presses.press_privately(platform, user, data)

    @entry
    async def choices(self, chat: ChatRef, user: UserRef) -> list[tuple[str, str]]:
        return await self.play.choices(chat, user)

    @entry
    async def buttons_of(self, session_id: int, version: int, user: UserRef | None = None) -> list:
        return await self.play.buttons_of(session_id, version, user)

    @entry
    async def board(self, chat: ChatRef, viewer: UserRef | None = None) -> Plan:
        return await self.play.board(chat, viewer)

    @entry
    async def since(
        self, chat: ChatRef, session_id: int, version: int, viewer: UserRef | None = None
    ) -> Plan:
        """What happened at this chat's table after `version` (moves made elsewhere: the
        browser, a bot, another process), then its board; empty when nothing did."""
        return await self.play.since(chat, session_id, version, viewer)

    @entry
    async def board_again(self, chat: ChatRef) -> Plan | None:
        """The live table's board and its players' private messages, posted anew; None
        where no table runs. What a worker shows when it takes over an update whose
        worker died after the service answered it (the move stored, maybe not shown)."""
        return await self.play.board_again(chat)

    def update_queue(self, platform: str, lease: float) -> UpdateQueue:
        """A front end's updates, kept in the store before they are acknowledged and run
        in chat order by any process (bot/service/shared/update_queue.py)."""
        return UpdateQueue(self.store, platform, lease)

    @entry
    async def private_view(self, chat: ChatRef, user: UserRef) -> Plan:
        return await self.play.private_view(chat, user)

    @entry
    async def view_in(self, platform: str, session_id: int, user: UserRef) -> Plan:
        """A player's view of a game named by number (a deep link into a private chat)."""
        row = await self.store.session(session_id)
        if row is None or row.platform != platform:
            raise UserError(msg("That link is for a game I do not know."))
        if row.status != "active":
            raise UserError(msg("That game is not running any more."))
        return await self.play.view_of(row, user)

    @entry
    async def my_views(self, user: UserRef) -> list[Plan]:
        """The asker's view of every game they play on their platform (`/escape hand` in a
        private chat)."""
        rows = await self.store.sessions_of_user(user.platform, user.id)
        return [await self.play.view_of(r, user) for r in rows if r.status == "active"]

    @entry
    async def history(self, chat: ChatRef, user: UserRef | None = None, last: int = 15) -> Plan:
        return await self.play.recent_log(chat, user, last)

    @entry
    async def games_here(self, platform: str, scope: str) -> Reply:
        return await self.play.games_here(platform, scope, self._place_of_row)

    def _place_of_row(self, row: SessionRow) -> str:
        front_end = self._front_ends.get(row.platform)
        if front_end is not None and front_end.place is not None:
            return front_end.place(chat_of(row)) or row.thread or row.chat
        return row.thread or row.chat

    @entry
    async def seated_at(self, chat: ChatRef) -> list[UserRef] | None:
        """Who is told privately what a table with no public place shows (None: the chat
        is a public place)."""
        return await self.tournaments.seated_at(chat)

    @entry
    async def live(self, chat: ChatRef) -> SessionRow | None:
        return await self.table.live_row(chat)

    @entry
    async def live_tables(self, platform: str, scope: str) -> list[TableSummary]:
        return await self.play.live_tables(platform, scope)

    @entry
    async def watch_note(self, chat: ChatRef, viewer: UserRef | None) -> Plan:
        row = await self.table.live_row(chat)
        return Plan(self.play.watch_note(row, viewer) if row is not None else [])

    # ----- the table's memory -----------------------------------------------------------
    @entry
    async def replay(self, chat: ChatRef, which: str | None = None) -> Plan:
        return await self.records.replay(chat, which)

    @entry
    async def ended_games(self, chat: ChatRef, page: int = 0) -> Plan:
        return await self.records.ended_games(chat, page)

    @entry
    async def game_log(
        self, chat: ChatRef, user: UserRef, which: str | None = None, page: int | None = None
    ) -> Plan:
        return await self.records.game_log(chat, user, which, page)

    @entry
    async def stats(self, chat: ChatRef, asker: UserRef, who: UserRef | str | None = None) -> Plan:
        return await self.standings.stats(chat, asker, who)

    @entry
    async def top(
        self, chat: ChatRef, game_id: str | None = None, which: str | None = None
    ) -> Plan:
        return await self.standings.top(chat, game_id, which)

    @entry
    async def tournament(
        self, chat: ChatRef, user: UserRef, text: str = "", is_admin: bool = False
    ) -> Plan:
        """`/escape tournament ...`: create, join, leave, start, standings, withdraw, cancel."""
        return await self.tournaments.command(chat, user, text, is_admin)

    @entry
    async def ask_undo(self, chat: ChatRef, user: UserRef) -> Plan:
        return await self.undo.ask_undo(chat, user)

    @entry
    async def review(self, chat: ChatRef, user: UserRef, which: str | None = None) -> Plan:
        """`/escape review [GAME]`: a finished game's review, to the asker alone."""
        reader = replace(user, language=await self.language_of(user))
        return await self.reviews.review(chat, reader, which, self.records.recall)

    @entry
    async def learn(self, chat: ChatRef, user: UserRef, text: str | None = None) -> Plan:
        """`/escape learn GAME`: a lesson, to the asker alone (or their move in it)."""
        return await self.tutorials.learn(chat, user, text)

    @entry
    async def describe(self, chat: ChatRef, user: UserRef, what: str | None = None) -> Plan:
        """`/escape describe [what]`: one question about the table answered in words (a
        place, a player, `near`, `hand`), or the whole board in words."""
        return await self.questions.describe(chat, user, what)

    @entry
    async def hint(self, chat: ChatRef, user: UserRef) -> Plan:
        """`/escape hint`: a suggested move for the asker, shown to them alone."""
        return await self.hints.hint(chat, user)

    # ----- the web board ----------------------------------------------------------------
    def open_web(self, door: WebDoor) -> None:
        self.web = door
        self.web_tables.serve(door.signer)

    def on_table_change(self, subscriber: Callable[[int, int], None]) -> Callable[[], None]:
        """`subscriber(session_id, version)` after every stored change of any table, from
        this process or (on PostgreSQL) any other; returns the unsubscribe."""
        return self.store.signals.subscribe(subscriber)

    @entry
    async def web_link(self, chat: ChatRef, user: UserRef) -> Plan:
        """`/escape web`: a link to the table here, signed for the asker, shown to them
        alone (and the table's spectator link, which shows the public board only)."""
        return await self.web_board.table_link(chat, user)

    @entry
    async def tournament_link(self, chat: ChatRef, user: UserRef) -> Plan:
        """`/escape tournament web`: this chat's tournament on the web board, by a link
        signed for the asker."""
        return await self.web_board.tournament_link(chat, user)

    # ----- seasons ----------------------------------------------------------------------
    @entry
    async def season(
        self, chat: ChatRef, user: UserRef, text: str = "", is_admin: bool = False
    ) -> Plan:
        """`/escape season [start 3mo | end | off]`: this server's or group's seasons."""
        return await self.seasons.command(chat, user, text, is_admin)

    # ----- the clock --------------------------------------------------------------------
    def now(self) -> float:
        return self.table.now()

    @entry
    async def time_up(self, session_id: int) -> Plan:
        return await self.clock.time_up(session_id)

    @entry
    async def end_idle(self, session_id: int) -> Plan:
        return await self.clock.end_idle(session_id)

    @entry
    async def vote(self, chat: ChatRef, user: UserRef) -> Plan:
        return await self.clock.vote(chat, user)

    @entry
    async def language(
        self, chat: ChatRef, user: UserRef, code: str | None = None, who: str | None = None
    ) -> Plan:
        """`/escape language`: the table's, the chat's and the asker's own language."""
        return await self.languages.command(chat, user, code, who)

    @entry
    async def clock_command(self, chat: ChatRef, user: UserRef, text: str = "") -> Plan:
        return await self.clock.clock_command(chat, user, text)

    async def save_clock(self, row: SessionRow, clock: dict) -> bool:
        """Store `clock` if the row is still as read; False when someone changed it first."""
        try:
            return await self.clock.save_clock(row, clock)
        except StaleVersion:
            return False
