"""The table's memory: replays, history, full logs, ratings, rematch, undo and watching.

A mixin of `GameService` (like `TableClock`): the commands and buttons of these features
come here; the pure parts live in `replay.py` (frames and log pages), `ratings.py`
(OpenSkill) and `undo.py` (when a move may be taken back), the pictures in
`render/animation.py` and the SQL in `bot/store/memory.py`.
"""

from __future__ import annotations

from collections import OrderedDict
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from bot.service import buttons, ratings, undo
from bot.service import clock as clocks
from bot.service import replay as replays
from bot.service.bots import table_level
from bot.service.replies import ChatRef, Choice, Picture, Reply, UserError, UserRef
from bot.store import SessionRow, StaleVersion, StoreError, UndoRequest
from engines import REGISTRY, Event, Game
from render import animation

if TYPE_CHECKING:
    from bot.service.game_service import GameService

HISTORY_PAGE = 5  # games a page: two buttons each stay within Discord's 25 components
TOP = 10
REPLAY_CACHE = 8  # animations kept per process (a few MB each at most)


def _title(row: SessionRow) -> str:
    return REGISTRY[row.game].title if row.game in REGISTRY else row.game


def _replay_gif(game_id: str, frames: list[animation.Frame]) -> tuple[bytes, int]:
    return animation.replay_gif(game_id, frames)


def _chat(row: SessionRow) -> ChatRef:
    return ChatRef(row.platform, row.chat, row.thread, row.scope)


