"""Delivery on its own (bot/delivery/): the live-board policy, owed boards, private routing
and the splitting of long text, over a transport that records every call, with the real
service and store keeping delivery's records and people's contacts. The front ends' own
tests (the stand-ins) check the same rules end to end."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass, field

import pytest

import bot.delivery.deliverer as deliverer_module
from bot.delivery import Asked, Delivery, Sent, Transient, Unreachable
from bot.delivery.live_boards import LIVE_FOR
from bot.delivery.text import head_and_rest, parts, utf16_length
from bot.service import ChatRef, Choice, Contact, Plan, Reply, TableFacts, UserRef
from bot.service.base.delivery_plan import MOVE
from languages import msg

CHAT = ChatRef("wire", "chan-1")
OTHER = ChatRef("wire", "chan-2")
ANN_W = UserRef("wire", "u-ann", "Ann")
BOB_W = UserRef("wire", "u-bob", "Bob")


@dataclass
class Wire:
    """A transport that keeps every call, in order, as (verb, message id or chat, text).

    `refuse`: how many posts to refuse for now (`Transient`) before taking them;
    `unreachable`: users whose private channel refuses the bot; `no_place`: users with no
    private channel; `hold`: an event a private post waits for (two deliveries at once)."""

    platform: str = "wire"
    answers_in_place: bool = False
    tidies: bool = False
    view_button: bool = False
    moved: bool = False
    refuse: int = 0
    retry_after: float = 0.01  # the wait a refusal asks for
    unreachable: set[str] = field(default_factory=set)
    no_place: set[str] = field(default_factory=set)
    hold: asyncio.Event | None = None
    holding: asyncio.Event = field(default_factory=asyncio.Event)  # a post waits on `hold`
    calls: list[tuple] = field(default_factory=list)
    _ids: itertools.count = field(default_factory=lambda: itertools.count(1))

    async def post(self, where, reply, asked, table) -> list[Sent]:
        if self.refuse:
            self.refuse -= 1
            self.calls.append(("refused", where.chat, str(reply.text)))
            raise Transient(self.retry_after)
        if reply.to is not None and reply.to.id in self.unreachable:
            raise Unreachable()
        if reply.to is not None and self.hold is not None:
            self.holding.set()
            await self.hold.wait()
        sent = Sent(
            where.chat,
            next(self._ids),
            picture=reply.picture is not None,
            private=reply.to is not None,
        )
        self.calls.append(("post", where.chat, str(reply.text), sent.message))
        return [sent]

    async def edit(self, sent, reply, asked, table) -> bool:
        self.calls.append(("edit", sent.message, str(reply.text)))
        return True

    async def retire(self, sent: Sent) -> None:
        self.calls.append(("retire", sent.message))

    async def strip(self, sent: Sent) -> None:
        self.calls.append(("strip", sent.message))

    async def delete(self, sent: list[Sent]) -> None:
        self.calls.append(("delete", *[s.message for s in sent]))

    def moved_on(self, live: Sent, later: int) -> bool:
        return self.moved

    async def answer_in_place(self, reply, asked) -> Sent | None:
        self.calls.append(("in place", asked.user.id, str(reply.text)))
        return Sent("", next(self._ids), private=True)

    async def private_place(self, user: UserRef, contact: Contact) -> ChatRef | None:
        return None if user.id in self.no_place else ChatRef(self.platform, f"dm-{user.id}")

    async def cannot_reach(self, chat, user, session_id, language) -> Sent | None:
        self.calls.append(("cannot reach", chat.chat, user.id))
        return None

    def verbs(self) -> list[str]:
        return [c[0] for c in self.calls]


def board(version: int, text: str = "", sid: int = 7, **kw) -> Reply:
    return Reply(text or f"board v{version}", kind="board", session_id=sid, version=version, **kw)


def facts(sid: int = 7, **kw) -> TableFacts:
    return TableFacts(sid, 1, "ghosts18", "18 Ghosts", secrets=False, **kw)


def press(user: UserRef = ANN_W, **kw) -> Asked:
    return Asked(user, **kw)


@pytest.fixture
def delivery(service) -> Delivery:
    return Delivery(service, "wire")


# ----- the live board ---------------------------------------------------------------------
async def test_a_board_played_live_is_edited_in_place(delivery):
    wire = Wire()
    await delivery.deliver(CHAT, Plan([board(1)], facts()), wire, press())
    done = await delivery.deliver(CHAT, Plan([board(2)], facts()), wire, press())
    assert wire.calls == [("post", "chan-1", "board v1", 1), ("edit", 1, "board v2")]
    assert not done.board_anew


async def test_a_board_is_posted_anew_after_a_pause_and_the_old_one_retired(delivery, monkeypatch):
    wire = Wire()
    await delivery.deliver(CHAT, Plan([board(1)], facts()), wire, press())
    later = deliverer_module.time.time() + LIVE_FOR + 1
    monkeypatch.setattr(deliverer_module.time, "time", lambda: later)
    done = await delivery.deliver(CHAT, Plan([board(2)], facts()), wire, press())
    assert wire.calls[1:] == [("post", "chan-1", "board v2", 2), ("retire", 1)]
    assert done.board_anew


@pytest.mark.parametrize("why", ["moved on", "fresh", "nobody asked", "a lobby before"])
async def test_a_board_is_posted_anew_when(delivery, why):
    wire = Wire(moved=why == "moved on")
    first = (
        Reply("lobby", kind="lobby", session_id=7, version=1)
        if why == "a lobby before"
        else board(1)
    )
    await delivery.deliver(CHAT, Plan([first], facts()), wire, press())
    plan = Plan([board(2)], facts(), fresh=why == "fresh")
    await delivery.deliver(CHAT, plan, wire, None if why == "nobody asked" else press())
    assert wire.calls[1:] == [("post", "chan-1", "board v2", 2), ("retire", 1)]


async def test_a_board_overtaken_by_a_newer_one_is_never_shown(delivery):
    wire = Wire()
    await delivery.deliver(CHAT, Plan([board(3)], facts()), wire, press())
    await delivery.deliver(CHAT, Plan([board(2)], facts()), wire, press())
    assert wire.calls == [("post", "chan-1", "board v3", 1)]


async def test_another_process_edits_the_same_live_board(service):
    """The record is kept with the table: a second process (or the same after a restart)
    finds the board, how recently it changed and how far its chat has moved on, so it
    edits it in place rather than posting a second board."""
    wire = Wire()
    await Delivery(service, "wire").deliver(CHAT, Plan([board(1)], facts()), wire, press())
    other = Delivery(service, "wire")  # the same store, another process
    await other.deliver(CHAT, Plan([board(2)], facts()), wire, press())
    await Delivery(service, "wire").deliver(CHAT, Plan([board(3)], facts()), wire, press())
    assert wire.calls == [
        ("post", "chan-1", "board v1", 1),
        ("edit", 1, "board v2"),
        ("edit", 1, "board v3"),
    ]
    assert (await other.boards.live(7)).version == 3
    assert await Delivery(service, "elsewhere").boards.live(7) is None  # per platform


async def test_a_board_replaced_by_a_process_that_died_is_retired_by_the_next(service):
    """The replaced board is noted with the record that replaced it: a process that dies
    before retiring it leaves it to the process that takes its work over."""

    class Dying(Wire):
        async def retire(self, sent: Sent) -> None:
            raise SystemExit("killed")  # the process dies between the two

    wire = Dying()
    dead = Delivery(service, "wire")
    await dead.deliver(CHAT, Plan([board(1)], facts()), wire, press())
    with pytest.raises(SystemExit):
        await dead.deliver(CHAT, Plan([board(2)], facts(), fresh=True), wire, press())
    heir, survivor = Delivery(service, "wire"), Wire()
    await heir.retire_leftovers(7, survivor)
    assert survivor.calls == [("retire", 1)]
    await heir.retire_leftovers(7, survivor)
    assert survivor.calls == [("retire", 1)], "once"
    assert (await heir.boards.live(7)).sent.message == 2


async def test_the_end_tidies_notices_where_the_front_end_tidies(delivery):
    wire = Wire(tidies=True)
    await delivery.deliver(
        CHAT, Plan([Reply("lobby", kind="lobby", session_id=7, version=1)], facts()), wire, press()
    )
    await delivery.deliver(CHAT, Plan([Reply("Bob joined", session_id=7)], facts()), wire, press())
    await delivery.deliver(CHAT, Plan([board(2, final=True)], facts(over=True)), wire, press())
    # the board is posted anew over the lobby (another shape), the notice deleted at the end
    assert wire.calls == [
        ("post", "chan-1", "lobby", 1),
        ("post", "chan-1", "Bob joined", 2),
        ("post", "chan-1", "board v2", 3),
        ("retire", 1),
        ("delete", 2),
    ]


# ----- owed posts ---------------------------------------------------------------------------
async def test_a_refused_board_is_owed_and_posted_later(delivery):
    wire = Wire(refuse=1)
    await delivery.deliver(CHAT, Plan([board(1)], facts()), wire, press())
    assert wire.verbs() == ["refused"] and delivery.owed
    await asyncio.wait_for(delivery.owed["chan-1/"].task, 5)
    assert wire.calls[-1] == ("post", "chan-1", "board v1", 1)
    assert not delivery.owed


async def test_a_newer_board_overtakes_an_owed_one(delivery):
    wire = Wire(refuse=1, retry_after=0.5)  # the newer board comes within the wait
    await delivery.deliver(CHAT, Plan([board(1)], facts()), wire, press())
    task = delivery.owed["chan-1/"].task
    await delivery.deliver(CHAT, Plan([board(2)], facts()), wire, press())
    await asyncio.wait_for(task, 5)
    assert [c for c in wire.calls if c[0] == "post"] == [("post", "chan-1", "board v2", 1)]


async def test_asked_not_to_owe_a_refusal_is_raised(delivery):
    with pytest.raises(Transient):
        await delivery.deliver(CHAT, Plan([board(1)], facts()), Wire(refuse=1), press(), owe=False)
    assert not delivery.owed


# ----- private messages ---------------------------------------------------------------------
def private(user: UserRef, text: str, moves: bool = False) -> Reply:
    choices = [Choice("Move", "m:1", for_user=user.id, role=MOVE)] if moves else []
    return Reply(text, kind="private", to=user, session_id=7, version=1, choices=choices)


async def test_the_asker_is_answered_in_place_where_the_front_end_can(delivery):
    wire = Wire(answers_in_place=True)
    await delivery.deliver(CHAT, Plan([private(ANN_W, "your hand")], facts()), wire, press())
    assert wire.calls == [("in place", "u-ann", "your hand")]


async def test_someone_else_gets_their_private_channel_and_the_chat_never_the_secret(delivery):
    wire = Wire(answers_in_place=True)
    plan = Plan([board(1), private(BOB_W, "Bob's hand")], facts())
    await delivery.deliver(CHAT, plan, wire, press(ANN_W))
    assert ("post", "dm-u-bob", "Bob's hand", 2) in wire.calls
    assert [c for c in wire.calls if c[1] == "chan-1"] == [("post", "chan-1", "board v1", 1)]


async def test_a_person_who_cannot_be_reached_is_pointed_at_once_a_game(delivery):
    wire = Wire(no_place={"u-bob"}, unreachable={"u-cy"})
    cy = UserRef("wire", "u-cy", "Cy")
    for _ in range(2):
        plan = Plan([private(BOB_W, "Bob's hand"), private(cy, "Cy's hand")], facts())
        await delivery.deliver(CHAT, plan, wire, press(ANN_W))
    assert wire.calls == [("cannot reach", "chan-1", "u-bob"), ("cannot reach", "chan-1", "u-cy")]
    await delivery.deliver(CHAT, Plan([private(BOB_W, "Bob's hand")], facts()), wire, press(BOB_W))
    assert wire.calls[-1] == ("cannot reach", "chan-1", "u-bob")  # they asked: told again


async def test_asked_in_a_private_chat_that_refuses_the_answer_goes_nowhere_else(delivery):
    wire = Wire(unreachable={"u-ann"})
    dm = ChatRef("wire", "dm-u-ann")
    await delivery.deliver(
        dm, Plan([private(ANN_W, "your hand")], facts()), wire, press(private_chat=dm)
    )
    assert wire.calls == []


async def test_only_the_newest_private_moves_keep_their_buttons(delivery):
    wire = Wire()
    await delivery.deliver(CHAT, Plan([private(ANN_W, "moves 1", True)], facts()), wire, None)
    await delivery.deliver(CHAT, Plan([private(ANN_W, "moves 2", True)], facts()), wire, None)
    assert wire.calls == [
        ("post", "dm-u-ann", "moves 1", 1),
        ("post", "dm-u-ann", "moves 2", 2),
        ("strip", 1),
    ]


async def test_a_pressed_private_message_is_replaced_by_the_next_moves(delivery):
    wire = Wire()
    pressed = Sent("dm-u-ann", 40, private=True)
    dm = ChatRef("wire", "dm-u-ann")
    asked = press(private_chat=dm, pressed=pressed)
    await delivery.deliver(CHAT, Plan([private(ANN_W, "moves 2", True)], facts()), wire, asked)
    assert wire.calls == [("edit", 40, "moves 2")]


async def test_a_person_reads_in_their_own_language_and_the_chat_in_the_tables(delivery):
    """Bob's app says German (he asked); the table speaks English."""
    bob_de = UserRef("wire", "u-bob", "Bob", language="de")
    wire = Wire()
    said = msg("It is not your turn.")
    plan = Plan([Reply(said, kind="private", to=bob_de), Reply(said)], facts())
    await delivery.deliver(CHAT, plan, wire, press(bob_de))
    assert [c[:3] for c in wire.calls] == [
        ("post", "dm-u-bob", "Du bist nicht am Zug."),
        ("post", "chan-1", "It is not your turn."),
    ]


