"""`/escape review [GAME]`: a finished game reviewed for the one who asks (engines/ai/review.py).

A collaborator of the service, handed the table core, the CPU pool and the access rule.
The whole review (the game played again from its log, the chances judged after every
move, the AI's preferred moves, the chart drawn) is one job in the worker pool, none of it
on the event loop. A review is what its reader's seat saw: a player's review judges
positions as their seat could know them, and names another player's move in a game with
secrets only by its number. So in a game with secrets only its players get one; in a game
with none, anyone who may watch the table does. Every review goes to its reader alone.
"""

from __future__ import annotations

import base64
import random
from collections import OrderedDict

from bot.service.base.delivery_plan import Picture, Plan, Reply
from bot.service.base.requests import ChatRef, UserError, UserRef
from bot.service.pictures.workers import CpuPool
from bot.service.tables.access import Access, Visitor
from bot.service.tables.table import Table, never_began, seat_of
from bot.store import SessionRow
from engines import CHANCE, REGISTRY, BadOption, Game, IllegalAction
from engines.ai.review import Review, review
from engines.text import Text, command, joined, msg, to_json
from languages import say

KEPT = 32  # reviews kept (a game is reviewed by each of its players, maybe twice)
ONLY_PLAYERS = msg(
    "A review shows what a player's seat saw: in a game with secrets, only its players can ask for one."
)
NOT_OVER = msg("That game is still being played: its review comes once it has ended.")


def reviewed(
    game_id: str,
    names: list[str],
    options: dict,
    entries: list[tuple[int, str]],
    viewer: int | None,
    seed: int,
    number: int,
    language: str,
    pictures: bool,
) -> tuple[Review, Picture | None]:
    """The review and its chart (a module-level function for the CPU pool)."""
    from render import review_chart

    game = REGISTRY[game_id]
    done = review(game, names, options, entries, viewer, seed)
    if not pictures:
        return done, None
    view = chart_view(game, names, number, done)
    png = review_chart.chart_png(view, language)
    return done, Picture(
        png, review_chart.describe(view, language), f"review-{number}.png", language
    )


def chart_view(game: Game, names: list[str], number: int, done: Review) -> dict:
    return {
        "number": number,
        "game": to_json(msg(game.title)),
        "names": list(names),
        "cooperative": done.cooperative,
        "points": [[p.n, list(p.chances)] for p in done.points],
        "turning": [[t.n, t.seat] for t in done.turning],
    }


def percent(value: float) -> int:
    return round(100 * min(1.0, max(0.0, value)))


def told(game: Game, names: list[str], number: int, done: Review, viewer: int | None) -> Text:
    """The review in words: whose view, then each turning move and what the AI thought."""
    if viewer is not None:
        lines: list[Text] = [
            msg(
                "Review of game #{number}, {game}, as {name} saw it (the chart: chances after every move).",
                number=number,
                game=msg(game.title),
                name=names[viewer],
            )
        ]
    else:
        lines = [
            msg(
                "Review of game #{number}, {game} (the chart: chances after every move).",
                number=number,
                game=msg(game.title),
            )
        ]
    before = {p.n: p.chances for p in done.points}
    for k, t in enumerate(done.turning, start=1):
        whose = 0 if done.cooperative else t.seat
        was, now = percent(before[t.n - 1][whose]), percent(before[t.n][whose])
        said = dict(k=k, n=t.n, name=names[t.seat], was=was, now=now)
        if done.cooperative:
            head = msg(
                "{k}. Move {n}, {name}: the party's chance of escaping went from {was}% to {now}%.",
                **said,
            )
        else:
            head = msg(
                "{k}. Move {n}, {name}: their chance of winning went from {was}% to {now}%.", **said
            )
        if t.move is None:
            lines.append(
                joined([head, msg("(Their cards are theirs: their move is not told here.)")], " ")
            )
        elif t.preferred is None:
            lines.append(
                joined(
                    [head, msg("They played {move}, the only move there was.", move=t.move)], " "
                )
            )
        elif t.agreed:
            lines.append(
                joined(
                    [
                        head,
                        msg(
                            "They played {move}, as the AI would have: what came next moved the chances.",
                            move=t.move,
                        ),
                    ],
                    " ",
                )
            )
        elif t.swing > 0:  # it raised their chance: no reproach, the AI's other idea told
            lines.append(
                joined(
                    [
                        head,
                        msg(
                            "They played {move}, and it paid off (the AI would have played {preferred}).",
                            move=t.move,
                            preferred=t.preferred,
                        ),
                    ],
                    " ",
                )
            )
        else:
            lines.append(
                joined(
                    [
                        head,
                        msg(
                            "They played {move}; the AI would have preferred {preferred}.",
                            move=t.move,
                            preferred=t.preferred,
                        ),
                    ],
                    " ",
                )
            )
    return joined(lines, "\n")


