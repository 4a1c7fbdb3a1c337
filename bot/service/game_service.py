"""The platform-neutral heart: lobbies, seats, moves, chance, pictures, permissions.

It takes plain requests (user U in chat C sends action A) and returns plain `Reply`
values; it never imports a chat library. A refused request raises `UserError` with a
message for the user and changes nothing. Two requests racing on one session are
serialised by a per-session lock in this process and by the stored version across
processes: one wins, the other is told the board changed.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass

from bot.service import buttons
from bot.service import clock as clocks
from bot.service.bots import BotSeats, bot_options, bot_seat, scale_from_env
from bot.service.chance import draw
from bot.service.entry_points import guarded_entry_points
from bot.service.memory import TableMemory
from bot.service.pictures import draw_picture
from bot.service.replies import (
    UNREADABLE_GAME,
    ChatRef,
    Choice,
    Reply,
    UserError,
    UserRef,
)
from bot.service.table_clock import TableClock
from bot.service.workers import CpuPool
from bot.store import ChatBusy, NewEntry, SeatRow, SessionRow, StaleVersion, Store
from engines import CHANCE, REGISTRY, BadOption, Event, Game, IllegalAction

log = logging.getLogger(__name__)

Notifier = Callable[[ChatRef, list[Reply]], Awaitable[None]]

MAX_CHANCE_STEPS = 10_000
# Event kinds with which an engine announces the end itself ("Ann wins!"): the final board
# then does not repeat the result's summary.
ENDING_KINDS = frozenset({"win", "over"})


@dataclass
class Loaded:
    """A session row with its game and live engine state."""

    row: SessionRow
    game: Game
    state: object | None

    def seat_of(self, user: UserRef) -> int | None:
        for seat in self.row.seats:
            if seat.user_id == user.id:
                return seat.seat
        return None

    def user_of(self, seat: int) -> UserRef:
        s = self.row.seats[seat]
        return UserRef(self.row.platform, s.user_id, s.name)


def split_options(options: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """(game options, clock options): pace, turn and timeout belong to the service."""
    game = {k: v for k, v in options.items() if k not in clocks.SERVICE_OPTIONS}
    clock = {k: v for k, v in options.items() if k in clocks.SERVICE_OPTIONS}
    return game, clock


def parse_options(text: str | Mapping[str, str] | None) -> dict[str, str]:
    """`variant=short specials=off` (or a mapping) into a dict; the game checks the values."""
    if text is None:
        return {}
    if isinstance(text, Mapping):
        return {str(k).strip().lower(): str(v).strip().lower() for k, v in text.items()}
    options: dict[str, str] = {}
    for word in text.replace(",", " ").split():
        name, sep, value = word.partition("=")
        if not sep or not name or not value:
            raise UserError(f"Options are written name=value (like variant=short), not {word!r}.")
        options[name.lower()] = value.lower()
    return options


@guarded_entry_points  # safe text in, store failures told as what they are (entry_points.py)
class GameService(TableClock, BotSeats, TableMemory):
    def __init__(
        self,
        store: Store,
        *,
        seed_source: Callable[[], int] = lambda: secrets.randbits(62),
        clock: Callable[[], float] = time.time,
        pictures: bool = True,
        default_pace: str = clocks.DEFAULT_PACE,
        cpu: CpuPool | None = None,
        ai_scale: float | None = None,
    ) -> None:
        self.store = store
        self.cpu = cpu or CpuPool()  # pictures and AI decisions; a thread unless started
        self.ai_scale = scale_from_env() if ai_scale is None else ai_scale  # search budget share
        self._seed = seed_source
        self._clock = clock
        self._pictures = pictures
        self._default_pace = default_pace
        self._locks: dict[int, asyncio.Lock] = {}
        self._notifiers: dict[str, Notifier] = {}

    def add_notifier(self, platform: str, deliver: Notifier) -> None:
        """An adapter registers how to post replies nobody asked for (reminders, timeouts)."""
        self._notifiers[platform] = deliver

    def platforms(self) -> list[str]:
        """The platforms that can be sent replies unasked (the timer loop serves only these)."""
        return sorted(self._notifiers)

    async def notify(self, chat: ChatRef, replies: list[Reply]) -> bool:
        deliver = self._notifiers.get(chat.platform)
        if deliver is None or not replies:
            return False
        try:
            await deliver(chat, replies)
        except Exception:  # a platform outage must not stop the timers of other games
            log.exception("could not deliver %d replies to %s", len(replies), chat)
            return False
        return True

    # ----- catalogue ----------------------------------------------------------------
    def catalogue(self) -> Reply:
        lines = ["Games you can start with /escape start GAME:"]
        for game in REGISTRY.values():
            opts = "; ".join(
                f"{name}={'|'.join(opt.choices)}" for name, opt in sorted(game.options.items())
            )
            lines.append(
                f"- {game.id}: {game.title}, {game.player_range()} players. {game.summary}"
                + (f" Options: {opts}." if opts else "")
            )
        return Reply("\n".join(lines), kind="games")

    def game(self, game_id: str) -> Game:
        game = REGISTRY.get((game_id or "").strip().lower())
        if game is None:
            raise UserError(f"There is no game {game_id!r}. Games: {', '.join(sorted(REGISTRY))}.")
        return game

    async def rules(self, game_id: str | None = None, chat: ChatRef | None = None) -> Reply:
        if not game_id and chat is not None:
            row = await self._live_row(chat)
            game_id = row.game if row else None
        if not game_id:
            raise UserError(
                f"Which game? Say /escape rules GAME, one of: {', '.join(sorted(REGISTRY))}."
            )
        game = self.game(game_id)
        picture = None
        if self._pictures:
            view = await asyncio.to_thread(self._sample_view, game)
            picture = await self.cpu.run(draw_picture, game.id, view, f"{game.id}-rules.png")
        return Reply(game.rules_text, kind="rules", picture=picture)

    @staticmethod
    def _sample_view(game: Game) -> dict:
        names = [f"Player {i + 1}" for i in range(game.min_players)]
        state = game.setup(names, {})
        for position in range(MAX_CHANCE_STEPS):
            if game.to_act(state) != [CHANCE]:
                break
            state, _ = game.apply(state, CHANCE, draw(game.chance_outcomes(state), 1, position))
        return game.view(state, None)

    @staticmethod
    def help() -> Reply:
        return Reply(
            "Escape runs one game per channel (or thread or topic).\n"
            "/escape start GAME [options]: open a table, e.g. /escape start ghosts18 variant=short\n"
            "/escape join, /escape leave: take or give up a seat before the game begins\n"
            "/escape begin: start once enough players have joined\n"
            "/escape move ACTION: make a move (or press a button under the board)\n"
            "/escape board: show the board; /escape hand: your private view, only to you\n"
            "/escape log [GAME]: what happened; /escape rules [GAME]: the rules\n"
            "/escape replay [GAME], /escape history: replay a game, the games played here\n"
            "/escape stats [@player], /escape top [GAME]: ratings and the leaderboard\n"
            "/escape undo: ask to take back your last move (the others must accept)\n"
            "/escape games: games running here; /escape abort: end the game (its creator or an admin)\n"
            "/escape clock: the turn clock; mute, vacation, pause, vote, reminders (clock help)\n"
            "Start options for the clock: pace=fast|normal|relaxed turn=12h timeout=skip|vote|ai\n"
            "Play against the computer: bots=1 level=easy|normal|hard (or press Add a bot)",
            kind="help",
        )

    # ----- lobby --------------------------------------------------------------------
    async def start(
        self,
        chat: ChatRef,
        user: UserRef,
        game_id: str,
        options: str | Mapping[str, str] | None = None,
    ) -> list[Reply]:
        game = self.game(game_id)
        game_options, clock_options = split_options(parse_options(options))
        game_options, bots, level = bot_options(game, game_options)
        try:
            checked = game.check_options(game_options)
            clock = {**clocks.new_clock(clock_options, self._default_pace), "ai_level": level}
        except (BadOption, clocks.ClockError) as exc:
            raise UserError(str(exc)) from exc
        existing = await self._live_row(chat)
        if existing is not None:
            title = REGISTRY[existing.game].title if existing.game in REGISTRY else existing.game
            raise UserError(
                f"A game of {title} is already {('waiting for players' if existing.status == 'lobby' else 'running')} "
                "here. Use /escape board to see it, or /escape abort to end it first."
            )
        await self._remember(user)
        try:
            row = await self.store.create_session(
                platform=chat.platform, scope=chat.scope, chat=chat.chat, thread=chat.thread,
                game=game.id, options=checked, rules_version=game.rules_version,
                creator=user.id, seed=self._seed(), first_seat=SeatRow(0, user.id, user.name),
                clock=clock,
            )  # fmt: skip
        except ChatBusy as exc:
            raise UserError("A game was just started here by someone else: /escape board.") from exc
        if bots:  # one human and bots: the table starts at once
            seats = [*row.seats, *(bot_seat(k, k, level) for k in range(1, bots + 1))]
            await self._write_seats(row, seats)
        if game.max_players == 1 or bots:
            return await self.begin(chat, user)
        return [self._lobby_reply(row, game, f"{user.name} opened a table for {game.title}.")]

    async def join(self, chat: ChatRef, user: UserRef) -> list[Reply]:
        row = await self._lobby(chat)
        game = REGISTRY[row.game]
        if any(s.user_id == user.id for s in row.seats):
            raise UserError("You already have a seat at this table.")
        if len(row.seats) >= game.max_players:
            raise UserError(f"The table is full: {game.title} seats at most {game.max_players}.")
        await self._remember(user)
        seats = [*row.seats, SeatRow(len(row.seats), user.id, user.name)]
        await self._write_seats(row, seats)
        if len(seats) == game.max_players:
            return await self.begin(chat, user)
        row = await self.store.session(row.id)
        return [self._lobby_reply(row, game, f"{user.name} joins.")]

    async def leave(self, chat: ChatRef, user: UserRef) -> list[Reply]:
        row = await self._live_row(chat)
        if row is None:
            raise UserError("There is no game here to leave.")
        if row.status != "lobby":
            raise UserError(
                "The game has begun, so seats are fixed. Ask its creator or an admin to "
                "/escape abort it if the table wants to stop."
            )
        if not any(s.user_id == user.id for s in row.seats):
            raise UserError("You have no seat at this table.")
        seats = [s for s in row.seats if s.user_id != user.id]
        if not any(s.kind == "human" for s in seats):  # bots alone do not keep a table
            await self._guard(self.store.set_status(row.id, row.version, "aborted"))
            return [Reply(f"{user.name} leaves; the table is empty and closed.", kind="lobby")]
        await self._write_seats(row, seats)
        row = await self.store.session(row.id)
        return [self._lobby_reply(row, REGISTRY[row.game], f"{user.name} leaves.")]

    async def begin(self, chat: ChatRef, user: UserRef) -> list[Reply]:
        row = await self._lobby(chat)
        game = REGISTRY[row.game]
        if not any(s.user_id == user.id for s in row.seats):
            raise UserError("Only a seated player can begin the game: /escape join first.")
        if len(row.seats) < game.min_players:
            missing = game.min_players - len(row.seats)
            raise UserError(
                f"{game.title} needs {game.player_range()} players; waiting for {missing} more "
                "(/escape join)."
            )
        async with self._lock(row.id):
            row = await self.store.session(row.id)
            if row is None or row.status != "lobby":
                raise UserError("This game has already begun.")
            state = game.setup([s.name for s in row.seats], row.options)
            state, events, entries, pos = self._resolve_chance(
                game, state, row.seed, row.chance_pos
            )
            opening = [Event(f"{game.title} begins: " + ", ".join(s.name for s in row.seats) + ".")]
            return await self._commit(row, game, state, opening + events, entries, pos)

    async def abort(self, chat: ChatRef, user: UserRef, is_admin: bool = False) -> list[Reply]:
        row = await self._live_row(chat)
        if row is None:
            raise UserError("There is no game here to abort.")
        if user.id != row.creator and not is_admin:
            raise UserError("Only the player who started this game, or a chat admin, can abort it.")
        async with self._lock(row.id):
            await self._guard(self.store.set_status(row.id, row.version, "aborted"))
        title = REGISTRY[row.game].title if row.game in REGISTRY else row.game
        return [
            Reply(
                f"{user.name} ended the game of {title}. The log is kept.", kind="info", final=True
            )
        ]

    # ----- play ---------------------------------------------------------------------
    async def move(
        self, chat: ChatRef, user: UserRef, action: str, version: int | None = None
    ) -> list[Reply]:
        row = await self._active(chat)
        return await self._act(row.id, user, action, version)

    async def press(self, chat: ChatRef, user: UserRef, data: str) -> list[Reply]:
        """A button click: the data is checked like any input (it may be stale or forged)."""
        button = buttons.parse(data)
        row = await self.store.session(button.session_id)
        if row is None or row.platform != chat.platform or row.chat != chat.chat:
            raise UserError("That button belongs to no game in this chat.")
        if button.kind == "j":
            return await self.join(chat_of(row), user)
        if button.kind == "l":
            return await self.leave(chat_of(row), user)
        if button.kind == "b":
            return await self.begin(chat_of(row), user)
        if button.kind == "o":
            return await self.add_bot(chat_of(row), user)
        if button.kind == "x":
            return await self.remove_bot(chat_of(row), user)
        if button.kind in buttons.MEMORY:  # replays, logs, history, rematch, undo
            return await self.press_memory(chat_of(row), user, button, row)
        if row.status in ("finished", "aborted"):
            raise UserError("That game is over; its buttons no longer do anything.")
        if button.kind == "v":
            return await self.private_view(chat_of(row), user)
        if button.kind == "g":
            return await self.board(chat_of(row))
        if button.kind == "k":
            return await self.vote(chat_of(row), user)
        loaded = self._load(row)
        seat = loaded.seat_of(user)
        if seat is None:
            raise UserError(self._not_a_player(loaded))
        if seat != button.seat:
            raise UserError(
                "Those buttons are for another player; your choices come with your turn."
            )
        if button.version != row.version:
            raise UserError(
                "The board has moved on since those buttons were drawn; use the latest board."
            )
        legal = loaded.game.legal_actions(loaded.state, seat)
        if button.index >= len(legal):
            raise UserError("That choice is no longer offered; use the latest board.")
        return await self._act(row.id, user, legal[button.index], button.version)

    async def _act(
        self, session_id: int, user: UserRef, action: str, version: int | None
    ) -> list[Reply]:
        async with self._lock(session_id):
            row = await self.store.session(session_id)
            if row is None or row.status != "active":
                raise UserError("That game is not running any more.")
            loaded = self._load(row)
            seat = loaded.seat_of(user)
            if seat is None:
                raise UserError(self._not_a_player(loaded))
            if row.seats[seat].kind == "placeholder":
                raise UserError("Your seat was handed to a stand-in by vote; it plays on for you.")
            if version is not None and version != row.version:
                raise UserError(
                    "The board has moved on since then; look at the latest board and try again."
                )
            game = loaded.game
            try:
                state, events = game.apply(loaded.state, seat, action)
            except IllegalAction as exc:
                # Only a seat that may act is refused by its own hand ("You may: ..."); the
                # others hear whose turn it is, which is no secret.
                secret = seat in game.to_act(loaded.state) and self._has_secrets(
                    game, loaded.state, len(row.seats)
                )
                raise UserError(str(exc), secret=secret) from exc
            entries = [NewEntry(seat, " ".join(action.lower().split()), user.id, _events(events))]
            state, more, chance_entries, pos = self._resolve_chance(
                game, state, row.seed, row.chance_pos
            )
            return await self._commit(
                row, game, state, events + more, entries + chance_entries, pos
            )

    def _play_for(self, game: Game, state, seat: int, action: str, seed: int, pos: int, note=None):
        """A move the bot makes for a seat (a bot's own, or a late player's), then the chance
        it leads to: logged like a player's move, with the bot's note first."""
        state, happened = game.apply(state, seat, action)
        said = [note, *happened] if note is not None else list(happened)
        entries = [NewEntry(seat, action, None, _events(said))]
        state, more, chance, pos = self._resolve_chance(game, state, seed, pos)
        return state, said + more, entries + chance, pos

    def _resolve_chance(self, game: Game, state, seed: int, pos: int):
        """Apply chance outcomes from the session's generator until a player must act."""
        events: list[Event] = []
        entries: list[NewEntry] = []
        for _ in range(MAX_CHANCE_STEPS):
            if game.to_act(state) != [CHANCE]:
                break
            outcome = draw(game.chance_outcomes(state), seed, pos)
            pos += 1
            state, happened = game.apply(state, CHANCE, outcome)
            events += happened
            entries.append(NewEntry(CHANCE, outcome, None, _events(happened)))
        return state, events, entries, pos

    def _next_clock(self, row: SessionRow, game: Game, state) -> dict:
        """A new board restarts the clock for the humans now to act; players answering
        someone else's move out of turn (the engine's reaction window: a cat, a ghost
        against an escape) get the short reaction time."""
        acting = [s for s in game.to_act(state) if 0 <= s < len(row.seats)]
        waiting = [row.seats[s].user_id for s in acting if row.seats[s].kind == "human"]
        window = bool(acting) and game.reaction_window(state)
        base = row.clock or clocks.new_clock({}, self._default_pace)
        return clocks.start_turn(base, self._clock(), waiting, window)

    async def _commit(
        self,
        row: SessionRow,
        game: Game,
        state,
        events,
        entries,
        pos,
        touch: bool = True,
        seats: list[SeatRow] | None = None,
    ) -> list[Reply]:
        """Store the move (and new seats, if given) with the new clock; the new board."""
        state, more, bot_entries, pos = await self._bot_moves(row, game, state, pos)
        events, entries = events + more, entries + bot_entries
        result = game.result(state)
        status = "finished" if result is not None else "active"
        result_json = (
            {"ranking": result.ranking, "scores": {str(k): v for k, v in result.scores.items()},
             "summary": result.summary}
            if result is not None else None
        )  # fmt: skip
        clock = self._next_clock(row, game, state) if result is None else {}
        dumped, wake_at = game.dump(state), clocks.next_wake(clock) if clock else None
        try:
            version = await self.store.record(
                row.id, row.version, entries, dumped, pos, status, result_json,
                deadline=clock.get("deadline"), clock=clock or row.clock,
                wake_at=wake_at, touch=touch, seats=seats,
            )  # fmt: skip
        except StaleVersion as exc:
            raise UserError(
                "Someone else moved first; the board has changed. Look again and retry."
            ) from exc
        # The row as just written, without reading it back (updated_at aside, unused here).
        row = dataclasses.replace(
            row, version=version, state=dumped, chance_pos=pos, status=status, result=result_json,
            deadline=clock.get("deadline"), clock=clock or row.clock, wake_at=wake_at,
            seats=list(seats) if seats is not None else row.seats,
        )  # fmt: skip
        loaded = Loaded(row, game, state)
        replies = [await self._board_reply(loaded, events, result)]
        replies += self._private_events(loaded, events)
        if result is not None:  # ratings, and Replay and Rematch on the final board
            replies = await self._on_finish(row, game, replies)
        return replies

    # ----- looking ------------------------------------------------------------------
    async def board(self, chat: ChatRef, viewer: UserRef | None = None) -> list[Reply]:
        """The board; a `viewer` who does not play is told so and offered the replay."""
        row = await self._live_row(chat)
        if row is None:
            raise UserError("There is no game here. Start one with /escape start GAME.")
        if row.status == "lobby":
            return [self._lobby_reply(row, REGISTRY[row.game], "Waiting for players.")]
        return [await self._board_reply(self._load(row), [], None)] + await self.watch_note(
            chat, viewer
        )

    async def private_view(self, chat: ChatRef, user: UserRef) -> list[Reply]:
        row = await self._active(chat)
        loaded = self._load(row)
        seat = loaded.seat_of(user)
        if seat is None:
            raise UserError(self._not_a_player(loaded))
        view = loaded.game.view(loaded.state, seat)
        picture = None
        if self._pictures:  # drawn by the CPU pool: the event loop keeps answering others
            picture = await self.cpu.run(draw_picture, loaded.game.id, view, "my-view.png")
        text = picture.alt if picture else f"Your view of {loaded.game.title}."
        return [
            Reply(
                text,
                kind="private",
                picture=picture,
                to=user,
                session_id=row.id,
                version=row.version,
            )
        ]

    async def history(
        self, chat: ChatRef, user: UserRef | None = None, last: int = 15
    ) -> list[Reply]:
        """The public log; a player who asks also gets their own private events, privately."""
        row = await self._live_row(chat)
        if row is None:
            raise UserError("There is no game here.")
        entries = await self.store.log(row.id)
        seat = next((s.seat for s in row.seats if user and s.user_id == user.id), None)
        public = [e["text"] for entry in entries for e in entry.events if e.get("to") is None]
        replies = [Reply("\n".join(public[-last:]) or "Nothing has happened yet.", kind="log")]
        own = [
            e["text"]
            for entry in entries
            for e in entry.events
            if seat is not None and e.get("to") == seat
        ]
        if own:
            replies.append(
                Reply("Only you saw:\n" + "\n".join(own[-last:]), kind="private", to=user)
            )
        return replies

    async def games_here(self, platform: str, scope: str) -> Reply:
        rows = await self.store.sessions_in_scope(platform, scope)
        if not rows:
            return Reply(
                "No games are running here. Start one with /escape start GAME.", kind="games"
            )
        lines = []
        for row in rows:
            title = REGISTRY[row.game].title if row.game in REGISTRY else row.game
            if row.status == "lobby":
                who = f"lobby, {len(row.seats)} seated"
            else:
                try:
                    loaded = self._load(row)
                except UserError as exc:  # one game that cannot be read must not hide the rest
                    lines.append(f"#{row.id} {title}: {exc}")
                    continue
                waiting = [
                    loaded.user_of(s).name for s in loaded.game.to_act(loaded.state) if s >= 0
                ]
                who = "waiting for " + (", ".join(waiting) or "the dice") + self._clock_note(row)
            where = (
                f"<#{row.thread or row.chat}>" if platform == "discord" else row.thread or row.chat
            )
            lines.append(f"#{row.id} {title} in {where}: {who}")
        return Reply("\n".join(lines), kind="games")

    async def choices(self, chat: ChatRef, user: UserRef) -> list[tuple[str, str]]:
        """(action, label) pairs for autocomplete; empty when it is not this user's move."""
        row = await self._live_row(chat)
        if row is None or row.status != "active":
            return []
        loaded = self._load(row)
        seat = loaded.seat_of(user)
        if seat is None:
            return []
        legal = loaded.game.legal_actions(loaded.state, seat)
        return [(a, loaded.game.describe(loaded.state, a)) for a in legal]

    async def live(self, chat: ChatRef) -> SessionRow | None:
        return await self._live_row(chat)

    async def live_tables(self, platform: str, scope: str) -> list[tuple[SessionRow, list[str]]]:
        """The lobbies and running games of one scope, each with the names it waits for
        (the terminal's list of saved games); games this bot no longer offers are left out."""
        rows = await self.store.sessions_in_scope(platform, scope)
        tables = []
        for row in rows:
            if row.game not in REGISTRY:
                continue
            waiting: list[str] = []
            if row.status == "active":
                loaded = self._load(row)
                acting = loaded.game.to_act(loaded.state)
                waiting = [loaded.user_of(s).name for s in acting if 0 <= s < len(row.seats)]
            tables.append((row, waiting))
        return tables

    # ----- building replies ---------------------------------------------------------
    def _lobby_reply(self, row: SessionRow, game: Game, headline: str) -> Reply:
        seated = ", ".join(s.name for s in row.seats)
        need = (
            f"Ready: any seated player may press Begin ({len(row.seats)} of up to {game.max_players})."
            if len(row.seats) >= game.min_players
            else f"Needs {game.min_players - len(row.seats)} more to begin ({game.player_range()} players)."
        )
        opts = ", ".join(f"{k}={v}" for k, v in row.options.items())
        text = (
            f"{headline}\n{game.title}"
            + (f" ({opts})" if opts else "")
            + f". Seated: {seated}. {need}"
            + (
                f"\nClock: {clocks.describe(row.clock, self._clock())}."
                if row.clock and row.platform in self._notifiers
                else ""
            )
        )
        choices = [
            Choice("Join", buttons.simple("j", row.id), "success"),
            Choice("Leave", buttons.simple("l", row.id), "secondary"),
        ]
        if len(row.seats) < game.max_players:
            choices.append(Choice("Add a bot", buttons.simple("o", row.id), "secondary"))
        if any(s.kind == "ai" for s in row.seats):
            choices.append(Choice("Remove a bot", buttons.simple("x", row.id), "secondary"))
        if len(row.seats) >= game.min_players:
            choices.append(Choice("Begin", buttons.simple("b", row.id), "primary"))
        return Reply(text, kind="lobby", choices=choices, session_id=row.id, version=row.version)

    async def _board_reply(self, loaded: Loaded, events: Sequence[Event], result) -> Reply:
        game, state, row = loaded.game, loaded.state, loaded.row
        view = game.view(state, None)
        drawing = None  # drawn by the CPU pool while the buttons are worked out here
        if self._pictures:
            name = f"{game.id}-{row.version}.png"
            drawing = asyncio.ensure_future(self.cpu.run(draw_picture, game.id, view, name))
            await asyncio.sleep(0)  # let it reach the pool before the work below
        lines = [e.text for e in events if e.to is None]
        acting = [s for s in game.to_act(state) if s >= 0]
        humans = [s for s in acting if row.seats[s].kind == "human"]
        acting = humans or acting  # bots leave a group decision to the humans
        mention = [loaded.user_of(s) for s in humans]
        if result is not None and not any(e.kind in ENDING_KINDS for e in events):
            lines.append(result.summary)  # unless the move's own events announced the end
        elif acting:
            lines.append(
                "Waiting for " + ", ".join(u.name for u in mention) + self._clock_note(row) + "."
            )
        choices: list[Choice] = []
        for seat in acting:
            legal = game.legal_actions(state, seat)
            prefix = f"{loaded.user_of(seat).name}: " if len(acting) > 1 else ""
            owner = loaded.user_of(seat).id
            choices += [
                Choice(
                    prefix + game.describe(state, a),
                    buttons.act(row.id, row.version, seat, i),
                    for_user=owner,
                )
                for i, a in enumerate(legal)
            ]
        if result is None and row.clock.get("warned"):
            choices.append(
                Choice("Vote to replace the late player", buttons.simple("k", row.id), "danger")
            )
        if result is None and self._has_secrets(game, state, len(row.seats), view):
            choices.append(Choice("My hand / my view", buttons.simple("v", row.id), "primary"))
        picture = await drawing if drawing is not None else None
        return Reply(
            "\n".join(lines) or f"{game.title}.",
            kind="board",
            picture=picture,
            choices=choices,
            mention=mention if result is None else [],
            session_id=row.id,
            version=row.version,
            final=result is not None,
        )

    def _clock_note(self, row: SessionRow) -> str:
        """` (23h 59m left)`, or why the clock is not running; nothing where no timer runs
        (a terminal game: nobody can be reminded there)."""
        c = row.clock
        if row.platform not in self._notifiers:
            return ""
        left = clocks.describe_left(clocks.time_left(c, self._clock()))
        if c.get("paused") is not None:
            return f" (the table is paused; {left} left)"
        if c.get("warned"):
            return " (time is up: the others may vote, /escape clock vote)"
        return f" ({left} left)" if left else ""

    def _private_events(self, loaded: Loaded, events: Sequence[Event]) -> list[Reply]:
        replies = []
        for event in events:
            if event.to is not None and 0 <= event.to < len(loaded.row.seats):
                replies.append(
                    Reply(event.text, kind="private", to=loaded.user_of(event.to),
                          session_id=loaded.row.id, version=loaded.row.version)
                )  # fmt: skip
        return replies

    @staticmethod
    def _has_secrets(game: Game, state, players: int, public_view: dict | None = None) -> bool:
        """Whether some seat sees more than the table (`public_view`: the public view, when
        the caller has it already)."""
        public_view = public_view if public_view is not None else game.view(state, None)
        public = {k: v for k, v in public_view.items() if k != "viewer"}
        for seat in range(players):
            own = {k: v for k, v in game.view(state, seat).items() if k != "viewer"}
            if own != public:
                return True
        return False

    # ----- plumbing -----------------------------------------------------------------
    def _load(self, row: SessionRow) -> Loaded:
        game = REGISTRY.get(row.game)
        if game is None:
            raise UserError(f"This bot no longer has the game {row.game!r}.")
        try:
            state = game.load(row.state) if row.state is not None else None
        except Exception as exc:  # stored JSON this engine cannot read: damage, or an old shape
            log.exception("session %s: its saved state cannot be read", row.id)
            raise UserError(UNREADABLE_GAME) from exc
        return Loaded(row, game, state)

    def _lock(self, session_id: int) -> asyncio.Lock:
        return self._locks.setdefault(session_id, asyncio.Lock())

    async def _live_row(self, chat: ChatRef) -> SessionRow | None:
        return await self.store.live_session(chat.platform, chat.chat, chat.thread)

    async def _lobby(self, chat: ChatRef) -> SessionRow:
        row = await self._live_row(chat)
        if row is None:
            raise UserError("There is no table here. Open one with /escape start GAME.")
        if row.status != "lobby":
            raise UserError("The game has already begun.")
        return row

    async def _active(self, chat: ChatRef) -> SessionRow:
        row = await self._live_row(chat)
        if row is None:
            raise UserError("There is no game running here. Start one with /escape start GAME.")
        if row.status == "lobby":
            raise UserError("The game has not begun yet: /escape begin once everyone has joined.")
        return row

    async def _write_seats(self, row: SessionRow, seats: list[SeatRow]) -> None:
        async with self._lock(row.id):
            try:
                await self.store.set_seats(row.id, row.version, seats)
            except StaleVersion as exc:
                raise UserError("The table changed at the same moment; try again.") from exc

    async def _guard(self, write) -> None:
        try:
            await write
        except StaleVersion as exc:
            raise UserError("The game changed at the same moment; try again.") from exc

    async def _remember(self, user: UserRef) -> None:
        await self.store.upsert_user(user.platform, user.id, user.name)

    @staticmethod
    def _not_a_player(loaded: Loaded) -> str:
        names = ", ".join(s.name for s in loaded.row.seats)
        return f"You are not playing in this game (players: {names}). Watch, or start the next one."


def chat_of(row: SessionRow) -> ChatRef:
    return ChatRef(row.platform, row.chat, row.thread, row.scope)


def _events(events: Sequence[Event]) -> list[dict]:
    return [{"text": e.text, "to": e.to, "kind": e.kind} for e in events]