# ----- two chats at once --------------------------------------------------------------------
async def test_two_chats_deliver_at_once_each_with_its_own_state(service, monkeypatch):
    """One delivery instance serves every chat of a front end. Chat 1 is held half-way
    through its plan (a private post that waits) while chat 2 delivers: chat 2 finishes
    meanwhile, nothing crosses between them, and chat 1's plan still asks for each
    person's contact once (a per-call cache, not one reset by the other chat)."""
    delivery = Delivery(service, "wire")
    asked_for: list[str] = []
    real_contact = service.contact

    async def contact(user: UserRef) -> Contact:
        asked_for.append(user.id)
        return await real_contact(user)

    monkeypatch.setattr(service, "contact", contact)
    held = Wire(hold=asyncio.Event())
    free = Wire()
    one = Plan([private(ANN_W, "Ann 1"), private(ANN_W, "Ann 2"), board(1, sid=1)], facts(1))
    two = Plan([private(BOB_W, "Bob 1"), board(1, sid=2)], facts(2))
    first = asyncio.create_task(delivery.deliver(CHAT, one, held, press(BOB_W)))
    await asyncio.wait_for(held.holding.wait(), 5)
    await asyncio.wait_for(delivery.deliver(OTHER, two, free, press(ANN_W)), 5)
    assert not first.done(), "chat 2 did not wait for chat 1"
    held.hold.set()
    await asyncio.wait_for(first, 5)
    assert held.calls == [
        ("post", "dm-u-ann", "Ann 1", 1),
        ("post", "dm-u-ann", "Ann 2", 2),
        ("post", "chan-1", "board v1", 3),
    ]
    assert free.calls == [("post", "dm-u-bob", "Bob 1", 1), ("post", "chan-2", "board v1", 2)]
    assert asked_for.count("u-ann") == 1 and asked_for.count("u-bob") == 1