class Reviews:
    def __init__(self, table: Table, cpu: CpuPool, access: Access, *, pictures: bool) -> None:
        self.table = table
        self.store = table.store
        self.cpu = cpu
        self.access = access
        self.pictures = pictures
        self._kept: OrderedDict = OrderedDict()

    async def of(
        self, row: SessionRow, visitor: Visitor, language: str, seat: int | None = None
    ) -> tuple[Text, Picture | None, int | None]:
        """A finished game's review for `visitor` (as `seat` saw it, if it is one of
        theirs): its words, its chart, whose seat."""
        admission = await self.access.watcher(row, visitor)  # first: a stranger learns nothing
        game = REGISTRY.get(row.game)
        if game is None:
            raise UserError(msg("This bot no longer has the game {game}.", game=repr(row.game)))
        if row.status not in ("finished", "aborted"):
            raise UserError(NOT_OVER)
        why = never_began(row)
        if why is not None:
            raise UserError(why)
        viewer = admission.seats[0] if len(admission.seats) == 1 else None
        if seat is not None and seat in admission.seats:  # one of the seats they play
            viewer = seat
        if viewer is None and visitor.user is not None:  # a player's own seat: platform and id
            viewer = seat_of(row, visitor.user)
        if viewer is None and game.hidden_information:
            raise UserError(ONLY_PLAYERS, reason="not_a_player")
        if row.rules_version != game.rules_version:
            raise UserError(
                msg(
                    "Game #{number} was played under an older version of the rules of {game}, so it cannot be reviewed.",
                    number=row.id,
                    game=msg(game.title),
                )
            )
        key = (row.id, row.version, viewer, language)
        if key not in self._kept:
            entries = [
                (e.seat, e.action)
                for e in await self.store.log(row.id)
                if not e.undone and (e.seat >= 0 or e.seat == CHANCE)
            ]
            names = [s.name for s in row.seats]
            seed = random.Random(f"review:{row.seed}:{viewer}").getrandbits(48)
            try:
                done, picture = await self.cpu.run(
                    reviewed,
                    game.id,
                    names,
                    dict(row.options),
                    entries,
                    viewer,
                    seed,
                    row.id,
                    language,
                    self.pictures,
                )
            except (BadOption, IllegalAction, KeyError, IndexError) as exc:  # a log that no
                # longer plays under these rules (the rules' version is checked above)
                raise UserError(
                    msg(
                        "Game #{number} cannot be reviewed with this version of the bot; its log is still there ({log}).",
                        number=row.id,
                        log=command("log"),
                    )
                ) from exc
            self._kept[key] = (told(game, names, row.id, done, viewer), picture)
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        text, picture = self._kept[key]
        return text, picture, viewer

    async def review(self, chat: ChatRef, user: UserRef, which: str | None, recall) -> Plan:
        """`/escape review [GAME]`: the game here (the last one ended) or number GAME."""
        row = await recall(chat, which)
        return await self.reply(row, Visitor(user, here=chat), user)

    async def reply(self, row: SessionRow, visitor: Visitor, user: UserRef) -> Plan:
        """The review to `user` alone (`user.language`: what they read; the chart is drawn
        in it)."""
        text, picture, _ = await self.of(row, visitor, user.language or "en")
        reply = Reply(text, kind="review", picture=picture, to=user, session_id=row.id)
        return Plan([reply], asker=user, quiet=True)

    async def page(
        self, row: SessionRow, visitor: Visitor, language: str, seat: int | None = None
    ) -> dict:
        """The review as the web page shows it beside the replay."""
        text, picture, _ = await self.of(row, visitor, language, seat)
        return {
            "text": say(text, language),
            "picture": "data:image/png;base64," + base64.b64encode(picture.png).decode()
            if picture
            else None,
            "alt": picture.alt if picture else "",
        }
