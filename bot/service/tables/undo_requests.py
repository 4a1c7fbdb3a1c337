"""Undo by agreement: a player asks to take back their last move; every other human
player must accept before the next player acts (the table's reaction time; silence
declines). When a move may be taken back is `undo_rule.py`'s; the SQL `memory_queries.py`'s."""

from __future__ import annotations

from bot.service.base import buttons, deadlines, undo_rule
from bot.service.base.delivery_plan import Choice, Plan, Reply
from bot.service.base.requests import ChatRef, UserError, UserRef
from bot.service.tables.board_plans import BoardPlans
from bot.service.tables.table import Loaded, Table, not_a_player
from bot.store import SessionRow, StaleVersion, UndoRequest
from engines import Event, Game
from engines.text import Span, msg


class UndoRequests:
    def __init__(self, table: Table, plans: BoardPlans) -> None:
        self.table = table
        self.store = table.store
        self.plans = plans

    # ----- undo by agreement ----------------------------------------------------------
    async def ask_undo(self, chat: ChatRef, user: UserRef) -> Plan:
        """`/escape undo`: ask to take back your last move; every other human player must
        accept before the next player acts (the table's reaction time; silence declines)."""
        row = await self.table.active(chat)
        async with self.table.lock(row.id):
            row = await self.store.session(row.id)
            if row is None or row.status != "active":
                raise UserError(msg("That game is not running any more."))
            loaded = self.table.load(row)
            seat = loaded.seat_of(user)
            if seat is None:
                raise UserError(not_a_player(row))
            entries = await self.store.log(row.id)
            target = undo_rule.check(loaded.game, row, entries, seat)
            others = [s for s in row.seats if s.kind == "human" and s.user_id != user.id]
            if not others:
                return await self._take_back(row, loaded.game, entries, target, user)
            request = UndoRequest(
                row.id, row.version, target.n, seat, user.id, [], self.table.now()
            )
            await self.store.put_undo_request(request)
        seconds = undo_rule.timeout(row)
        wait = Span(round(seconds / 60) * 60 if seconds < 7200 else round(seconds / 3600) * 3600)
        text = msg(
            "{name} asks to take back their last move ({move}). {others}: accept or decline "
            "within {wait} (no answer declines; any move first ends the request).",
            name=user.name,
            move=undo_rule.label(target),
            others=", ".join(s.name for s in others),
            wait=wait,
        )
        choices = [
            Choice(
                msg("Accept undo"), buttons.UndoAnswer(row.id, row.version, True).data, "success"
            ),
            Choice(msg("Decline"), buttons.UndoAnswer(row.id, row.version, False).data, "danger"),
        ]
        return Plan(
            [
                Reply(
                    text,
                    kind="info",
                    choices=choices,
                    mention=[UserRef(row.platform, s.user_id, s.name) for s in others],
                )
            ]
        )

    async def answer_undo(self, row: SessionRow, user: UserRef, version: int, accept: bool) -> Plan:
        async with self.table.lock(row.id):
            row = await self.store.session(row.id)
            request = await self.store.undo_request(row.id) if row else None
            if row is None or request is None or request.version != version:
                raise UserError(msg("That undo request is no longer open."))
            if row.version != request.version or row.status != "active":
                await self.store.drop_undo_request(row.id)
                raise UserError(
                    msg("The game has moved on, so the move can no longer be taken back.")
                )
            asker = next((s for s in row.seats if s.user_id == request.user_id), None)
            others = [s for s in row.seats if s.kind == "human" and s.user_id != request.user_id]
            if user.id not in {s.user_id for s in others}:
                raise UserError(msg("Only the other players of this game answer an undo request."))
            if self.table.now() > request.asked_at + undo_rule.timeout(row):
                await self.store.drop_undo_request(row.id)
                raise UserError(msg("That undo request timed out, which counts as declined."))
            name = asker.name if asker else "the player"
            if not accept:
                await self.store.drop_undo_request(row.id)
                return Plan(
                    [
                        Reply(
                            msg(
                                "{name} declines; {name2}'s move stands.",
                                name=user.name,
                                name2=name,
                            ),
                            kind="info",
                        )
                    ]
                )
            accepted = sorted({*request.accepted, user.id})
            if len(accepted) < len(others):
                if not await self.store.accept_undo(row.id, version, accepted):
                    raise UserError(msg("That undo request is no longer open."))
                waiting = ", ".join(s.name for s in others if s.user_id not in accepted)
                return Plan(
                    [
                        Reply(
                            msg(
                                "{name} accepts the undo; waiting for {waiting}.",
                                name=user.name,
                                waiting=waiting,
                            ),
                            kind="info",
                        )
                    ]
                )
            entries = await self.store.log(row.id)
            game = self.table.load(row).game
            target = undo_rule.check(game, row, entries, request.seat)
            if target.n != request.n:
                raise UserError(
                    msg("The game has moved on, so the move can no longer be taken back.")
                )
            asker_ref = UserRef(row.platform, request.user_id, name)
            return await self._take_back(row, game, entries, target, asker_ref)

    async def _take_back(self, row: SessionRow, game: Game, entries, target, user: UserRef) -> Plan:
        state = undo_rule.state_without(game, row, entries, target.n)
        clock = self.table.next_clock(row, game, state)
        note = msg(
            "By agreement, {name}'s move ({move}) is taken back.",
            name=user.name,
            move=undo_rule.label(target),
        )
        try:
            await self.store.undo_move(
                row.id,
                row.version,
                target.n,
                game.dump(state),
                clock,
                clock.get("deadline"),
                deadlines.next_wake(clock),
                note,
                self.table.now(),
            )
        except StaleVersion as exc:
            raise UserError(
                msg("The game has moved on, so the move can no longer be taken back.")
            ) from exc
        row = await self.store.session(row.id)
        return await self.plans.board(Loaded(row, game, state), [Event(note)], None, asker=user)
