"""Ratings per server (Discord) or group (Telegram) and per game, with OpenSkill.

OpenSkill's Plackett-Luce model rates any number of players in one ranking, ties
included; each player is a team of one. A player's shown rating is `mu - 3 sigma` (the
skill we are fairly sure they have: 0 for a newcomer, rising with wins). Co-operative
games (the players win or lose together) change no rating: they count escapes and
losses. Only a game that ended by its own rules with every seat held by a human counts:
not an aborted game, not one ended for idleness, not one with a bot seat or a seat handed
to a stand-in by vote, not one where a player asked for a hint (`/escape hint`). A seat
its person lost (resigned, or out of time) counts as theirs: they are ranked last, whatever
the stand-in that played it on reached. Each person is rated for their own games only: a
seat that changed hands (`/escape offer`) is rated for nobody, and the game for the others
if at least two rivals held their seats throughout.
"""

from __future__ import annotations

from dataclasses import replace

from openskill.models import PlackettLuce

from bot.store import RatingRow, SeatRow, SessionRow
from engines import Game
from engines.text import Msg, command, msg

MODEL = PlackettLuce()


def shown(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def why_unrated(row: SessionRow) -> Msg | None:
    """None if the game counts; else why not (said on the final board)."""
    if row.status != "finished" or not row.result:
        return msg("it did not end by its rules")
    if any(s.kind != "human" and not s.lost for s in row.seats):
        return msg("a seat was played by the bot")
    if len({s.user_id for s in row.seats}) != len(row.seats):
        return msg("a player held two seats")
    if row.hinted:
        return msg("a player asked for a hint")
    if len(rated_seats(row)) < min(2, len(row.seats)):
        return msg("a seat changed hands")
    return None


def rated_seats(row: SessionRow) -> list[SeatRow]:
    """The seats whose person held them from the start: each is rated for their own game."""
    return [s for s in row.seats if s.since == 0]


def rate(
    game: Game, row: SessionRow, current: dict[str, RatingRow]
) -> tuple[list[RatingRow], dict[str, list[float]]]:
    """The new standings of a finished game's players and, per user id, [before, after]
    of the shown rating (equal for a co-operative game)."""
    result = row.result or {}
    lost = {s.seat for s in row.seats if s.lost}
    ranking = [  # a seat its person lost: out of the order the game gave, below everyone
        [seat for seat in group if seat not in lost] for group in result.get("ranking") or []
    ]
    ranking = [group for group in ranking if group]
    place = {seat: i for i, group in enumerate(ranking) for seat in group}
    scores = {int(k): v for k, v in (result.get("scores") or {}).items()}
    last = len(ranking)
    seats = rated_seats(row)
    olds: list[RatingRow] = []
    for seat in seats:
        old = current.get(seat.user_id) or RatingRow(
            row.platform,
            row.scope,
            row.game,
            seat.user_id,
            seat.name,
            MODEL.mu,
            MODEL.sigma,
        )
        olds.append(replace(old, name=seat.name))
    if game.cooperative:
        escaped = any(v > 0 for v in scores.values())
        news = [
            replace(
                o,
                played=o.played + 1,
                won=o.won + (escaped and not s.lost),
                lost=o.lost + (not escaped or s.lost),
            )
            for s, o in zip(seats, olds, strict=True)
        ]
    else:
        teams = [[MODEL.create_rating([o.mu, o.sigma])] for o in olds]
        ranks = [place.get(s.seat, last) + 1 for s in seats]
        rated = MODEL.rate(teams, ranks=ranks)
        news = []
        for seat, old, [r] in zip(seats, olds, rated, strict=True):
            first = place.get(seat.seat) == 0
            new = replace(old, mu=r.mu, sigma=r.sigma, played=old.played + 1)
            news.append(replace(new, won=old.won + first, lost=old.lost + (not first)))
    changes = {
        o.user_id: [round(shown(o.mu, o.sigma), 2), round(shown(n.mu, n.sigma), 2)]
        for o, n in zip(olds, news, strict=True)
    }
    return news, changes


def describe_changes(row: SessionRow, changes: dict[str, list[float]], game: Game) -> Msg:
    if game.cooperative:
        return msg("Counted in the table's escapes and losses ({top}).", top=command("top"))
    parts = []
    for seat in rated_seats(row):
        if seat.user_id not in changes:
            continue
        before, after = changes[seat.user_id]
        parts.append(f"{seat.name} {before:.1f} → {after:.1f}")
    return msg("Ratings: {changes}.", changes=", ".join(parts))
