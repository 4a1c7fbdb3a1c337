"""Terminal play: several local players at one keyboard (hot-seat), with the real service
and store, so a game played here is saved and resumed exactly like a chat game.

In a game with secrets (hands, hidden cards) the keyboard is handed over: before the next
player's private view, private notes or choices (whose labels name their cards) appear, the
screen and its scrollback are cleared (`screen.py`) and that player confirms they have the
keyboard. Notes for a player who is not at the keyboard wait until they take it.

A move is shown as soon as it is stored, and each bot's turn after it as it comes; then the
board. What one request shows is printed in the order it happened: the table's lines
first, then what only the player at the keyboard reads.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace

from bot.console.answers import YES, is_yes
from bot.console.lessons import LessonAtKeyboard
from bot.console.picture_shelf import PictureShelf
from bot.console.printing import PLATFORM, TerminalTransport
from bot.console.screen import Screen
from bot.console.setup import Leave, Setup, local_user
from bot.console.spoken import say
from bot.delivery import Asked, Delivery
from bot.delivery.waiting import WORKING, signalled
from bot.service import (
    Call,
    ChatRef,
    Command,
    GameService,
    Plan,
    Reply,
    UserError,
    UserRef,
    commands,
    number,
    short_refusal,
)
from languages import Text, in_context, joined, msg, resolve

# the keyboard's own words: not service actions, but how one keyboard plays (see `help_text`)
OWN_WORDS = (
    ("moves", msg("every choice you have (long lists are cut short after each move)")),
    ("describe on", msg("describe the board in words after every move (off: only on request)")),
    (
        in_context("terminal command", "as NAME MOVE"),
        msg("act for another player, e.g. in a reaction window"),
    ),
    ("quit", msg("leave; the game is saved after every move, resume it with the same command")),
)
ALIASES = {"view": "hand", "choices": "moves", "?": "help", "exit": "quit"}


def at_keyboard() -> list[Command]:
    """The service's commands a terminal offers: those declared for the keyboard."""
    return [c for c in commands.COMMANDS if c.at_keyboard]


# the keyboard's lesson: the declared dialogue (`escape-bot learn GAME` runs it too)
LEARN = next(c for c in commands.COMMANDS if c.dialogue and c.at_keyboard)


def keyboard_command(word: str) -> Command | None:
    """The declared keyboard command a typed word names, if any."""
    name = ALIASES.get(word.lower(), word.lower())
    return next((c for c in at_keyboard() if c.name == name), None)


@dataclass(frozen=True)
class Padded:
    """A text said in the reader's language, then padded (the help's aligned column)."""

    text: Text
    width: int

    def said_in(self, language: str) -> str:
        return say(self.text, language).ljust(self.width)


def help_text() -> Text:
    """The keyboard's help: the commands declared for it, then its own words (a move typed
    or its number, `moves`, `describe`, `as NAME MOVE`, `quit`), which only make sense at one
    keyboard shared by several players, so no other front end has them."""
    lines: list[Text] = [
        msg(
            "Type a move as the game words it (shown in [brackets] after each choice), or its number."
        ),
        msg("Other commands:"),
    ]
    lines += [
        msg(
            "  {usage} {what}",
            usage=replace(c.usage, prefix="", width=15),
            what=c.at_keyboard_help or c.help,
        )
        for c in at_keyboard()
    ]
    lines += [
        msg("  {usage} {what}", usage=Padded(usage, 15), what=what) for usage, what in OWN_WORDS
    ]
    return joined(lines, "\n")


SAVED = msg("The game is saved; run the same command again to resume it.")
INTERRUPTED = msg("The game is saved; `make run` resumes it.")
MENU_LINES = 12  # after a move; `moves` lists every choice
SAID_KEPT = 100  # moves' lines shown again at a hand-over, at most
YOU = local_user("you")  # who asks for an ended game's log at this keyboard
_readers: set[threading.Thread] = set()  # threads reading the keyboard now


