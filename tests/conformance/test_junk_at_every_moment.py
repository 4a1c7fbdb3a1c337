"""Junk at every moment of every game, at the service's door: every command of the command
table with junk in each argument, every kind of button with junk or stale numbers, the web
board's review and replay frames, from a seated player, a stranger and a user of another
platform with a seated player's number; in every game and player count, at the table's
opening, after each of its first moves, once it has ended, and for a table aborted in its
lobby with one player seated (whose review and replay once raised from `game.setup`).

Each input is answered (a plan) or refused (`UserError`): anything else is a crash, and the
test lists them all. Junk changes nothing: the state and the log are as they were.
"""

from __future__ import annotations

import functools
import random

import pytest

from bot.service import COMMANDS, Call, ChatRef, GameService, UserError, UserRef, Visitor
from bot.store import Store
from engines import CHANCE, REGISTRY
from engines.ai.review import review

CHAT = ChatRef("test", "chan-1", "", "guild-1")
STRANGER = UserRef("test", "u-xena", "Xena")
JUNK = [
    "",
    "²",
    "٣",
    "３",
    "२",
    "1_0",
    "+3",
    "-1",
    "9" * 30,
    "🙂",
    "a" * 300,
    "#0",
    "x=y=z",
    "\x00",
]
MOMENTS = 4  # moves fed junk after the opening (then played on to the end, and fed again)
TO_THE_END = 1500  # moves at most played on to the end (else the table is aborted)
REAL = {"undo"}  # a lone player's undo is taken at once: fed by a stranger only
READ_ONLY = set("vgywpnh")  # button kinds a seated player presses with its real numbers too


def players(n: int) -> list[UserRef]:
    return [UserRef("test", f"u-{i}", f"P{i}") for i in range(n)]


CONFIGS = [
    pytest.param(game_id, n, id=f"{game_id}-{n}p")
    for game_id, game in sorted(REGISTRY.items())
    for n in range(game.min_players, game.max_players + 1)
]


class Feeder:
    def __init__(self, service: GameService, seated: list[UserRef]) -> None:
        self.service = service
        self.seated = seated
        # another platform, a seated player's very number
        self.elsewhere = UserRef("other", seated[0].id, "P0 elsewhere")
        self.crashes: list[str] = []
        self.inputs = 0

    async def _try(self, what: str, call) -> None:
        self.inputs += 1
        try:
            await call
        except UserError:
            pass
        except Exception as exc:  # a crash: listed, the test goes on
            self.crashes.append(f"{what}: {type(exc).__name__}: {exc}")

    async def moment(self, session_id: int, k: int) -> None:
        service = self.service
        row = await service.store.session(session_id)
        before = (row.status, row.state, len(await service.store.log(session_id)))
        people = [self.seated[k % len(self.seated)], STRANGER]
        for i, command in enumerate(COMMANDS):
            # a command that acts for real when its asker may: fed by a stranger only
            real = command.asks_first or command.name in REAL
            people_here = [STRANGER] if real else people
            await self._try(
                f"/escape {command.name} by {people_here[0].name}",
                service.run_command(command.name, Call(CHAT, people_here[0])),
            )
            for user in people_here:
                junk = JUNK[(i + k) % len(JUNK)]
                args = {arg.name: junk for arg in command.args}
                await self._try(
                    f"/escape {command.name} {args} by {user.name}",
                    service.run_command(command.name, Call(CHAT, user, args)),
                )
        for data in self.button_data(session_id, row.version, k):
            for user in (STRANGER, self.elsewhere):
                await self._try(f"press {data} by {user.name}", service.press(CHAT, user, data))
            await self._try(
                f"private press {data}", service.press_privately("test", STRANGER, data)
            )
            code = data.split(":")[0]
            if code in READ_ONLY or not data[2:].startswith(str(session_id)):
                player = self.seated[k % len(self.seated)]
                await self._try(f"press {data} by {player.name}", service.press(CHAT, player, data))
        web = service.web_board
        for user in (self.seated[0], STRANGER, self.elsewhere, None):
            visitor = Visitor(user)
            await self._try(f"web review by {user}", web.review(session_id, visitor, "en"))
            for n in (0, 1, 10**9):
                await self._try(f"web frame {n} by {user}", web.frame(session_id, visitor, n))
        row = await service.store.session(session_id)
        after = (row.status, row.state, len(await service.store.log(session_id)))
        assert after == before, f"junk changed the table at moment {k}"

    @staticmethod
    def button_data(session_id: int, version: int, k: int) -> list[str]:
        codes = "jlbovgkwyrpnhud"
        out = ["", "junk", "a:", "T:1:j", "t:99:0:0", "z:1", "a:" + "9" * 40]
        for code in codes:
            out += [
                f"{code}:{session_id}",
                f"{code}:{session_id}:{10**9}",
                f"{code}:{session_id}:{max(0, version - 1)}",
                f"{code}:0",
            ]
        out += [
            f"a:{session_id}:{max(0, version - 1)}:0:0",  # stale
            f"a:{session_id}:{version}:{k % 3}:9999",  # no such move
            f"a:{session_id}:{version}:99:0",  # no such seat
        ]
        return out


async def play_one(service: GameService, session_id: int, seated: list[UserRef], rng) -> bool:
    """One legal move by the seat to act; False once the game is over."""
    row = await service.store.session(session_id)
    if row.status != "active":
        return False
    game = REGISTRY[row.game]
    state = game.load(row.state)
    acting = game.to_act(state)
    if not acting or acting == [CHANCE]:
        return False
    seat = acting[0]
    action = rng.choice(game.legal_actions(state, seat))
    await service.move(CHAT, seated[seat], action)
    return True


@pytest.mark.parametrize(("game_id", "n"), CONFIGS)
async def test_junk_at_every_moment_of_every_game_finds_no_crash(tmp_path, monkeypatch, game_id, n):
    # the hint's guard and the review look through less (the inputs are what is tried)
    monkeypatch.setattr("engines.ai.threats.BUDGET", 60)
    monkeypatch.setattr("engines.ai.review.LEVEL", "easy")  # the move it would have preferred
    monkeypatch.setattr(
        "bot.service.learning.reviews.review", functools.partial(review, samples=1, depth=1)
    )
    store = await Store.open(tmp_path / "junk.sqlite3")
    service = GameService(store, seed_source=lambda: 1234, pictures=False, ai_scale=0.01)
    seated = players(n)
    feeder = Feeder(service, seated)
    rng = random.Random(n)
    try:
        # a table aborted in its lobby with one player seated
        await service.start(CHAT, seated[0], game_id)
        lobby = (await service.live(CHAT)).id
        await service.abort(CHAT, seated[0])
        await feeder.moment(lobby, 1)
        # a game played: junk at its opening and after each of its first moves
        await service.start(CHAT, seated[0], game_id)
        for user in seated[1:]:
            await service.join(CHAT, user)
        if (await service.live(CHAT)).status == "lobby":
            await service.begin(CHAT, seated[0])
        session_id = (await service.live(CHAT)).id
        for k in range(MOMENTS + 1):
            await feeder.moment(session_id, k)
            if not await play_one(service, session_id, seated, rng):
                break
        for _ in range(TO_THE_END):
            if not await play_one(service, session_id, seated, rng):
                break
        if (await service.store.session(session_id)).status == "active":
            await service.abort(CHAT, seated[0])
        await feeder.moment(session_id, MOMENTS + 1)
    finally:
        await store.close()
    assert feeder.inputs > 500
    assert not feeder.crashes, "\n".join(feeder.crashes[:20])
