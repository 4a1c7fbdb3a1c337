"""When a move may be taken back by agreement, and the state without it.

Only the asker's own last move, while it is the last thing that happened: once the next
player (or a stand-in) has acted it stands. Never across chance: a die rolled or a card
drawn after the move is known to everyone, and taking the move back would let it be
played again with that knowledge (and the generator would draw anew). Never a move that
showed someone a hidden thing: a private event, another player's secret changed, or the
mover's own hidden cards given up (a card played from the hand has been seen).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.base import deadlines
from bot.service.base.move_records import stored
from bot.service.base.requests import UserError
from bot.store import LogEntry, SessionRow
from engines import CHANCE, Game
from engines.text import Text, joined, msg


def _last_moves(entries: Sequence[LogEntry]) -> list[LogEntry]:
    """The live log without notes and moves already taken back."""
    return [e for e in entries if not e.undone and (e.seat >= 0 or e.seat == CHANCE)]


def check(game: Game, row: SessionRow, entries: Sequence[LogEntry], seat: int) -> LogEntry:
    """The log row `seat` may ask to take back, or UserError saying why not."""
    live = _last_moves(entries)
    if not live or all(e.seat == CHANCE for e in live):
        raise UserError(msg("There is no move to take back yet."))
    last = live[-1]
    if last.seat == CHANCE:
        mine = next((e for e in reversed(live) if e.seat >= 0), None)
        if mine is not None and mine.seat == seat:
            raise UserError(
                msg(
                    "Your move was followed by a die roll or a card draw; it cannot be taken back, since everyone has seen what chance gave (and it would be drawn anew)."
                )
            )
        raise UserError(
            msg("Only your own last move can be taken back, before anyone acts after it.")
        )
    if last.seat != seat:
        who = row.seats[last.seat].name if last.seat < len(row.seats) else msg("another player")
        raise UserError(
            msg(
                "{who} has acted since your move, so it stands: a move can be taken back only until the next player acts.",
                who=who,
            )
        )
    if any(e.get("to") is not None for e in last.events):
        raise UserError(
            msg("That move showed a player something hidden, so it cannot be taken back.")
        )
    before = state_without(game, row, entries, last.n)
    after, _ = game.apply(before, seat, last.action)
    for other in range(len(row.seats)):
        if _secret(game, before, other) != _secret(game, after, other) and other != seat:
            raise UserError(
                msg("That move touched another player's hidden cards, so it cannot be taken back.")
            )
    if _hidden_count(_secret(game, after, seat)) < _hidden_count(_secret(game, before, seat)):
        raise UserError(
            msg("That move showed one of your hidden cards, so it cannot be taken back.")
        )
    return last


def state_without(game: Game, row: SessionRow, entries: Sequence[LogEntry], n: int):
    """Replay the log from setup, leaving out moves taken back and row `n`. A game begun
    under an older version of its rules is not replayed under the new ones (a move they
    accepted might be refused now): its moves stand."""
    if row.rules_version != game.rules_version:
        raise UserError(
            msg(
                "Game #{number} began under an older version of the rules of {game}, so its "
                "moves cannot be taken back.",
                number=row.id,
                game=msg(game.title),
            )
        )
    state = game.setup([s.name for s in row.seats], row.options)
    for entry in entries:
        if entry.undone or entry.n == n or (entry.seat < 0 and entry.seat != CHANCE):
            continue
        state, _ = game.apply(state, entry.seat, entry.action)
    return state


def _secret(game: Game, state, seat: int) -> dict:
    """What `seat` sees that the public does not."""
    public = game.view(state, None)
    own = game.view(state, seat)
    return {k: v for k, v in own.items() if k != "viewer" and public.get(k) != v}


def _hidden_count(value) -> int:
    if isinstance(value, dict):
        return sum(_hidden_count(v) for v in value.values())
    if isinstance(value, list | tuple):
        return sum(max(1, _hidden_count(v)) for v in value)
    return 0


def timeout(row: SessionRow) -> float:
    """How long the others have to answer: the table's reaction time (2 hours at the
    normal pace), at least 10 minutes."""
    window = (row.clock or {}).get("window") or deadlines.PACES[deadlines.DEFAULT_PACE].window
    return max(600.0, float(window))


def label(entry: LogEntry) -> Text:
    """The move as the log told it publicly."""
    public = [stored(e) for e in entry.events if e.get("to") is None and e.get("text")]
    return joined(public, " ") if public else entry.action
