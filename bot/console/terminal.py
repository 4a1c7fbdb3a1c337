"""Terminal play: several local players at one keyboard (hot-seat), with the real service
and store, so a game played here is saved and resumed exactly like a chat game.

In a game with secrets (hands, hidden cards) the keyboard is handed over: before the next
player's private view, private notes or choices (whose labels name their cards) appear, the
screen is cleared and that player confirms they have the keyboard. Notes for a player who is
not at the keyboard wait until they take it.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass

from bot.console.picture_shelf import PictureShelf
from bot.console.printing import PLATFORM, TerminalTransport
from bot.console.setup import Leave, Setup, local_user
from bot.delivery import Asked, Delivery
from bot.service import COMMANDS, Call, ChatRef, GameService, Plan, Reply, UserError, UserRef
from bot.service.commands import Usage
from languages import Text, in_context, joined, msg, resolve, say

# the table's commands a terminal game offers (from the service's command table), and its own
SHARED_COMMANDS = ("board", "hand", "hint", "log", "replay", "history", "rules", "abort")
TERMINAL_WORDS = {*SHARED_COMMANDS, "view", "moves", "choices", "help"}
OWN_COMMANDS = (
    ("moves", msg("every choice you have (long lists are cut short after each move)")),
    ("describe on", msg("describe the board in words after every move (off: only on request)")),
    (
        in_context("terminal command", "as NAME MOVE"),
        msg("act for another player, e.g. in a reaction window"),
    ),
    ("quit", msg("leave; the game is saved after every move, resume it with the same command")),
)


@dataclass(frozen=True)
class Padded:
    """A text said in the reader's language, then padded (the help's aligned column)."""

    text: Text
    width: int

    def said_in(self, language: str) -> str:
        return say(self.text, language).ljust(self.width)


def help_text() -> Text:
    lines: list[Text] = [
        msg("Type a move as the game words it (shown in [brackets] after each choice), or its number."),
        msg("Other commands:"),
    ]  # fmt: skip
    for command in COMMANDS:
        if command.name in SHARED_COMMANDS:
            args = tuple((a.name, False) for a in command.args if a.kind != "game")
            usage = Usage(command.name, args, prefix="", width=14)
            lines.append(msg("  {usage} {what}", usage=usage, what=command.help))
    lines += [msg("  {usage} {what}", usage=Padded(usage, 14), what=what) for usage, what in OWN_COMMANDS]  # fmt: skip
    return joined(lines, "\n")


SAVED = msg("The game is saved; run the same command again to resume it.")
INTERRUPTED = msg("The game is saved; `make run` resumes it.")
MENU_LINES = 12  # after a move; `moves` lists every choice
# home, clear the screen, and clear the scrollback too (xterm's 3J): a player who scrolls
# up after the hand-over must not find the previous player's hand there
CLEAR = "\033[H\033[2J\033[3J"
YOU = local_user("you")  # who asks for an ended game's log at this keyboard


def _read_line(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        return None


async def read_in_background(read: Callable[[str], str | None], prompt: str) -> str | None:
    """`read(prompt)` on a thread of its own that does not keep the process alive: at
    Ctrl-C the program ends at once, not when Enter is pressed (a thread of asyncio's pool
    would be waited for)."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future = loop.create_future()

    def reading() -> None:
        try:
            line = read(prompt)
        except BaseException as exc:  # (KeyboardInterrupt comes to the main thread)
            loop.call_soon_threadsafe(_settle, answer, None, exc)
            return
        loop.call_soon_threadsafe(_settle, answer, line, None)

    threading.Thread(target=reading, name="terminal-input", daemon=True).start()
    return await answer


def _settle(answer: asyncio.Future, line, exc) -> None:
    if answer.done():
        return
    if exc is not None:
        answer.set_exception(exc)
    else:
        answer.set_result(line)


def _clear_screen(out: Callable[[str], None]) -> None:
    """Clear a real terminal; in a pipe or log, a visible mark instead."""
    if out is print and sys.stdout.isatty():
        print(CLEAR, end="", flush=True)
    else:
        line = "-" * 20
        out(msg("\n\n\n{line} screen cleared for the hand-over {line}", line=line))


