"""A tournament on the web board: its standings and every round's tables, each with its
result and the address of its table's page. What it shows is the chat's own: its players
and the members of its chat see it (`Access.tournament_watcher`); anyone else hears that
there is no such tournament, the same words a number that names none gets."""

from __future__ import annotations

from bot.service.base.requests import ChatRef, UserError
from bot.service.community.tournaments import words
from bot.service.community.tournaments.rounds import LIVE, Rounds, played_at
from bot.service.community.tournaments.scores import game_points, shown
from bot.service.tables.access import NO_TOURNAMENT, Access, Visitor
from bot.service.tables.table import title_of
from bot.store import Store
from engines.text import msg
from languages import say

STATUS = {
    "lobby": msg("opening"),
    "active": msg("being played"),
    "finished": msg("over"),
    "aborted": msg("ended before its end"),
}


class TournamentPage:
    def __init__(self, store: Store, rounds: Rounds, access: Access) -> None:
        self.store = store
        self.rounds = rounds
        self.access = access

    async def page(self, tournament_id: int, visitor: Visitor, language: str) -> dict:
        """The whole page as its viewer may see it, said in `language`."""
        t = await self.store.tournament(tournament_id)
        if t is None:
            raise UserError(NO_TOURNAMENT, reason="no_table")
        entrants = await self.store.entrants(t.id)
        home = ChatRef(t.platform, t.chat, t.thread, t.scope)
        standing = await self.access.tournament_watcher(
            home, {e.user_id for e in entrants}, visitor
        )
        you = visitor.user.id if visitor.user is not None else None
        names = {e.user_id: e.name for e in entrants}
        lines = await self.rounds.lines(t)
        pairings = await self.store.pairings(t.id)
        rows = {
            (p.round, p.board): await self.store.session(p.session_id)
            for p in pairings
            if p.session_id is not None
        }
        rounds: dict[int, dict] = {}
        for p in pairings:
            shown_round = rounds.setdefault(p.round, {"round": p.round, "tables": [], "byes": []})
            if p.bye:
                shown_round["byes"].append(names.get(p.players[0], p.players[0]))
                continue
            row = rows.get((p.round, p.board))
            table = {
                "board": p.board,
                "players": [names.get(u, u) for u in p.players],
                "you": you in p.players,
                "table": row.id if row is not None else None,
                "status": say(STATUS.get(row.status, msg("opening")), language)
                if row is not None
                else say(msg("opening"), language),
                "points": [],
            }
            if row is not None and row.status not in LIVE:
                got = game_points(played_at(p, row))
                table["points"] = [shown(got.get(u, 0.0)) for u in p.players]
            shown_round["tables"].append(table)
        heading = msg("Tournament #{id}: {game}", id=t.id, game=title_of(t.game))
        players = sum(1 for e in entrants if e.withdrawn is None)
        page = {
            "tournament": t.id,
            "heading": say(heading, language),
            "state": say(words.describe(t, players), language),
            "standing": standing.name.lower(),
            "status": t.status,
            "standings": [
                {
                    "place": n,
                    "name": line.name,
                    "points": shown(line.points),
                    "buchholz": f"{line.buchholz:.2f}",
                    "sonneborn": f"{line.sonneborn:.2f}",
                    "games": line.played + line.byes,
                    "withdrawn": line.withdrawn,
                    "you": line.id == you,
                }
                for n, line in enumerate(lines, start=1)
            ],
            "rounds": [rounds[n] for n in sorted(rounds, reverse=True)],
        }
        return page
