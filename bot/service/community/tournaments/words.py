"""What a tournament says: its sign-up message, a round's tables, its standings (text and
picture). Shared by the commands and the rounds."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.service.base.buttons import TournamentButton
from bot.service.base.delivery_plan import Choice, Picture, Reply
from bot.service.community.tournaments.scores import Line, shown
from bot.service.pictures.workers import CpuPool
from bot.service.tables.table import title_of
from bot.store import EntrantRow, TournamentRow
from engines.text import Text, command, joined, msg, plural
from languages import say
from render import standings as standings_picture

KIND = "tournament"


def join_button(t: TournamentRow) -> list[Choice]:
    return [
        Choice(msg("Join the tournament"), TournamentButton(t.id, "j").data, "success"),
        Choice(msg("Leave"), TournamentButton(t.id, "l").data, "secondary"),
        Choice(msg("Standings"), TournamentButton(t.id, "s").data, "secondary"),
    ]


def _plural_count(points: float) -> int | float:
    """What chooses the form of "points": a whole number as itself (1 point, 3 points),
    a fraction as it is (1½ points: every language's plural for a fraction)."""
    return int(points) if points == int(points) else points


def describe(t: TournamentRow, players: int) -> Text:
    what = plural(
        "Tournament #{id}: {game}, {count} round, {kind}.",
        "Tournament #{id}: {game}, {count} rounds, {kind}.",
        t.rounds,
        id=t.id,
        game=title_of(t.game),
        kind=msg("Swiss pairs")
        if t.size == 2
        else msg("tables of up to {size} grouped by standing", size=t.size),
    )
    if t.status == "signup":
        state = plural(
            "Sign-up is open: {count} player so far. Press Join, or {tournament_join}.",
            "Sign-up is open: {count} players so far. Press Join, or {tournament_join}.",
            players,
            tournament_join=command("tournament", "join"),
        )
    elif t.status == "running":
        state = plural(
            "Round {round} of {rounds} is being played; {count} player.",
            "Round {round} of {rounds} is being played; {count} players.",
            players,
            round=t.round,
            rounds=t.rounds,
        )
    elif t.status == "finished":
        state = msg("It is over.")
    else:
        state = msg("It was cancelled.")
    return joined([what, state], " ")


def signup_reply(t: TournamentRow, players: int, headline: Text = "") -> Reply:
    text = joined([headline, describe(t, players)], "\n") if headline else describe(t, players)
    return Reply(
        text, kind=KIND, choices=join_button(t) if t.status in ("signup", "running") else []
    )


def standings_text(t: TournamentRow, lines: Sequence[Line], after_round: int, final: bool) -> Text:
    if final:
        head = msg("Tournament #{id} ({game}): final standings.", id=t.id, game=title_of(t.game))
    else:
        head = msg(
            "Tournament #{id} ({game}): standings after round {round} of {rounds}.",
            id=t.id,
            game=title_of(t.game),
            round=after_round,
            rounds=t.rounds,
        )
    rows: list[Text] = [head]
    for place, line in enumerate(lines, start=1):
        rows.append(
            plural(
                "{place}. {name}: {points} point (Buchholz {buchholz}, Sonneborn-Berger {sb}){out}",
                "{place}. {name}: {points} points (Buchholz {buchholz}, Sonneborn-Berger {sb}){out}",
                _plural_count(line.points),
                place=place,
                name=line.name,
                points=shown(line.points),
                buchholz=f"{line.buchholz:.2f}".rstrip("0").rstrip("."),
                sb=f"{line.sonneborn:.2f}".rstrip("0").rstrip("."),
                out=msg(" (withdrawn)") if line.withdrawn else "",
            )
        )
    return joined(rows, "\n")


HEADER = (msg("Player"), msg("Points"), msg("Buchholz"), msg("S-B"), msg("Games"))


async def standings_picture_of(
    cpu: CpuPool,
    t: TournamentRow,
    lines: Sequence[Line],
    after_round: int,
    final: bool,
    language: str,
) -> Picture:
    if final:
        title = msg("Tournament #{id} · {game} · final standings", id=t.id, game=title_of(t.game))
    else:
        title = msg(
            "Tournament #{id} · {game} · after round {round} of {rounds}",
            id=t.id,
            game=title_of(t.game),
            round=after_round,
            rounds=t.rounds,
        )
    rows = [
        (
            line.name,
            shown(line.points),
            f"{line.buchholz:.2f}",
            f"{line.sonneborn:.2f}",
            str(line.played + line.byes),
            line.withdrawn,
        )
        for line in lines
    ]
    png = await cpu.run(
        standings_picture.standings_png,
        say(title, language),
        [say(h, language) for h in HEADER],
        rows,
        say(msg("withdrawn"), language),
    )
    alt = say(standings_text(t, lines, after_round, final), language)
    return Picture(png, alt, f"tournament-{t.id}-standings.png", language)


def table_name(t: TournamentRow, round_: int, board: int, language: str) -> str:
    return say(
        msg(
            "{game} · tournament #{id} · round {round} · table {board}",
            game=title_of(t.game),
            id=t.id,
            round=round_,
            board=board,
        ),
        language,
    )[:100]


def entrants_note(entrants: Sequence[EntrantRow]) -> str:
    return ", ".join(e.name for e in entrants if e.withdrawn is None)


Place = Callable[..., str]
