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
                    reply.text += f"\n{note}"
                reply.choices += [
                    Choice("Rematch", buttons.simple("r", row.id), "success"),
                    Choice("Replay", buttons.simple("y", row.id), "secondary"),
                ]
        return replies

    async def _rate(self, row: SessionRow, game: Game) -> str:
        why = ratings.why_unrated(row)
        if why is not None:  # (a co-operative game is never rated: it counts escapes)
            return (
                f"Not counted in the escapes: {why}." if game.cooperative else f"Not rated: {why}."
            )
        try:
            current = await self.store.ratings_of(
                row.platform, row.scope, row.game, [s.user_id for s in row.seats]
            )
            news, changes = ratings.rate(game, row, current)
            if not await self.store.save_ratings(row.id, news, changes, self.now()):
                changes = await self.store.rating_changes(row.id) or {}
        except StoreError:
            return "The ratings could not be saved just now."
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
                raise UserError(f"Nobody called {who.strip()} has finished a rated game here.")
            target = found
        else:
            target = who if isinstance(who, UserRef) else asker
        rows = await self.store.standings_of(chat.platform, chat.scope, target.id)
        if not rows:
            return Plan(
                [Reply(f"{target.name} has no finished rated game here yet.", kind="stats")]
            )
        lines = [f"{rows[0].name} on this {self.scope_word(chat.platform)}:"]
        for r in rows:
            game = REGISTRY.get(r.game)
            title = game.title if game else r.game
            if game is not None and game.cooperative:
                lines.append(f"{title}: {r.played} games, escaped {r.won}, lost {r.lost}")
            else:
                rating = ratings.shown(r.mu, r.sigma)
                lines.append(f"{title}: rating {rating:.1f}, {r.played} games, {r.won} won")
        return Plan([Reply("\n".join(lines), kind="stats")])

    async def top(self, chat: ChatRef, game_id: str | None = None) -> Plan:
        """`/escape top [game]`: this server's or group's leaderboard, as a picture."""
        if game_id:
            game = find_game(game_id)
        else:
            live = await self.store.latest_in_place(chat.platform, chat.chat, chat.thread)
            played = await self.store.rated_games_in_scope(chat.platform, chat.scope)
            pick = live.game if live is not None and live.game in played else (played or [None])[0]
            if pick is None or pick not in REGISTRY:
                raise UserError("No rated game has finished here yet: play one to the end!")
            game = REGISTRY[pick]
        rows = await self.store.leaderboard(chat.platform, chat.scope, game.id, TOP)
        where = self.scope_word(chat.platform)
        if not rows:
            return Plan([Reply(f"No game of {game.title} has finished here yet.", kind="top")])
        if game.cooperative:
            header = ["Player", "Games", "Escaped", "Lost"]
            cells = [[r.name, str(r.played), str(r.won), str(r.lost)] for r in rows]
        else:
            header = ["Player", "Rating", "Games", "Won"]
            cells = [[r.name, f"{ratings.shown(r.mu, r.sigma):.1f}", str(r.played), str(r.won)] for r in rows]  # fmt: skip
        title = f"{game.title}: the best of this {where}"
        lines = [title] + [f"{i}. " + " · ".join(c) for i, c in enumerate(cells, start=1)]
        picture = None
        if self.pictures:
            png = await self.cpu.run(animation.leaderboard_png, title, header, cells)
            picture = Picture(png, "\n".join(lines), f"top-{game.id}.png")
        return Plan([Reply("\n".join(lines), kind="top", picture=picture)])