def _date(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d")


def _span(seconds: float) -> str:
    if seconds >= clocks.DAY:
        return f"{seconds / clocks.DAY:.0f} d"
    if seconds >= clocks.HOUR:
        return f"{seconds / clocks.HOUR:.0f} h"
    return f"{max(1, round(seconds / 60))} min"


class TableMemory:
    # ----- finding a game -----------------------------------------------------------
    async def _recall(self: GameService, chat: ChatRef, which: str | None) -> SessionRow:
        """`#12` or `12`: that game, if it was played on this server or group; nothing:
        the game here (running or last ended), else the last game ended in this chat."""
        store = self.store
        if which and which.strip().lstrip("#").isdigit():
            row = await store.session(int(which.strip().lstrip("#")))
            if row is None or row.platform != chat.platform or row.scope != chat.scope:
                raise UserError(f"There is no game {which.strip()} here: /escape history.")
            if row.status == "lobby":
                raise UserError("That game has not begun yet.")
            return row
        if which and which.strip():
            raise UserError("Name a game by its number, like /escape replay 12 (/escape history lists them).")  # fmt: skip
        row = await store.latest_in_place(chat.platform, chat.chat, chat.thread)
        if row is None:
            ended = await store.ended_in_chat(chat.platform, chat.chat, 1)
            row = ended[0] if ended else None
        if row is None:
            raise UserError("No game has been played here yet. Start one with /escape start GAME.")
        return row

    async def _steps(self: GameService, row: SessionRow) -> tuple[Game, list[replays.Step]]:
        game = REGISTRY.get(row.game)
        if game is None:
            raise UserError(f"This bot no longer has the game {row.game!r}.")
        return game, replays.steps(game, row, await self.store.log(row.id))

    # ----- replay -------------------------------------------------------------------
    async def replay(self: GameService, chat: ChatRef, which: str | None = None) -> list[Reply]:
        """The whole game so far as one animated picture, with a button to page through it."""
        row = await self._recall(chat, which)
        game, steps = await self._steps(row)
        moves = len(steps) - 1
        where = "so far" if row.status == "active" else ""
        text = f"Replay of #{row.id}, {game.title} {where}".rstrip() + f": {moves} moves."
        picture = None
        if self._pictures:
            frames = [(s.view, s.heading, s.caption) for s in steps]
            cache = self.__dict__.setdefault("_replays", OrderedDict())
            key = (row.id, row.version)
            if key not in cache:  # a finished game's replay is asked for again and again
                cache[key] = await self.cpu.run(_replay_gif, game.id, frames)
                while len(cache) > REPLAY_CACHE:
                    cache.popitem(last=False)
            data, shown = cache[key]
            if shown < len(frames):
                text += f" (A long game: it shows one board in {-(-len(frames) // shown)}; Step through shows them all.)"  # fmt: skip
            alt = f"An animation of the {len(frames)} public boards of game #{row.id} of {game.title}, each with its move written under it."  # fmt: skip
            picture = Picture(data, alt, f"replay-{row.id}.gif")
        choices = [Choice("Step through", buttons.paged("p", row.id, 0), "primary")]
        return [Reply(text, kind="replay", picture=picture, choices=choices)]

    async def replay_page(self: GameService, row: SessionRow, page: int) -> list[Reply]:
        """One board of a replay, with Previous / Next."""
        game, steps = await self._steps(row)
        page = max(0, min(page, len(steps) - 1))
        step = steps[page]
        text = f"#{row.id} {game.title}, board {page + 1} of {len(steps)}. {step.heading}."
        if step.caption:
            text += f"\n{step.caption}"
        picture = None
        if self._pictures:
            png = await self.cpu.run(animation.frame_png, game.id, (step.view, step.heading, step.caption))  # fmt: skip
            picture = Picture(png, f"Board {page + 1} of game #{row.id}: {step.caption or step.heading}", f"replay-{row.id}-{page}.png")  # fmt: skip
        choices = []
        if page > 0:
            choices.append(Choice("Previous", buttons.paged("p", row.id, page - 1)))
        if page < len(steps) - 1:
            choices.append(Choice("Next", buttons.paged("p", row.id, page + 1), "primary"))
        return [Reply(text, kind="replay", picture=picture, choices=choices)]

    # ----- history and logs -----------------------------------------------------------
    async def ended_games(self: GameService, chat: ChatRef, page: int = 0) -> list[Reply]:
        """`/escape history`: the games that ended in this channel or group, newest first."""
        total = await self.store.count_ended_in_chat(chat.platform, chat.chat)
        page = max(0, min(page, max(0, (total - 1) // HISTORY_PAGE)))
        rows = await self.store.ended_in_chat(
            chat.platform, chat.chat, HISTORY_PAGE, page * HISTORY_PAGE
        )
        if not rows:
            return [Reply("No game has ended here yet.", kind="history")]
        lines = [f"Games played here ({total}), newest first:"]
        choices: list[Choice] = []
        for row in rows:
            lines.append(await self._history_line(row))
            choices.append(Choice(f"Replay #{row.id}", buttons.simple("y", row.id)))
            choices.append(Choice(f"Log #{row.id}", buttons.paged("n", row.id, 0)))
        pages = -(-total // HISTORY_PAGE)
        if page > 0:
            choices.append(Choice("Newer", buttons.paged("h", rows[0].id, page - 1)))
        if page < pages - 1:
            choices.append(Choice("Older", buttons.paged("h", rows[0].id, page + 1), "primary"))
        if pages > 1:
            lines.append(f"Page {page + 1} of {pages}.")
        return [Reply("\n".join(lines), kind="history", choices=choices)]

    async def _history_line(self: GameService, row: SessionRow) -> str:
        players = ", ".join(s.name for s in row.seats)
        entries = await self.store.log(row.id)
        moves = sum(1 for e in entries if e.seat >= 0 and not e.undone)
        if row.status == "finished" and row.result:
            first = (row.result.get("ranking") or [[]])[0]
            game = REGISTRY.get(row.game)
            if game is not None and game.cooperative:
                escaped = any(v > 0 for v in (row.result.get("scores") or {}).values())
                outcome = "escaped" if escaped else "lost together"
            elif len(first) > 1:
                outcome = "tie: " + ", ".join(
                    row.seats[s].name for s in first if s < len(row.seats)
                )
            else:
                outcome = "won by " + ", ".join(
                    row.seats[s].name for s in first if s < len(row.seats)
                )
        else:
            outcome = "ended unfinished"
        length = _span(row.updated_at - row.created_at)
        return f"#{row.id} {_title(row)}: {players}; {outcome}; {_date(row.updated_at)}; {moves} moves over {length}"

    async def game_log(
        self: GameService,
        chat: ChatRef,
        user: UserRef,
        which: str | None = None,
        page: int | None = None,
    ) -> list[Reply]:
        """`/escape log`: the running game's recent log as before; an ended game's (or a
        named game's) whole public log, a page at a time."""
        if not which:
            live = await self._live_row(chat)
            if live is not None and live.status != "lobby":
                return await self.history(chat, user)
        row = await self._recall(chat, which)
        return await self.log_page(row, page)

    async def log_page(self: GameService, row: SessionRow, page: int | None) -> list[Reply]:
        lines = replays.log_lines(await self.store.log(row.id))
        shown, page, pages = replays.page_of(lines, page)
        head = f"Log of #{row.id}, {_title(row)} (page {page + 1} of {pages}):"
        choices = []
        if page > 0:
            choices.append(Choice("Previous", buttons.paged("n", row.id, page - 1)))
        if page < pages - 1:
            choices.append(Choice("Next", buttons.paged("n", row.id, page + 1), "primary"))
        return [Reply("\n".join([head, *shown]) if shown else head + "\nNothing happened.", kind="log", choices=choices)]  # fmt: skip

    # ----- buttons ------------------------------------------------------------------
    async def press_memory(
        self: GameService, chat: ChatRef, user: UserRef, button: buttons.Button, row: SessionRow
    ) -> list[Reply]:
        """The memory's buttons; `row` is the session the button names, in this chat."""
        if row.status == "lobby":
            raise UserError("That game has not begun yet.")
        if button.kind == "y":
            return await self.replay(chat, str(row.id))
        if button.kind == "p":
            return await self.replay_page(row, button.index or 0)
        if button.kind == "n":
            return await self.log_page(row, button.index or 0)
        if button.kind == "h":
            return await self.ended_games(chat, button.index or 0)
        if button.kind == "r":
            return await self.rematch(row, user)
        if button.kind == "u":
            return await self.answer_undo(row, user, button.version or 0, True)
        if button.kind == "d":
            return await self.answer_undo(row, user, button.version or 0, False)
        raise UserError("That button is not one of ours; use the buttons under the latest board.")

    # ----- the end of a game: ratings, replay and rematch ---------------------------
    async def _on_finish(self: GameService, row: SessionRow, game: Game, replies: list[Reply]) -> list[Reply]:  # fmt: skip
        """A game just ended by its rules: rate it, and give the final board its Replay and
        Rematch buttons and the rating changes."""
        note = await self._rate(row, game)
        for reply in replies:
            if reply.kind == "board" and reply.final:
                if note:
                    reply.text += f"\n{note}"
                reply.choices += [
                    Choice("Rematch", buttons.simple("r", row.id), "success"),
                    Choice("Replay", buttons.simple("y", row.id), "secondary"),
                ]
        return replies

    async def _rate(self: GameService, row: SessionRow, game: Game) -> str:
        why = ratings.why_unrated(row)
        if why is not None:
            return f"Not rated: {why}."
        try:
            current = await self.store.ratings_of(
                row.platform, row.scope, row.game, [s.user_id for s in row.seats]
            )
            news, changes = ratings.rate(game, row, current)
            if not await self.store.save_ratings(row.id, news, changes, self._clock()):
                changes = await self.store.rating_changes(row.id) or {}
        except StoreError:
            return "The ratings could not be saved just now."
        return ratings.describe_changes(row, changes, game)

    async def rematch(self: GameService, row: SessionRow, user: UserRef) -> list[Reply]:
        """Rematch: the first press opens a table with the same game and options, seated
        with the presser; each player's press takes their seat; once every player of the
        old game sits, it begins (others may join the lobby as usual meanwhile)."""
        if row.status != "finished":
            raise UserError("A rematch is offered once a game has ended by its rules.")
        players = [s for s in row.seats if s.kind == "human"]
        if user.id not in {s.user_id for s in players}:
            raise UserError("Only the players of that game can ask for its rematch; press Join on the new table instead.")  # fmt: skip
        chat = _chat(row)
        live = await self._live_row(chat)
        if live is not None and (live.status != "lobby" or live.game != row.game):
            raise UserError("Another game is already going on here; the rematch waits until it ends.")  # fmt: skip
        if live is None:
            options = dict(row.options)
            for name in ("pace", "timeout"):
                if name in row.clock:
                    options[name] = str(row.clock[name])
            pace = clocks.PACES.get(row.clock.get("pace", ""))
            if pace is not None and row.clock.get("turn", pace.turn) != pace.turn:
                options["turn"] = f"{int(row.clock['turn'])}s"
            bots = [s for s in row.seats if s.user_id.startswith("ai:")]
            if bots and len(players) == 1:  # alone against bots: the same bots, at once
                options |= {"bots": str(len(bots)), "level": table_level(row)}
            replies = await self.start(chat, user, row.game, options)
        elif any(s.user_id == user.id for s in live.seats):
            raise UserError("You already have a seat at the rematch; waiting for the others.")
        else:
            replies = await self.join(chat, user)
        live = await self._live_row(chat)
        if live is None or live.status != "lobby":
            return replies  # it began (a full table, or a game for one)
        seated = {s.user_id for s in live.seats}
        missing = [s.name for s in players if s.user_id not in seated]
        if not missing and len(players) == len(row.seats):
            return await self.begin(chat, user)
        if not missing:  # the bots of a table of several players are added again by hand
            for reply in replies:
                if reply.kind == "lobby":
                    reply.text = f"Rematch of #{row.id}: everyone is back; add the bots again (Add a bot) and press Begin.\n{reply.text}"  # fmt: skip
            return replies
        for reply in replies:
            if reply.kind == "lobby":  # its own Rematch button: a pressed board may lose its own
                reply.text = f"Rematch of #{row.id}: waiting for {', '.join(missing)} (press Rematch).\n{reply.text}"  # fmt: skip
                reply.choices.insert(0, Choice("Rematch", buttons.simple("r", row.id), "success"))
        return replies

    # ----- ratings and leaderboards ----------------------------------------------------
    async def stats(
        self: GameService, chat: ChatRef, asker: UserRef, who: UserRef | str | None = None
    ) -> list[Reply]:
        """`/escape stats [@player]`: a player's standing in each game on this server or
        group (a user, or a name as shown in games here; default: the asker)."""
        if isinstance(who, str) and who.strip():
            wanted = who.strip().lstrip("@").lower()
            found = None
            for game_id in await self.store.rated_games_in_scope(chat.platform, chat.scope):
                for r in await self.store.leaderboard(chat.platform, chat.scope, game_id, 1000):
                    if r.name.lower() == wanted or r.user_id == who.strip():
                        found = UserRef(chat.platform, r.user_id, r.name)
                        break
                if found:
                    break
            if found is None:
                raise UserError(f"Nobody called {who.strip()} has finished a rated game here.")
            target = found
        else:
            target = who if isinstance(who, UserRef) else asker
        rows = await self.store.standings_of(chat.platform, chat.scope, target.id)
        if not rows:
            return [Reply(f"{target.name} has no finished rated game here yet.", kind="stats")]
        lines = [f"{rows[0].name} on this {'server' if chat.platform == 'discord' else 'group'}:"]
        for r in rows:
            game = REGISTRY.get(r.game)
            title = game.title if game else r.game
            if game is not None and game.cooperative:
                lines.append(f"{title}: {r.played} games, escaped {r.won}, lost {r.lost}")
            else:
                rating = ratings.shown(r.mu, r.sigma)
                lines.append(f"{title}: rating {rating:.1f}, {r.played} games, {r.won} won")
        return [Reply("\n".join(lines), kind="stats")]

    async def top(self: GameService, chat: ChatRef, game_id: str | None = None) -> list[Reply]:
        """`/escape top [game]`: this server's or group's leaderboard, as a picture."""
        if game_id:
            game = self.game(game_id)
        else:
            live = await self.store.latest_in_place(chat.platform, chat.chat, chat.thread)
            played = await self.store.rated_games_in_scope(chat.platform, chat.scope)
            pick = live.game if live is not None and live.game in played else (played or [None])[0]
            if pick is None or pick not in REGISTRY:
                raise UserError("No rated game has finished here yet: play one to the end!")
            game = REGISTRY[pick]
        rows = await self.store.leaderboard(chat.platform, chat.scope, game.id, TOP)
        where = "server" if chat.platform == "discord" else "group"
        if not rows:
            return [Reply(f"No game of {game.title} has finished here yet.", kind="top")]
        if game.cooperative:
            header = ["Player", "Games", "Escaped", "Lost"]
            cells = [[r.name, str(r.played), str(r.won), str(r.lost)] for r in rows]
        else:
            header = ["Player", "Rating", "Games", "Won"]
            cells = [[r.name, f"{ratings.shown(r.mu, r.sigma):.1f}", str(r.played), str(r.won)] for r in rows]  # fmt: skip
        title = f"{game.title}: the best of this {where}"
        lines = [title] + [f"{i}. " + " · ".join(c) for i, c in enumerate(cells, start=1)]
        picture = None
        if self._pictures:
            png = await self.cpu.run(animation.leaderboard_png, title, header, cells)
            picture = Picture(png, "\n".join(lines), f"top-{game.id}.png")
        return [Reply("\n".join(lines), kind="top", picture=picture)]

    # ----- undo by agreement ----------------------------------------------------------
    async def ask_undo(self: GameService, chat: ChatRef, user: UserRef) -> list[Reply]:
        """`/escape undo`: ask to take back your last move; every other human player must
        accept before the next player acts (the table's reaction time; silence declines)."""
        row = await self._active(chat)
        async with self._lock(row.id):
            row = await self.store.session(row.id)
            if row is None or row.status != "active":
                raise UserError("That game is not running any more.")
            loaded = self._load(row)
            seat = loaded.seat_of(user)
            if seat is None:
                raise UserError(self._not_a_player(loaded))
            entries = await self.store.log(row.id)
            target = undo.check(loaded.game, row, entries, seat)
            others = [s for s in row.seats if s.kind == "human" and s.user_id != user.id]
            if not others:
                return await self._take_back(row, loaded.game, entries, target, user)
            request = UndoRequest(row.id, row.version, target.n, seat, user.id, [], self._clock())
            await self.store.put_undo_request(request)
        minutes = undo.timeout(row) / 60
        wait = f"{minutes:.0f} minutes" if minutes < 120 else f"{minutes / 60:.0f} hours"
        text = (
            f"{user.name} asks to take back their last move ({undo.label(target)}). "
            f"{', '.join(s.name for s in others)}: accept or decline within {wait} "
            "(no answer declines; any move first ends the request)."
        )
        choices = [
            Choice("Accept undo", buttons.paged("u", row.id, row.version), "success"),
            Choice("Decline", buttons.paged("d", row.id, row.version), "danger"),
        ]
        return [Reply(text, kind="info", choices=choices, mention=[UserRef(row.platform, s.user_id, s.name) for s in others])]  # fmt: skip

    async def answer_undo(
        self: GameService, row: SessionRow, user: UserRef, version: int, accept: bool
    ) -> list[Reply]:
        async with self._lock(row.id):
            row = await self.store.session(row.id)
            request = await self.store.undo_request(row.id) if row else None
            if row is None or request is None or request.version != version:
                raise UserError("That undo request is no longer open.")
            if row.version != request.version or row.status != "active":
                await self.store.drop_undo_request(row.id)
                raise UserError("The game has moved on, so the move can no longer be taken back.")  # fmt: skip
            asker = next((s for s in row.seats if s.user_id == request.user_id), None)
            others = [s for s in row.seats if s.kind == "human" and s.user_id != request.user_id]
            if user.id not in {s.user_id for s in others}:
                raise UserError("Only the other players of this game answer an undo request.")
            if self._clock() > request.asked_at + undo.timeout(row):
                await self.store.drop_undo_request(row.id)
                raise UserError("That undo request timed out, which counts as declined.")
            name = asker.name if asker else "the player"
            if not accept:
                await self.store.drop_undo_request(row.id)
                return [Reply(f"{user.name} declines; {name}'s move stands.", kind="info")]
            accepted = sorted({*request.accepted, user.id})
            if len(accepted) < len(others):
                if not await self.store.accept_undo(row.id, version, accepted):
                    raise UserError("That undo request is no longer open.")
                waiting = ", ".join(s.name for s in others if s.user_id not in accepted)
                return [Reply(f"{user.name} accepts the undo; waiting for {waiting}.", kind="info")]  # fmt: skip
            entries = await self.store.log(row.id)
            game = self._load(row).game
            target = undo.check(game, row, entries, request.seat)
            if target.n != request.n:
                raise UserError("The game has moved on, so the move can no longer be taken back.")  # fmt: skip
            asker_ref = UserRef(row.platform, request.user_id, name)
            return await self._take_back(row, game, entries, target, asker_ref)

    async def _take_back(self: GameService, row: SessionRow, game: Game, entries, target, user: UserRef) -> list[Reply]:  # fmt: skip
        state = undo.state_without(game, row, entries, target.n)
        clock = self._next_clock(row, game, state)
        note = f"By agreement, {user.name}'s move ({undo.label(target)}) is taken back."
        try:
            await self.store.undo_move(
                row.id, row.version, target.n, game.dump(state), clock, clock.get("deadline"),
                clocks.next_wake(clock), note, self._clock(),
            )  # fmt: skip
        except StaleVersion as exc:
            raise UserError("The game has moved on, so the move can no longer be taken back.") from exc  # fmt: skip
        from bot.service.game_service import Loaded  # (a mixin of it: imported when used)

        row = await self.store.session(row.id)
        return [await self._board_reply(Loaded(row, game, state), [Event(note)], None)]

    # ----- watching ---------------------------------------------------------------
    async def watch_note(self: GameService, chat: ChatRef, viewer: UserRef | None) -> list[Reply]:
        """`/escape board` asked by someone who does not play: say so, offer the replay."""
        if viewer is None:
            return []
        row = await self._live_row(chat)
        if row is None or row.status != "active" or any(s.user_id == viewer.id for s in row.seats):
            return []
        players = ", ".join(s.name for s in row.seats)
        # said in the chat, not privately: a Telegram user may never have opened the bot's
        # private chat, and the replay button works only in the game's chat
        return [
            Reply(
                f"{viewer.name}, you are watching: you do not play in this game (players: {players}). Boards are public; the replay shows the game so far.",
                kind="info", choices=[Choice("Replay so far", buttons.simple("y", row.id))],
            )
        ]  # fmt: skip