async def test_two_plans_for_one_chat_are_delivered_one_after_the_other(delivery):
    wire = Wire(hold=asyncio.Event())
    one = asyncio.create_task(
        delivery.deliver(CHAT, Plan([private(ANN_W, "Ann"), board(1)], facts()), wire, press())
    )
    await asyncio.sleep(0.01)
    two = asyncio.create_task(delivery.deliver(CHAT, Plan([board(2)], facts()), wire, press()))
    await asyncio.sleep(0.01)
    assert wire.calls == []  # the chat's lock holds the second plan back
    wire.hold.set()
    await asyncio.wait_for(asyncio.gather(one, two), 5)
    assert wire.calls == [
        ("post", "dm-u-ann", "Ann", 1),
        ("post", "chan-1", "board v1", 2),
        ("edit", 2, "board v2"),
    ]


# ----- splitting ----------------------------------------------------------------------------
def test_long_text_is_cut_at_line_ends_into_parts_within_the_limit():
    text = "\n".join(f"line {i} " + "word " * 6 for i in range(40))
    out = parts(text, 100)
    assert all(0 < len(p) <= 100 for p in out)
    assert "\n".join(out) == text  # cut only where a line ended
    assert all(p.startswith("line ") for p in out)


def test_a_line_longer_than_the_limit_is_cut_at_a_word():
    text = "word " * 100
    out = parts(text, 60)
    assert all(0 < len(p) <= 60 for p in out)
    assert " ".join(" ".join(out).split()) == " ".join(text.split())  # no word lost or cut
    head, rest = head_and_rest(text, 60)
    assert head.endswith("…") and len(head) <= 60 and rest.startswith("word")


