"""Terminal play: several local players at one keyboard (hot-seat), with the real service
and store, so a game played here is saved and resumed exactly like a chat game.

In a game with secrets (hands, hidden cards) the keyboard is handed over: before the next
player's private view, private notes or choices (whose labels name their cards) appear, the
screen is cleared and that player confirms they have the keyboard. Notes for a player who is
not at the keyboard wait until they take it.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable

from bot.console.picture_shelf import PictureShelf
from bot.console.printing import PLATFORM, TerminalTransport
from bot.console.setup import Leave, Setup, local_user
from bot.delivery import Asked, Delivery
from bot.service import COMMANDS, ChatRef, GameService, Plan, Reply, UserError, UserRef

# the table's commands a terminal game offers (from the service's command table), and its own
SHARED_COMMANDS = ("board", "hand", "log", "replay", "history", "rules", "abort")
OWN_COMMANDS = (
    ("moves", "every choice you have (long lists are cut short after each move)"),
    ("describe on", "describe the board in words after every move (off: only on request)"),
    ("as NAME MOVE", "act for another player, e.g. in a reaction window"),
    ("quit", "leave; the game is saved after every move, resume it with the same command"),
)


def help_text() -> str:
    lines = [
        "Type a move as the game words it (shown in [brackets] after each choice), or its number.",
        "Other commands:",
    ]
    for command in COMMANDS:
        if command.name in SHARED_COMMANDS:
            usage = " ".join([command.name, *(f"[{a.name.upper()}]" for a in command.args if a.kind != "game")])  # fmt: skip
            lines.append(f"  {usage:<14} {command.help[0].lower()}{command.help[1:]}")
    lines += [f"  {usage:<14} {what}" for usage, what in OWN_COMMANDS]
    return "\n".join(lines)


SAVED = "The game is saved; run the same command again to resume it."
MENU_LINES = 12  # after a move; `moves` lists every choice
CLEAR = "\033[2J\033[H"
YOU = local_user("you")  # who asks for an ended game's log at this keyboard


def _read_line(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        return None


def _clear_screen(out: Callable[[str], None]) -> None:
    """Clear a real terminal; in a pipe or log, a visible mark instead."""
    if out is print and sys.stdout.isatty():
        print(CLEAR, end="", flush=True)
    else:
        out("\n" * 3 + "-" * 20 + " screen cleared for the hand-over " + "-" * 20)


class Terminal:
    def __init__(
        self,
        service: GameService,
        pictures_dir,
        out: Callable[[str], None] = print,
        read: Callable[[str], str | None] = _read_line,
        *,
        describe: bool = False,
    ) -> None:
        self.service = service
        self.shelf = PictureShelf(pictures_dir)
        self.out = out
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

    async def ask(self, prompt: str) -> str | None:
        return await asyncio.to_thread(self.read, prompt)

    # ----- starting or resuming -------------------------------------------------------
    async def play(self, game_id: str | None, names: list[str], options: str | None = None) -> int:
        try:
            chosen = await Setup(self.service, self.ask, self.out).choose(game_id, names, options)
        except Leave:
            self.out("Nothing started; bye.")
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
            actor = self.actor()
            handing_over = self.secrets and actor is not None and actor != self.holder
            if handing_over and not await self.hand_over(actor):
                self.out("\n" + SAVED)
                return 0
            me = self.holder if self.secrets and self.holder else actor
            line = await self.ask(f"{actor.name}> " if actor else "> ")
            if line is None:
                self.out("\n" + SAVED)
                return 0
            self.shown_private = False
            words = line.strip().split()
            if not words:
                continue
            command = words[0].lower()
            try:
                if command in ("quit", "exit"):
                    self.out(SAVED)
                    return 0
                if command in ("help", "?"):
                    self.out(help_text())
                elif command == "board":
                    await self.show(await self.service.board(self.chat), full=True)
                elif command in ("hand", "view"):
                    who = me or next(iter(players.values()))
                    await self.show(await self.service.private_view(self.chat, who), full=True)
                elif command in ("moves", "choices"):
                    self.out(self.menu_text(limit=None) or "You have no choice to make now.")
                elif command == "log":
                    which = words[1] if len(words) > 1 else None
                    await self.show(await self.service.game_log(self.chat, me or YOU, which))
                elif command == "replay":
                    await self._write_replay(words[1] if len(words) > 1 else None)
                elif command == "history":
                    await self.show(await self.service.ended_games(self.chat))
                elif command == "rules":
                    await self.show([await self.service.rules(row.game)])
                elif command == "describe":
                    self.describe = words[1:2] != ["off"]
                    self.out(f"Descriptions after every move: {'on' if self.describe else 'off'}.")
                elif command == "abort":
                    await self.abort(me or next(iter(players.values())))
                elif command == "as" and len(words) >= 3 and words[1].lower() in players:
                    who = players[words[1].lower()]
                    await self.show(await self.service.move(self.chat, who, " ".join(words[2:])))
                elif command == "as":
                    names = ", ".join(s.name for s in row.seats)
                    self.out(f"! Say `as NAME MOVE`, NAME one of: {names}.")
                elif command.isdigit() and actor is not None and len(words) == 1:
                    await self.show(await self.service.move(self.chat, actor, self.pick(command)))
                elif actor is not None:
                    await self.show(await self.service.move(self.chat, actor, line))
                else:
                    self.out("Nobody is to act; type `board`.")
            except UserError as exc:
                self.out(f"! {exc}")

    def actor(self) -> UserRef | None:
        board = self.board
        if board is None or board.kind != "board" or not board.mention:
            return None
        first = board.mention[0]
        return local_user(first.name)

    async def _after(self, session_id: int) -> int:
        """The game is over: its replay and log on request, until quit or end of input."""
        self.out("The game is over. Type `replay` to write its replay to a file, `log` to read it, or `quit`.")  # fmt: skip
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
                    await self.show(await self.service.ended_games(self.chat))
                elif command:
                    self.out("The game is over: replay, log, history or quit.")
            except UserError as exc:
                self.out(f"! {exc}")
        return 0

    async def _write_replay(self, which: str | None) -> None:
        """The replay as a GIF in the pictures folder (a terminal shows no animation)."""
        try:
            await self.show(await self.service.replay(self.chat, which))
        except UserError as exc:
            self.out(f"! {exc}")

    def pick(self, number: str) -> str:
        n = int(number)
        if not 1 <= n <= len(self.menu):
            raise UserError(f"Choose a number from 1 to {len(self.menu)}, or type the move.")
        return self.menu[n - 1][0]

    async def abort(self, who: UserRef) -> None:
        answer = await self.ask("End this game for everyone? Type yes to confirm: ")
        if (answer or "").strip().lower() not in ("y", "yes"):
            self.out("The game goes on.")
            return
        await self.show(await self.service.abort(self.chat, who, is_admin=True))

    # ----- hot-seat hand-over -----------------------------------------------------------
    async def hand_over(self, to: UserRef) -> bool:
        """Clear the screen and give `to` the keyboard; False if the input ended."""
        if self.holder is not None and self.shown_private:
            line = await self.ask(
                f"{self.holder.name}: press Enter to hide your view and pass the keyboard to "
                f"{to.name}. "
            )
            if line is None:
                return False
        _clear_screen(self.out)
        if self.board is not None:
            self.out(self.board.text)
        line = await self.ask(
            f"{to.name}: take the keyboard and press Enter (the others look away). "
        )
        if line is None:
            return False
        self.holder = to
        self.shown_private = False
        waiting = self.pending.pop(to.id, [])
        for reply in waiting:
            self.say_private(reply, full=True)
        if not any(r.picture is not None or r.choices for r in waiting):  # no view yet
            await self.show(await self.service.private_view(self.chat, to), full=True, asker=to)
        await self.show_menu(to)
        return True

    # ----- output ---------------------------------------------------------------------
    async def show(self, plan: Plan | list[Reply], full: bool = False, asker: UserRef | None = None) -> None:  # fmt: skip
        """Deliver a plan here: a private message only to whoever has the keyboard (else it
        waits for its player)."""
        plan = plan if isinstance(plan, Plan) else Plan(list(plan))
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
        prefix = f"(for {reply.to.name} only) " if reply.to else ""
        self.out(prefix + reply.text)
        self.picture(reply, self.full)

    def say_private(self, reply: Reply, full: bool = False) -> None:
        self.out(f"(only {reply.to.name} sees this) {reply.text}")
        self.picture(reply, full)
        self.shown_private = True

    def picture(self, reply: Reply, full: bool) -> None:
        path = self.shelf.keep(reply)
        if path is None:
            return
        description = reply.picture.alt
        if description in reply.text:  # a private view: its text holds the description
            self.out(f"[picture: {path}]")
        elif full or self.describe:
            self.out(f"[picture: {path}] {description}")
        else:
            hint = "" if self.hinted else " (`board` describes it in words)"
            self.hinted = True
            self.out(f"[picture: {path}]{hint}")

    async def show_menu(self, actor: UserRef) -> None:
        self.menu = await self.service.choices(self.chat, actor)
        text = self.menu_text(limit=MENU_LINES)
        if text:
            self.out(text)

    def menu_text(self, limit: int | None) -> str:
        lines = []
        for n, (action, label) in enumerate(self.menu, start=1):
            typed = "" if label.lower() == action else f"  [{action}]"
            lines.append(f"  {n}) {label}{typed}")
        if limit is not None and len(lines) > limit:
            rest = len(lines) - limit
            lines = [*lines[:limit], f"  ... and {rest} more: `moves` lists them all"]
        return "\n".join(lines)


async def run_terminal(
    service: GameService,
    pictures,
    game_id: str | None,
    names: list[str],
    options: str | None,
    describe: bool = False,
) -> int:
    terminal = Terminal(service, pictures, describe=describe)
    return await terminal.play(game_id, names, options)


def stdin_is_interactive() -> bool:
    return sys.stdin.isatty()
