"""`/escape hint`: a move suggested privately to the player to act, for learners.

A collaborator of the table core, handed the AI seats' CPU pool. The suggestion is a search
at hard level with twice its budget (`THOUGHT`) for the asker's seat, checked one turn deep
(`engines.ai.advise`): a move after which an opponent wins or scores at once is never
suggested where another move stops it, and the reason then names the threat. Both play on
redrawn states only (`Game.redraw`): they use what that player can see and nothing else,
so a hint never gives away a hidden card.
The search is seeded from the session and the board's version, so asking twice gives the
same hint. A table started with `hints=off` refuses it (competitive play). A hint used by a
human is written on the table (its `hinted` column), so the game is not rated and
its final board says why (`ratings.why_unrated`).
"""

from __future__ import annotations

import random

from bot.service.base.delivery_plan import Plan, Reply
from bot.service.base.requests import ChatRef, UserError, UserRef
from bot.service.tables.bot_seats import BotSeats
from bot.service.tables.table import Table, not_a_player
from bot.store import SessionRow, StaleVersion
from engines import Game
from engines.ai import Advice, advise
from engines.text import Msg, msg

LEVEL = "hard"  # a player who always takes the hint should beat normal as often as hard does
# the hint's search has this many times hard's budget: a person asks once a turn and can wait
# a second, and the check one turn deep turns down some of hard's own choices, which costs
THOUGHT = 2.0


def hinted(row: SessionRow) -> bool:
    """A human at this table has asked for a hint."""
    return bool(row.hinted)


def seed_of(row: SessionRow) -> int:
    """The same board gives the same hint (a string seeds `random` the same on every run)."""
    return random.Random(f"hint:{row.seed}:{row.version}").getrandbits(62)


def percent(value: float) -> int:
    return round(100 * min(1.0, max(0.0, value)))


def reason(game: Game, state, advice: Advice) -> Msg:
    """One line: the move, and why (the threat it stops; the best two moves' expected
    results, as the search found them; a win it sees at once; a move that is the only one;
    the rule of thumb that made it)."""
    best = game.label(state, advice.action)
    if advice.answered is not None:
        return msg(
            "Hint: {move}. It stops a threat: {threat}.", move=best, threat=advice.answered.text
        )
    if advice.open is not None:
        return msg(
            "Hint: {move}. Watch out: {threat}, and no move stops it.",
            move=best,
            threat=advice.open.text,
        )
    decision = advice.decision
    if decision.rule is not None:  # made by the game's rule of thumb, not searched
        return msg("Hint: {move}. {why}", move=best, why=decision.rule)
    if not decision.ranked:  # (a hard search never blunders)
        return msg("Hint: {move}. It is the only move worth making.", move=best)
    [(_, value, visits), *others] = decision.ranked
    if not visits:
        return msg("Hint: {move}. It wins the game at once.", move=best)
    if not others:
        return msg("Hint: {move}. The search found no other move worth trying.", move=best)
    second, second_value, _ = others[0]
    args = dict(
        move=best,
        score=percent(value),
        other=game.label(state, second),
        other_score=percent(second_value),
    )
    if game.cooperative:
        return msg(
            "Hint: {move}. From what you can see, the party's chance of escaping looks about "
            "{score}% with it, {other_score}% with the next best ({other}).",
            **args,
        )
    return msg(
        "Hint: {move}. From what you can see, it scores about {score} of 100, the next best "
        "({other}) {other_score}.",
        **args,
    )


class Hints:
    def __init__(self, table: Table, bots: BotSeats) -> None:
        self.table = table
        self.store = table.store
        self.bots = bots

    async def hint(self, chat: ChatRef, user: UserRef) -> Plan:
        row = await self.table.active(chat)
        if row.hints == "off":
            raise UserError(msg("This table was started with hints=off: no hints here."))
        loaded = self.table.load(row)
        seat = loaded.seat_of(user)
        if seat is None:
            raise UserError(not_a_player(row))
        game, state = loaded.game, loaded.state
        if seat not in game.to_act(state):
            raise UserError(msg("It is not your move now; ask for a hint when it is."))
        advice = await self.bots.cpu.run(
            advise, game.id, game.dump(state), seat, LEVEL, seed_of(row), self.bots.scale * THOUGHT
        )
        await self._note(row, user)
        text = reason(game, state, advice)
        reply = Reply(text, kind="private", to=user, session_id=row.id, version=row.version)
        return Plan([reply], asker=user, quiet=True)

    async def _note(self, row: SessionRow, user: UserRef) -> None:
        """Write the hint on the table, unless the board moved on meanwhile (then the hint
        is for a board that is gone: refused)."""
        async with self.table.lock(row.id):
            try:
                await self.store.note_hint(row.id, row.version, user.id)
            except StaleVersion as exc:
                raise UserError(
                    msg("The game moved on while the hint was worked out; ask again.")
                ) from exc
