"""The one command table: every `/escape` command declared once, with its name, arguments,
help, who may use it, where, how it answers and its handler.

Discord's `/escape` group, Telegram's command menus and `/escape ...` parsing and the help
text are all made from this table, and every fact a front end needs of a command (does it
open a table, may its words name a secret, is the asker's admin standing asked for) is read
from its declaration, never from its name: a command added here reaches every front end.

The handlers are handed the service as `Service`, the narrow view declared below: the
door's own entry points, the ones every front end calls. This module imports nothing of
game_service.py, which imports it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum, Flag, auto
from typing import Protocol

from bot.service.base.command_words import ACTION
from bot.service.base.delivery_plan import Plan, Reply
from bot.service.base.platform_input import number
from bot.service.base.requests import ChatRef, UserError, UserRef
from bot.service.learning.catalogue import which_game
from bot.service.tables.questions import HAND, NEAR
from engines.text import Command as Named
from engines.text import Msg, Text, command, in_context, joined, msg
from languages import DEFAULT, say, spelling


class Service(Protocol):
    """What a command's handler is handed: the service's door (`GameService`), the same
    entry points every front end calls; a handler never reaches past it."""

    async def start(
        self, chat: ChatRef, user: UserRef, game_id: str, options: str = ""
    ) -> Plan: ...
    async def join(self, chat: ChatRef, user: UserRef) -> Plan: ...
    async def leave(self, chat: ChatRef, user: UserRef) -> Plan: ...
    async def begin(self, chat: ChatRef, user: UserRef) -> Plan: ...
    async def abort(self, chat: ChatRef, user: UserRef, is_admin: bool = False) -> Plan: ...
    async def move(self, chat: ChatRef, user: UserRef, action: str) -> Plan: ...
    async def board(self, chat: ChatRef, viewer: UserRef | None = None) -> Plan: ...
    async def private_view(self, chat: ChatRef, user: UserRef) -> Plan: ...
    async def my_views(self, user: UserRef) -> list[Plan]: ...
    async def web_link(self, chat: ChatRef, user: UserRef) -> Plan: ...
    async def game_log(self, chat: ChatRef, user: UserRef, which: str | None = None) -> Plan: ...
    async def replay(self, chat: ChatRef, which: str | None = None) -> Plan: ...
    async def review(self, chat: ChatRef, user: UserRef, which: str | None = None) -> Plan: ...
    async def ended_games(self, chat: ChatRef, page: int = 0) -> Plan: ...
    async def stats(self, chat: ChatRef, asker: UserRef, who: UserRef | str | None) -> Plan: ...
    async def top(self, chat: ChatRef, game_id: str | None, which: str | None) -> Plan: ...
    async def ask_undo(self, chat: ChatRef, user: UserRef) -> Plan: ...
    async def hint(self, chat: ChatRef, user: UserRef) -> Plan: ...

    async def describe(self, chat: ChatRef, user: UserRef, what: str | None = None) -> Plan: ...
    async def learn(self, chat: ChatRef, user: UserRef, text: str | None = None) -> Plan: ...
    async def rules(self, game_id: str | None = None, chat: ChatRef | None = None) -> Reply: ...
    async def games_here(self, platform: str, scope: str) -> Reply: ...
    async def tournament(self, chat: ChatRef, user: UserRef, text: str, is_admin: bool) -> Plan: ...
    async def tournament_link(self, chat: ChatRef, user: UserRef) -> Plan: ...
    async def season(self, chat: ChatRef, user: UserRef, text: str, is_admin: bool) -> Plan: ...
    async def language(
        self, chat: ChatRef, user: UserRef, code: str | None, who: str | None
    ) -> Plan: ...
    async def clock_command(self, chat: ChatRef, user: UserRef, text: str = "") -> Plan: ...
    async def resign(self, chat: ChatRef, user: UserRef) -> Plan: ...
    async def offer_seat(
        self, chat: ChatRef, user: UserRef, who: UserRef | str | None, is_admin: bool
    ) -> Plan: ...
    async def remove_player(
        self, chat: ChatRef, user: UserRef, who: UserRef | str | None, is_admin: bool
    ) -> Plan: ...
    async def bar(
        self, chat: ChatRef, user: UserRef, who: UserRef | str | None, is_admin: bool
    ) -> Plan: ...
    async def unbar(
        self, chat: ChatRef, user: UserRef, who: UserRef | str | None, is_admin: bool
    ) -> Plan: ...
    async def block(self, chat: ChatRef, user: UserRef, who: UserRef | str | None) -> Plan: ...
    async def unblock(self, chat: ChatRef, user: UserRef, who: UserRef | str | None) -> Plan: ...
    async def export_data(self, chat: ChatRef, user: UserRef) -> Plan: ...
    async def forget_me(self, chat: ChatRef, user: UserRef, confirm: str | None) -> Plan: ...


class Who(Enum):
    """Who may use a command. The service decides it (a front end never does); what a
    front end learns here is whether to ask its platform if the asker administers the
    chat (`asks_admin`), and hand that answer in with the call."""

    ANYONE = "anyone"
    PLAYER = "player"  # a player seated at the table here
    STARTER = "starter"  # the table's starter, or an admin of the chat
    ADMIN = "admin"  # what it changes is for the chat's admins (showing it is for anyone)
    SEATED_OR_ADMIN = "seated_or_admin"  # a player for their own seat, an admin for anyone's

    @property
    def asks_admin(self) -> bool:
        return self in (Who.STARTER, Who.ADMIN, Who.SEATED_OR_ADMIN)


class Where(Flag):
    """Where a command is used."""

    CHANNEL = auto()  # a table's chat: a channel or group, or a thread or topic in one
    # a thread or topic of its own, opened for the table where the platform gives one
    THREAD = auto()
    PRIVATE = auto()  # the asker's private chat with the bot
    KEYBOARD = auto()  # a terminal's keyboard, its players taking turns at it (hot-seat)


TABLE = Where.CHANNEL
ANYWHERE = Where.CHANNEL | Where.PRIVATE
AT_TABLE_AND_KEYBOARD = Where.CHANNEL | Where.KEYBOARD
ANYWHERE_AND_KEYBOARD = ANYWHERE | Where.KEYBOARD

# Where a command sits in Discord's `/escape` (a group of subcommands): at its top, or in a
# group of these. Discord allows 25 entries a level and 4,000 characters a command, so the
# table is laid out in groups there (bot/discord/slash_commands.py checks it fits, at start
# and in a test); Telegram and the terminal stay flat, so a name is unique over all groups.
GROUPS: dict[str, Msg] = {
    "records": msg("Past games and ratings"),
    "admin": msg("For the chat's admins"),
    "me": msg("Yours alone: blocks, your data"),
}

# argument kinds: how a front end asks for and reads each
TEXT = "text"  # free text (the rest of the line)
GAME = "game"  # a game id, one of the catalogue's (a front end may offer the list)
MOVE = "move"  # one of the asker's legal moves (a front end may complete it)
PLAYER = "player"  # a person: a member picked on the platform, or a name as shown
# a language code, one of `languages.available()` (a front end may offer them)
LANGUAGE = "language"
PAGE = "page"  # a page number, from 1 (where a front end has no buttons to turn pages)


@dataclass(frozen=True)
class Arg:
    name: str
    kind: str
    help: Text
    required: bool = False


@dataclass
class Call:
    """A command as a front end hands it in: where, who, the arguments by name (a PLAYER
    argument may be a `UserRef` the platform resolved), and whether the asker administers
    the chat (Discord's Manage Messages, a Telegram group admin)."""

    chat: ChatRef
    user: UserRef
    args: Mapping[str, object] = field(default_factory=dict)
    is_admin: bool = False

    def text(self, name: str) -> str | None:
        value = self.args.get(name)
        if value is None or isinstance(value, UserRef):
            return None
        return str(value).strip() or None


def words_as_args(command: Command, words: list[str]) -> dict[str, str]:
    """A command's typed words as its arguments: one word each, the last takes the rest."""
    args: dict[str, str] = {}
    rest = list(words)
    for n, arg in enumerate(command.args):
        if not rest:
            break
        if n == len(command.args) - 1:
            args[arg.name], rest = " ".join(rest), []
        else:
            args[arg.name] = rest.pop(0)
    return args


Handler = Callable[[Service, Call], Awaitable[Plan]]
# asked in the asker's private chat: one plan for each of their tables
PrivateHandler = Callable[[Service, Call], Awaitable[list[Plan]]]


@dataclass(frozen=True)
class Command:
    name: str
    help: Text  # one line: the command's description in menus and in the help
    handler: Handler
    args: tuple[Arg, ...] = ()
    who: Who = Who.ANYONE
    where: Where = TABLE
    quiet: bool = (
        False  # only the asker needs the answer: shown to them alone where a front end can
    )
    menu: bool = False  # offered in the bare `/escape` menu of buttons
    listed: bool | None = None  # named in a platform's short list of commands (default: menu)
    example: Named | None = None  # an example shown in the help, spelled by its front end
    button: Text = ""  # its label on a menu button (default: the name, capitalised)
    at_once: bool = False  # no picture, nothing stored: a front end may answer without a wait
    secret_words: bool = False  # its words may name what only the asker may see (a card):
    #   a front end takes them out of a shared chat where it can
    in_private: PrivateHandler | None = None  # its answer in the asker's private chat
    at_keyboard_help: Text = ""  # its help line at a terminal's keyboard, which has no chat
    #   nor admins (declared for Where.KEYBOARD: the chat's words would mislead there)
    asks_first: bool = False  # it ends something for everyone: a front end that can asks
    #   the asker to confirm before it runs
    after_end: bool = False  # it reads what happened: still asked once the game has ended
    dialogue: bool = False  # its answers are a conversation of their own with the asker (a
    #   lesson): where there is no private chat, a front end runs it as a loop of its own,
    #   each line typed an answer to it, until it ends or the asker leaves
    group: str = ""  # its group in Discord's `/escape` (one of GROUPS; "": the top)

    @property
    def at_keyboard(self) -> bool:
        """Offered at a terminal's keyboard (hot-seat play, one chat of its own)."""
        return Where.KEYBOARD in self.where

    @property
    def past_game(self) -> bool:
        """Its first argument is a game's number: a front end may fill in the game that just
        ended."""
        return bool(self.args) and self.args[0].name == "game" and self.args[0].kind == TEXT

    @property
    def label(self) -> Text:
        return self.button or msg(self.name.capitalize())

    @property
    def usage(self) -> Usage:
        return Usage(self.name, tuple((arg.name, arg.required) for arg in self.args))

    @property
    def opens_table(self) -> bool:
        """It opens a table: in this chat, or a thread or topic of its own (a front end
        offers that and says what the bot may not do in the chat)."""
        return Where.THREAD in self.where

    @property
    def in_list(self) -> bool:
        return self.menu if self.listed is None else self.listed

    @property
    def asks_for_game(self) -> Arg | None:
        """Its required game argument: a front end may offer the games when it is missing."""
        return next((a for a in self.args if a.kind == GAME and a.required), None)


# an argument's name is a word of its own (the same English may be a description elsewhere);
# Discord's menu shows it as the option's name, the help in capitals
ARG_NAMES: dict[str, Msg] = {
    "game": in_context("slash command option name", "game"),
    "options": in_context("slash command option name", "options"),
    "action": in_context("slash command option name", "action"),
    "player": in_context("slash command option name", "player"),
    "what": in_context("slash command option name", "what"),
    "code": in_context("slash command option name", "code"),
    "scope": in_context("slash command option name", "scope"),
    "thread": in_context("slash command option name", "thread"),
    "board": in_context("slash command option name", "board"),
    "page": in_context("slash command option name", "page"),
}


@dataclass(frozen=True)
class Usage:
    """`/escape start GAME [OPTIONS]`: the command as typed, its arguments named in capitals
    in the reader's language (the command's name stays as it is typed)."""

    command: str
    args: tuple[tuple[str, bool], ...]  # (name, required)
    prefix: str | None = None  # None: as the front end saying it spells commands
    width: int = 0  # padded to this many characters (the terminal's aligned help)

    def said_in(self, language: str) -> str:
        words = []
        for name, required in self.args:
            said = say(ARG_NAMES.get(name, name), language).upper()
            words.append(said if required else f"[{said}]")
        prefix = spelling(self.command) if self.prefix is None else self.prefix
        return " ".join(w for w in [prefix, self.command, *words] if w).ljust(self.width)

    def __str__(self) -> str:
        return self.said_in(DEFAULT)


async def _start(s: Service, c: Call) -> Plan:
    game = c.text("game")
    if game is None:
        raise UserError(which_game("start"))
    return await s.start(c.chat, c.user, game, c.text("options") or "")


async def _move(s: Service, c: Call) -> Plan:
    action = c.text("action")
    if action is None:
        raise UserError(
            msg(
                "Which move? Say {move}, or press a button under the board.",
                move=command("move", ACTION),
            )
        )
    return await s.move(c.chat, c.user, action)


async def _stats(s: Service, c: Call) -> Plan:
    who = c.args.get("player")
    return await s.stats(c.chat, c.user, who if isinstance(who, UserRef) else c.text("player"))


async def _rules(s: Service, c: Call) -> Plan:
    return Plan([await s.rules(c.text("game"), c.chat)], asker=c.user)


async def _games(s: Service, c: Call) -> Plan:
    return Plan([await s.games_here(c.chat.platform, c.chat.scope)], asker=c.user)


async def _tournament(s: Service, c: Call) -> Plan:
    what = c.text("what") or ""
    if what.lower() == "web":  # the tournament's page: a link for the asker alone
        return await s.tournament_link(c.chat, c.user)
    return await s.tournament(c.chat, c.user, what, c.is_admin)


async def _history(s: Service, c: Call) -> Plan:
    said = c.text("page")
    page = number(said) if said is not None else 1
    if page is None or page < 1:
        raise UserError(msg("Say history, or history 2 for a page of older games."))
    return await s.ended_games(c.chat, page - 1)


def _person(c: Call) -> UserRef | str | None:
    """The PLAYER argument: a person the platform resolved, or a name as typed."""
    who = c.args.get("player")
    return who if isinstance(who, UserRef) else c.text("player")


async def _help(s: Service, c: Call) -> Plan:
    return Plan([help_reply()], asker=c.user)


async def _hands(s: Service, c: Call) -> list[Plan]:
    """`/escape hand` in the private chat: the asker's view of every game they play."""
    plans = await s.my_views(c.user)
    if not plans:
        raise UserError(
            msg("You are not in a running game. Your hand appears here once one begins.")
        )
    return plans


GAME_ARG = Arg("game", GAME, msg("The game to play"), required=True)
WHICH_GAME = Arg("game", GAME, msg("Which game (default: the one played here)"))
PAST_GAME = Arg("game", TEXT, msg("A game's number (see {history})", history=command("history")))

COMMANDS: tuple[Command, ...] = (
    Command(
        "start",
        msg("Open a table for a game in this channel"),
        _start,
        (GAME_ARG, Arg("options", TEXT, msg("Game options as name=value, e.g. variant=short"))),
        where=Where.CHANNEL | Where.THREAD,
        menu=True,
        example=command("start", "ghosts18", "variant=short"),
        button=msg("Start a game"),
    ),
    Command(
        "join",
        msg("Take a seat at the table waiting here"),
        lambda s, c: s.join(c.chat, c.user),
        menu=True,
    ),
    Command(
        "leave",
        msg("Give up your seat before the game begins"),
        lambda s, c: s.leave(c.chat, c.user),
        who=Who.PLAYER,
        menu=True,
    ),
    Command(
        "begin",
        msg("Start the game once enough players have joined"),
        lambda s, c: s.begin(c.chat, c.user),
        who=Who.PLAYER,
        menu=True,
    ),
    Command(
        "move",
        msg("Make a move (or press a button under the board)"),
        _move,
        (
            Arg(
                "action",
                MOVE,
                msg("Your move: start typing to see your legal moves"),
                required=True,
            ),
        ),
        who=Who.PLAYER,
        listed=True,
        secret_words=True,
    ),
    Command(
        "board",
        msg("Show the board of the game here"),
        lambda s, c: s.board(c.chat, c.user),
        where=AT_TABLE_AND_KEYBOARD,
        menu=True,
        at_keyboard_help=msg("the board again, described in words"),
    ),
    Command(
        "web",
        msg("The board in your browser: a private link, signed for you"),
        lambda s, c: s.web_link(c.chat, c.user),
        quiet=True,
    ),
    Command(
        "hand",
        msg("Your hand and private view, shown only to you"),
        lambda s, c: s.private_view(c.chat, c.user),
        who=Who.PLAYER,
        where=ANYWHERE_AND_KEYBOARD,
        quiet=True,
        menu=True,
        button=msg("My hand"),
        in_private=_hands,
        at_keyboard_help=msg("the view of the player at the keyboard: their hand, their secrets"),
    ),
    Command(
        "log",
        msg("What has happened in the game here"),
        lambda s, c: s.game_log(c.chat, c.user, c.text("game")),
        (PAST_GAME,),
        where=AT_TABLE_AND_KEYBOARD,
        quiet=True,
        menu=True,
        after_end=True,
        at_keyboard_help=msg("what has happened in this game (or in the game of that number)"),
        group="records",
    ),
    Command(
        "replay",
        msg("Replay a game as an animation, or board by board"),
        lambda s, c: s.replay(c.chat, c.text("game")),
        (Arg("game", TEXT, msg("The game's number (default: the game here, or the last one)")),),
        where=AT_TABLE_AND_KEYBOARD,
        after_end=True,
        at_keyboard_help=msg("write the game as an animated picture to a file"),
        group="records",
    ),
    Command(
        "review",
        msg(
            "A finished game reviewed for you: the chances move by move, and the moves that turned it"
        ),
        lambda s, c: s.review(c.chat, c.user, c.text("game")),
        (PAST_GAME,),
        where=AT_TABLE_AND_KEYBOARD,
        quiet=True,
        after_end=True,
        at_keyboard_help=msg(
            "a finished game reviewed: the chances move by move, as a chart in a file"
        ),
        group="records",
    ),
    Command(
        "history",
        msg("The games that ended in this channel"),
        _history,
        (Arg("page", PAGE, msg("A page of older games (default: the newest)")),),
        where=AT_TABLE_AND_KEYBOARD,
        quiet=True,
        after_end=True,
        at_keyboard_help=msg("the games that ended at this keyboard"),
        group="records",
    ),
    Command(
        "stats",
        msg("A player's ratings here"),
        _stats,
        (Arg("player", PLAYER, msg("Whose (default: yours)")),),
        where=AT_TABLE_AND_KEYBOARD,
        quiet=True,
        after_end=True,
        at_keyboard_help=msg("a player's ratings from the games at this keyboard (default: yours)"),
        group="records",
    ),
    Command(
        "top",
        msg("The leaderboard of a game here, as a picture"),
        lambda s, c: s.top(c.chat, c.text("game"), c.text("board")),
        (
            WHICH_GAME,
            Arg(
                "board",
                TEXT,
                msg(
                    "season, all, season 2; Dark Castle: daily, month (default: the season and all time)"
                ),
            ),
        ),
        example=command("top", "dark_castle", "daily"),
        group="records",
    ),
    Command(
        "undo",
        msg("Ask to take back your last move (the others must accept)"),
        lambda s, c: s.ask_undo(c.chat, c.user),
        who=Who.PLAYER,
    ),
    Command(
        "hint",
        msg("A move suggested to you alone, and why (a hinted game is not rated)"),
        lambda s, c: s.hint(c.chat, c.user),
        who=Who.PLAYER,
        where=AT_TABLE_AND_KEYBOARD,
        quiet=True,
        at_keyboard_help=msg(
            "a move suggested to the player to act, and why (a hinted game is not rated)"
        ),
    ),
    Command(
        "learn",
        msg("Learn a game by playing it, privately, in about five minutes"),
        lambda s, c: s.learn(c.chat, c.user, c.text("what")),
        (Arg("what", TEXT, msg("A game to learn (e.g. ghosts18), or your move in the lesson")),),
        where=ANYWHERE_AND_KEYBOARD,
        quiet=True,
        menu=True,
        example=command("learn", "ghosts18"),
        dialogue=True,
        at_keyboard_help=msg(
            "a lesson: learn this game (or another) by playing it, in about five minutes"
        ),
    ),
    Command(
        "rules",
        msg("The rules of a game, with a picture"),
        _rules,
        (WHICH_GAME,),
        where=ANYWHERE_AND_KEYBOARD,
        quiet=True,
        menu=True,
        at_keyboard_help=msg("the rules of this game, or of another (e.g. rules ghosts18)"),
    ),
    Command(
        "help",
        msg("How to play Escape here"),
        _help,
        where=ANYWHERE,
        quiet=True,
        menu=True,
        at_once=True,
    ),
    Command(
        "games",
        msg("The games running here"),
        _games,
        quiet=True,
        menu=True,
        button=msg("Games here"),
    ),
    Command(
        "abort",
        msg("End the game here (its creator, or a chat admin)"),
        lambda s, c: s.abort(c.chat, c.user, c.is_admin),
        who=Who.STARTER,
        where=AT_TABLE_AND_KEYBOARD,
        menu=True,
        asks_first=True,
        at_keyboard_help=msg("end this game for everyone (you are asked to confirm)"),
    ),
    Command(
        "resign",
        msg("Resign: you lose this game (rated)"),
        lambda s, c: s.resign(c.chat, c.user),
        who=Who.PLAYER,
        asks_first=True,
    ),
    Command(
        "offer",
        msg("Offer your seat to someone in this chat (an admin: anyone's)"),
        lambda s, c: s.offer_seat(c.chat, c.user, _person(c), c.is_admin),
        (Arg("player", PLAYER, msg("Whose seat (admins only; default: yours)")),),
        who=Who.SEATED_OR_ADMIN,
    ),
    Command(
        "remove",
        msg("Give a player's seat to a stand-in, and offer it"),
        lambda s, c: s.remove_player(c.chat, c.user, _person(c), c.is_admin),
        (Arg("player", PLAYER, msg("The player"), required=True),),
        who=Who.ADMIN,
        asks_first=True,
        group="admin",
    ),
    Command(
        "bar",
        msg("Bar someone from the bot's tables here"),
        lambda s, c: s.bar(c.chat, c.user, _person(c), c.is_admin),
        (Arg("player", PLAYER, msg("Whom (default: list the bars)")),),
        who=Who.ADMIN,
        quiet=True,
        group="admin",
    ),
    Command(
        "unbar",
        msg("Lift a bar"),
        lambda s, c: s.unbar(c.chat, c.user, _person(c), c.is_admin),
        (Arg("player", PLAYER, msg("Whom"), required=True),),
        who=Who.ADMIN,
        quiet=True,
        group="admin",
    ),
    Command(
        "block",
        msg("Keep someone from your tables and you from theirs"),
        lambda s, c: s.block(c.chat, c.user, _person(c)),
        (Arg("player", PLAYER, msg("Whom (default: list them)")),),
        quiet=True,
        group="me",
    ),
    Command(
        "unblock",
        msg("Lift a block"),
        lambda s, c: s.unblock(c.chat, c.user, _person(c)),
        (Arg("player", PLAYER, msg("Whom"), required=True),),
        quiet=True,
        group="me",
    ),
    Command(
        "export",
        msg("Everything kept about you, sent to you alone as a file"),
        lambda s, c: s.export_data(c.chat, c.user),
        where=ANYWHERE,
        quiet=True,
        group="me",
    ),
    Command(
        "forget-me",
        msg("Erase everything kept about you (asks you to confirm)"),
        lambda s, c: s.forget_me(c.chat, c.user, c.text("what")),
        (Arg("what", TEXT, msg("confirm: erase it")),),
        where=ANYWHERE,
        quiet=True,
        group="me",
    ),
    Command(
        "tournament",
        msg("A tournament here: create, join, leave, start, standings, withdraw, cancel"),
        _tournament,
        (
            Arg(
                "what",
                TEXT,
                msg(
                    "create GAME rounds=4 [size=4] [start=2h], join, leave, start, standings, withdraw, cancel, web"
                ),
            ),
        ),
        who=Who.STARTER,
        example=command("tournament", "create", "ghosts18", "rounds=4"),
    ),
    Command(
        "season",
        msg("This server's or group's rating seasons: show them, or (admins) start, end, off"),
        lambda s, c: s.season(c.chat, c.user, c.text("what") or "", is_admin=c.is_admin),
        (
            Arg(
                "what",
                TEXT,
                msg("start 3mo (or 2w, 30d), end (the next begins), off; default: show the season"),
            ),
        ),
        who=Who.ADMIN,
        example=command("season", "start", "3mo"),
    ),
    Command(
        "language",
        msg("The language of this channel's tables, or your own: show or set it"),
        lambda s, c: s.language(c.chat, c.user, c.text("code"), c.text("scope")),
        (
            Arg(
                "code",
                LANGUAGE,
                msg("A language: en, de, es, ru (auto: your app's, with scope=me)"),
            ),
            Arg("scope", TEXT, msg("me: only what you alone read; default: this channel")),
        ),
        where=ANYWHERE,
        example=command("language", "de"),
    ),
    Command(
        "clock",
        msg("The turn clock: show it, or mute, vacation, pause, vote"),
        lambda s, c: s.clock_command(c.chat, c.user, c.text("what") or ""),
        (
            Arg(
                "what",
                TEXT,
                msg(
                    "mute, vacation 2, vacation end, pause, resume, vote, dm on, tz Europe/Berlin, quiet 22-7 or help"
                ),
            ),
        ),
    ),
    Command(
        "describe",
        msg(
            "The board in words, or one question about it: a place, a player, {near}, {hand}",
            near=NEAR,
            hand=HAND,
        ),
        lambda s, c: s.describe(c.chat, c.user, c.text("what")),
        (
            Arg(
                "what",
                TEXT,
                msg(
                    "A place (c3, 16), a player's name, {near} (next to you) or {hand} (your own view)",
                    near=NEAR,
                    hand=HAND,
                ),
            ),
        ),
        where=AT_TABLE_AND_KEYBOARD,
        quiet=True,
        example=command("describe", "c3"),
        at_keyboard_help=msg(
            "the board in words, or one question: a place (c3), a player, {near}, {hand}",
            near=NEAR,
            hand=HAND,
        ),
    ),
)


def checked(table: tuple[Command, ...]) -> tuple[Command, ...]:
    """The table as declared, or ValueError: a name twice (every front end but Discord
    reads the table flat), or a group that is not one of GROUPS."""
    names = [c.name for c in table]
    twice = sorted({n for n in names if names.count(n) > 1})
    unknown = sorted({c.group for c in table if c.group and c.group not in GROUPS})
    if twice or unknown:
        raise ValueError(
            f"the command table: names declared twice {twice}, groups unknown {unknown}"
        )
    return table


BY_NAME: dict[str, Command] = {c.name: c for c in checked(COMMANDS)}


def find(name: str) -> Command:
    found = BY_NAME.get((name or "").strip().lower())
    if found is None:
        raise UserError(
            msg(
                "I do not know {asked}. Try {help}, or a bare {bare} for a menu.",
                asked=command(name[:32]),
                help=command("help"),
                bare=command(),
            )
        )
    return found


def help_reply() -> Reply:
    return Reply(help_text(), kind="help")


def help_text() -> Text:
    """The help every front end shows, made from the table."""
    lines: list[Text] = [msg("Escape runs one game per channel (or thread or topic).")]
    for declared in COMMANDS:
        if declared.example:
            lines.append(
                msg(
                    "{usage}: {what}, e.g. {example}",
                    usage=declared.usage,
                    what=declared.help,
                    example=declared.example,
                )
            )
        else:
            lines.append(msg("{usage}: {what}", usage=declared.usage, what=declared.help))
    lines.append(
        msg("Start options for the clock: pace=fast|normal|relaxed turn=12h timeout=skip|vote|ai")
    )
    lines.append(
        msg("Play against the computer: bots=1 level=easy|normal|hard (or press Add a bot)")
    )
    lines.append(msg("Competitive play without hints: hints=off"))
    return joined(lines, "\n")
