"""A tournament's rounds, moved on by the timer loop (and by the organiser's start): each
step happens once, even with several processes on one database and after a crash.

1. **Pair** the next round (`pairing.py`) from the standings, and store it whole in one
   transaction that moves the tournament's round on from the version read: a second
   process (or a retry) finds it moved and pairs nothing. Players with two losses on time
   are withdrawn in the same transaction.
2. **Open** each table: claimed by one process for a while (a lease), its place made by
   the front end (a Discord thread, a Telegram forum topic; else a place of its own that
   the players reach privately and on the web board), then its session created and linked
   in one transaction only while the table has none, then begun. A process killed on the
   way leaves a table without a session, or a session in its lobby: the next scan (in any
   process) goes on from there with the same pairing; nothing is paired twice.
3. **Announce** the round once every table is open (claimed by moving `shown` on): the
   home chat hears the tables and pings their players; each table's place gets its board.
4. A round ends when all its tables have ended; its results and standings (a picture) are
   posted once (`reported`), then the next round is paired, or the tournament ends.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace

from bot.service.base.delivery_plan import Plan, Reply
from bot.service.base.move_records import Turn, resolve_chance
from bot.service.base.requests import ChatRef, UserRef
from bot.service.community.tournaments import pairing, words
from bot.service.community.tournaments.scores import Line, Played, game_points, shown, standings
from bot.service.pictures.workers import CpuPool
from bot.service.tables.board_plans import BoardPlans
from bot.service.tables.bot_turns import BotTurns
from bot.service.tables.lobby import find_game
from bot.service.tables.table import Table, chat_of
from bot.store import PairingRow, SeatRow, SessionRow, Store, TournamentRow
from engines import Event
from engines.text import Text, joined, msg, plural

log = logging.getLogger(__name__)

LEASE = 300.0  # seconds a process may take to open one table before another takes over
TIME_LOSSES = 2  # losses on time that withdraw a player
LIVE = ("lobby", "active")

Notify = Callable[[ChatRef, Plan], Awaitable[bool]]
OpenPlace = Callable[[ChatRef, str], Awaitable[ChatRef | None]]
PlaceName = Callable[[ChatRef, int], str]


@dataclass
class Progress:
    """What one look at a tournament did (for logs and tests)."""

    paired: list[int] = field(default_factory=list)  # rounds paired
    opened: list[int] = field(default_factory=list)  # sessions opened
    announced: list[int] = field(default_factory=list)
    reported: list[int] = field(default_factory=list)
    finished: bool = False


def virtual_place(t: TournamentRow, round_: int, board: int) -> ChatRef:
    """A table's place where the platform has none to give (a group without topics, the
    tests): a thread id of its own, which no platform's thread has."""
    return ChatRef(t.platform, t.chat, f"t{t.id}.{round_}.{board}", t.scope)


def is_virtual(chat: ChatRef) -> bool:
    return chat.thread.startswith("t") and "." in chat.thread