class Terminal:
    def __init__(
        self,
        service: GameService,
        pictures_dir,
        out: Callable[[str], None] = print,
        read: Callable[[str], str | None] = _read_line,
        *,
        describe: bool = False,
        language: str | None = None,
    ) -> None:
        self.service = service
        self.shelf = PictureShelf(pictures_dir)
        # what this keyboard reads: --lang, else the terminal's locale (LANG), else English
        self.language = resolve(language or terminal_language())
        self.out = lambda text: out(say(text, self.language))
        self.read = read
        self.describe = describe  # each board's description in words after every move
        self.chat: ChatRef | None = None
        self.board: Reply | None = None
        self.menu: list[tuple[str, str]] = []  # (action, label) of the player to act
        self.secrets = False  # the game hides things: hand the keyboard over
        self.holder: UserRef | None = None  # who has the keyboard in a game with secrets
        self.pending: dict[str, list[Reply]] = {}  # private replies waiting for their player
        self.shown_private = False  # the holder saw something private since their last input
        self.hinted = False  # told once that `board` describes the picture in words
        self.full = False  # the replies being shown get their pictures described in words
        self.delivery = Delivery(service, PLATFORM)
        self.transport = TerminalTransport(self)

    async def ask(self, prompt: Text) -> str | None:
        return await read_in_background(self.read, say(prompt, self.language))

    # ----- starting or resuming -------------------------------------------------------
    async def play(self, game_id: str | None, names: list[str], options: str | None = None) -> int:
        try:
            setup = Setup(self.service, self.ask, self.out, self.language)
            chosen = await setup.choose(game_id, names, options)
        except Leave:
            self.out(msg("Nothing started; bye."))
            return 0
        self.chat = chosen.chat
        await self.show(chosen.replies, full=True)  # the first board with its description
        return await self.loop()

    # ----- the loop ---------------------------------------------------------------------
    async def loop(self) -> int:
        assert self.chat is not None
        while True:
            row = await self.service.live(self.chat)
            if row is None:
                if self.board is not None and self.board.final and self.board.session_id:
                    return await self._after(self.board.session_id)
                return 0
            players = {s.name.lower(): local_user(s.name) for s in row.seats}
            humans = [local_user(s.name) for s in row.seats if s.kind == "human"]
            actor = self.actor()
            if self.secrets and len(humans) == 1 and self.holder != humans[0]:
                await self.take_keyboard(humans[0])  # alone against bots: nobody looks away
            handing_over = self.secrets and actor is not None and actor != self.holder
            if handing_over and not await self.hand_over(actor):
                self.out(joined(["", SAVED], "\n"))
                return 0
            me = self.holder if self.secrets and self.holder else actor
            line = await self.ask(f"{actor.name}> " if actor else "> ")
            if line is None:
                self.out(joined(["", SAVED], "\n"))
                return 0
            self.shown_private = False
            words = line.strip().split()
            if not words:
                continue
            if words[0].lower() in ("quit", "exit"):
                self.out(SAVED)
                return 0
            try:
                await self.command(words, line, row, players, me, actor)
            except UserError as exc:
                self.out(msg("! {exc}", exc=exc))

    async def command(self, words: list[str], line: str, row, players: dict, me, actor) -> None:
        """One line typed at the keyboard; `as NAME ...` runs it as that player."""
        command, rest = words[0].lower(), words[1:]
        who = me or next(iter(players.values()))
        if command in ("help", "?"):
            self.out(help_text())
        elif command == "board":
            await self.show(await self.service.board(self.chat), full=True)
        elif command in ("hand", "view"):
            await self.show(await self.service.private_view(self.chat, who), full=True, asker=who)
        elif command == "hint":  # the service's command, for the player to act
            asker = me or actor or who
            await self.show(await self.service.run_command("hint", Call(self.chat, asker)), asker=asker)  # fmt: skip
        elif command in ("moves", "choices"):
            self.out(self.menu_text(limit=None) or msg("You have no choice to make now."))
        elif command == "log":
            which = rest[0] if rest else None
            await self.show(await self.service.game_log(self.chat, me or YOU, which))
        elif command == "replay":
            await self._write_replay(rest[0] if rest else None)
        elif command == "history":
            await self._history(rest)
        elif command == "rules":
            await self.show([await self.service.rules(row.game)])
        elif command == "describe":
            self.describe = rest[:1] != ["off"]
            self.out(
                msg(
                    "Descriptions after every move: {value}.",
                    value=msg("on") if self.describe else msg("off"),
                )
            )
        elif command == "abort":
            await self.abort(who)
        elif command == "as" and len(rest) >= 2 and rest[0].lower() in players:
            other = players[rest[0].lower()]
            if rest[1].lower() in TERMINAL_WORDS:  # a command as that player (`as Ann hand`)
                await self.command(rest[1:], " ".join(rest[1:]), row, players, other, other)
            else:
                await self.show(await self.service.move(self.chat, other, " ".join(rest[1:])))
        elif command == "as":
            names = ", ".join(s.name for s in row.seats)
            self.out(msg("! Say `as NAME MOVE`, NAME one of: {names}.", names=names))
        elif command.isdigit() and actor is not None and not rest:
            await self.show(await self.service.move(self.chat, actor, self.pick(command)))
        elif actor is not None:
            await self.show(await self.service.move(self.chat, actor, line))
        else:
            self.out(msg("Nobody is to act; type `board`."))

    async def _history(self, rest: list[str]) -> None:
        """`history [PAGE]`: the games that ended here, a page at a time."""
        if rest and not rest[0].isdigit():
            raise UserError(msg("Say `history` or `history 2` (a page number)."))
        page = max(0, int(rest[0]) - 1) if rest else 0
        plan = await self.service.ended_games(self.chat, page)
        await self.show(plan)
        labels = {str(c.label) for r in plan for c in r.choices}
        if "Older" in labels:
            self.out(msg("(`history {value}` shows older games.)", value=page + 2))

    def actor(self) -> UserRef | None:
        board = self.board
        if board is None or board.kind != "board" or not board.mention:
            return None
        first = board.mention[0]
        return local_user(first.name)

    async def _after(self, session_id: int) -> int:
        """The game is over: its replay and log on request, until quit or end of input."""
        self.out(msg('The game is over. Type `replay` to write its replay to a file, `log` to read it, or `quit`.'))  # fmt: skip
        while (line := await self.ask("> ")) is not None:
            words = line.strip().split()
            command = words[0].lower() if words else ""
            if command in ("quit", "exit"):
                break
            which = words[1] if len(words) > 1 else str(session_id)
            try:
                if command == "replay":
                    await self._write_replay(which)
                elif command == "log":
                    await self.show(await self.service.game_log(self.chat, YOU, which))
                elif command == "history":
                    await self._history(words[1:])
                elif command:
                    self.out(msg("The game is over: replay, log, history or quit."))
            except UserError as exc:
                self.out(msg("! {exc}", exc=exc))
        return 0

    async def _write_replay(self, which: str | None) -> None:
        """The replay as a GIF in the pictures folder (a terminal shows no animation)."""
        try:
            await self.show(await self.service.replay(self.chat, which))
        except UserError as exc:
            self.out(msg("! {exc}", exc=exc))

    def pick(self, number: str) -> str:
        n = int(number)
        if not 1 <= n <= len(self.menu):
            raise UserError(
                msg("Choose a number from 1 to {len}, or type the move.", len=len(self.menu))
            )
        return self.menu[n - 1][0]

    async def abort(self, who: UserRef) -> None:
        answer = await self.ask(msg("End this game for everyone? Type yes to confirm: "))
        if (answer or "").strip().lower() not in ("y", "yes"):
            self.out(msg("The game goes on."))
            return
        await self.show(await self.service.abort(self.chat, who, is_admin=True))

    # ----- hot-seat hand-over -----------------------------------------------------------
    async def hand_over(self, to: UserRef) -> bool:
        """Clear the screen and give `to` the keyboard; False if the input ended."""
        if self.holder is not None and self.shown_private:
            line = await self.ask(
                msg(
                    "{name}: press Enter to hide your view and pass the keyboard to {name2}. ",
                    name=self.holder.name,
                    name2=to.name,
                )
            )
            if line is None:
                return False
        _clear_screen(self.out)
        if self.board is not None:
            self.out(self.board.text)
        line = await self.ask(
            msg("{name}: take the keyboard and press Enter (the others look away). ", name=to.name)
        )
        if line is None:
            return False
        await self.take_keyboard(to)
        return True

    async def take_keyboard(self, to: UserRef) -> None:
        """`to` has the keyboard: what waited for them, their view, their moves."""
        self.holder = to
        self.shown_private = False
        waiting = self.pending.pop(to.id, [])
        for reply in waiting:
            self.say_private(reply, full=True)
        if not any(r.picture is not None or r.choices for r in waiting):  # no view yet
            await self.show(await self.service.private_view(self.chat, to), full=True, asker=to)
        await self.show_menu(to)

    # ----- output ---------------------------------------------------------------------
    async def show(self, plan: Plan | list[Reply], full: bool = False, asker: UserRef | None = None) -> None:  # fmt: skip
        """Deliver a plan here: a private message only to whoever has the keyboard (else it
        waits for its player)."""
        plan = plan if isinstance(plan, Plan) else Plan(list(plan))
        plan.language = plan.language or self.language  # one reader here: the log, rules...
        boards = [r for r in plan if r.kind in ("board", "lobby") and r.to is None]
        if boards:
            self.board = boards[-1]
            self.secrets = self.board.kind == "board" and bool(plan.table and plan.table.secrets)
            self.menu = []
        self.full = full
        asked = Asked(asker or self.holder or self.actor() or YOU)
        await self.delivery.deliver(self.chat or ChatRef(PLATFORM, "terminal"), plan, self.transport, asked)  # fmt: skip
        if boards and boards[-1].kind == "board" and not boards[-1].final:
            actor = self.actor()
            if actor is not None and (not self.secrets or actor == self.holder):
                await self.show_menu(actor)

    def print_reply(self, reply: Reply) -> None:
        """One message, as the transport hands it over."""
        if reply.to is not None and self.secrets:
            if self.holder is not None and reply.to.id == self.holder.id:
                self.say_private(reply, self.full)
            else:
                self.pending.setdefault(local_user(reply.to.name).id, []).append(reply)
            return
        if reply.to is not None:
            self.out(msg("(for {name} only) {text}", name=reply.to.name, text=reply.text))
        else:
            self.out(reply.text)
        self.picture(reply, self.full)

    def say_private(self, reply: Reply, full: bool = False) -> None:
        self.out(msg("(only {name} sees this) {text}", name=reply.to.name, text=reply.text))
        self.picture(reply, full)
        self.shown_private = True

    def picture(self, reply: Reply, full: bool) -> None:
        path = self.shelf.keep(reply)
        if path is None:
            return
        description = reply.picture.alt
        if description in reply.text:  # a private view: its text holds the description
            self.out(msg("[picture: {path}]", path=path))
        elif full or self.describe:
            self.out(msg("[picture: {path}] {description}", path=path, description=description))
        else:
            hint = "" if self.hinted else msg(" (`board` describes it in words)")
            self.hinted = True
            self.out(msg("[picture: {path}]{hint}", path=path, hint=hint))

    async def show_menu(self, actor: UserRef) -> None:
        self.menu = await self.service.choices(self.chat, actor)
        text = self.menu_text(limit=MENU_LINES)
        if text:
            self.out(text)

    def menu_text(self, limit: int | None) -> str:
        lines = []
        for n, (action, label) in enumerate(self.menu, start=1):
            said = say(label, self.language)
            typed = "" if said.lower() == action else f"  [{action}]"
            lines.append(f"  {n}) {said}{typed}")
        if limit is not None and len(lines) > limit:
            rest = len(lines) - limit
            more = say(
                msg("  ... and {rest} more: `moves` lists them all", rest=rest), self.language
            )
            lines = [*lines[:limit], more]
        return "\n".join(lines)


async def run_terminal(
    service: GameService,
    pictures,
    game_id: str | None,
    names: list[str],
    options: str | None,
    describe: bool = False,
    language: str | None = None,
) -> int:
    terminal = Terminal(service, pictures, describe=describe, language=language)
    return await terminal.play(game_id, names, options)


def terminal_language() -> str:
    """The language the terminal's locale names (LC_ALL, LC_MESSAGES, LANG), if any."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "")
        if value and value not in ("C", "POSIX") and not value.startswith("C."):
            return value
    return ""


def stdin_is_interactive() -> bool:
    return sys.stdin.isatty()
