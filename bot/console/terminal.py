"""Terminal play: several local players at one keyboard (hot-seat), with the real service
and store, so a game played here is saved and resumed exactly like a chat game."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path

from bot.service import ChatRef, GameService, Reply, UserError, UserRef
from engines import REGISTRY

CHAT = ChatRef("console", "terminal")
HELP = """Type a move as the game words it (e.g. `place b1`, `move c3 up`), or the number of a choice.
Other commands: board, hand (the private view of whoever is to act), log [GAME], rules, help,
replay [GAME] (an animated picture, written to the pictures folder), history,
as NAME MOVE (act for another player, e.g. in a reaction window), abort, quit.
The game is saved after every move: quit at any time and run the same command to resume."""


def _read_line(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        return None


class Terminal:
    def __init__(
        self,
        service: GameService,
        pictures_dir: Path,
        out: Callable[[str], None] = print,
        read: Callable[[str], str | None] = _read_line,
    ) -> None:
        self.service = service
        self.pictures = pictures_dir
        self.out = out
        self.read = read
        self.board: Reply | None = None

    async def ask(self, prompt: str) -> str | None:
        return await asyncio.to_thread(self.read, prompt)

    # ----- starting or resuming -------------------------------------------------------
    async def play(self, game_id: str | None, names: list[str], options: str = "") -> int:
        row = await self.service.live(CHAT)
        if row is not None:
            if game_id and row.game != game_id:
                self.out(f"A game of {row.game} is still in progress here; resuming it "
                         "(type `abort` to end it).")  # fmt: skip
            else:
                self.out(f"Resuming game #{row.id} ({row.game}).")
            self.show(await self.service.board(CHAT))
            return await self.loop()
        if not game_id:
            self.out("Games: " + ", ".join(sorted(REGISTRY)))
            game_id = (await self.ask("Which game? ") or "").strip()
            if not game_id:
                self.out("No game chosen; bye.")
                return 0
        try:
            game = self.service.game(game_id)
        except UserError as exc:
            self.out(str(exc))
            return 2
        if not names:
            line = await self.ask(
                f"Player names, separated by commas ({game.player_range()}; `bot` for a "
                "computer player, e.g. Ann,bot): "
            )
            if line is None:
                self.out("No players; bye.")
                return 0
            names = [n.strip() for n in line.split(",") if n.strip()]
        bots = sum(1 for n in names if n.lower() == "bot")  # computer players (service/bots.py)
        names = [n for n in names if n.lower() != "bot"]
        if bots and not names:
            self.out("Name at least one player besides the bots, e.g. Ann,bot.")
            return 2
        if len(set(n.lower() for n in names)) != len(names):
            self.out("Each local player needs a different name.")
            return 2
        if not game.min_players <= len(names) + bots <= game.max_players:
            self.out(f"{game.title} needs {game.player_range()} players.")
            return 2
        users = [_local(name) for name in names]
        try:
            replies = await self.service.start(CHAT, users[0], game_id, options)
            for user in users[1:]:
                replies = await self.service.join(CHAT, user)
            for _ in range(bots):
                replies = await self.service.add_bot(CHAT, users[0])
            row = await self.service.live(CHAT)
            if row is not None and row.status == "lobby":
                replies = await self.service.begin(CHAT, users[0])
        except UserError as exc:
            self.out(str(exc))
            return 2
        self.show(replies)
        return await self.loop()

    # ----- the loop ---------------------------------------------------------------------
    async def loop(self) -> int:
        while True:
            row = await self.service.live(CHAT)
            if row is None:
                if self.board is not None and self.board.final and self.board.session_id:
                    return await self._after(self.board.session_id)
                return 0
            players = {s.name.lower(): _local(s.name) for s in row.seats}
            actor = self.board.mention[0] if self.board and self.board.mention else None
            prompt = f"{actor.name}> " if actor else "> "
            line = await self.ask(prompt)
            if line is None:
                self.out("\nThe game is saved; run the same command again to resume.")
                return 0
            words = line.strip().split()
            if not words:
                continue
            command = words[0].lower()
            try:
                if command in ("quit", "exit"):
                    self.out("The game is saved; run the same command again to resume.")
                    return 0
                if command == "help":
                    self.out(HELP)
                elif command == "board":
                    self.show(await self.service.board(CHAT))
                elif command in ("hand", "view"):
                    who = actor or next(iter(players.values()))
                    self.show(await self.service.private_view(CHAT, who))
                elif command == "log":
                    which = words[1] if len(words) > 1 else None
                    self.show(await self.service.game_log(CHAT, actor or _local("you"), which))
                elif command == "replay":
                    await self._write_replay(words[1] if len(words) > 1 else None)
                elif command == "history":
                    self.show(await self.service.ended_games(CHAT))
                elif command == "rules":
                    self.show([await self.service.rules(row.game)])
                elif command == "abort":
                    creator = next(u for u in players.values() if u.id == row.creator)
                    self.show(await self.service.abort(CHAT, creator))
                elif command == "as" and len(words) >= 3 and words[1].lower() in players:
                    self.show(
                        await self.service.move(
                            CHAT, players[words[1].lower()], " ".join(words[2:])
                        )
                    )
                elif command.isdigit() and actor is not None:
                    self.show(
                        await self.service.press(CHAT, actor, self._choice(actor, int(command)))
                    )
                elif actor is not None:
                    self.show(await self.service.move(CHAT, actor, line))
                else:
                    self.out("Nobody is to act; type `board`.")
            except UserError as exc:
                self.out(f"! {exc}")

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
                    self.show(await self.service.game_log(CHAT, _local("you"), which))
                elif command == "history":
                    self.show(await self.service.ended_games(CHAT))
                elif command:
                    self.out("The game is over: replay, log, history or quit.")
            except UserError as exc:
                self.out(f"! {exc}")
        return 0

    async def _write_replay(self, which: str | None) -> None:
        """The replay as a GIF in the pictures folder (a terminal shows no animation)."""
        try:
            self.show(await self.service.replay(CHAT, which))
        except UserError as exc:
            self.out(f"! {exc}")

    def _choice(self, actor: UserRef, number: int) -> str:
        mine = self._choices_for(actor)
        if not 1 <= number <= len(mine):
            raise UserError(f"Choose a number from 1 to {len(mine)}, or type the move.")
        return mine[number - 1].data

    def _choices_for(self, actor: UserRef) -> list:
        if self.board is None:
            return []
        return [c for c in self.board.choices if c.for_user == actor.id]

    # ----- output ---------------------------------------------------------------------
    def show(self, replies: list[Reply]) -> None:
        for reply in replies:
            if reply.kind in ("board", "lobby"):
                self.board = reply
            prefix = f"(for {reply.to.name} only) " if reply.to else ""
            self.out(prefix + reply.text)
            if reply.picture is not None:
                self.pictures.mkdir(parents=True, exist_ok=True)
                name = reply.picture.filename
                if reply.session_id is not None:
                    name = f"game{reply.session_id}-v{reply.version:04d}-{reply.kind}.png"
                path = self.pictures / name
                path.write_bytes(reply.picture.png)
                self.out(f"[picture: {path}] {reply.picture.alt}")
            if reply.kind == "board" and reply.mention:
                actor = reply.mention[0]
                listed = self._list_choices(reply, actor)
                if listed:
                    self.out(listed)

    def _list_choices(self, reply: Reply, actor: UserRef) -> str:
        lines = [
            f"  {n}) {c.label}"
            for n, c in enumerate((c for c in reply.choices if c.for_user == actor.id), start=1)
        ]
        if len(lines) > 40:
            lines = [*lines[:40], f"  ... and {len(lines) - 40} more (type the move)"]
        return "\n".join(lines)


def _local(name: str) -> UserRef:
    return UserRef("console", f"local:{name.lower()}", name)


async def run_terminal(
    service: GameService, pictures: Path, game_id: str | None, names: list[str], options: str
) -> int:
    terminal = Terminal(service, pictures)
    return await terminal.play(game_id, names, options)


def stdin_is_interactive() -> bool:
    return sys.stdin.isatty()