def _read_line(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        return None


def keyboard_waited_on() -> bool:
    """A thread still waits for a line from the keyboard (after Ctrl-C): the process must
    leave with `os._exit`, or the interpreter's shutdown aborts on the stdin lock."""
    return any(thread.is_alive() for thread in _readers)


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
        finally:
            _readers.discard(threading.current_thread())
        loop.call_soon_threadsafe(_settle, answer, line, None)

    thread = threading.Thread(target=reading, name="terminal-input", daemon=True)
    _readers.add(thread)
    thread.start()
    return await answer


def _settle(answer: asyncio.Future, line, exc) -> None:
    if answer.done():
        return
    if exc is not None:
        answer.set_exception(exc)
    else:
        answer.set_result(line)


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
        self.screen = Screen(None if out is print else out)  # (print: standard output)
        self.out = lambda text: self.screen.write(say(text, self.language))
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
        self.batch: list[Reply] | None = None  # the replies of the plan being delivered
        self.woken = -1  # the version at which the bots were last asked to play on
        self.said: list[Text] = []  # what moves did at the table since the last hand-over
        self.delivery = Delivery(service, PLATFORM)
        self.transport = TerminalTransport(self)
        self.reading: asyncio.Future | None = None  # the line being read from the keyboard
        self.table = 0  # the table this keyboard plays
        self.shown = -1  # the newest version of it shown here
        self.elsewhere = asyncio.Event()  # it changed elsewhere (the browser, a bot...)
        self.humans: list[UserRef] = []  # the game's people at this keyboard

    async def ask(self, prompt: Text) -> str | None:
        """The next line typed. A read left waiting (the table changed elsewhere meanwhile)
        answers the next question: its prompt is printed again."""
        if self.reading is None or self.reading.done():
            self.reading = asyncio.ensure_future(
                read_in_background(self.read, say(prompt, self.language))
            )
        else:
            self.out(prompt)
        return await asyncio.shield(self.reading)

    def heard(self, table: int, version: int) -> None:
        """The table signal: a change not shown here (a move in the browser, a bot's turn
        after it, another process)."""
        if table == self.table and version > self.shown:
            self.elsewhere.set()

    async def typed_or_changed(self, prompt: Text) -> str | bool | None:
        """The line typed, or False when the table changed elsewhere first (the read goes
        on, and answers the next question)."""
        self.elsewhere.clear()
        asking = asyncio.ensure_future(self.ask(prompt))
        changed = asyncio.ensure_future(self.elsewhere.wait())
        try:
            done, _ = await asyncio.wait({asking, changed}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            changed.cancel()
        if asking in done:
            return asking.result()
        asking.cancel()  # (the read itself is shielded: it goes on)
        return False

    # ----- starting or resuming -------------------------------------------------------
    async def play(self, game_id: str | None, names: list[str], options: str | None = None) -> int:
        try:
            setup = Setup(self.service, self.ask, self.out, self.language)
            chosen = await setup.choose(game_id, names, options)
        except (Leave, asyncio.CancelledError):  # end of input, quit, or Ctrl-C
            self.out(joined(["", msg("Nothing started; bye.")], "\n"))
            return 0
        self.chat = chosen.chat
        await self.show(chosen.replies, full=True)  # the first board with its description
        return await self.loop()

    # ----- the loop ---------------------------------------------------------------------
    async def loop(self) -> int:
        assert self.chat is not None
        unsubscribe = self.service.on_table_change(self.heard)
        try:
            return await self._loop()
        finally:
            unsubscribe()

    async def _loop(self) -> int:
        while True:
            row = await self.service.live(self.chat)
            behind = self.table and self.shown >= 0 and (row is None or row.version > self.shown)
            if behind and await self.catch_up():  # what was done elsewhere, move by move
                continue
            if row is None:
                if self.board is not None and self.board.final and self.board.session_id:
                    return await self._after(self.board.session_id)
                return 0
            players = {s.name.lower(): local_user(s.name) for s in row.seats}
            humans = [local_user(s.name) for s in row.seats if s.kind == "human"]
            self.humans = humans  # (who reviews the game once it is over)
            actor = self.actor()
            if actor is None and row.status == "active" and row.version != self.woken:
                self.woken = row.version  # bots to act, their run stopped: they play on
                await self.show(await self.service.wake_bots(row.id, self.tell))
                continue
            if self.secrets and len(humans) == 1 and self.holder != humans[0]:
                await self.take_keyboard(humans[0])  # alone against bots: nobody looks away
            handing_over = self.secrets and actor is not None and actor != self.holder
            if handing_over and not await self.hand_over(actor):
                self.out(joined(["", SAVED], "\n"))
                return 0
            me = self.holder if self.secrets and self.holder else actor
            line = await self.typed_or_changed(f"{actor.name}> " if actor else "> ")
            if line is False:  # changed elsewhere: said at the top of the loop
                continue
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
                self.refuse(exc, line)

    async def catch_up(self) -> bool:
        """Say what happened at the table since this keyboard last showed it (each move made
        in the browser, by a bot or by another process, with who made it), then the board
        and the menu of whoever is to act. False when nothing had."""
        me = self.holder or self.actor()
        plan = await self.service.since(self.chat, self.table, self.shown, me)
        if not plan.replies:
            return False
        self.out(msg("Meanwhile, elsewhere:"))
        await self.show(plan, asker=me)
        return True

    def refuse(self, exc: UserError, line: str) -> None:
        """A refusal, quoting at most a short excerpt of what was typed."""
        self.out(short_refusal(say(msg("! {exc}", exc=exc.msg), self.language), line))

    async def tell(self, plan: Plan) -> None:
        """A stored step of a move (the move, then each bot's turn), shown as it comes."""
        await self.show(plan)

    async def move(self, who: UserRef, action: str) -> None:
        await self.show(await self.service.move(self.chat, who, action, told=self.tell))

    async def command(self, words: list[str], line: str, row, players: dict, me, actor) -> None:
        """One line typed at the keyboard; `as NAME ...` runs it as that player."""
        word, rest = ALIASES.get(words[0].lower(), words[0].lower()), words[1:]
        who = me or next(iter(players.values()))
        declared = keyboard_command(word)
        toggle = word == "describe" and [w.lower() for w in rest] in (["on"], ["off"])
        if word == "help":
            self.out(help_text())
        elif declared is not None and not toggle:
            await self.run(declared, rest, me or actor or who, row.game)
        elif word == "moves":
            self.out(self.menu_text(limit=None) or msg("You have no choice to make now."))
        elif toggle:  # `describe on|off`: every board in words, or only when asked
            self.describe = rest[0].lower() == "on"
            self.out(
                msg(
                    "Descriptions after every move: {value}.",
                    value=msg("on") if self.describe else msg("off"),
                )
            )
        elif word == "as" and len(rest) >= 2 and rest[0].lower() in players:
            other = players[rest[0].lower()]
            if ALIASES.get(rest[1].lower(), rest[1].lower()) in (
                "help",
                "moves",
            ) or keyboard_command(rest[1]):  # `as Ann hand`
                await self.command(rest[1:], " ".join(rest[1:]), row, players, other, other)
            else:
                await self.move(other, " ".join(rest[1:]))
        elif word == "as":
            names = ", ".join(s.name for s in row.seats)
            self.out(msg("! Say `as NAME MOVE`, NAME one of: {names}.", names=names))
        elif number(word) is not None and actor is not None and not rest:
            await self.move(actor, self.pick(word))
        elif actor is not None:
            await self.move(actor, line)
        else:
            self.out(msg("Nobody is to act; type `board`."))

    async def run(self, command: Command, words: list[str], asker: UserRef, game: str) -> None:
        """A declared command typed at the keyboard, run by the service and its answer shown.
        A dialogue (a lesson) runs as a loop of its own here, then play goes on (in a chat
        the service holds it in the private chat, which a keyboard has not)."""
        if command.dialogue:
            await self.lesson(words[0] if words else game, asker.name, command)
            self.out(msg("Back to the game."))
            await self.show(await self.service.board(self.chat), asker=asker)
            return
        if command.asks_first and not await self.confirmed():
            self.out(msg("The game goes on."))
            return
        # the keyboard's people share one chat of their own: each is its admin
        call = Call(self.chat, asker, commands.words_as_args(command, words), is_admin=True)
        answer = signalled(self.service.run_command(command.name, call), self.working)
        await self.show_answer(await answer, asker)

    async def working(self) -> None:
        """An answer that takes a while (a hint's search) is said to be coming."""
        self.out(WORKING)

    async def show_answer(self, plan: Plan, asker: UserRef) -> None:
        """A command's answer: a review's chart is a file of its own in the pictures folder
        (not a player's view), a board or a view is shown whole, described in words."""
        reviews = [r for r in plan if r.kind == "review"]
        if reviews:
            for reply in reviews:
                self.out(reply.text)
                if reply.picture is not None:
                    path = self.shelf.root / reply.picture.filename
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(reply.picture.png)
                    self.out(msg("[picture: {path}]", path=path))
            return
        full = any(r.kind in ("board", "private") for r in plan)
        await self.show(plan, full=full, asker=asker)

    async def confirmed(self) -> bool:
        """The language's own yes confirms (English's too); anything else keeps playing."""
        answer = await self.ask(msg("End this game for everyone? Type {yes} to confirm: ", yes=YES))
        return is_yes(answer, self.language)

    async def lesson(self, game_id: str, learner: str, command: Command = LEARN) -> bool:
        """`learn GAME`: the lesson at this keyboard; True if a real game was asked for."""
        at = LessonAtKeyboard(self.service, self.shelf, self.ask, self.out, self.language, command)
        return await at.run(game_id, learner)

    def actor(self) -> UserRef | None:
        board = self.board
        if board is None or board.kind != "board" or not board.mention:
            return None
        first = board.mention[0]
        return local_user(first.name)

    async def _after(self, session_id: int) -> int:
        """The game is over: the keyboard's commands that read a past game (its replay,
        review, log) fill in this one, and `history`, until quit or end of input."""
        self.out(
            msg(
                "The game is over. Type `replay` to write its replay to a file, `review` for a chart of how it went, `log` to read it, or `quit`."
            )
        )
        who = self.holder or next(iter(self.humans), YOU)
        while (line := await self.ask("> ")) is not None:
            words = line.strip().split()
            word = ALIASES.get(words[0].lower(), words[0].lower()) if words else ""
            if word == "quit":
                break
            declared = keyboard_command(word)
            try:
                if declared is not None and declared.after_end:
                    await self.run(
                        declared, words[1:] or [str(session_id)] * declared.past_game, who, ""
                    )
                elif word:
                    after = [c.name for c in at_keyboard() if c.after_end]
                    self.out(
                        msg("The game is over: {commands} or quit.", commands=", ".join(after))
                    )
            except UserError as exc:
                self.refuse(exc, line)
        return 0

    def numbered(self) -> list[tuple[int, str, Text]]:
        """(number, action, label) of each choice: its place in the list, or, where every
        choice is one move to a numbered place (Hidden Castle's `place 7`), that place's
        number, so that typing 7 places on space 7."""
        words = [action.split() for action, _ in self.menu]
        own = [int(w[-1]) for w in words if len(w) == 2 and w[-1].isdigit()]
        if (
            len(own) == len(self.menu) > 1
            and len(set(own)) == len(own)
            and len({w[0] for w in words}) == 1
        ):
            return [(n, a, label) for n, (a, label) in zip(own, self.menu, strict=True)]
        return [(n, a, label) for n, (a, label) in enumerate(self.menu, start=1)]

    def pick(self, number: str) -> str:
        n = int(number)
        if not self.menu:
            raise UserError(msg("You have no choice to make now."))
        choices = self.numbered()
        found = next((action for k, action, _ in choices if k == n), None)
        if found is not None:
            return found
        if len(choices) == 1:
            raise UserError(
                msg("Your one choice is number {n}; type {n}, or the move.", n=choices[0][0])
            )
        if choices[-1][0] == len(choices):
            raise UserError(
                msg("Choose a number from 1 to {len}, or type the move.", len=len(self.menu))
            )
        raise UserError(
            msg(
                "Choose one of the numbers shown ({numbers}), or type the move.",
                numbers=", ".join(str(k) for k, _, _ in choices),
            )
        )

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
        self.screen.hide(to.name, lambda text: say(text, self.language))
        self.shelf.forget_views(self.board.session_id if self.board is not None else None)
        said, self.said = self.said, []  # what the table heard since the last hand-over
        if self.board is not None:
            said.append(self.board.text)
        if said:
            self.out(joined(said, "\n"))
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
    async def show(
        self, plan: Plan | list[Reply], full: bool = False, asker: UserRef | None = None
    ) -> None:
        """Deliver a plan here: a private message only to whoever has the keyboard (else it
        waits for its player)."""
        plan = plan if isinstance(plan, Plan) else Plan(list(plan))
        plan.language = plan.language or self.language  # one reader here: the log, rules...
        for reply in plan:  # the newest version of the table shown here
            if reply.session_id is not None and reply.version is not None:
                if reply.session_id != self.table:
                    self.table, self.shown = reply.session_id, -1
                self.shown = max(self.shown, reply.version)
        boards = [r for r in plan if r.kind in ("board", "lobby") and r.to is None]
        if boards:
            self.board = boards[-1]
            self.secrets = self.board.kind == "board" and bool(plan.table and plan.table.secrets)
            self.menu = []
        self.full = full
        asked = Asked(asker or self.holder or self.actor() or YOU)
        self.batch = []
        try:
            await self.delivery.deliver(
                self.chat or ChatRef(PLATFORM, "terminal"), plan, self.transport, asked
            )
        finally:
            batch, self.batch = self.batch, None
            for reply in sorted(batch, key=lambda r: r.to is not None):  # the table's first
                self.print_reply(reply)
        if boards and boards[-1].kind == "board" and not boards[-1].final:
            actor = self.actor()
            if actor is not None and (not self.secrets or actor == self.holder):
                await self.show_menu(actor)

    def print_reply(self, reply: Reply) -> None:
        """One message, as the transport hands it over (while a plan is being delivered,
        kept until its end, to be printed in order)."""
        if self.batch is not None:
            self.batch.append(reply)
            return
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
            if reply.kind == "info" and reply.session_id is not None:  # what a move did
                self.said = [*self.said[-SAID_KEPT:], reply.text]
        self.picture(reply, self.full)

    def say_private(self, reply: Reply, full: bool = False) -> None:
        if reply.picture is not None and (full or self.describe):  # a view, said whole
            reply = replace(reply, text=reply.picture.alt)
        self.out(msg("(only {name} sees this) {text}", name=reply.to.name, text=reply.text))
        self.picture(reply, full)
        self.shown_private = True

    def picture(self, reply: Reply, full: bool) -> None:
        path = self.shelf.keep(reply)
        if path is None:
            return
        description = reply.picture.alt
        # a private view: its text is its whole words, or its own lines (`hand` says all)
        if reply.to is not None or description in reply.text:
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
        for n, action, label in self.numbered():
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


# the learner's name when none is given: a name, since the game's lines say it in the third
# person ("You draws a card" read wrong in the captions), as the local web page's "Player"
LEARNER = in_context("terminal", "Player")


async def learn_in_terminal(
    service: GameService,
    pictures,
    game_id: str | None,
    learner: str | None = None,
    language: str | None = None,
) -> int:
    """`escape-bot learn GAME`: a lesson at this keyboard, then, if asked, a real game
    against a bot."""
    terminal = Terminal(service, pictures, language=language)
    learner = learner or say(LEARNER, terminal.language)
    if not game_id:
        terminal.out(
            msg(
                "Which game? `escape-bot learn GAME`, with GAME one of: {games}.",
                games=", ".join(g for g, _ in service.game_list()),
            )
        )
        return 2
    if await terminal.lesson(game_id, learner):
        return await terminal.play(game_id.strip().lower(), [learner, "bot"], "")
    return 0


def terminal_language() -> str:
    """The language the terminal's locale names (LC_ALL, LC_MESSAGES, LANG), if any."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "")
        if value and value not in ("C", "POSIX") and not value.startswith("C."):
            return value
    return ""
