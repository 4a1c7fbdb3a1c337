"""A game with secrets (Haunted House) through the real python-telegram-bot against the
stand-in: the group never sees a move button (its label would show the mover's hand),
each player gets their moves with their private view and plays them from the private
chat, and those private buttons are checked like any other press."""

from __future__ import annotations

import random

from bot.service import ChatRef, UserRef
from bot.telegram.keyboards import label
from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import (
    BOARD_CALLS,
    GROUP,
    buttons,
    choice_buttons,
    current_board,
    mentioned_ids,
)
from tests.e2e.telegram_standin import TelegramStandIn

HAND_LINK = "https://t.me/escape_test_bot?start=h1"
SHARED = {"e|j:1", "e|l:1", "e|b:1", "e|v:1", "e|g:1", "e|k:1", "e|o:1", "e|x:1"}  # for anyone
KEYBOARD_CALLS = (
    "sendMessage",
    "sendPhoto",
    "editMessageMedia",
    "editMessageText",
    "editMessageCaption",
    "editMessageReplyMarkup",
)


async def say_and_wait(standin: TelegramStandIn, user: dict, chat: int, text: str, predicate):
    mark = len(standin.calls)
    await standin.say(user, chat, text)
    return await standin.wait_for(predicate, after=mark)


async def open_haunted_house(standin: TelegramStandIn, game: str = "haunted_house") -> dict:
    """Ann and Bob have pressed START privately; Ann opens Haunted House (or `game`), Bob
    joins, Ann begins: the first board in the group."""
    for user in (standin.ann, standin.bob):
        await say_and_wait(standin, user, user["id"], "/start", lambda c: c.method == "sendMessage")
    await say_and_wait(
        standin, standin.ann, GROUP, f"/escape start {game}", lambda c: c.method == "sendMessage"
    )
    await say_and_wait(
        standin, standin.bob, GROUP, "/escape join", lambda c: c.method == "editMessageText"
    )
    call = await say_and_wait(
        standin,
        standin.ann,
        GROUP,
        "/escape begin",
        lambda c: c.method == "sendPhoto" and c.params["chat_id"] == GROUP,
    )
    # The dealt cards follow privately, while the group's outbox is held: a later group
    # reply waits for them.
    await say_and_wait(
        standin,
        standin.carol,
        GROUP,
        "/escape help",
        lambda c: c.method == "sendMessage" and c.params["chat_id"] == GROUP,
    )
    return call.result


async def open_hand(standin: TelegramStandIn, user: dict) -> dict:
    """The user follows the group's hand deep link: the private message carrying their
    move buttons (their view, or its last part)."""
    call = await say_and_wait(
        standin,
        user,
        user["id"],
        "/start h1",
        lambda c: (
            c.method in ("sendPhoto", "sendMessage")
            and c.params["chat_id"] == user["id"]
            and bool(choice_buttons(c.result))
        ),
    )
    return call.result


def touching(standin: TelegramStandIn, chat_id: int, after: int) -> list:
    """What the bot sent or changed in one chat since `after`. (Private messages of an
    earlier move may still be on their way to other chats.)"""
    return [c for c in standin.calls[after:] if str(c.params.get("chat_id")) == str(chat_id)]


def group_keyboards(standin: TelegramStandIn) -> list[dict]:
    """Every button the bot ever put under a message in the group (sent or edited)."""
    out = []
    for call in standin.calls_of(*KEYBOARD_CALLS):
        if str(call.params.get("chat_id")) == str(GROUP) and isinstance(call.result, dict):
            out += buttons({"reply_markup": call.params.get("reply_markup")})
    return out


