"""The access rule on its own (bot/service/tables/access.py): who watches, who acts, what the
platform's answers are worth and for how long; the doors themselves are tried from outside
in tests/e2e/test_web_access.py."""

from __future__ import annotations

import pytest

from bot.service import ChatRef, MemberUnknown, UserError, UserRef, Visitor
from bot.service.base.buttons import parse
from bot.service.tables.access import Access, Standing
from bot.store import SeatRow, SessionRow

GROUP = ChatRef("telegram", "-100", "", "-100")
ANN, BOB, CAROL = (
    UserRef("telegram", str(n), name) for n, name in ((1, "Ann"), (2, "Bob"), (3, "Carol"))
)


def row(*seated: UserRef) -> SessionRow:
    seats = [SeatRow(i, u.id, u.name) for i, u in enumerate(seated)]
    return SessionRow(
        7,
        "telegram",
        "-100",
        "-100",
        "",
        "ghosts18",
        {},
        1,
        "active",
        "1",
        3,
        None,
        1,
        0,
        None,
        None,
        0.0,
        0.0,
        seats=seats,
    )


class Platform:
    def __init__(self) -> None:
        self.members: set[str] = set()
        self.asked = 0
        self.down = False

    async def __call__(self, chat: ChatRef, user: UserRef) -> bool:
        self.asked += 1
        if self.down:
            raise MemberUnknown("the platform is away")
        return user.id in self.members


@pytest.fixture
def rule():
    now = [0.0]
    access = Access(clock=lambda: now[0])
    platform = Platform()
    access.ask_members("telegram", platform)
    access.check_keys(lambda table, key: table == 7 and key == "the-key")
    return access, platform, now


async def test_players_members_spectators_and_strangers(rule):
    access, platform, _ = rule
    table = row(ANN)
    platform.members.add(BOB.id)
    assert (await access.admit(table, Visitor(ANN))).standing == Standing.PLAYER
    assert (await access.admit(table, Visitor(BOB))).standing == Standing.MEMBER
    assert (await access.admit(table, Visitor(None, "the-key"))).standing == Standing.SPECTATOR
    assert (await access.admit(table, Visitor(CAROL))).standing == Standing.STRANGER
    assert (await access.admit(table, Visitor(None, "not-the-key"))).standing == Standing.STRANGER
    discord_ann = UserRef("discord", ANN.id, "Ann")  # the same id on another platform
    assert (await access.admit(table, Visitor(discord_ann))).standing == Standing.STRANGER
    with pytest.raises(UserError, match="no such table"):
        await access.watcher(table, Visitor(CAROL))


async def test_who_may_press_what(rule):
    access, platform, _ = rule
    table = row(ANN)
    platform.members.add(BOB.id)
    await access.presser(table, Visitor(BOB), parse("j:7"))  # a member joins
    asked = platform.asked
    # a player's button from outside the chat (a page, a private chat): only a player may
    # press it, so the platform is not even asked; to anyone else the table does not exist
    with pytest.raises(UserError, match="no such table"):
        await access.presser(table, Visitor(BOB), parse("a:7:3:0:0"))
    with pytest.raises(UserError, match="no such table"):
        await access.presser(table, Visitor(BOB), parse("y:7"))
    assert platform.asked == asked
    await access.presser(table, Visitor(BOB, here=GROUP), parse("y:7"))  # in the chat: yes
    with pytest.raises(UserError, match="not playing"):  # in the chat, a player's button
        await access.presser(table, Visitor(BOB, here=GROUP), parse("a:7:3:0:0"))
    with pytest.raises(UserError, match="join"):
        await access.presser(table, Visitor(None, "the-key"), parse("j:7"))
    await access.presser(table, Visitor(ANN), parse("a:7:3:0:0"))


async def test_the_platforms_answer_is_kept_a_minute_and_a_silent_platform_refuses(rule):
    access, platform, now = rule
    table = row(ANN)
    platform.members.add(BOB.id)
    for _ in range(3):
        assert (await access.admit(table, Visitor(BOB))).standing == Standing.MEMBER
    assert platform.asked == 1
    platform.members.discard(BOB.id)  # Bob leaves the group
    now[0] += 61
    assert (await access.admit(table, Visitor(BOB))).standing == Standing.STRANGER
    now[0] += 61
    platform.down = True
    platform.members.add(BOB.id)
    assert (await access.admit(table, Visitor(BOB))).standing == Standing.STRANGER  # refused
    platform.down = False
    assert (await access.admit(table, Visitor(BOB))).standing == Standing.MEMBER  # not kept
