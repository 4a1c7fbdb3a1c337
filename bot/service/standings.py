"""Ratings and standings: a finished game rated (OpenSkill, `ratings.py`) and its final
board given Replay and Rematch; `/escape stats` and `/escape top`."""

from __future__ import annotations

from bot.service import buttons, ratings
from bot.service.lobby import find_game
from bot.service.plan import Choice, Picture, Plan, Reply
from bot.service.requests import ChatRef, UserError, UserRef
from bot.service.workers import CpuPool
from bot.store import SessionRow, Store, StoreError
from engines import REGISTRY, Game
from engines.text import Text, joined, msg
from languages import say
from render import animation

TOP = 10


class Standings:
    def __init__(self, store: Store, cpu: CpuPool, *, pictures: bool, clock, scope_word) -> None:
        self.store = store
        self.cpu = cpu
        self.pictures = pictures
        self.now = clock
        self.scope_word = scope_word  # what a front end calls a scope ("server", "group")

    async def finish(self, row: SessionRow, game: Game, replies: Plan) -> Plan:
        """A game just ended by its rules: rate it, and give the final board its Replay and
        Rematch buttons and the rating changes."""
        note = await self._rate(row, game)
        for reply in replies:
            if reply.kind == "board" and reply.final:
                if note:
                    reply.text = joined([reply.text, note], "\n")
                reply.choices += [
                    Choice(msg("Rematch"), buttons.simple("r", row.id), "success"),
                    Choice(msg("Replay"), buttons.simple("y", row.id), "secondary"),
                    Choice(msg("Review"), buttons.simple("w", row.id), "secondary"),
                ]
        return replies

    async def _rate(self, row: SessionRow, game: Game) -> Text:
        why = ratings.why_unrated(row)
        if why is not None:  # (a co-operative game is never rated: it counts escapes)
            if game.cooperative:
                return msg("Not counted in the escapes: {why}.", why=why)
            return msg("Not rated: {why}.", why=why)
        try:
            current = await self.store.ratings_of(
                row.platform, row.scope, row.game, [s.user_id for s in row.seats]
            )
            news, changes = ratings.rate(game, row, current)
            if not await self.store.save_ratings(row.id, news, changes, self.now()):
                changes = await self.store.rating_changes(row.id) or {}
        except StoreError:
            return msg("The ratings could not be saved just now.")
        return ratings.describe_changes(row, changes, game)

    # ----- ratings and leaderboards ----------------------------------------------------
    async def stats(self, chat: ChatRef, asker: UserRef, who: UserRef | str | None = None) -> Plan:
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
                raise UserError(
                    msg("Nobody called {strip} has finished a rated game here.", strip=who.strip())
                )
            target = found
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
        lines: list[Text] = [msg("{name} on this {scope}:", name=rows[0].name, scope=self.scope_word(chat.platform))]  # fmt: skip
        for r in rows:
            game = REGISTRY.get(r.game)
            title = msg(game.title) if game else r.game
            if game is not None and game.cooperative:
                lines.append(msg("{game}: {played} games, escaped {won}, lost {lost}", game=title, played=r.played, won=r.won, lost=r.lost))  # fmt: skip
            else:
                rating = f"{ratings.shown(r.mu, r.sigma):.1f}"
                lines.append(msg("{game}: rating {rating}, {played} games, {won} won", game=title, rating=rating, played=r.played, won=r.won))  # fmt: skip
        return Plan([Reply(joined(lines, "\n"), kind="stats")])

    async def top(self, chat: ChatRef, game_id: str | None = None, language: str = "en") -> Plan:
        """`/escape top [game]`: this server's or group's leaderboard, as a picture."""
        if game_id:
            game = find_game(game_id)
        else:
            live = await self.store.latest_in_place(chat.platform, chat.chat, chat.thread)
            played = await self.store.rated_games_in_scope(chat.platform, chat.scope)
            pick = live.game if live is not None and live.game in played else (played or [None])[0]
            if pick is None or pick not in REGISTRY:
                raise UserError(msg("No rated game has finished here yet: play one to the end!"))
            game = REGISTRY[pick]
        rows = await self.store.leaderboard(chat.platform, chat.scope, game.id, TOP)
        where = self.scope_word(chat.platform)
        if not rows:
            return Plan(
                [
                    Reply(
                        msg("No game of {title} has finished here yet.", title=msg(game.title)),
                        kind="top",
                    )
                ]
            )
        if game.cooperative:
            header = [msg("Player"), msg("Games"), msg("Escaped"), msg("Lost")]
            cells = [[r.name, str(r.played), str(r.won), str(r.lost)] for r in rows]
        else:
            header = [msg("Player"), msg("Rating"), msg("Games"), msg("Won")]
            cells = [[r.name, f"{ratings.shown(r.mu, r.sigma):.1f}", str(r.played), str(r.won)] for r in rows]  # fmt: skip
        title = msg("{game}: the best of this {scope}", game=msg(game.title), scope=where)
        lines: list[Text] = [title] + [f"{i}. " + " · ".join(c) for i, c in enumerate(cells, start=1)]  # fmt: skip
        text = joined(lines, "\n")
        picture = None
        if self.pictures:
            said = [say(h, language) for h in header]
            png = await self.cpu.run(animation.leaderboard_png, say(title, language), said, cells)
            picture = Picture(png, say(text, language), f"top-{game.id}.png", language)
        return Plan([Reply(text, kind="top", picture=picture)])