async def test_moves_of_a_game_with_secrets_are_offered_privately(tg_bot):
    standin = tg_bot.standin
    users = {u["id"]: u for u in (standin.ann, standin.bob)}
    board = await open_haunted_house(standin)
    assert [b["url"] for b in buttons(board) if b.get("url")] == [HAND_LINK]
    assert not choice_buttons(board), "no move under the group's board"
    assert "Moves are chosen in private" in board["caption"]

    rng = random.Random(3)
    private_labels: set[str] = set()
    for _ in range(10):
        board = current_board(standin)
        actor = users[mentioned_ids(board)[0]]
        # (2) the actor opens their hand and finds their moves there, labelled as the
        # service describes their legal actions (which name cards of their hand).
        mine = await open_hand(standin, actor)
        offered = choice_buttons(mine)
        chat = ChatRef("telegram", str(GROUP), "", str(GROUP))
        legal = await tg_bot.service.choices(chat, UserRef("telegram", str(actor["id"]), ""))
        described = {
            label(f"{p}{text}") for _, text in legal for p in ("", f"{actor['first_name']}: ")
        }
        assert {b["text"] for b in offered} <= described
        private_labels |= {b["text"] for b in offered}
        version = (await tg_bot.live()).version

        pressed = rng.choice(offered)
        mark = len(standin.calls)
        query = await standin.press(actor, mine, pressed["callback_data"])
        answer = await standin.answer(query)
        assert not answer.get("show_alert"), answer.get("text")
        assert (await tg_bot.live()).version == version + 1, "the move landed"
        await standin.wait_for(
            lambda c: c.method in BOARD_CALLS and c.params["chat_id"] == GROUP, after=mark
        )
        await standin.wait_for(
            lambda c, a=actor, m=mine: (
                c.params.get("chat_id") == a["id"]
                and c.params.get("message_id") == m["message_id"]
                and c.method in ("editMessageReplyMarkup", "editMessageMedia", "editMessageText")
            ),
            after=mark,
        )
        spent = standin.message(actor["id"], mine["message_id"])
        assert pressed["callback_data"] not in [
            b["callback_data"] for b in choice_buttons(spent)
        ], "the spent private keyboard loses its buttons (or shows the next step's, in place)"

        # (3) the same button pressed again once the game has moved on: refused, nothing
        # changes (a press racing the removal of its buttons, or a forged one).
        mark = len(standin.calls)
        query = await standin.press(actor, mine, pressed["callback_data"])
        answer = await standin.answer(query)
        assert answer.get("show_alert") is True and "moved on" in answer["text"], answer
        assert (await tg_bot.live()).version == version + 1
        assert not touching(standin, GROUP, mark)

    # (1) no group keyboard ever carried a move: only the deep link and shared buttons.
    seen = group_keyboards(standin)
    assert seen, "the group got keyboards"
    datas = {b["callback_data"] for b in seen if b.get("callback_data")}
    assert datas <= SHARED, datas - SHARED
    assert {b["url"] for b in seen if b.get("url")} == {HAND_LINK}
    assert private_labels and not private_labels & {b["text"] for b in seen}
    assert await tg_bot.live() is not None


async def test_private_move_buttons_are_checked_like_any_press(tg_bot):
    standin = tg_bot.standin
    users = {u["id"]: u for u in (standin.ann, standin.bob)}
    board = await open_haunted_house(standin)
    actor = users[mentioned_ids(board)[0]]
    other = standin.bob if actor is standin.ann else standin.ann
    mine = await open_hand(standin, actor)
    data = choice_buttons(mine)[0]["callback_data"]
    version = (await tg_bot.live()).version

    # The same button from someone else's private chat: another player, an outsider.
    carol = standin.carol["id"]
    await say_and_wait(
        standin, standin.carol, carol, "/start", lambda c: c.params.get("chat_id") == carol
    )
    for user, why in (
        (other, "another player"),
        (standin.carol, "no such table"),
    ):  # a stranger learns nothing
        mark = len(standin.calls)
        forged = {**mine, "chat": standin.chats[user["id"]]}
        answer = await standin.answer(await standin.press(user, forged, data))
        assert answer.get("show_alert") is True and why in answer["text"], answer
        assert not touching(standin, GROUP, mark) and not touching(standin, user["id"], mark)
    # Only move buttons work from a private chat; a lobby button there is refused.
    answer = await standin.answer(await standin.press(actor, mine, "e|j:1"))
    assert answer.get("show_alert") is True and "in its group" in answer["text"]
    assert (await tg_bot.live()).version == version

    # A move typed in the group still works (the service checks it).
    chat = ChatRef("telegram", str(GROUP), "", str(GROUP))
    legal = await tg_bot.service.choices(chat, UserRef("telegram", str(actor["id"]), ""))
    mark = len(standin.calls)
    await standin.say(actor, GROUP, f"/escape move {legal[0][0]}")
    await standin.wait_for(
        lambda c: c.method in BOARD_CALLS and c.params["chat_id"] == GROUP, after=mark
    )
    assert (await tg_bot.live()).version == version + 1
    assert not choice_buttons(current_board(standin))


