"""`/escape learn GAME`: a game taught by doing, to one person alone (engines/tutorials).

A collaborator of the service, handed the store, the CPU pool (the board pictures) and the
lobby's start (the real game a lesson ends by offering). A lesson is private to its
learner: every reply goes to the learner alone (an ephemeral reply, the private chat, the
terminal, the web page), its buttons name no one, and a press acts only on the presser's
own lesson. Progress is the step number a learner has reached in each game, kept in the
store's meta table (`tutorial.<platform>.<user id>`), so a learner who leaves resumes
there; the position is rebuilt from the lesson's script (`engines.tutorials.position`).

`/escape learn ghosts18` starts (or resumes) a lesson; `/escape learn again ghosts18`
starts it over; anything else typed is the learner's move in their current lesson. A move
other than the one the step teaches is explained and asked again, and changes nothing.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Awaitable, Callable

from bot.service.base.buttons import LessonButton
from bot.service.base.command_words import GAME
from bot.service.base.delivery_plan import Choice, Plan, Reply
from bot.service.base.requests import ChatRef, UserError, UserRef
from bot.service.pictures.drawing import draw_on
from bot.service.pictures.workers import CpuPool
from bot.store import Store
from engines import REGISTRY, Game, IllegalAction
from engines.text import Msg, Text, command, joined, msg
from engines.tutorials import Lesson, lessons, play_out, position
from languages import say

Start = Callable[[ChatRef, UserRef, str, str], Awaitable[Plan]]

OFFERED = 4  # move buttons a step shows: the move it teaches among a few others
AGAIN = ("again", "restart")
LESSONS = lessons()
ORDER = sorted(LESSONS)  # a lesson's number in its buttons
NOT_YOURS = msg("That button is not one of ours; use the buttons of your lesson.")


def move_button(game: str, step: int, index: int) -> str:
    return LessonButton(ORDER.index(game), step, index).data


def play_button(game: str) -> str:
    return LessonButton(ORDER.index(game)).data


class Tutorials:
    def __init__(self, store: Store, cpu: CpuPool, start: Start, pictures: bool = True) -> None:
        self.store = store
        self.cpu = cpu
        self.start = start
        self.pictures = pictures

    # ----- progress ---------------------------------------------------------------------
    @staticmethod
    def _key(user: UserRef) -> str:
        return f"tutorial.{user.platform}.{user.id}"

    async def _progress(self, user: UserRef) -> dict:
        raw = await self.store.get_meta(self._key(user))
        try:
            data = json.loads(raw) if raw else {}
        except ValueError:
            data = {}
        return data if isinstance(data, dict) else {}

    async def _save(self, user: UserRef, game: str, step: int) -> None:
        data = await self._progress(user)
        at = data.get("at") if isinstance(data.get("at"), dict) else {}
        data = {"game": game, "at": {**at, game: step}}
        await self.store.set_meta(self._key(user), json.dumps(data, sort_keys=True))

    @staticmethod
    def _step_of(data: dict, game: str) -> int:
        at = data.get("at") if isinstance(data.get("at"), dict) else {}
        step = at.get(game, 0)
        return step if isinstance(step, int) and 0 <= step <= len(LESSONS[game].steps) else 0

    # ----- entry points -----------------------------------------------------------------
    async def learn(self, chat: ChatRef, user: UserRef, text: str | None) -> Plan:
        """`/escape learn [again] GAME`, or the learner's move in their current lesson."""
        words = (text or "").strip().lower().split()
        again = bool(words) and words[0] in AGAIN
        if again:
            words = words[1:]
        if not words:
            data = await self._progress(user)
            current = data.get("game")
            if again or current not in LESSONS:
                raise UserError(which_lesson())
            return await self._show(user, current, self._step_of(data, current), welcome=True)
        if words[0] in LESSONS and len(words) == 1:
            game = words[0]
            data = await self._progress(user)
            step = 0 if again else self._step_of(data, game)
            if step >= len(LESSONS[game].steps):
                step = 0  # a finished lesson starts over
            await self._save(user, game, step)
            return await self._show(user, game, step, welcome=True)
        data = await self._progress(user)
        game = data.get("game")
        if game not in LESSONS:
            raise UserError(which_lesson())
        return await self._answer(user, game, self._step_of(data, game), " ".join(words))

    async def press(self, chat: ChatRef, user: UserRef, button: LessonButton) -> Plan:
        """A lesson's button, from whoever pressed it: it acts on their own lesson only."""
        if button.lesson >= len(ORDER):
            raise UserError(NOT_YOURS)
        game_id = ORDER[button.lesson]
        if button.step is None:
            return await self.start(chat, user, game_id, "bots=1 level=easy")
        progress = await self._progress(user)
        step = self._step_of(progress, game_id)
        if progress.get("game") != game_id or button.step != step:
            raise UserError(
                msg(
                    "That button is from an earlier step of a lesson; use the newest one, or {learn} to see it again.",
                    learn=command("learn"),
                )
            )
        game = REGISTRY[game_id]
        state = position(game, LESSONS[game_id], user.name, step)
        legal = game.legal_actions(state, 0)
        if not 0 <= button.index < len(legal):
            raise UserError(NOT_YOURS)
        return await self._answer(user, game_id, step, legal[button.index])

    # ----- a step -----------------------------------------------------------------------
    async def _answer(self, user: UserRef, game_id: str, step: int, action: str) -> Plan:
        lesson, game = LESSONS[game_id], REGISTRY[game_id]
        if step >= len(lesson.steps):
            raise UserError(
                msg(
                    "You have finished this lesson: {learn} plays it again.",
                    learn=command("learn", game_id),
                )
            )
        state = position(game, lesson, user.name, step)
        current = lesson.steps[step]
        try:
            action = game.check(state, 0, action)
        except IllegalAction as exc:
            return await self._again(user, game, lesson, step, state, [exc.msg])
        if action != current.move:
            return await self._again(user, game, lesson, step, state, [])
        after, events = game.apply(state, 0, action)
        said: list[Text] = [e.text for e in events if e.to in (None, 0)]
        _, told = play_out(game, after, current.then)
        if current.after is not None:
            said.append(current.after)
        said += told
        await self._save(user, game_id, step + 1)
        return await self._show(user, game_id, step + 1, said=said)

    async def _again(self, user, game, lesson, step, state, said: list[Text]) -> Plan:
        """A move that is not the step's: why, and the step's move asked again."""
        current = lesson.steps[step]
        lines = [*said, current.wrong, prompt(game, state, current.move)]
        reply = Reply(
            joined(lines, "\n"),
            kind="private",
            to=user,
            choices=self._choices(game, lesson, step, state, user),
        )
        return Plan([reply], asker=user, quiet=True)

    async def _show(self, user: UserRef, game_id: str, step: int, said=(), welcome=False) -> Plan:
        """The board before step `step`, with what the step says and asks; or the end."""
        lesson, game = LESSONS[game_id], REGISTRY[game_id]
        state = position(game, lesson, user.name, step)
        lines: list[Text] = list(said)
        if welcome and step == 0:
            lines = [msg("Lesson: {game}.", game=msg(game.title)), *lesson.goal]
        elif welcome:
            lines = [
                msg(
                    "Lesson: {game}, step {step} of {steps}.",
                    game=msg(game.title),
                    step=step + 1,
                    steps=len(lesson.steps),
                )
            ]
        choices: list[Choice] = []
        if step < len(lesson.steps):
            current = lesson.steps[step]
            lines += [*current.say, prompt(game, state, current.move)]
            choices = self._choices(game, lesson, step, state, user)
        else:
            lines += [
                lesson.closing,
                msg(
                    "Play a real game against a bot next: {start}.",
                    start=command("start", game_id, "bots=1"),
                ),
            ]
            choices = [Choice(msg("Play against a bot"), play_button(game_id), style="primary")]
        reply = Reply(joined(lines, "\n"), kind="private", to=user, choices=choices)
        # in each reader's language
        reply.later = self._drawer(game, state) if self.pictures else None
        return Plan([reply], asker=user, quiet=True)

    def _drawer(self, game: Game, state):
        view = game.view(state, 0)

        async def draw(language: str):
            return await draw_on(self.cpu, game.id, view, f"lesson-{game.id}.png", None, language)

        return draw

    @staticmethod
    def _choices(game: Game, lesson: Lesson, step: int, state, user: UserRef) -> list[Choice]:
        """The step's move among a few others (a learner may press a wrong one and hear
        why), in an order that does not give it away."""
        legal = game.legal_actions(state, 0)
        move = lesson.steps[step].move
        others = [a for a in legal if a != move][: OFFERED - 1]
        shown = sorted([move, *others], key=lambda a: (hash_of(a, step), a))
        return [
            Choice(game.label(state, a), move_button(game.id, step, legal.index(a))) for a in shown
        ]


def hash_of(action: str, step: int) -> int:
    """A fixed shuffle (Python's own `hash` of a string changes from run to run)."""
    return sum((i + step + 1) * ord(c) for i, c in enumerate(action)) % 97


def prompt(game: Game, state, move: str) -> Msg:
    return msg("Your move: {label} (`{move}`)", label=game.label(state, move), move=move)


def which_lesson() -> Msg:
    return msg(
        "Which game would you like to learn? {learn}, with GAME one of: {games}.",
        games=", ".join(ORDER),
        learn=command("learn", GAME),
    )


async def page_of(plan: Plan, language: str) -> dict:
    """A lesson's step as the web page shows it: its words, its board (a PNG as a data
    address: the page's pictures come from its own origin), its buttons."""
    [reply] = plan.replies
    await reply.drawn(language)
    picture = reply.picture
    return {
        "text": say(reply.text, language),
        "picture": "data:image/png;base64," + base64.b64encode(picture.png).decode()
        if picture
        else None,
        "alt": picture.alt if picture else "",
        "choices": [
            {"label": say(c.label, language), "data": c.data, "play": c.data.endswith(":p")}
            for c in reply.choices
        ],
    }
