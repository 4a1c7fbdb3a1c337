"""Direct messages, for players who asked for them with `/escape clock dm on`.

Discord has no message only one member of a channel sees unless that member clicked
something (an ephemeral answer). A player who opted in therefore gets by direct message
what is theirs alone and comes unasked: reminders, private events of other players' moves,
and, in games with secrets, their view with their move buttons whenever a new board waits
for them (their "your turn" notification). A move button pressed there acts on the game in
its channel (`DiscordBridge.press` resolves the session from the button's data). Without
the opt-in, or when Discord refuses (the member's privacy settings), nothing is sent: the
channel's ping and the board's My hand button remain.
"""

from __future__ import annotations

import logging
from dataclasses import replace

import discord

from bot.service import ChatRef, GameService, Reply, UserError, UserRef

log = logging.getLogger(__name__)


def with_moves(view: list[Reply], board: Reply, user_id: str) -> list[Reply]:
    """The user's own move buttons from `board`, under their view (or on their own)."""
    own = [c for c in board.choices if c.for_user == user_id]
    if not own:
        return view
    out = list(view)
    for i, reply in enumerate(out):
        if reply.to is not None and reply.to.id == user_id and not reply.choices:
            out[i] = replace(reply, choices=own, session_id=board.session_id, version=board.version)
            return out
    user = next((r.to for r in view if r.to is not None), None)
    if user is None:
        return out
    moves = Reply("Your moves:", kind="private", choices=own, to=user)
    return [*out, replace(moves, session_id=board.session_id, version=board.version)]


class DirectMessages:
    def __init__(self, client: discord.Client, service: GameService | None) -> None:
        self.client = client
        self.service = service

    async def wants(self, user_id: str) -> bool:
        if self.service is None:
            return False
        try:
            known = await self.service.store.user("discord", user_id)
        except Exception:
            log.exception("could not read the preferences of %s", user_id)
            return False
        return bool(known and (known.get("prefs") or {}).get("dm"))

    async def send(self, user: UserRef, replies: list[Reply]) -> bool:
        """Post replies in the user's DM channel; False when Discord will not let us."""
        from bot.discord.bridge import messages  # the one place that builds a message
        from bot.discord.retry import fresh_file, persist

        if not user.id.isdigit() or not replies:
            return False
        try:
            channel = await self.client.create_dm(discord.Object(int(user.id)))
            for reply in replies:
                for kwargs in messages(reply, ephemeral=True):
                    await persist(lambda kw=kwargs: channel.send(**fresh_file(kw)), "a DM")
        except discord.HTTPException as exc:
            log.info("could not send a direct message to %s: %s", user.id, exc)
            return False
        return True

    async def your_turn(self, chat: ChatRef, replies: list[Reply], *, told: str = "") -> None:
        """In a game with secrets, each opted-in player a new public board waits for gets
        their view and moves by DM. `told`: who already gets them with this answer."""
        from bot.discord.bridge import keeps_secrets

        if self.service is None:
            return
        for board in replies:
            if board.kind != "board" or board.to is not None or board.final:
                continue
            if not keeps_secrets(board):
                continue
            for user in board.mention:
                if user.id == told or not any(c.for_user == user.id for c in board.choices):
                    continue
                if not await self.wants(user.id):
                    continue
                try:
                    view = await self.service.private_view(chat, user)
                except UserError:
                    continue
                await self.send(user, with_moves(view, board, user.id))
