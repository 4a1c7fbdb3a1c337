"""`learn GAME` at the keyboard: a lesson of the service (`/escape learn`), printed here.

Each step is printed as the service words it, its board written to the pictures folder
(`pictures/lesson-GAME.png`, overwritten step by step), its choices numbered: type the
number, or the move as the prompt writes it. `quit` (or the end of input) leaves; the
lesson resumes at the same step with `learn GAME` later. At the end the learner is asked
whether to play a real game against a bot, which the caller then starts.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.console.answers import NO, YES, is_yes
from bot.console.picture_shelf import PictureShelf
from bot.console.setup import PLATFORM, local_user
from bot.console.spoken import say
from bot.service import (
    Call,
    ChatRef,
    Command,
    GameService,
    Plan,
    UserError,
    number,
    short_refusal,
)
from languages import Text, msg

LESSON_CHAT = ChatRef(PLATFORM, "lessons", scope="terminal")


def left(game: str) -> Text:
    return msg("The lesson is saved at this step; `learn {game}` goes on from here.", game=game)


class LessonAtKeyboard:
    def __init__(
        self,
        service: GameService,
        shelf: PictureShelf,
        ask: Callable[[Text], Awaitable[str | None]],
        out: Callable[[Text], None],
        language: str,
        command: Command,
    ) -> None:
        self.command = command  # the declared dialogue (`learn`): its name and its words' arg
        self.said = command.args[0].name
        self.service = service
        self.shelf = shelf
        self.ask = ask
        self.out = out
        self.language = language

    async def run(self, game_id: str, learner: str) -> bool:
        """The lesson to its end or until the learner leaves: True when they asked to play
        a real game against a bot."""
        user = local_user(learner, self.language)
        try:
            plan = await self.service.run_command(
                self.command.name, Call(LESSON_CHAT, user, {self.said: game_id})
            )
        except UserError as exc:
            self.out(msg("! {exc}", exc=exc.msg))
            return False
        game = game_id.strip().lower()
        while True:
            choices = await self.show(plan)
            if not choices:
                return False
            if any(c.data.endswith(":p") for c in choices):  # the end: a real game?
                answer = await self.ask(
                    msg("Play a real game against a bot now? Type {yes} or {no}: ", yes=YES, no=NO)
                )
                return is_yes(answer, self.language)
            line = await self.ask(msg("{name}> ", name=learner))
            if line is None or line.strip().lower() in ("quit", "exit"):
                self.out(left(game))
                return False
            typed = line.strip()
            if not typed:
                continue
            try:
                if number(typed) is not None and 1 <= int(typed) <= len(choices):
                    plan = await self.service.press(LESSON_CHAT, user, choices[int(typed) - 1].data)
                else:
                    plan = await self.service.run_command(
                        self.command.name, Call(LESSON_CHAT, user, {self.said: typed})
                    )
            except UserError as exc:
                self.out(short_refusal(say(msg("! {exc}", exc=exc.msg), self.language), typed))

    async def show(self, plan: Plan) -> list:
        """Print the plan's replies (a board picture to its file); the last one's choices."""
        choices: list = []
        for reply in plan:
            await reply.drawn(self.language)
            self.out(reply.text)
            path = self.shelf.keep(reply)
            if path is not None:
                self.out(msg("[picture: {path}]", path=path))
            choices = list(reply.choices)
            for n, choice in enumerate(choices, start=1):
                self.out(f"  {n}) {say(choice.label, self.language)}")
        return choices
