"""Ratings and standings: a finished game rated (OpenSkill, `ratings.py`: all time, and in
the season running on its server or group) and its final board given Replay and Rematch;
a daily castle's result put on its boards; `/escape stats` and `/escape top`."""

from __future__ import annotations

from bot.service.base import buttons
from bot.service.base.command_words import GAME
from bot.service.base.delivery_plan import Choice, Plan, Reply
from bot.service.base.platform_input import whole
from bot.service.base.requests import ChatRef, UserError, UserRef
from bot.service.pictures.workers import CpuPool
from bot.service.records import boards, ratings
from bot.service.records.daily_boards import DailyBoards
from bot.service.records.seasons import heading
from bot.service.tables.lobby import find_game
from bot.store import SessionRow, StaleVersion, Store, StoreError
from engines import REGISTRY, Game
from engines.text import Text, command, joined, msg, plural

TOP = 10
SEASON_TRIES = 3  # a season that ends while a game is rated: the game is rated again
# `/escape top GAME WHICH`: the season and all time (default), one of them, a past season,
# or the daily castle's boards
WHICH = ("all", "season", "daily", "month")


class Standings:
    def __init__(self, store: Store, cpu: CpuPool, *, pictures: bool, clock, scope_word) -> None:
        self.store = store
        self.cpu = cpu
        self.pictures = pictures
        self.now = clock
        self.scope_word = scope_word  # what a front end calls a scope ("server", "group")
        self.daily = DailyBoards(store, cpu, pictures=pictures, clock=clock, scope_word=scope_word)

    async def finish(self, row: SessionRow, game: Game, replies: Plan) -> Plan:
        """A game just ended by its rules: rate it, and give the final board its Replay and
        Rematch buttons and the rating changes."""
        note = await self._rate(row, game)
        try:
            daily = await self.daily.record(row, game)
        except StoreError:
            daily = msg("The daily castle's result could not be saved just now.")
        for reply in replies:
            if reply.kind == "board" and reply.final:
                if note or daily:
                    reply.text = joined([t for t in (reply.text, note, daily) if t], "\n")
                reply.choices += [
                    Choice(msg("Rematch"), buttons.Rematch(row.id).data, "success"),
                    Choice(msg("Replay"), buttons.Replay(row.id).data, "secondary"),
                    Choice(msg("Review"), buttons.Review(row.id).data, "secondary"),
                ]
        return replies

    async def _rate(self, row: SessionRow, game: Game) -> Text:
        why = ratings.why_unrated(row)
        if why is not None:  # (a co-operative game is never rated: it counts escapes)
            if game.cooperative:
                return msg("Not counted in the escapes: {why}.", why=why)
            return msg("Not rated: {why}.", why=why)
        users = [s.user_id for s in row.seats]
        try:
            for _ in range(SEASON_TRIES):
                current = await self.store.ratings_of(row.platform, row.scope, row.game, users)
                news, changes = ratings.rate(game, row, current)
                season = await self.store.running_season(row.platform, row.scope)
                in_season = None
                if season is not None:
                    before = await self.store.season_ratings_of(
                        row.platform, row.scope, season.number, row.game, users
                    )
                    in_season = (season.number, ratings.rate(game, row, before)[0])
                try:
                    saved = await self.store.save_ratings(
                        row.id, news, changes, self.now(), in_season
                    )
                except StaleVersion:
                    continue  # the season ended meanwhile: rated in the one running now
                break
            else:
                saved = await self.store.save_ratings(row.id, news, changes, self.now())
            if not saved:
                changes = await self.store.rating_changes(row.id) or {}
        except StoreError:
            return msg("The ratings could not be saved just now.")
        return ratings.describe_changes(row, changes, game)

    # ----- ratings and leaderboards ----------------------------------------------------
    async def stats(self, chat: ChatRef, asker: UserRef, who: UserRef | str | None = None) -> Plan:
        """`/escape stats [@player]`: a player's standing in each game on this server or
        group, all time and in the season running (a user, or a name as shown in games
        here; default: the asker)."""
        if isinstance(who, str) and who.strip():
            target = await self._named(chat, who.strip())
        else:
            target = who if isinstance(who, UserRef) else asker
        rows = await self.store.standings_of(chat.platform, chat.scope, target.id)
        if not rows:
            return Plan(
                [
                    Reply(
                        msg("{name} has no finished rated game here yet.", name=target.name),
                        kind="stats",
                    )
                ]
            )
        season = await self.store.running_season(chat.platform, chat.scope)
        in_season = {}
        if season is not None:
            found = await self.store.season_standings_of(
                chat.platform, chat.scope, season.number, target.id
            )
            in_season = {r.game: r for r in found}
        lines: list[Text] = [
            msg("{name} on this {scope}:", name=rows[0].name, scope=self.scope_word(chat.platform))
        ]
        for r in rows:
            game = REGISTRY.get(r.game)
            line = _standing(game, r)
            if season is not None:
                s = in_season.get(r.game)
                now = _standing(game, s) if s is not None else msg("no game yet")
                line = msg(
                    "{all_time}; season {number}: {season}",
                    all_time=line,
                    number=season.number,
                    season=now,
                )
            lines.append(
                msg("{game}: {standing}", game=msg(game.title) if game else r.game, standing=line)
            )
        return Plan([Reply(joined(lines, "\n"), kind="stats")])

    async def _named(self, chat: ChatRef, who: str) -> UserRef:
        wanted = who.lstrip("@").lower()
        for game_id in await self.store.rated_games_in_scope(chat.platform, chat.scope):
            for r in await self.store.leaderboard(chat.platform, chat.scope, game_id, 1000):
                if r.name.lower() == wanted or r.user_id == who:
                    return UserRef(chat.platform, r.user_id, r.name)
        raise UserError(msg("Nobody called {strip} has finished a rated game here.", strip=who))

    async def top(
        self, chat: ChatRef, game_id: str | None = None, which: str | None = None
    ) -> Plan:
        """`/escape top [game] [which]`: this server's or group's leaderboard, as a picture:
        the season running and all time (or `all`, `season`, `season N`), or the daily
        castle's boards (`daily [YYYY-MM-DD]`, `month [YYYY-MM]`)."""
        words = (which or "").lower().split()
        if game_id and game_id.strip().lower() in WHICH:  # `/escape top daily`: no game named
            words, game_id = [game_id.strip().lower(), *words], None
        board, rest = (words[0], words[1:]) if words else ("", [])
        if board and (board not in WHICH or len(rest) > 1):
            raise UserError(
                msg(
                    "Which board? {top} with all, season, season 2, daily or month.",
                    top=command("top", GAME),
                )
            )
        if board in ("daily", "month"):
            if game_id and find_game(game_id).id != "dark_castle":
                raise UserError(
                    msg(
                        "Only Dark Castle has a daily castle: {top_dark_castle}.",
                        top_dark_castle=command("top", "dark_castle", "daily"),
                    )
                )
            return await self.daily.board(chat, board, rest[0] if rest else None)
        game = find_game(game_id) if game_id else await self._played_here(chat)
        return await self._rated(chat, game, board, rest[0] if rest else None)

    async def _played_here(self, chat: ChatRef) -> Game:
        live = await self.store.latest_in_place(chat.platform, chat.chat, chat.thread)
        played = await self.store.rated_games_in_scope(chat.platform, chat.scope)
        pick = live.game if live is not None and live.game in played else (played or [None])[0]
        if pick is None or pick not in REGISTRY:
            raise UserError(msg("No rated game has finished here yet: play one to the end!"))
        return REGISTRY[pick]

    async def _rated(self, chat: ChatRef, game: Game, board: str, number: str | None) -> Plan:
        where = self.scope_word(chat.platform)
        season = await self.store.running_season(chat.platform, chat.scope)
        if number is not None:
            named = whole(number, 1, 999_999)
            if named is None:
                raise UserError(msg("A season is named by its number, like season 2."))
            season = await self.store.season(chat.platform, chat.scope, named)
            if season is None:
                raise UserError(
                    msg("This {scope} has had no season {number}.", scope=where, number=number)
                )
        elif board == "season" and season is None:
            raise UserError(msg("No season is running here ({season}).", season=command("season")))
        sections: list[boards.Board] = []
        if season is not None and board in ("", "season"):
            rows = await self.store.season_leaderboard(
                chat.platform, chat.scope, season.number, game.id, TOP
            )
            empty = msg(
                "No game of {title} has finished in this season yet.", title=msg(game.title)
            )
            sections.append(
                boards.Board(heading(season), boards.header(game), boards.cells(game, rows), empty)
            )
        if board in ("", "all"):
            rows = await self.store.leaderboard(chat.platform, chat.scope, game.id, TOP)
            if not rows and not sections:
                return Plan(
                    [
                        Reply(
                            msg("No game of {title} has finished here yet.", title=msg(game.title)),
                            kind="top",
                        )
                    ]
                )
            empty = msg("No game of {title} has finished here yet.", title=msg(game.title))
            sections.append(
                boards.Board(
                    msg("All time") if sections else "",
                    boards.header(game),
                    boards.cells(game, rows),
                    empty,
                )
            )
        title = msg("{game}: the best of this {scope}", game=msg(game.title), scope=where)
        later = (
            boards.drawing(self.cpu, title, sections, f"top-{game.id}.png")
            if self.pictures
            else None
        )
        return Plan([Reply(boards.as_text(title, sections), kind="top", later=later)])


def _standing(game: Game | None, r) -> Text:
    if game is not None and game.cooperative:
        return plural(
            "{count} game, escaped {won}, lost {lost}",
            "{count} games, escaped {won}, lost {lost}",
            r.played,
            won=r.won,
            lost=r.lost,
        )
    return plural(
        "rating {rating}, {count} game, {won} won",
        "rating {rating}, {count} games, {won} won",
        r.played,
        rating=f"{ratings.shown(r.mu, r.sigma):.1f}",
        won=r.won,
    )