def test_telegram_length_counts_utf16_units():
    text = "🙂" * 30  # each emoji is two UTF-16 units
    out = parts(text, 20, utf16_length)
    assert all(utf16_length(p) <= 20 for p in out) and "".join(out) == text


def test_text_within_the_limit_is_one_part():
    assert parts("short", 10) == ["short"] and head_and_rest("short", 10) == ("short", "")


def test_the_service_gives_what_delivery_needs():
    """Delivery is typed against the few calls it makes (`ServiceNeeds`, and `Records` of
    its records); the service answers each with the same parameters."""
    import inspect

    from bot.delivery.service_needs import Records, ServiceNeeds
    from bot.service import GameService
    from bot.service.shared.delivery_records import DeliveryRecords

    for protocol, given, names in [
        (ServiceNeeds, GameService, ["contact", "live", "seated_at"]),
        (
            Records,
            DeliveryRecords,
            [
                "add_notes",
                "board",
                "edited",
                "forget",
                "message_in",
                "notes",
                "put_board",
                "swap_note",
            ],
        ),
    ]:
        needed = [n for n, f in vars(protocol).items() if inspect.iscoroutinefunction(f)]
        assert sorted(needed) == names
        for name in needed:
            ours = list(inspect.signature(getattr(protocol, name)).parameters)
            theirs = list(inspect.signature(getattr(given, name)).parameters)
            assert ours == theirs, name


