"""A rematch: the same game and options at the same table, seated as its players press."""

from __future__ import annotations

from bot.service.base import buttons, deadlines
from bot.service.base.delivery_plan import Choice, Plan
from bot.service.base.requests import UserError, UserRef
from bot.service.tables.bot_seats import table_level
from bot.service.tables.lobby import Lobby
from bot.service.tables.table import chat_of
from bot.store import SessionRow
from engines.text import joined, msg


class Rematch:
    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.table = lobby.table

    async def press(self, row: SessionRow, user: UserRef) -> Plan:
        """Rematch: the first press opens a table with the same game and options, seated
        with the presser; each player's press takes their seat; once every player of the
        old game sits, it begins (others may join the lobby as usual meanwhile)."""
        if row.status != "finished":
            raise UserError(msg("A rematch is offered once a game has ended by its rules."))
        players = [s for s in row.seats if s.kind == "human"]
        if user.id not in {s.user_id for s in players}:
            raise UserError(
                msg(
                    "Only the players of that game can ask for its rematch; press Join on the new table instead."
                )
            )
        chat = chat_of(row)
        live = await self.table.live_row(chat)
        if live is not None and (live.status != "lobby" or live.game != row.game):
            raise UserError(
                msg("Another game is already going on here; the rematch waits until it ends.")
            )
        if live is None:
            options = dict(row.options)
            for name in ("pace", "timeout"):
                if name in row.clock:
                    options[name] = str(row.clock[name])
            if row.hints != "on" and not row.daily:  # (a daily table's are off by its rule)
                options["hints"] = row.hints
            pace = deadlines.PACES.get(row.clock.get("pace", ""))
            if pace is not None and row.clock.get("turn", pace.turn) != pace.turn:
                options["turn"] = f"{int(row.clock['turn'])}s"
            bots = [s for s in row.seats if s.user_id.startswith("ai:")]
            if bots and len(players) == 1:  # alone against bots: the same bots, at once
                options |= {"bots": str(len(bots)), "level": table_level(row)}
            replies = await self.lobby.start(chat, user, row.game, options)
        elif any(s.user_id == user.id for s in live.seats):
            raise UserError(msg("You already have a seat at the rematch; waiting for the others."))
        else:
            replies = await self.lobby.join(chat, user)
        live = await self.table.live_row(chat)
        if live is None or live.status != "lobby":
            return replies  # it began (a full table, or a game for one)
        seated = {s.user_id for s in live.seats}
        missing = [s.name for s in players if s.user_id not in seated]
        if not missing and len(players) == len(row.seats):
            return await self.lobby.begin(chat, user)
        if not missing:  # the bots of a table of several players are added again by hand
            for reply in replies:
                if reply.kind == "lobby":
                    head = msg(
                        "Rematch of #{number}: everyone is back; add the bots again (Add a bot) and press Begin.",
                        number=row.id,
                    )
                    reply.text = joined([head, reply.text], "\n")
            return replies
        for reply in replies:
            if reply.kind == "lobby":  # its own Rematch button: a pressed board may lose its own
                head = msg(
                    "Rematch of #{number}: waiting for {missing} (press Rematch).",
                    number=row.id,
                    missing=", ".join(missing),
                )
                reply.text = joined([head, reply.text], "\n")
                reply.choices.insert(
                    0, Choice(msg("Rematch"), buttons.Rematch(row.id).data, "success")
                )
        return replies
