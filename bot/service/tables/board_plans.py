"""Who sees what after a change: the plan for a board, a lobby and a private view.

Decided here once, for every front end:
- the public board: its picture (drawn from the public view only), caption, whom to ping,
  and its buttons: in a game of open information every move of the players to act (each
  bound to its player), in a game with secrets only the shared buttons;
- in a game with secrets, each human to act gets one private message: what the move told
  them privately, their view and their own moves; any other player told something
  privately gets it in one message of their own;
- the legal moves are computed once a board, and each picture drawn at most once (a
  private view only if a front end delivers it).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import render
from bot.service.base import buttons, deadlines
from bot.service.base.delivery_plan import MOVE, VIEW, Choice, Plan, Reply, TableFacts
from bot.service.base.requests import UserRef
from bot.service.pictures.drawing import draw_on
from bot.service.pictures.drawn_pictures import DrawnPictures, PictureKey
from bot.service.pictures.workers import CpuPool
from bot.service.tables.bot_seats import BOT_KINDS, seat_names
from bot.service.tables.table import Committed, DrawingAhead, Loaded
from bot.store import SessionRow
from engines import Event, Game, Result
from engines.text import Msg, Span, Text, command, joined, msg, to_json
from languages import DEFAULT, say

# Event kinds with which an engine announces the end itself ("Ann wins!"): the final board
# then does not repeat the result's summary.
ENDING_KINDS = frozenset({"win", "over"})
# said under a board only where the front end shows the shared My hand button
PRIVATE_MOVES = msg("(Moves are chosen in private: press My hand.)")

Finish = Callable[[SessionRow, Game, Plan], Awaitable[Plan]]


@dataclass
class Early:
    """A board's picture being drawn by the CPU pool (kept with the table's pictures)."""

    drawing: asyncio.Future
    key: PictureKey
    pictures: DrawnPictures

    def cancel(self) -> None:
        """The change was not stored: its picture is never sent."""
        self.pictures.drop(self.key)


def facts(row: SessionRow, game: Game) -> TableFacts:
    return TableFacts(
        row.id,
        row.version,
        game.id,
        game.title,
        game.hidden_information,
        over=row.status in ("finished", "aborted"),
        language=table_language(row),
    )


def table_language(row: SessionRow) -> str:
    """What a table speaks: set when it opened (`/escape language` changes it)."""
    return row.language or DEFAULT


class BoardPlans:
    def __init__(
        self,
        cpu: CpuPool,
        *,
        pictures: bool,
        clock: Callable[[], float],
        timed: Callable[[str], bool],
        finish: Finish | None = None,
        drawn: DrawnPictures | None = None,
    ) -> None:
        self.cpu = cpu
        self.drawn = drawn or DrawnPictures()  # each picture drawn once, shared by every door
        self.pictures = pictures
        self.now = clock
        self.timed = timed  # whether the turn clock runs for a platform (it can be reminded)
        self.finish = finish  # ratings and the end's buttons (None: a bare table, no ratings)

    # ----- after a commit ---------------------------------------------------------------
    def draw_early(
        self,
        game: Game,
        state,
        row: SessionRow,
        version: int,
        events: Sequence[Event] = (),
    ) -> Early | None:
        """The public board of a change about to be stored, sent to the CPU pool at once:
        drawing it and storing the change then take one's time, not both. What the change
        said in public is written under it, in the table's language."""
        if not self.pictures:
            return None
        view = game.view(state, None)
        name = f"{game.id}-{version}.png"
        recent = [to_json(e.text) for e in events if e.to is None]
        language = table_language(row)
        key = PictureKey(row.id, version, None, language)
        drawing = self.drawn.drawing(
            key,
            lambda: draw_on(self.cpu, game.id, view, name, recent, language, canvas=(row.id, None)),
        )
        return Early(drawing, key, self.drawn)

    async def after(
        self, committed: Committed, asker: UserRef | None = None, *, told: bool = False
    ) -> Plan:
        """The plan of a stored change: the board, the private messages, and what the end of
        a game adds (ratings, Replay and Rematch). `told`: what it said was shown already,
        step by step (`step`), so the board does not say it again."""
        table, result = committed.table, committed.result
        plan = await self.board(
            table, committed.events, result, asker=asker, early=committed.early, told=told
        )
        if result is not None and self.finish is not None:
            plan = await self.finish(table.row, table.game, plan)
        return plan

    def step(self, committed: Committed, thinkers: list[str] | None = None) -> Plan:
        """One stored step of a run (a move, a bot's turn), as it is stored: what it said in
        public, and each player's private notes; no board (`after` gives it at the end).
        `thinkers`: the run's bots said to be thinking so far (said once a turn)."""
        table, events = committed.table, committed.events
        public: list[Text] = [e.text for e in events if e.to is None]
        if thinkers is not None:
            thinking = self._thinking(table) if committed.result is None else ""
            if thinking and thinking != (thinkers[-1] if thinkers else ""):
                public.append(msg("{names} is thinking…", names=thinking))
            thinkers.append(thinking)
        replies = (
            [
                Reply(
                    joined(public, "\n"),
                    kind="info",
                    session_id=table.row.id,
                    version=table.row.version,
                )
            ]
            if public
            else []
        )
        replies += self._private_notes(table, events).values()
        return Plan(replies, facts(table.row, table.game))

    @staticmethod
    def _thinking(table: Loaded) -> str:
        """Who searches next when only bots act (a hard bot may think for seconds, and the
        one watching should know the program has not hung); "" when a person acts."""
        row = table.row
        acting = [s for s in table.game.to_act(table.state) if 0 <= s < len(row.seats)]
        if not acting or any(row.seats[s].kind not in BOT_KINDS for s in acting):
            return ""
        return ", ".join(table.user_of(s).name for s in acting)

    async def board(
        self,
        table: Loaded,
        events: Sequence[Event],
        result: Result | None,
        *,
        asker: UserRef | None = None,
        fresh: bool = False,
        draw: bool = True,
        private: bool = True,
        early: DrawingAhead | None = None,
        told: bool = False,
    ) -> Plan:
        """`draw`: False when only the buttons are wanted (nothing is drawn then).
        `private`: with each player's private message (a board shown again has none).
        `early`: its picture, already being drawn. `told`: the events were shown already
        (`step`): neither the board nor the private messages repeat them."""
        game, state, row = table.game, table.state, table.row
        if early is None and draw:
            early = self.draw_early(game, state, row, row.version)
            await asyncio.sleep(0)  # let it reach the pool before the work below
        secrets = game.hidden_information
        lines, acting, humans = self.caption(table, events, result, told=told)
        mention = [table.user_of(s) for s in humans]
        moves = {seat: self._moves(table, seat, prefix=len(acting) > 1) for seat in humans}
        choices: list[Choice] = [] if secrets else [c for own in moves.values() for c in own]
        if result is None and row.clock.get("warned"):
            choices.append(
                Choice(
                    msg("Vote to replace the late player"),
                    buttons.VoteReplace(row.id).data,
                    "danger",
                )
            )
        if result is None and secrets:
            choices.append(
                Choice(msg("My hand / my view"), buttons.MyView(row.id).data, "primary", role=VIEW)
            )
        aside = PRIVATE_MOVES if result is None and secrets and humans else ""
        # the private replies are said while the worker draws: their words (each view told
        # in full) cost about a millisecond a player, which waiting for the picture hides
        notes = self._private_replies(table, events, result, humans, moves, told) if private else {}
        picture = await asyncio.shield(early.drawing) if early is not None else None
        board = Reply(
            joined(lines, "\n") if lines else msg("{game}.", game=title_msg(game)),
            kind="board",
            picture=picture,
            choices=choices,
            mention=mention if result is None else [],
            session_id=row.id,
            version=row.version,
            final=result is not None,
            aside=aside,
        )
        return Plan([board, *notes.values()], facts(row, game), asker, fresh=fresh)

    def _private_replies(
        self,
        table: Loaded,
        events: Sequence[Event],
        result: Result | None,
        humans: list[int],
        moves: dict[int, list[Choice]],
        told: bool,
    ) -> dict[str, Reply]:
        """Each player's private message of a board: what the change told them, and in a
        game with secrets their own view with their moves."""
        notes = {} if told else self._private_notes(table, events)
        if table.game.hidden_information and result is None:
            for seat in humans:
                user = table.user_of(seat)
                reply = self.view_reply(table, seat, moves[seat])
                note = notes.get(user.id)
                if note is not None:
                    reply.text = joined([note.text, reply.text], "\n")
                notes[user.id] = reply
        return notes

    def caption(
        self, table: Loaded, events: Sequence[Event], result: Result | None, *, told: bool = False
    ) -> tuple[list[Text], list[int], list[int]]:
        """What a board says under its picture (what the change said in public, then the
        result or whom it waits for), the seats to act (bots leave a group decision to the
        humans) and the humans among them. `told`: the events were shown already."""
        game, state, row = table.game, table.state, table.row
        lines: list[Text] = [] if told else [e.text for e in events if e.to is None]
        acting = [s for s in game.to_act(state) if 0 <= s < len(row.seats)]
        humans = [s for s in acting if row.seats[s].kind == "human"]
        acting = humans or acting
        if result is not None:  # over: nobody is waited for (a loss on time, a resignation)
            if not any(e.kind in ENDING_KINDS for e in events):
                lines.append(result.summary)  # unless the move's own events announced the end
        elif acting:  # (bots, while their run plays: they need no clock)
            names = ", ".join(table.user_of(s).name for s in acting)
            clock = self.clock_note(row) if humans else ""
            lines.append(msg("Waiting for {names}{clock}.", names=names, clock=clock))
        return lines, acting, humans

    def _moves(self, table: Loaded, seat: int, *, prefix: bool) -> list[Choice]:
        game, state, row = table.game, table.state, table.row
        user = table.user_of(seat)
        return [
            Choice(
                msg("{name}: {move}", name=user.name, move=game.label(state, action))
                if prefix
                else game.label(state, action),
                buttons.Act(row.id, row.version, seat, i).data,
                for_user=user.id,
                role=MOVE,
            )
            for i, action in enumerate(game.legal_actions(state, seat))
        ]

    def _private_notes(self, table: Loaded, events: Sequence[Event]) -> dict[str, Reply]:
        """What the change told each player privately: one message each, lines in order."""
        row = table.row
        said: dict[str, list[Text]] = {}
        for event in events:
            if event.to is not None and 0 <= event.to < len(row.seats):
                said.setdefault(table.user_of(event.to).id, []).append(event.text)
        return {
            user_id: Reply(
                joined(lines, "\n"),
                kind="private",
                to=_user(table, user_id),
                session_id=row.id,
                version=row.version,
            )
            for user_id, lines in said.items()
        }

    # ----- a player's own view ------------------------------------------------------
    def view_reply(self, table: Loaded, seat: int, moves: list[Choice] | None = None) -> Reply:
        """A player's view with their moves (in a game with secrets; where moves are public
        they stay on the board). Its picture is drawn when it is delivered."""
        game, row = table.game, table.row
        view = game.view(table.state, seat)
        text = ViewWords(game.id, view, game.title)
        reply = Reply(
            text,
            kind="private",
            to=table.user_of(seat),
            session_id=row.id,
            version=row.version,
            choices=list(moves or []),
            brief=render.own_words(game.id, view) or "",
        )
        if self.pictures:  # its alt text is the reply's text, said once in that language
            reply.later = lambda language: self.view_picture(
                row.id, row.version, seat, view, game.id, language, text.said_in(language)
            )
        return reply

    async def view_picture(
        self,
        table: int,
        version: int,
        seat: int | None,
        view: dict,
        game_id: str,
        language: str,
        alt: str | None = None,
    ):
        """A picture of `view` (seat None: the public board) at a version, drawn once for
        every door that shows it. `alt`: its words, when they are already said."""
        name = "my-view.png" if seat is not None else f"{game_id}-{version}.png"
        key = PictureKey(table, version, seat, language)
        return await self.drawn.picture(
            key,
            lambda: draw_on(
                self.cpu, game_id, view, name, None, language, alt, canvas=(table, seat)
            ),
        )

    async def own_view(self, table: Loaded, seat: int, asker: UserRef) -> Plan:
        """`/escape hand`: the asker's view, drawn now, with their moves when they are to act
        in a game with secrets (elsewhere their moves are on the board)."""
        game = table.game
        moves: list[Choice] = []
        if game.hidden_information and seat in game.to_act(table.state):
            moves = self._moves(table, seat, prefix=False)
        reply = await self.view_reply(table, seat, moves).drawn(
            asker.language or table_language(table.row)
        )
        return Plan([reply], facts(table.row, game), asker, quiet=True)

    # ----- the lobby ----------------------------------------------------------------
    def lobby(self, row: SessionRow, game: Game, headline: Text) -> Reply:
        seated = seat_names(row.seats)
        if len(row.seats) >= game.min_players:
            need = msg(
                "Ready: any seated player may press Begin ({seated} of up to {most}).",
                seated=len(row.seats),
                most=game.max_players,
            )
        else:
            need = msg(
                "Needs {missing} more to begin ({range} players).",
                missing=game.min_players - len(row.seats),
                range=game.player_range(),
            )
        opts = ", ".join(f"{k}={v}" for k, v in row.options.items())
        table = (
            msg(
                "{game} ({options}). Seated: {seated}. {need}",
                game=title_msg(game),
                options=opts,
                seated=seated,
                need=need,
            )
            if opts
            else msg(
                "{game}. Seated: {seated}. {need}", game=title_msg(game), seated=seated, need=need
            )
        )
        lines: list[Text] = [headline, table]
        if row.clock and self.timed(row.platform):
            lines.append(msg("Clock: {clock}.", clock=deadlines.describe(row.clock, self.now())))
        choices = [
            Choice(msg("Join"), buttons.Join(row.id).data, "success"),
            Choice(msg("Leave"), buttons.Leave(row.id).data, "secondary"),
        ]
        if len(row.seats) < game.max_players:
            choices.append(Choice(msg("Add a bot"), buttons.AddBot(row.id).data, "secondary"))
        if any(s.kind == "ai" for s in row.seats):
            choices.append(Choice(msg("Remove a bot"), buttons.RemoveBot(row.id).data, "secondary"))
        if len(row.seats) >= game.min_players:
            choices.append(Choice(msg("Begin"), buttons.Begin(row.id).data, "primary"))
        text = joined(lines, "\n")
        return Reply(text, kind="lobby", choices=choices, session_id=row.id, version=row.version)

    def lobby_plan(self, row: SessionRow, game: Game, headline: Text, asker: UserRef) -> Plan:
        return Plan([self.lobby(row, game, headline)], facts(row, game), asker)

    # ----- the clock, as a board says it --------------------------------------------
    def clock_note(self, row: SessionRow) -> Text:
        """` (23h 59m left)`, or why the clock is not running; nothing where no timer runs
        (a terminal game: nobody can be reminded there)."""
        c = row.clock
        if not self.timed(row.platform):
            return ""
        left = deadlines.time_left(c, self.now())
        if c.get("paused") is not None:
            return msg(" (the table is paused; {left} left)", left=Span(left or 0, left=True))
        if c.get("warned"):
            return msg(
                " (time is up: the others may vote, {clock_vote})",
                clock_vote=command("clock", "vote"),
            )
        return msg(" ({left} left)", left=Span(left, left=True)) if left is not None else ""


class ViewWords(str):
    """A view told in words (the alt text of its picture): English as a string, and said
    in any other language where it is delivered."""

    game_id: str
    view: dict
    title: str

    def __new__(cls, game_id: str, view: dict, title: str) -> ViewWords:
        english = described(game_id, view, title, DEFAULT)
        self = super().__new__(cls, english)
        self.game_id, self.view, self.title = game_id, view, title
        self._said = {DEFAULT: english}  # said once per language: text and alt text share it
        return self

    def said_in(self, language: str) -> str:
        if language not in self._said:
            self._said[language] = described(self.game_id, self.view, self.title, language)
        return self._said[language]


def described(game_id: str, view: dict, title: str, language: str) -> str:
    try:
        return render.describe(game_id, view, language)
    except KeyError:
        return say(msg("Your view of {game}.", game=msg(title)), language)


def _user(table: Loaded, user_id: str) -> UserRef:
    seat = next(s.seat for s in table.row.seats if s.user_id == user_id)
    return table.user_of(seat)


def title_msg(game: Game) -> Msg:
    """A game's title, said in each language (its English is the catalogue's id)."""
    return msg(game.title)
