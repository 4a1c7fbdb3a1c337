"""The terminal's set-up dialogue: resume a saved game or start a new one (game, options,
players). A wrong answer is explained (quoting at most a short excerpt of it) and asked
again; only the end of input (Ctrl-D), Ctrl-C or `quit` leaves, and it leaves cleanly."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.console.answers import chosen, shown
from bot.service import (
    MAX_NAME,
    ChatRef,
    GameService,
    Plan,
    TableSummary,
    UserError,
    UserRef,
    excerpt,
    number,
)
from languages import Text, joined, msg

PLATFORM = "console"
SCOPE = "terminal"
# Before several saved games, every terminal game lived in this one chat; still resumable.
LEGACY_CHAT = ChatRef(PLATFORM, "terminal")

Ask = Callable[[str], Awaitable[str | None]]


class Leave(Exception):
    """The player closed the input or typed quit during set-up: nothing to play."""


@dataclass
class Chosen:
    chat: ChatRef
    replies: Plan


def local_user(name: str, language: str = "") -> UserRef:
    """A player at this keyboard."""
    return UserRef(PLATFORM, f"local:{name.lower()}", name, language)


def game_list(service: GameService) -> str:
    lines: list[Text] = [msg("Games:")]
    for n, (game_id, _title) in enumerate(service.game_list(), start=1):
        game = service.game(game_id)
        lines.append(
            msg(
                "  {n}) {game} ({id}), {range} players: {summary}",
                n=n,
                game=msg(game.title),
                id=game.id,
                range=game.player_range(),
                summary=msg(game.summary),
            )
        )
    return joined(lines, "\n")


def option_help(game) -> Text:
    lines: list[Text] = [
        msg("Options of {game} (press Enter to keep the default):", game=msg(game.title))
    ]
    for name, option in sorted(game.options.items()):
        lines.append(
            msg(
                "  {name}: {description}",
                name=game.option_name(name),
                description=msg(option.description),
            )
        )
    return joined(lines, "\n")


class Setup:
    def __init__(
        self, service: GameService, ask: Ask, out: Callable[[Text], None], language: str = "en"
    ) -> None:
        self.service = service
        self._ask = ask
        self.out = out
        self.language = language

    async def ask(self, prompt: Text) -> str:
        line = await self._ask(prompt)
        if line is None or line.strip().lower() in ("quit", "exit"):
            raise Leave
        return line.strip()

    # ----- the whole dialogue -------------------------------------------------------
    async def choose(self, game_id: str | None, names: list[str], options: str | None) -> Chosen:
        saved = await self.saved()
        game = self.find_game(game_id) if game_id else None
        if game_id and game is None:
            self.out(msg("There is no game {game}.", game=repr(excerpt(game_id))))
        if game is not None:
            same_game = [t for t in saved if t.game_id == game.id]
            if names:
                wanted = sorted(n.lower() for n in names if not is_bot(n))
                bots = sum(1 for n in names if is_bot(n))
                for table in same_game:
                    humans = sorted(name.lower() for name, kind in table.seats if kind == "human")
                    if humans == wanted and len(table.seats) - len(humans) == bots:
                        resumed = await self.resume(table)
                        if resumed is not None:
                            if options:
                                self.out(
                                    msg(
                                        "(The saved game keeps the options it began with; --options {options} would apply to a new game.)",
                                        options=options,
                                    )
                                )
                            return resumed
            elif same_game:
                picked = await self.pick_saved(same_game)
                if picked is not None:
                    return picked
        elif saved:
            picked = await self.pick_saved(saved)
            if picked is not None:
                return picked
        interactive = game is None  # asked for the game, so ask for its options too
        if game is None:
            game = await self.ask_game()
        if options is None and interactive and game.options:
            options = await self.ask_options(game)
        return await self.start(game, names, options or "", interactive=interactive)

    # ----- saved games --------------------------------------------------------------
    async def saved(self) -> list[TableSummary]:
        tables = await self.service.live_tables(PLATFORM, SCOPE)
        tables += await self.service.live_tables(PLATFORM, LEGACY_CHAT.scope)
        return sorted(tables, key=lambda t: t.session_id)

    async def pick_saved(self, saved: list[TableSummary]) -> Chosen | None:
        """List the saved games; the one chosen, resumed, or None for a new game."""
        lines: list[Text] = [msg("Saved games:")]
        for n, table in enumerate(saved, start=1):
            lines.append(msg("  {n}) {table}", n=n, table=table.describe()))
        lines.append(msg("  n) a new game"))
        self.out(joined(lines, "\n"))
        while True:
            numbers = "1" if len(saved) == 1 else f"1-{len(saved)}"
            answer = (
                await self.ask(msg("Resume which game? [{numbers}, or n]: ", numbers=numbers))
            ).lower()
            if answer in ("n", "new"):
                return None
            if (number(answer) or 0) and 1 <= int(answer) <= len(saved):
                return await self.resume(saved[int(answer) - 1])  # None: closed, start anew
            if len(saved) == 1:
                self.out(msg("Type 1 to resume that game, or n for a new one."))
            else:
                self.out(
                    msg(
                        "Type a number from 1 to {len} to resume that game, or n for a new one.",
                        len=len(saved),
                    )
                )

    async def resume(self, table: TableSummary) -> Chosen | None:
        self.out(msg("Resuming game {describe}", describe=table.describe()))
        chat = table.chat
        # this keyboard is the table's one reader: it speaks this terminal's language now,
        # board and own views alike (a game saved under another LANG spoke that one)
        with contextlib.suppress(UserError):
            await self.service.language(chat, local_user(table.seats[0][0]), self.language)
        if table.status == "lobby":  # stopped between opening the table and its start
            first = local_user(table.seats[0][0])
            try:
                return Chosen(chat, await self.service.begin(chat, first))
            except UserError as exc:
                await self.service.abort(chat, first, is_admin=True)
                self.out(msg("{problem} That table is closed; start a new game.", problem=exc.msg))
                return None
        return Chosen(chat, await self.service.board(chat))

    # ----- a new game ---------------------------------------------------------------
    def find_game(self, answer: str):
        """By number in the list, id, or the start of its title; None if there is none."""
        text = answer.strip().lower()
        games = self.service.game_list()
        if (number(text) or 0) and 1 <= int(text) <= len(games):
            return self.service.game(games[int(text) - 1][0])
        if text in {gid for gid, _ in games}:
            return self.service.game(text)
        starts = [gid for gid, title in games if text and title.lower().startswith(text)]
        return self.service.game(starts[0]) if len(starts) == 1 else None

    async def ask_game(self):
        """The list once; a wrong answer is told so, and `help` (or Enter) lists again."""
        self.out(game_list(self.service))
        count = len(self.service.game_list())
        while True:
            answer = await self.ask(msg("Which game? [1-{len} or its id]: ", len=count))
            game = self.find_game(answer)
            if game is not None:
                return game
            if answer.lower() in ("", "help", "?"):
                self.out(game_list(self.service))
            else:
                self.out(
                    msg(
                        "There is no game {game}. Type a number from 1 to {len} or a game's id (help lists them again).",
                        game=repr(excerpt(answer)),
                        len=count,
                    )
                )

    async def ask_options(self, game) -> str:
        """Each option, its choices shown in the reader's words; its code (`short`), its
        words or its number are understood."""
        self.out(option_help(game))
        chosen_here = []
        for name, option in sorted(game.options.items()):
            words = {c: option.label(c) for c in option.choices}
            while True:
                answer = await self.ask(
                    msg(
                        "  {name} [{choices}] ({default}): ",
                        name=game.option_name(name),
                        choices=shown(words, self.language),
                        default=words[option.default],
                    )
                )
                if not answer:
                    break
                value = chosen(answer, words, self.language)
                if value is not None:
                    if value != option.default:
                        chosen_here.append(f"{name}={value}")
                    break
                self.out(
                    msg(
                        "  {name} is one of: {join} ({description}).",
                        name=game.option_name(name),
                        join=joined(list(words.values())),
                        description=msg(option.description),  # said in the reader's language
                    )
                )
        return " ".join(chosen_here)

    async def ask_level(self) -> str:
        levels, default = self.service.bot_levels()
        words = {level: self.service.level_word(level) for level in levels}
        while True:
            answer = await self.ask(
                msg(
                    "The bots' level [{join}] ({default}): ",
                    join=shown(words, self.language),
                    default=words[default],
                )
            )
            if not answer:
                return default
            level = chosen(answer, words, self.language)
            if level is not None:
                return level
            self.out(msg("The level is one of: {join}.", join=joined(list(words.values()))))

    async def ask_names(self, game) -> list[str]:
        while True:
            line = await self.ask(
                msg(
                    "Player names, separated by commas ({player_range} players; `bot` for a computer player, e.g. Ann,bot): ",
                    player_range=game.player_range(),
                )
            )
            names = [n.strip() for n in line.split(",") if n.strip()]
            problem = names_problem(game, names)
            if problem is None:
                return names
            self.out(problem)

    async def start(
        self, game, names: list[str], options: str, *, interactive: bool = False
    ) -> Chosen:
        problem = names_problem(game, names) if names else None
        if problem:
            self.out(problem)
        if not names or problem:
            names = await self.ask_names(game)
        if interactive and any(is_bot(n) for n in names) and "level=" not in options:
            options = f"{options} level={await self.ask_level()}".strip()
        while True:
            try:
                return await self._open(game, names, options)
            except UserError as exc:  # a bad option from the command line: ask for them
                self.out(exc.msg)
                options = await self.ask_options(game)

    async def _open(self, game, names: list[str], options: str) -> Chosen:
        chat = await self._free_chat()
        users = [local_user(name) for name in names if not is_bot(name)]
        replies = await self.service.start(chat, users[0], game.id, options)
        for user in users[1:]:
            replies = await self.service.join(chat, user)
        for _ in range(len(names) - len(users)):  # computer players (service/bots.py)
            replies = await self.service.add_bot(chat, users[0])
        row = await self.service.live(chat)
        if row is not None and row.status == "lobby":
            replies = await self.service.begin(chat, users[0])
        return Chosen(chat, replies)

    async def _free_chat(self) -> ChatRef:
        """Each terminal game its own chat, so several can be saved side by side."""
        used = {table.chat.thread for table in await self.saved()}
        n = 1
        while str(n) in used:
            n += 1
        return ChatRef(
            PLATFORM, "terminal", str(n), SCOPE, language=self.language
        )  # it speaks the keyboard's


def is_bot(name: str) -> bool:
    """`bot` among the names is a computer player."""
    return name.strip().lower() == "bot"


def names_problem(game, names: list[str]) -> Text | None:
    """Why these names cannot play this game, or None."""
    if not game.min_players <= len(names) <= game.max_players:
        return msg(
            "{game} is for {range} players; you named {count}. Type the names separated by "
            "commas, e.g. Ann,Bob (or Ann,bot).",
            game=msg(game.title),
            range=game.player_range(),
            count=len(names),
        )
    humans = [n for n in names if not is_bot(n)]
    if not humans:
        return msg("Name at least one player besides the bots, e.g. Ann,bot.")
    if len({n.lower() for n in humans}) != len(humans):
        return msg("Each player at this keyboard needs a different name.")
    long = [n for n in names if len(n) > MAX_NAME]
    if long:  # the one limit of every front end (bot/service/base/platform_input.py)
        return msg(
            "A name is at most {most} characters: {start}...",
            most=MAX_NAME,
            start=long[0][:MAX_NAME],
        )
    return None