async def test_a_board_owed_by_a_process_that_died_is_shown_by_another(service, monkeypatch):
    """An owed board is noted with the table: if its process dies before the chat takes it,
    the timer loop of another process shows it once it has waited `OWED_GRACE`; one shown
    meanwhile is not shown again."""
    import bot.service.timer_loop as timer_loop
    from bot.service.timer_loop import OWED_GRACE, Timers

    await service.start(CHAT, ANN_W, "ghosts18")
    await service.join(CHAT, BOB_W)
    sid = (await service.live(CHAT)).id
    shown = []

    async def deliver(chat, plan):
        shown.append((chat, [r.kind for r in plan]))

    service.add_notifier("wire", deliver)
    dying = Delivery(service, "wire")
    await dying.deliver(CHAT, Plan([board(5, sid=sid)], facts(sid)), Wire(refuse=1), press())
    dying.close()  # the process dies: its retries with it
    timers = Timers(service)
    assert not (await timers.tick()).reshown, "not before its grace"
    later = timer_loop.time.time() + OWED_GRACE + 1
    monkeypatch.setattr(timer_loop.time, "time", lambda: later)
    assert (await timers.tick()).reshown == [sid]
    assert shown == [(CHAT, ["board"])]
    assert not (await timers.tick()).reshown, "once"
