"""Strangers at a table, through the real adapter and the stand-in Bot API: a button of
every kind pressed by someone who may not (a member of the table's group who does not
play, a player of a table in another group, the same person in their private chat), a
tampered callback, and the admin commands typed by a bystander. Each gets the refusal it
got before buttons were typed values and commands declared who may use them (the texts
below are those of main aad9373)."""

from __future__ import annotations

import json

from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import GROUP, open_table
from tests.e2e.telegram_standin import TelegramStandIn

OTHER = -1009999999999
KINDS = [
    "a:1:{v}:0:0",
    "a:1:{v}:1:0",
    "j:1",
    "l:1",
    "b:1",
    "o:1",
    "x:1",
    "v:1",
    "g:1",
    "k:1",
    "w:1",
    "y:1",
    "r:1",
    "p:1:0",
    "n:1:0",
    "h:1:0",
    "u:1:{v}",
    "d:1:{v}",
]
TAMPERED = ["e|a:1:{v}:0:0:0", "e|z:1", "e|a:1:{v}:0:99999", "e|j:" + "9" * 40, "junk"]
NO_GAME_HERE = "That button belongs to no game in this chat."
UNDER_BOARD = "That button works under the game's board in its group."
NOT_PLAYING = "You are not playing in this game (players: Ann, Bob). Watch, or start the next one."
NO_TABLE = "There is no such table (it may have been removed)."
NOT_OURS = "That button is not one of ours; use the buttons under the latest board."


async def alert(standin: TelegramStandIn, user: dict, message: dict, data: str) -> str:
    answer = await standin.answer(await standin.press(user, message, data))
    return (
        answer.get("text", "") if answer.get("show_alert") else f"(shown: {answer.get('text', '')})"
    )


async def said(standin: TelegramStandIn, user: dict, chat: int, text: str) -> str:
    mark = len(standin.calls)
    await standin.say(user, chat, text)
    reply = await standin.wait_for(lambda c: c.method in ("sendMessage", "sendPhoto"), after=mark)
    return reply.params.get("text") or reply.params.get("caption") or ""


async def test_strangers_pressing_every_kind_and_typing_admin_commands_are_refused(tg_bot):
    standin = tg_bot.standin
    board = await open_table(standin)  # Ann and Bob play table 1 in GROUP
    v = (await tg_bot.live()).version
    standin.add_group(OTHER, "Other club")
    carol = standin.carol  # plays table 2 in another group
    await said(standin, carol, OTHER, "/escape start ghosts18")
    other = standin.bot_messages(OTHER)[-1]
    await standin.say(carol, carol["id"], "/start")
    hello = await standin.wait_for(
        lambda c: c.method == "sendMessage" and c.params["chat_id"] == carol["id"]
    )

    in_other = {k: await alert(standin, carol, other, "e|" + k.format(v=v)) for k in KINDS}
    assert in_other == dict.fromkeys(KINDS, NO_GAME_HERE)

    privately = {k: await alert(standin, carol, hello.result, "e|" + k.format(v=v)) for k in KINDS}
    moves = dict.fromkeys(["a:1:{v}:0:0", "a:1:{v}:1:0"], NO_TABLE)  # a stranger learns nothing
    assert privately == {**dict.fromkeys(KINDS, UNDER_BOARD), **moves}

    dave = standin.dave  # a member of GROUP who does not play: refused all but what posts there
    refused_here = [
        "a:1:{v}:0:0",
        "a:1:{v}:1:0",
        "l:1",
        "b:1",
        "o:1",
        "x:1",
        "v:1",
        "k:1",
        "u:1:{v}",
        "d:1:{v}",
    ]
    in_group = {k: await alert(standin, dave, board, "e|" + k.format(v=v)) for k in refused_here}
    assert in_group == dict.fromkeys(refused_here, NOT_PLAYING)
    assert await alert(standin, dave, board, "e|j:1") == "The game has already begun."
    rematch = await alert(standin, dave, board, "e|r:1")  # a rematch: only once it is over
    assert rematch == "A rematch is offered once a game has ended by its rules."

    tampered = {t: await alert(standin, dave, board, t.format(v=v)) for t in TAMPERED}
    assert tampered == dict.fromkeys(TAMPERED, NOT_OURS)
    assert (await tg_bot.live()).version == v, "no refusal changed the table"

    # admin commands typed by a bystander (Carol, now in GROUP too): the service refuses
    assert "Only the player who started" in await said(standin, carol, GROUP, "/escape abort")
    assert "admin" in (await said(standin, carol, GROUP, "/escape season start 3mo")).lower()
    assert await tg_bot.live() is not None


async def test_what_telegram_reads_from_the_declarations(tg_bot):
    """The facts Telegram once learned by a command's name, as a user sees them: the
    group's menu names the menu commands and move; a bare start offers the games; hand in
    the private chat shows every table's view (or says there is none). (A start opening a
    forum topic of its own: test_telegram_platform's forum test.)"""
    standin = tg_bot.standin
    menus = [
        c
        for c in standin.calls_of("setMyCommands")
        if c.params.get("scope", {}).get("type") != "all_private_chats"
    ]
    described = {
        cmd["description"]
        for c in menus
        for cmd in c.params["commands"]
        if cmd["command"] == "escape"
    }
    assert (
        "Play: start, join, leave, begin, move, board, hand, log, learn, rules, help, games, abort"
        in described
    )

    offer = await said_with_markup(standin, standin.carol, GROUP, "/escape start")
    assert offer.params["text"].startswith("Which game?")
    assert "s|ghosts18" in [b["callback_data"] for b in buttons_of(offer.params)]

    carol = standin.carol
    assert (await said(standin, carol, carol["id"], "/escape hand")).startswith(
        "You are not in a running game."
    )
    await open_table(standin)
    ann = standin.ann
    mark = len(standin.calls)
    await standin.say(ann, ann["id"], "/escape hand")
    view = await standin.wait_for(lambda c: c.method in ("sendPhoto", "sendMessage"), after=mark)
    assert view.params["chat_id"] == ann["id"] and "18 Ghosts" in (
        view.params.get("caption") or view.params.get("text") or ""
    )


async def said_with_markup(standin: TelegramStandIn, user: dict, chat: int, text: str):
    mark = len(standin.calls)
    await standin.say(user, chat, text)
    return await standin.wait_for(lambda c: c.method == "sendMessage", after=mark)


def buttons_of(params: dict) -> list[dict]:
    markup = params.get("reply_markup") or {}
    if isinstance(markup, str):
        markup = json.loads(markup)
    return [b for row in markup.get("inline_keyboard", []) for b in row]
