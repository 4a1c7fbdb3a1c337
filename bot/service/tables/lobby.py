"""Tables and seats: opening a table, joining, leaving, bots in the lobby, the start, the
abort. A table of one human and bots, or a full table, begins by itself."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from bot.service.base import daily_castle, deadlines
from bot.service.base.delivery_plan import Plan, Reply, TableFacts
from bot.service.base.move_records import Turn, resolve_chance, seeded
from bot.service.base.requests import ChatRef, UserError, UserRef
from bot.service.tables.board_plans import BoardPlans, table_language
from bot.service.tables.bot_seats import bot_options, bot_seat, table_level
from bot.service.tables.bot_turns import BotTurns
from bot.service.tables.language_settings import LanguageSettings
from bot.service.tables.moderation import Moderation
from bot.service.tables.start_options import hint_setting, parse_options, split_options
from bot.service.tables.table import Table, title_of
from bot.store import ChatBusy, OpenedWith, SeatRow
from engines import REGISTRY, BadOption, Event, Game
from engines.text import command, msg


def find_game(game_id: str) -> Game:
    game = REGISTRY.get((game_id or "").strip().lower())
    if game is None:
        raise UserError(
            msg(
                "There is no game {game}. Games: {games}.",
                game=repr(game_id),
                games=", ".join(sorted(REGISTRY)),
            )
        )
    return game


def ended_facts(row) -> TableFacts:
    """The facts of a table that has just been closed or aborted."""
    game = REGISTRY.get(row.game)
    secrets = game.hidden_information if game is not None else False
    return TableFacts(
        row.id,
        row.version,
        row.game,
        title_of(row.game),
        secrets,
        over=True,
        language=table_language(row),
    )


@dataclass(frozen=True)
class StartOptions:
    """A table's start options, checked: its game's own, its clock, what else it is opened
    with (its bots' level, hints, the daily castle) and how many bots join at once."""

    options: dict[str, str]
    clock: dict
    opened: OpenedWith
    bots: int


class Lobby:
    def __init__(
        self,
        table: Table,
        plans: BoardPlans,
        turns: BotTurns,
        *,
        seed_source: Callable[[], int] = lambda: secrets.randbits(62),
        moderation: Moderation | None = None,
    ) -> None:
        self.table = table
        self.moderation = moderation or Moderation(table.store, table.now)  # bars and blocks
        self.store = table.store
        self.plans = plans
        self.turns = turns  # bots to act first play once the start is stored
        self.seed = seed_source
        self.languages = LanguageSettings(table)
        self.once_a_day = daily_castle.OnceADay(table.store, table.now)  # the daily castle's rule

    async def start(
        self,
        chat: ChatRef,
        user: UserRef,
        game_id: str,
        options: str | Mapping[str, str] | None = None,
    ) -> Plan:
        game = find_game(game_id)
        start = self.check_options(game, options)
        existing = await self.table.live_row(chat)
        if existing is not None:
            state = msg("waiting for players") if existing.status == "lobby" else msg("running")
            raise UserError(
                msg(
                    "A game of {game} is already {state} here. Use {board} to see it, or {abort} to end it first.",
                    game=title_of(existing.game),
                    state=state,
                    board=command("board"),
                    abort=command("abort"),
                )
            )
        await self.moderation.gate(chat.platform, chat.scope, user, [])
        day = start.opened.daily
        if day:
            await self.once_a_day.refuse_played(day, [user])
        await self.table.note_player(user)
        opened = replace(start.opened, language=await self.languages.opening(chat, user))
        try:
            row = await self.store.create_session(
                platform=chat.platform,
                scope=chat.scope,
                chat=chat.chat,
                thread=chat.thread,
                game=game.id,
                options=start.options,
                rules_version=game.rules_version,
                creator=user.id,
                seed=daily_castle.seed_of(day) if day else self.seed(),
                first_seat=SeatRow(0, user.id, user.name),
                clock=start.clock,
                opened=opened,
            )
        except ChatBusy as exc:
            raise UserError(
                msg(
                    "A game was just started here by someone else: {board}.", board=command("board")
                )
            ) from exc
        if start.bots:  # one human and bots: the table starts at once
            level = opened.bot_level
            bots = (bot_seat(k, k, level, opened.language) for k in range(1, start.bots + 1))
            await self.table.write_seats(row, [*row.seats, *bots])
        if game.max_players == 1 or start.bots:
            return await self.begin(chat, user)
        said = msg("{name} opened a table for {game}.", name=user.name, game=msg(game.title))
        if day:
            said = msg(
                "{name} opened the daily castle of {day} (packs: {packs}): every party meets the same castle today (UTC), and each person plays it once.",
                name=user.name,
                day=day,
                packs=daily_castle.packs_said(start.options),
            )
        return self.plans.lobby_plan(row, game, said, user)

    def check_options(self, game: Game, options: str | Mapping[str, str] | None) -> StartOptions:
        """A table's start options, checked (a refusal names what exists)."""
        game_options, clock_options = split_options(parse_options(options))
        game_options, daily = daily_castle.setting(
            game, game_options, clock_options, self.table.now()
        )
        game_options, bots, level = bot_options(game, game_options)
        game_options, hints = hint_setting(game_options)
        try:
            checked = game.check_options(game_options)
            clock = deadlines.new_clock(clock_options, self.table.default_pace)
        except (BadOption, deadlines.ClockError) as exc:
            raise UserError(exc.args[0]) from exc
        opened = OpenedWith(**({"bot_level": level, "hints": hints} | daily))
        return StartOptions(checked, clock, opened, bots)

    async def join(self, chat: ChatRef, user: UserRef) -> Plan:
        row = await self.table.lobby(chat)
        game = find_game(row.game)
        if user.platform != row.platform:  # (the access rule keeps them out; never seated)
            raise UserError(
                msg("Only the people of this table's chat can join it; ask for a link there.")
            )
        if any(s.user_id == user.id for s in row.seats):
            raise UserError(msg("You already have a seat at this table."))
        if len(row.seats) >= game.max_players:
            raise UserError(
                msg(
                    "The table is full: {title} seats at most {max_players}.",
                    title=msg(game.title),
                    max_players=game.max_players,
                )
            )
        await self.moderation.gate(row.platform, row.scope, user, row.seats)
        if daily_castle.day_of_table(row):
            await self.once_a_day.refuse_played(daily_castle.day_of_table(row), [user], but=row.id)
        await self.table.note_player(user)
        seats = [*row.seats, SeatRow(len(row.seats), user.id, user.name)]
        await self.table.write_seats(row, seats)
        if len(seats) == game.max_players:
            return await self.begin(chat, user)
        row = await self.store.session(row.id)
        return self.plans.lobby_plan(row, game, msg("{name} joins.", name=user.name), user)

    async def leave(self, chat: ChatRef, user: UserRef) -> Plan:
        row = await self.table.live_row(chat)
        if row is None:
            raise UserError(msg("There is no game here to leave."))
        if row.status != "lobby":
            raise UserError(
                msg(
                    "The game has begun, so seats are fixed. Ask its creator or an admin to {abort} it if the table wants to stop.",
                    abort=command("abort"),
                )
            )
        if not any(s.user_id == user.id for s in row.seats):
            raise UserError(msg("You have no seat at this table."))
        seats = [s for s in row.seats if s.user_id != user.id]
        if not any(s.kind == "human" for s in seats):  # bots alone do not keep a table
            await self.table.guard(self.store.set_status(row.id, row.version, "aborted"))
            closed = Reply(
                msg("{name} leaves; the table is empty and closed.", name=user.name), kind="lobby"
            )
            return Plan([closed], ended_facts(row), asker=user)
        await self.table.write_seats(row, seats)
        row = await self.store.session(row.id)
        return self.plans.lobby_plan(
            row, find_game(row.game), msg("{name} leaves.", name=user.name), user
        )

    async def add_bot(self, chat: ChatRef, user: UserRef) -> Plan:
        row = await self.table.lobby(chat)
        game = find_game(row.game)
        if not any(s.user_id == user.id for s in row.seats):
            raise UserError(
                msg("Only a seated player can add a bot: {join} first.", join=command("join"))
            )
        if len(row.seats) >= game.max_players:
            raise UserError(
                msg(
                    "The table is full: {title} seats at most {max_players}.",
                    title=msg(game.title),
                    max_players=game.max_players,
                )
            )
        numbers = {int(s.user_id.rsplit(":", 1)[1]) for s in row.seats if s.kind == "ai"}
        number = next(n for n in range(1, game.max_players + 1) if n not in numbers)
        seat = bot_seat(len(row.seats), number, table_level(row), table_language(row))
        seats = [*row.seats, seat]
        await self.table.write_seats(row, seats)
        if len(seats) == game.max_players:
            return await self.begin(chat, user)
        row = await self.store.session(row.id)
        return self.plans.lobby_plan(
            row, game, msg("{name} adds {bot}.", name=user.name, bot=seat.name), user
        )

    async def remove_bot(self, chat: ChatRef, user: UserRef) -> Plan:
        row = await self.table.lobby(chat)
        if not any(s.user_id == user.id for s in row.seats):
            raise UserError(msg("Only a seated player can remove a bot."))
        bots = [s for s in row.seats if s.kind == "ai"]
        if not bots:
            raise UserError(msg("There is no bot at this table to remove."))
        gone = bots[-1]
        seats = [
            SeatRow(i, s.user_id, s.name, s.kind)
            for i, s in enumerate(s for s in row.seats if s is not gone)
        ]
        await self.table.write_seats(row, seats)
        row = await self.store.session(row.id)
        return self.plans.lobby_plan(
            row,
            find_game(row.game),
            msg("{name} removes {bot}.", name=user.name, bot=gone.name),
            user,
        )

    async def begin(self, chat: ChatRef, user: UserRef) -> Plan:
        row = await self.table.lobby(chat)
        game = find_game(row.game)
        if not any(s.user_id == user.id for s in row.seats):
            raise UserError(
                msg("Only a seated player can begin the game: {join} first.", join=command("join"))
            )
        if len(row.seats) < game.min_players:
            missing = game.min_players - len(row.seats)
            raise UserError(
                msg(
                    "{title} needs {player_range} players; waiting for {missing} more ({join}).",
                    title=msg(game.title),
                    player_range=game.player_range(),
                    missing=missing,
                    join=command("join"),
                )
            )
        await self.once_a_day.claim(row)  # a daily castle: once a day for each of its party
        async with self.table.lock(row.id):
            row = await self.store.session(row.id)
            if row is None or row.status != "lobby":
                raise UserError(msg("This game has already begun."))
            names = [s.name for s in row.seats]
            turn = Turn(game.setup(names, row.options), row.chance_pos, seeded=seeded(row))
            turn.events.append(
                Event(msg("{game} begins: {names}.", game=msg(game.title), names=", ".join(names)))
            )
            resolve_chance(game, turn, row.seed)
            committed = await self.table.commit(row, game, turn)
        committed = await self.turns.run(committed)
        return await self.plans.after(committed, user)

    async def abort(self, chat: ChatRef, user: UserRef, is_admin: bool = False) -> Plan:
        row = await self.table.live_row(chat)
        if row is None:
            raise UserError(msg("There is no game here to abort."))
        if user.id != row.creator and not is_admin:
            raise UserError(
                msg("Only the player who started this game, or a chat admin, can abort it.")
            )
        async with self.table.lock(row.id):
            await self.table.guard(self.store.set_status(row.id, row.version, "aborted"))
        ended = Reply(
            msg(
                "{name} ended the game of {game}. The log is kept.",
                name=user.name,
                game=title_of(row.game),
            ),
            kind="info",
            final=True,
            session_id=row.id,
        )
        return Plan([ended], ended_facts(row), asker=user)