class Rounds:
    def __init__(
        self,
        store: Store,
        table: Table,
        plans: BoardPlans,
        turns: BotTurns,
        *,
        cpu: CpuPool,
        pictures: bool,
        notify: Notify,
        open_place: OpenPlace,
        place_name: PlaceName,
        seed: Callable[[], int],
        check_options: Callable,
    ) -> None:
        self.store = store
        self.table = table
        self.plans = plans
        self.turns = turns
        self.cpu = cpu
        self.pictures = pictures
        self.notify = notify
        self.open_place = open_place
        self.place_name = place_name
        self.seed = seed
        self.check_options = check_options  # a table's start options, as the lobby checks them

    def now(self) -> float:
        return self.table.now()

    @staticmethod
    def least(t: TournamentRow) -> int:
        return max(2, find_game(t.game).min_players)

    # ----- the loop's entry -------------------------------------------------------------
    async def advance(self, tournament_id: int) -> Progress:
        """Everything due for this tournament now, each step once."""
        done = Progress()
        for _ in range(4):  # start, then at most a round's end and the next round's opening
            t = await self.store.tournament(tournament_id)
            if t is None or t.status not in ("signup", "running"):
                return done
            if t.status == "signup":
                if t.starts_at is None or t.starts_at > self.now():
                    return done
                if not await self._begin(t, done):
                    return done
                continue
            pairings = await self.store.pairings(t.id, t.round)
            if not await self._open(t, pairings, done):
                return done
            pairings = await self.store.pairings(t.id, t.round)  # with the sessions opened
            if t.shown < t.round and await self.store.claim_post(t, "shown", t.round):
                await self._announce(t, pairings)
                done.announced.append(t.round)
            rows = await self._sessions(pairings)
            if any(r.status in LIVE for r in rows.values()):
                return done
            final = t.round >= t.rounds
            if t.reported < t.round and await self.store.claim_post(t, "reported", t.round):
                await self._report(t, pairings, rows, final)
                done.reported.append(t.round)
            if final:
                done.finished = await self.store.pair_round(t, [], [], {}, None, finished=True)
                return done
            if not await self._pair(t, done):
                return done
        return done

    async def _begin(self, t: TournamentRow, done: Progress) -> bool:
        entrants = [e for e in await self.store.entrants(t.id) if e.withdrawn is None]
        if len(entrants) >= self.least(t):
            return await self._pair(t, done)
        if await self.store.set_tournament(t, status="cancelled", wake_at=None):
            note = plural(
                "Tournament #{id} is cancelled: {count} player signed up, and it needs {least}.",
                "Tournament #{id} is cancelled: {count} players signed up, and it needs {least}.",
                len(entrants),
                id=t.id,
                least=self.least(t),
            )
            await self.notify(
                self._home(t), Plan([Reply(note, kind=words.KIND)], language=t.language)
            )
        return False

    # ----- pairing ----------------------------------------------------------------------
    async def _pair(self, t: TournamentRow, done: Progress) -> bool:
        nxt = t.round + 1
        entrants = await self.store.entrants(t.id)
        pairings = await self.store.pairings(t.id)
        rows = await self._sessions(pairings)
        played = [
            played_at(p, rows[p.board, p.round])
            for p in pairings
            if not p.bye and (p.board, p.round) in rows
        ]
        timed = {}
        for e in entrants:
            losses = sum(1 for g in played if e.user_id in g.timed_out)
            if e.withdrawn is None and losses >= TIME_LOSSES:
                timed[e.user_id] = "time"
        lines = self._lines(entrants, pairings, played, out=set(timed))
        ratings = (
            await self.store.ratings_of(t.platform, t.scope, t.game, [e.user_id for e in entrants])
            if nxt == 1
            else {}
        )
        if nxt == 1:  # the first round: seeded by rating here, then by sign-up
            order = {e.user_id: e.n for e in entrants}
            lines.sort(
                key=lambda x: (
                    -(ratings[x.id].mu - 3 * ratings[x.id].sigma) if x.id in ratings else 0.0,
                    order[x.id],
                )
            )
        met: dict[str, set[str]] = {e.user_id: set() for e in entrants}
        byes = {e.user_id: 0 for e in entrants}
        firsts = {e.user_id: 0 for e in entrants}
        for p in pairings:
            if p.bye:
                byes[p.players[0]] = byes.get(p.players[0], 0) + 1
                continue
            firsts[p.players[0]] = firsts.get(p.players[0], 0) + 1
            for a in p.players:
                met.setdefault(a, set()).update(b for b in p.players if b != a)
        joined = {e.user_id: e.joined for e in entrants}
        apart: dict[str, set[str]] = {}  # a block: paired apart while another pairing exists
        for blocker, blocked in await self.store.blocks_among(
            t.platform, [e.user_id for e in entrants]
        ):
            apart.setdefault(blocker, set()).add(blocked)
            apart.setdefault(blocked, set()).add(blocker)
        field_ = [
            pairing.Entrant(
                line.id,
                line.points,
                rank,
                frozenset(met.get(line.id, ())),
                byes.get(line.id, 0),
                firsts.get(line.id, 0),
                frozenset(apart.get(line.id, ())),
            )
            for rank, line in enumerate(
                x for x in lines if not x.withdrawn and x.id not in timed and joined[x.id] <= nxt
            )
        ]
        if t.size == 2:
            paired = pairing.pair_swiss(field_)
        else:
            paired = pairing.group_tables(field_, t.size, self.least(t))
        if not await self.store.pair_round(t, paired.tables, paired.byes, timed, self.now()):
            return False  # another process (or a join meanwhile) came first: looked at again
        done.paired.append(nxt)
        if timed:
            names = ", ".join(e.name for e in entrants if e.user_id in timed)
            note = msg("Withdrawn after two losses on time: {names}.", names=names)
            await self.notify(
                self._home(t), Plan([Reply(note, kind=words.KIND)], language=t.language)
            )
        return True

    # ----- opening the tables -----------------------------------------------------------
    async def _open(self, t: TournamentRow, pairings: list[PairingRow], done: Progress) -> bool:
        """True once every table of the round has a session that has begun."""
        ready = True
        for p in pairings:
            if p.bye:
                continue
            session_id = p.session_id
            if session_id is None:
                session_id = await self._open_one(t, p)
                if session_id is None:
                    ready = False
                    continue
                done.opened.append(session_id)
            row = await self.store.session(session_id)
            if row is not None and row.status == "lobby":
                await self._start(row)
        return ready

    async def _open_one(self, t: TournamentRow, p: PairingRow) -> int | None:
        if not await self.store.claim_table(t.id, p.round, p.board, self.now(), LEASE):
            return None  # another process is opening it
        entrants = {e.user_id: e for e in await self.store.entrants(t.id)}
        name = words.table_name(t, p.round, p.board, t.language)
        home = self._home(t)
        place = await self.open_place(home, name) or virtual_place(t, p.round, p.board)
        game = find_game(t.game)
        start = self.check_options(game, t.options)
        clock = start.clock | {"tournament": [t.id, p.round, p.board], "timeout": "forfeit"}
        seats = [
            SeatRow(i, uid, entrants[uid].name if uid in entrants else uid)
            for i, uid in enumerate(p.players)
        ]
        session_id = await self.store.open_table_session(
            t.id,
            p.round,
            p.board,
            platform=place.platform,
            scope=t.scope,
            chat=place.chat,
            thread=place.thread,
            game=game.id,
            options=start.options,
            rules_version=game.rules_version,
            creator=t.creator,
            seed=self.seed(),
            seats=seats,
            clock=clock,
            opened=replace(start.opened, language=t.language),
        )
        if session_id is None:
            log.info(
                "tournament %s round %s table %s was opened by another process",
                t.id,
                p.round,
                p.board,
            )
        return session_id

    async def _start(self, row: SessionRow) -> None:
        """A table's session begun (as a lobby's Begin does; once: a compare-and-set)."""
        game = find_game(row.game)
        async with self.table.lock(row.id):
            row = await self.store.session(row.id)
            if row is None or row.status != "lobby":
                return
            names = [s.name for s in row.seats]
            turn = Turn(game.setup(names, row.options), row.chance_pos)
            turn.events.append(
                Event(msg("{game} begins: {names}.", game=msg(game.title), names=", ".join(names)))
            )
            resolve_chance(game, turn, row.seed)
            try:
                committed = await self.table.commit(row, game, turn)
            except Exception:
                log.info("table %s was begun by another process", row.id)
                return
        await self.turns.run(committed)

    # ----- posts ------------------------------------------------------------------------
    def _home(self, t: TournamentRow) -> ChatRef:
        return ChatRef(t.platform, t.chat, t.thread, t.scope)

    async def _announce(self, t: TournamentRow, pairings: list[PairingRow]) -> None:
        rows = await self._sessions(pairings)
        lines: list[Text] = [
            msg(
                "Tournament #{id}, round {round} of {rounds}:",
                id=t.id,
                round=t.round,
                rounds=t.rounds,
            )
        ]
        everyone: list[UserRef] = []
        for p in pairings:
            if p.bye:
                continue
            row = rows.get((p.board, p.round))
            if row is None:
                continue
            users = [UserRef(row.platform, s.user_id, s.name) for s in row.seats]
            everyone += users
            where = self.place_name(chat_of(row), row.id)
            lines.append(
                msg(
                    "Table {board}: {names}, in {where}",
                    board=p.board,
                    names=" – ".join(u.name for u in users),
                    where=where,
                )
            )
            ping = Reply(
                msg(
                    "Tournament #{id}, round {round}, table {board}: {names}. Good luck!",
                    id=t.id,
                    round=t.round,
                    board=p.board,
                    names=" – ".join(u.name for u in users),
                ),
                kind="info",
                mention=users,
                session_id=row.id,
            )
            board = await self.plans.board(self.table.load(row), [], None)
            board.fresh = True
            await self.notify(chat_of(row), Plan([ping]).then(board))
        byes = [p.players[0] for p in pairings if p.bye]
        if byes:
            names = {e.user_id: e.name for e in await self.store.entrants(t.id)}
            lines.append(
                msg("A bye (worth a win): {names}", names=", ".join(names.get(b, b) for b in byes))
            )
        home = Reply(joined(lines, "\n"), kind=words.KIND, mention=everyone)
        await self.notify(self._home(t), Plan([home], language=t.language))

    async def _report(self, t: TournamentRow, pairings, rows, final: bool) -> None:
        entrants = await self.store.entrants(t.id)
        names = {e.user_id: e.name for e in entrants}
        results: list[Text] = [msg("Round {round} results:", round=t.round)]
        for p in pairings:
            if p.round != t.round:
                continue
            if p.bye:
                results.append(
                    msg("{name}: a bye (1 point)", name=names.get(p.players[0], p.players[0]))
                )
                continue
            row = rows.get((p.board, p.round))
            if row is None:
                continue
            got = game_points(played_at(p, row))
            said = ", ".join(f"{names.get(u, u)} {shown(got.get(u, 0.0))}" for u in p.players)
            results.append(msg("Table {board}: {results}", board=p.board, results=said))
        plan = await self.standings_plan(t, after_round=t.round, final=final)
        plan.replies.insert(0, Reply(joined(results, "\n"), kind=words.KIND))
        await self.notify(self._home(t), plan)

    async def standings_plan(
        self,
        t: TournamentRow,
        *,
        after_round: int | None = None,
        final: bool | None = None,
        quiet: bool = False,
    ) -> Plan:
        lines = await self.lines(t)
        after = t.round if after_round is None else after_round
        final = t.status == "finished" if final is None else final
        text = words.standings_text(t, lines, after, final)
        picture = None
        if self.pictures and lines:
            picture = await words.standings_picture_of(self.cpu, t, lines, after, final, t.language)
        return Plan(
            [Reply(text, kind=words.KIND, picture=picture)], quiet=quiet, language=t.language
        )

    # ----- standings --------------------------------------------------------------------
    async def lines(self, t: TournamentRow) -> list[Line]:
        entrants = await self.store.entrants(t.id)
        pairings = await self.store.pairings(t.id)
        rows = await self._sessions(pairings)
        played = [
            played_at(p, rows[p.board, p.round])
            for p in pairings
            if not p.bye
            and (p.board, p.round) in rows
            and rows[p.board, p.round].status not in LIVE
        ]
        return self._lines(entrants, pairings, played)

    @staticmethod
    def _lines(entrants, pairings, played, out: set[str] = frozenset()) -> list[Line]:  # type: ignore[assignment]
        players = [
            (e.user_id, e.name, e.withdrawn is not None or e.user_id in out) for e in entrants
        ]
        byes = [(p.round, p.players[0]) for p in pairings if p.bye]
        return standings(players, played, byes)

    async def _sessions(self, pairings: list[PairingRow]) -> dict[tuple[int, int], SessionRow]:
        found = {}
        for p in pairings:
            if p.session_id is not None:
                row = await self.store.session(p.session_id)
                if row is not None:
                    found[p.board, p.round] = row
        return found


def played_at(p: PairingRow, row: SessionRow) -> Played:
    """A table's session as the standings count it."""
    result = row.result or {}
    seat_of = {s.user_id: s.seat for s in row.seats}
    place_of_seat = {
        seat: n for n, group in enumerate(result.get("ranking") or []) for seat in group
    }
    last = len(result.get("ranking") or [])
    places = {u: place_of_seat.get(seat_of.get(u, -1), last) for u in p.players}
    timed = frozenset(s.user_id for s in row.seats if s.kind == "placeholder")
    counted = row.status == "finished" and bool(result)
    return Played(p.round, tuple(p.players), places, timed, counted)
