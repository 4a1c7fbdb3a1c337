"""`/escape tournament` and its buttons: create, join, leave, start, standings, withdraw,
cancel. One open tournament a chat (a Discord channel, a Telegram group); its tables are
played in places of their own (`rounds.py`).

Who may see or act, decided here once: a tournament is known only in its own chat (a
command or a button from anywhere else hears that there is none); anyone there may join;
the organiser (who created it) or a chat admin may start or cancel it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.service.base.command_words import GAME, OPTIONS
from bot.service.base.delivery_plan import Plan, Reply
from bot.service.base.requests import ChatRef, UserError, UserRef
from bot.service.community.tournaments import setup, words
from bot.service.community.tournaments.rounds import Rounds
from bot.service.tables.lobby import Lobby, find_game, parse_options
from bot.service.tables.moderation import BARRED
from bot.store import StaleVersion, Store, TournamentRow
from engines.text import Text, command, msg, plural

NONE_HERE = msg(
    "There is no tournament here. Open one with {tournament_create}.",
    tournament_create=command("tournament", "create", GAME, "rounds=4"),
)
USAGE = msg(
    "{tournament_create}: open the sign-up; join, leave, start, standings, withdraw, cancel.",
    tournament_create=command(
        "tournament", "create", GAME, "[rounds=4]", "[size=4]", "[start=2h]", OPTIONS
    ),
)
CHANGED = msg("The tournament changed at the same moment; try again.")


class Desk:
    def __init__(
        self,
        store: Store,
        lobby: Lobby,
        rounds: Rounds,
        *,
        clock: Callable[[], float],
        language: Callable[[ChatRef, UserRef], Awaitable[str]],
    ) -> None:
        self.store = store
        self.lobby = lobby  # the tables' options are checked as a table's are
        self.rounds = rounds
        self.now = clock
        self.language = language

    async def here(self, chat: ChatRef) -> TournamentRow | None:
        found = await self.store.tournaments_in_chat(chat.platform, chat.chat)
        return found[0] if found else None

    async def _here(self, chat: ChatRef) -> TournamentRow:
        t = await self.here(chat)
        if t is None:
            raise UserError(NONE_HERE)
        return t

    # ----- the command ------------------------------------------------------------------
    async def command(self, chat: ChatRef, user: UserRef, text: str, is_admin: bool) -> Plan:
        words_ = (text or "").split()
        what = words_[0].lower() if words_ else ""
        rest = words_[1:]
        if what == "create":
            return await self.create(chat, user, rest)
        if what == "standings" and await self.here(chat) is None:  # the last one, ended
            ended = await self.store.tournaments_in_chat(chat.platform, chat.chat, ("finished",))
            if ended:
                return await self.rounds.standings_plan(ended[0], quiet=True)
        if what in ("join", "leave", "withdraw", "start", "cancel", "standings", ""):
            t = await self._here(chat)
            if what == "join":
                return await self.join(t, user)
            if what in ("leave", "withdraw"):
                return await self.leave(t, user)
            if what == "start":
                return await self.start(t, user, is_admin)
            if what == "cancel":
                return await self.cancel(t, user, is_admin)
            if what == "standings":
                return await self.rounds.standings_plan(t, quiet=True)
            count = await self._count(t)
            return Plan([words.signup_reply(t, count)])
        raise UserError(USAGE)

    async def create(self, chat: ChatRef, user: UserRef, args: list[str]) -> Plan:
        if not args:
            raise UserError(USAGE)
        game = find_game(args[0])
        settings = setup.read(game, parse_options(" ".join(args[1:])))
        self.lobby.check_options(game, settings.table_options)  # the tables' own options
        if await self.here(chat) is not None:
            raise UserError(
                msg(
                    "A tournament is already open here: {tournament} shows it.",
                    tournament=command("tournament"),
                )
            )
        now = self.now()
        starts_at = now + settings.starts_in if settings.starts_in is not None else None
        t = await self.store.create_tournament(
            platform=chat.platform,
            scope=chat.scope,
            chat=chat.chat,
            thread=chat.thread,
            game=game.id,
            options=settings.table_options,
            rounds=settings.rounds,
            size=settings.size,
            creator=user.id,
            language=await self.language(chat, user),
            starts_at=starts_at,
            now=now,
        )
        headline = msg("{name} opened a tournament.", name=user.name)
        if starts_at is not None:
            headline = msg(
                "{name} opened a tournament; sign-up closes and round 1 begins in {span}.",
                name=user.name,
                span=_span(settings.starts_in),
            )
        return Plan([words.signup_reply(t, 0, headline)], language=t.language)

    async def join(self, t: TournamentRow, user: UserRef) -> Plan:
        if t.status == "running" and t.round * 2 >= t.rounds:
            raise UserError(msg("Late joining closed once half the rounds had begun."))
        if t.status not in ("signup", "running"):
            raise UserError(NONE_HERE)
        if await self.store.barred(t.platform, t.scope, user.id):
            raise UserError(BARRED, reason="barred")
        joined = t.round + 1
        try:
            added = await self.store.enter(t, user.id, user.name, joined, setup.MOST_PLAYERS)
        except StaleVersion as exc:
            raise UserError(CHANGED) from exc
        if added == "in":
            raise UserError(msg("You are already in this tournament."))
        if added == "full":
            raise UserError(
                plural(
                    "The tournament is full ({count} player).",
                    "The tournament is full ({count} players).",
                    setup.MOST_PLAYERS,
                )
            )
        t = await self.store.tournament(t.id)
        count = await self._count(t)
        if t.status == "running":
            text: Text = plural(
                "{name} joins the tournament late: paired from round {round} on ({count} player).",
                "{name} joins the tournament late: paired from round {round} on ({count} players).",
                count,
                name=user.name,
                round=joined,
            )
        else:
            text = plural(
                "{name} joins the tournament ({count} player).",
                "{name} joins the tournament ({count} players).",
                count,
                name=user.name,
            )
        return Plan([Reply(text, kind=words.KIND)], language=t.language)

    async def leave(self, t: TournamentRow, user: UserRef) -> Plan:
        try:
            gone = await self.store.withdraw(t, user.id, "asked")
        except StaleVersion as exc:
            raise UserError(CHANGED) from exc
        if not gone:
            raise UserError(msg("You are not playing in this tournament."))
        count = await self._count(await self.store.tournament(t.id))
        if t.status == "signup":
            text: Text = plural(
                "{name} leaves the tournament ({count} player).",
                "{name} leaves the tournament ({count} players).",
                count,
                name=user.name,
            )
        else:
            text = msg(
                "{name} withdraws from the tournament: a game still running is played out, and no new round pairs them.",
                name=user.name,
            )
        return Plan([Reply(text, kind=words.KIND)], language=t.language)

    async def start(self, t: TournamentRow, user: UserRef, is_admin: bool) -> Plan:
        if user.id != t.creator and not is_admin:
            raise UserError(
                msg("Only the organiser (who created the tournament) or an admin can do that.")
            )
        if t.status != "signup":
            raise UserError(msg("The tournament has begun already."))
        count = await self._count(t)
        if count < self.rounds.least(t):
            raise UserError(
                plural(
                    "A tournament of {game} needs at least {least} players; {count} has joined.",
                    "A tournament of {game} needs at least {least} players; {count} have joined.",
                    count,
                    game=words.title_of(t.game),
                    least=self.rounds.least(t),
                )
            )
        if not await self.store.set_tournament(t, starts_at=self.now(), wake_at=self.now()):
            raise UserError(CHANGED)
        await self.rounds.advance(t.id)  # round 1, once: the same compare-and-set as the loop's
        return Plan([Reply(msg("The tournament begins."), kind="info")], quiet=True)

    async def cancel(self, t: TournamentRow, user: UserRef, is_admin: bool) -> Plan:
        if user.id != t.creator and not is_admin:
            raise UserError(
                msg("Only the organiser (who created the tournament) or an admin can do that.")
            )
        if not await self.store.set_tournament(t, status="cancelled", wake_at=None):
            raise UserError(CHANGED)
        text = msg(
            "{name} cancelled tournament #{id}. Games still running are played out as ordinary games.",
            name=user.name,
            id=t.id,
        )
        return Plan([Reply(text, kind=words.KIND)], language=t.language)

    # ----- buttons ----------------------------------------------------------------------
    async def press(self, chat: ChatRef, user: UserRef, tournament_id: int, what: str) -> Plan:
        t = await self.store.tournament(tournament_id)
        if t is None or t.platform != chat.platform or t.chat != chat.chat:
            raise UserError(msg("That button belongs to no tournament in this chat."))
        if what == "j":
            return await self.join(t, user)
        if what == "l":
            return await self.leave(t, user)
        return await self.rounds.standings_plan(t, quiet=True)

    async def _count(self, t: TournamentRow | None) -> int:
        if t is None:
            return 0
        return sum(1 for e in await self.store.entrants(t.id) if e.withdrawn is None)


def _span(seconds: float | None):
    from engines.text import Span

    return Span(seconds or 0)