async def test_a_long_list_of_private_moves_is_paged_in_the_private_chat(tg_bot):
    """Castle Doors can offer 41 moves: the private keyboard pages like the group's."""
    standin = tg_bot.standin
    await open_haunted_house(standin, "castle_doors")
    chat = ChatRef("telegram", str(GROUP), "", str(GROUP))
    players = [
        (u, UserRef("telegram", str(u["id"]), u["first_name"])) for u in (standin.ann, standin.bob)
    ]
    rng = random.Random(5)
    for _ in range(300):  # quick seeded moves through the service, until a long list
        offers = [(u, r, await tg_bot.service.choices(chat, r)) for u, r in players]
        actor, ref, legal = next(o for o in offers if o[2])
        if len(legal) > 24:
            break
        await tg_bot.service.move(chat, ref, rng.choice(legal)[0])
    else:
        raise AssertionError("no turn with more than 24 moves")

    mine = await open_hand(standin, actor)
    first = {b["callback_data"] for b in choice_buttons(mine)}
    nav = [b for b in buttons(mine) if b.get("callback_data", "").startswith("p|")]
    assert len(first) == 24 and [b["text"] for b in nav] == ["1/2", "Next ›"]
    version = (await tg_bot.live()).version
    # Someone else cannot page through the actor's moves: they have none of their own.
    other = next(u for u, _ in players if u is not actor)
    forged = {**mine, "chat": standin.chats[other["id"]]}
    answer = await standin.answer(await standin.press(other, forged, nav[1]["callback_data"]))
    assert answer.get("show_alert") is True and "no such page" in answer["text"]

    mark = len(standin.calls)
    answer = await standin.answer(await standin.press(actor, mine, nav[1]["callback_data"]))
    assert not answer.get("show_alert"), answer
    await standin.wait_for(lambda c: c.method == "editMessageReplyMarkup", after=mark)
    page2 = standin.message(actor["id"], mine["message_id"])
    second = {b["callback_data"] for b in choice_buttons(page2)}
    assert len(first | second) == len(legal) and not first & second

    mark = len(standin.calls)
    answer = await standin.answer(await standin.press(actor, page2, sorted(second)[0]))
    assert not answer.get("show_alert"), answer
    assert (await tg_bot.live()).version == version + 1
    await standin.wait_for(
        lambda c: c.method in BOARD_CALLS and c.params["chat_id"] == GROUP, after=mark
    )
    assert not choice_buttons(current_board(standin))


async def test_a_typed_move_refused_for_a_reason_naming_the_hand_is_answered_privately(tg_bot):
    """Telegram cannot show one member of a group a message the others do not see: an
    engine's refusal in a game with hands ("You may: play room1b3, ...") goes to the
    player's private chat, and the group hears only that the move was refused."""
    standin = tg_bot.standin
    users = {u["id"]: u for u in (standin.ann, standin.bob)}
    board = await open_haunted_house(standin)
    actor = users[mentioned_ids(board)[0]]
    before = await tg_bot.live()
    chat = ChatRef("telegram", str(GROUP), "", str(GROUP))
    legal = [
        a for a, _ in await tg_bot.service.choices(chat, UserRef("telegram", str(actor["id"]), ""))
    ]
    assert legal

    mark = len(standin.calls)
    await standin.say(actor, GROUP, "/escape move play nothing")
    private = await standin.wait_for(
        lambda c: c.method == "sendMessage" and c.params["chat_id"] == actor["id"], after=mark
    )
    assert "is not allowed now" in private.params["text"]
    assert any(a in private.params["text"] for a in legal), "the reason lists the hand's moves"
    group = [c for c in touching(standin, GROUP, mark) if c.method == "sendMessage"]
    assert group and all("private chat" in c.params["text"] for c in group)
    assert not any(a in c.params["text"] for c in group for a in legal)
    after = await tg_bot.live()
    assert (after.version, after.state) == (before.version, before.state)

    # Refusals that name no secret stay in the group, as before.
    mark = len(standin.calls)
    await standin.say(standin.carol, GROUP, "/escape move pass")
    notice = await standin.wait_for(
        lambda c: c.method == "sendMessage" and c.params["chat_id"] == GROUP, after=mark
    )
    assert "not playing" in notice.params["text"] or "not in this game" in notice.params["text"]
