"""Telegram's sharp edges through the real python-telegram-bot against the stand-in Bot API:
refusals, stale and forged buttons, a restart, private views by deep link, 429s, forum
topics, long captions, the bare /escape menu, and the real `escape-bot run`."""

from __future__ import annotations

import copy

from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import (
    GROUP,
    PNG,
    buttons,
    choice_buttons,
    current_board,
    escape_bot_run,
    mentioned_ids,
    open_table,
    press_and_wait,
    stop_escape_bot,
)
from tests.e2e.telegram_standin import BOT_ID, TelegramStandIn

OUTPUT = (
    "sendMessage",
    "sendPhoto",
    "editMessageMedia",
    "editMessageText",
    "editMessageCaption",
    "editMessageReplyMarkup",
    "deleteMessage",
    "deleteMessages",
)
HAND_LINK = "https://t.me/escape_test_bot?start=h1"


async def refused(standin: TelegramStandIn, user: dict, message: dict, data: str) -> str:
    """Press a button that must be refused: the alert's text."""
    query = await standin.press(user, message, data)
    answer = await standin.answer(query)
    assert answer.get("show_alert") is True, answer
    return answer["text"]


async def command(standin, user, text, *, chat=GROUP, thread=None, expect=("sendMessage",)):
    mark = len(standin.calls)
    await standin.say(user, chat, text, thread=thread)
    return await standin.wait_for(lambda c: c.method in expect, after=mark)


def actor_of(standin: TelegramStandIn, board: dict) -> dict:
    return {u["id"]: u for u in (standin.ann, standin.bob)}[mentioned_ids(board)[0]]


def other_of(standin: TelegramStandIn, user: dict) -> dict:
    return standin.bob if user is standin.ann else standin.ann


async def test_outsiders_and_the_wrong_player_are_refused(tg_bot):
    standin = tg_bot.standin
    board = await open_table(standin)
    ann_button = choice_buttons(board)[0]["callback_data"]
    mark = len(standin.calls)
    assert "not playing" in await refused(standin, standin.carol, board, ann_button)
    assert "another player" in await refused(standin, standin.bob, board, ann_button)
    assert not standin.calls_of(*OUTPUT, after=mark)
    assert (await tg_bot.live()).version == board_version(board)
    typed = await command(standin, standin.carol, "/escape move place a1")  # typed, not pressed
    assert "not playing" in typed.params["text"]
    assert [c.method for c in standin.calls_of(*OUTPUT, after=mark)] == ["sendMessage"]
    assert (await tg_bot.live()).version == board_version(board)
    assert not await tg_bot.service.store.log(1), "no move was recorded"

    # Abort: not by a bystander; by a chat admin (asked with getChatMember).
    reply = await command(standin, standin.carol, "/escape abort")
    assert "Only the player who started" in reply.result["text"]
    assert reply.params["reply_parameters"]["message_id"]  # a reply to Carol's command
    assert (await tg_bot.live()) is not None
    mark = len(standin.calls)
    await command(standin, standin.dave, "/escape abort")
    checks = standin.calls_of("getChatMember", after=mark)
    assert [(c.params["chat_id"], c.params["user_id"]) for c in checks] == [(GROUP, 1004)]
    assert await tg_bot.live() is None
    await standin.wait_for(lambda c: c.method == "editMessageReplyMarkup", after=mark)
    assert not choice_buttons(current_board(standin)), "an aborted board keeps no live buttons"


def board_version(board: dict) -> int:
    return int(choice_buttons(board)[0]["callback_data"].split(":")[2])


async def test_stale_and_forged_buttons_are_refused_and_change_nothing(tg_bot):
    standin = tg_bot.standin
    board = await open_table(standin)
    old = copy.deepcopy(board)
    actor = actor_of(standin, board)
    await press_and_wait(standin, actor, board, choice_buttons(board)[0]["callback_data"])
    version = (await tg_bot.live()).version
    assert version == board_version(current_board(standin))

    log_before = len(await tg_bot.service.store.log(1))
    mark = len(standin.calls)
    for user in (standin.ann, standin.bob):  # yesterday's buttons, whoever presses them
        text = await refused(standin, user, old, choice_buttons(old)[1]["callback_data"])
        assert "moved on" in text or "another player" in text
    forged = [
        f"e|a:1:{version}:0:99",  # a choice that was never offered
        "e|a:999:1:0:0",  # no such game
        "e|j:1;DROP TABLE",  # not the service's grammar
        "e|" + "a" * 60,  # longer than any button of ours
        "hello",  # not ours at all
        "p|1|0|1",  # a page of an old board
        "m|rm",  # not a menu command
        "s|chess",  # no such game to start
        "",
    ]
    for data in forged:
        assert await refused(standin, standin.ann, current_board(standin), data)
    assert not standin.calls_of(*OUTPUT, after=mark), "a refused press changes nothing"
    assert (await tg_bot.live()).version == version
    assert len(await tg_bot.service.store.log(1)) == log_before


async def test_buttons_survive_a_restart(tg_bot):
    standin = tg_bot.standin
    board = await open_table(standin)
    await press_and_wait(
        standin, actor_of(standin, board), board, choice_buttons(board)[0]["callback_data"]
    )
    before = copy.deepcopy(current_board(standin))

    await tg_bot.restart()  # new Application, service and store over the same database
    assert tg_bot.runs == 2
    mark = len(standin.calls)
    actor = actor_of(standin, before)
    await press_and_wait(standin, actor, before, choice_buttons(before)[0]["callback_data"])
    # the live board's record is kept with the table: the new run edits the same message
    (edit,) = standin.calls_of("editMessageMedia", after=mark)
    assert edit.params["message_id"] == before["message_id"]
    assert not standin.calls_of("sendPhoto", after=mark)
    assert (await tg_bot.live()).version == board_version(before) + 1
    # The same old button again: now stale.
    assert "moved on" in await refused(
        standin, actor, before, choice_buttons(before)[0]["callback_data"]
    )

    # After another restart a typed command (no button to say which message is the board)
    # still replaces the board the last run left, and an abort still takes its buttons.
    live = current_board(standin)
    await tg_bot.restart()
    mark = len(standin.calls)
    await command(standin, standin.carol, "/escape board", expect=("sendPhoto",))
    await standin.wait_for(lambda c: c.method == "deleteMessage", after=mark)
    assert [c.params["message_id"] for c in standin.calls_of("deleteMessage", after=mark)] == [
        live["message_id"]
    ]
    assert len([m for m in standin.bot_messages(GROUP) if "photo" in m]) == 1, "one board"
    await tg_bot.restart()
    await command(standin, standin.ann, "/escape abort", expect=("editMessageReplyMarkup",))
    assert await tg_bot.live() is None
    assert not buttons(current_board(standin)), "the aborted board kept no buttons"


async def test_private_views_go_by_deep_link_only_to_their_owner(tg_bot):
    standin = tg_bot.standin
    ann, bob, carol = standin.ann, standin.bob, standin.carol
    await command(standin, ann, "/escape start haunted_house")
    await command(standin, bob, "/escape join", expect=("editMessageText",))
    mark = len(standin.calls)
    await standin.say(ann, GROUP, "/escape begin")
    board_call = await standin.wait_for(lambda c: c.method == "sendPhoto", after=mark)
    hand = [b for b in buttons(board_call.result) if b.get("url")]
    assert [b["url"] for b in hand] == [HAND_LINK]
    # Nobody has pressed START yet: the group is told, once per player, without the secret.
    await standin.wait_for(
        lambda c: "Bob, I cannot send you" in (c.params.get("text") or ""), after=mark
    )
    notices = [
        c
        for c in standin.calls_of("sendMessage", after=mark)
        if "cannot send you" in c.params["text"]
    ]
    assert len(notices) == 2
    assert all(buttons(n.result)[0]["url"] == HAND_LINK for n in notices)
    group_text = " ".join(
        m.get("text", "") + m.get("caption", "") for m in standin.bot_messages(GROUP, live=False)
    )
    assert "You draw" not in group_text

    # Ann opens the link: her view arrives in her private chat, and only there.
    mark = len(standin.calls)
    await standin.say(ann, ann["id"], "/start h1")
    view = await standin.wait_for(lambda c: c.method in ("sendPhoto", "sendMessage"), after=mark)
    assert view.params["chat_id"] == ann["id"]
    assert view.method == "sendPhoto" and view.files["photo"].startswith(PNG)
    assert "Ann" in view.result["caption"]
    assert (await tg_bot.service.store.user("telegram", str(ann["id"])))["private_chat"] == str(
        ann["id"]
    )
    # Bob's link shows Bob's view to Bob; Carol is no player.
    mark = len(standin.calls)
    await standin.say(bob, bob["id"], "/start h1")
    # (Ann, whose turn it is, may be sent her view unasked meanwhile: her notification)
    bob_view = await standin.wait_for(
        lambda c: c.method == "sendPhoto" and c.params["chat_id"] == bob["id"], after=mark
    )
    assert bob_view.params["chat_id"] == bob["id"]
    assert bob_view.files["photo"] != view.files["photo"], "each player sees their own hand"
    mark = len(standin.calls)
    await standin.say(carol, carol["id"], "/start h1")
    no = await standin.wait_for(lambda c: c.method == "sendMessage", after=mark)
    assert no.params["chat_id"] == carol["id"] and "not playing" in no.params["text"]
    assert not [
        c for c in standin.calls_of("sendPhoto", after=mark) if c.params["chat_id"] == carol["id"]
    ]

    # From now on private events and /escape hand go to the private chat.
    mark = len(standin.calls)
    await command(standin, ann, "/escape hand", expect=("sendPhoto",))
    sent = standin.calls_of(*OUTPUT, after=mark)
    assert sent[0].method == "sendPhoto" and {c.params["chat_id"] for c in sent} == {ann["id"]}
    # The moves of a game with secrets are not under the group's board: the one to act
    # has them under their private view, and plays them from there.
    board = current_board(standin)
    assert not choice_buttons(board)
    actor = actor_of(standin, board)
    mine = [m for m in standin.bot_messages(actor["id"]) if choice_buttons(m)][-1]
    mark = len(standin.calls)
    await press_and_wait(standin, actor, mine, choice_buttons(mine)[0]["callback_data"])
    # a run of rooms ends only by Done (it never ends by itself, which would tell the table
    # the hand holds no further room): finish the turn, so cards are drawn
    mine = [m for m in standin.bot_messages(actor["id"]) if choice_buttons(m)]
    done = [b for b in choice_buttons(mine[-1]) if b["text"] == "Done"] if mine else []
    if done:
        await press_and_wait(standin, actor, mine[-1], done[0]["callback_data"])
    await command(standin, carol, "/escape games")  # queued behind the move's messages
    for call in standin.calls_of("sendMessage", "sendPhoto", after=mark):
        if call.params["chat_id"] == GROUP:
            assert "You draw" not in (call.params.get("text") or "") + (
                call.params.get("caption") or ""
            )
    private = [c for c in standin.calls_of("sendMessage", after=mark) if c.params["chat_id"] > 0]
    assert private, "the move's private event was sent"
    assert {c.params["chat_id"] for c in private} == {actor["id"]}, "and only to its owner"

    # /escape log: the public log in the group, what only the asker saw in their private chat.
    mark = len(standin.calls)
    await standin.say(actor, GROUP, "/escape log")
    own = await standin.wait_for(
        lambda c: "Only you saw" in (c.params.get("text") or ""), after=mark
    )
    assert own.params["chat_id"] == actor["id"]
    public = await standin.wait_for(
        lambda c: (
            c.params.get("chat_id") == GROUP and "draws a card" in (c.params.get("text") or "")
        ),
        after=mark,
    )
    assert "You draw" not in public.params["text"], "the public log keeps secrets out"
    assert [
        c.params["chat_id"]
        for c in standin.calls_of("sendMessage", after=mark)
        if "Only you saw" in c.params["text"]
    ] == [actor["id"]]


async def test_a_429_loses_no_move(tg_bot):
    standin = tg_bot.standin
    board = await open_table(standin)
    actor = actor_of(standin, board)
    version = (await tg_bot.live()).version
    standin.fail_next("editMessageMedia", retry_after=1)
    mark = len(standin.calls)
    query = await standin.press(actor, board, choice_buttons(board)[0]["callback_data"])
    assert not (await standin.answer(query)).get("show_alert")
    assert (await tg_bot.live()).version == version + 1, "the move is stored before sending"
    ok = await standin.wait_for(
        lambda c: c.method == "editMessageMedia" and c.status == 200, after=mark
    )
    edits = standin.calls_of("editMessageMedia", after=mark)
    assert [c.status for c in edits] == [429, 200], "the limiter waited and sent it again"
    assert ok.files and board_version(current_board(standin)) == version + 1
    assert not standin.calls_of("sendPhoto", after=mark)

    # 429s beyond the limiter's retries (3 in these tests, 5 in production): the edit is
    # given up, and the board arrives as a new message instead (the old one deleted).
    board = current_board(standin)
    standin.fail_next("editMessageMedia", retry_after=1, times=4)
    mark = len(standin.calls)
    await press_and_wait(
        standin,
        actor_of(standin, board),
        board,
        choice_buttons(board)[0]["callback_data"],
        after_methods=("sendPhoto",),
    )
    assert [c.status for c in standin.calls_of("editMessageMedia", after=mark)] == [429] * 4
    await standin.wait_for(lambda c: c.method == "deleteMessage", after=mark)
    assert board_version(current_board(standin)) == version + 2 == (await tg_bot.live()).version
    assert [m for m in standin.bot_messages(GROUP) if "photo" in m] == [current_board(standin)]


async def test_a_game_in_a_forum_topic_stays_in_its_topic(tg_bot):
    standin = tg_bot.standin
    forum = -1009998887776
    standin.add_group(forum, "Games forum", forum=True)
    standin.add_topic(forum, 77)
    ann, bob = standin.ann, standin.bob
    await command(standin, ann, "/escape start ghosts18 variant=short", chat=forum, thread=77)
    await command(standin, bob, "/escape join", chat=forum, thread=77, expect=("sendPhoto",))
    board = [m for m in standin.bot_messages(forum) if "photo" in m][-1]
    await press_and_wait(
        standin, actor_of(standin, board), board, choice_buttons(board)[0]["callback_data"]
    )
    await command(standin, ann, "/escape leave", chat=forum, thread=77)  # refused, in the topic
    await command(standin, ann, "/escape board", chat=forum, thread=77, expect=("sendPhoto",))
    assert (await tg_bot.live(forum, "77")) is not None
    assert (await tg_bot.live(forum, "")) is None
    sends = [
        c for c in standin.calls_of("sendMessage", "sendPhoto") if c.params["chat_id"] == forum
    ]
    assert len(sends) >= 4
    assert all(c.params.get("message_thread_id") == 77 for c in sends), [c.params for c in sends]

    # A message the bot starts on its own (a reminder, through the service's notifier).
    from bot.service import ChatRef, Reply

    mark = len(standin.calls)
    topic_chat = ChatRef("telegram", str(forum), "77", str(forum))
    assert await tg_bot.service.notify(topic_chat, [Reply("Bob, the table waits for you.")])
    (reminder,) = standin.calls_of("sendMessage", after=mark)
    assert (reminder.params["chat_id"], reminder.params["message_thread_id"]) == (forum, 77)
    assert "reply_parameters" not in reminder.params, "started by the bot, not a reply"

    # A game asked for in the General topic gets a topic of its own.
    mark = len(standin.calls)
    await command(standin, ann, "/escape start ghosts18", chat=forum, expect=("createForumTopic",))
    lobby = await standin.wait_for(
        lambda c: "opened a table" in (c.params.get("text") or ""), after=mark
    )
    topic = standin.calls_of("createForumTopic", after=mark)[0].result["message_thread_id"]
    assert lobby.params["message_thread_id"] == topic
    assert (await tg_bot.live(forum, str(topic))) is not None


async def test_the_notifier_posts_reminders_publicly_and_secrets_privately(tg_bot):
    from bot.service import ChatRef, Reply, UserRef

    standin = tg_bot.standin
    await open_table(standin)
    chat = ChatRef("telegram", str(GROUP), "", str(GROUP))
    ann = UserRef("telegram", str(standin.ann["id"]), "Ann")
    mark = len(standin.calls)
    reminder = Reply("Ann, the table is waiting for you.", kind="info", mention=[ann])
    secret = Reply("Only Ann may read this.", kind="private", to=ann, session_id=1)
    assert await tg_bot.service.notify(chat, [reminder, secret])
    public = standin.calls_of("sendMessage", after=mark)
    assert public[0].params["chat_id"] == GROUP and "tg://user?id=1001" in public[0].params["text"]
    # Ann never pressed START: the group hears that she cannot be reached, not the secret.
    assert all("Only Ann" not in c.params["text"] for c in public)
    assert "cannot send you" in public[1].params["text"]
    await standin.say(standin.ann, standin.ann["id"], "/start")
    await standin.wait_for(lambda c: c.params.get("chat_id") == standin.ann["id"], after=mark)
    mark = len(standin.calls)
    assert await tg_bot.service.notify(chat, [secret])
    sent = standin.calls_of(*OUTPUT, after=mark)
    assert [(c.method, c.params["chat_id"]) for c in sent] == [("sendMessage", standin.ann["id"])]
    assert "Only Ann may read this." in sent[0].params["text"]


async def test_long_rules_fill_the_caption_and_continue_as_text(tg_bot):
    standin = tg_bot.standin
    mark = len(standin.calls)
    await standin.say(standin.ann, GROUP, "/escape rules ghosts18")
    photo = await standin.wait_for(lambda c: c.method == "sendPhoto", after=mark)
    rest = await standin.wait_for(lambda c: c.method == "sendMessage", after=mark)
    caption = photo.result["caption"]
    assert 900 < len(caption) <= 1024 and caption.endswith("…")
    rules = (await tg_bot.service.rules("ghosts18")).text
    joined = caption.removesuffix("…") + " " + rest.result["text"]
    assert " ".join(joined.split()) == " ".join(rules.split())


async def test_the_bare_escape_menu(tg_bot):
    standin = tg_bot.standin
    menu = (await command(standin, standin.ann, "/escape")).result
    data = [b["callback_data"] for b in buttons(menu)]
    assert "m|start" in data and "m|join" in data and all(len(d.encode()) <= 64 for d in data)
    await press_and_wait(standin, standin.ann, menu, "m|start", after_methods=("sendMessage",))
    games = standin.calls_of("sendMessage")[-1].result
    assert "s|ghosts18" in [b["callback_data"] for b in buttons(games)]
    await press_and_wait(standin, standin.ann, games, "s|ghosts18", after_methods=("sendMessage",))
    assert "opened a table" in standin.calls_of("sendMessage")[-1].result["text"]
    await press_and_wait(standin, standin.bob, menu, "m|join", after_methods=("sendPhoto",))
    first = current_board(standin)
    mark = len(standin.calls)
    await press_and_wait(standin, standin.carol, menu, "m|board", after_methods=("deleteMessage",))
    assert standin.calls_of("sendPhoto", after=mark), "/escape board shows the board anew"
    assert current_board(standin)["message_id"] != first["message_id"]
    assert "seats are fixed" in await refused(standin, standin.carol, menu, "m|leave")


async def test_escape_bot_run_serves_telegram_and_stops_cleanly(tg_standin, tmp_path):
    """The real entry point: `escape-bot run` in its own process, pointed at the stand-in."""
    standin = tg_standin
    process = await escape_bot_run(
        tmp_path,
        {
            "TELEGRAM_TOKEN": standin.token,
            "TELEGRAM_BASE_URL": standin.base_url,
            "TELEGRAM_BASE_FILE_URL": standin.base_file_url,
            "ESCAPE_DB": str(tmp_path / "run.sqlite3"),
        },
    )
    try:
        await standin.wait_for(lambda c: c.method == "deleteWebhook", timeout=30)
        await standin.wait_for(lambda c: c.method == "setMyCommands")
        reply = await command(standin, standin.ann, "/escape help")
        assert "/escape start GAME" in reply.params["text"]
        assert reply.result["from"]["id"] == BOT_ID
    finally:
        output = await stop_escape_bot(process)
    assert process.returncode in (0, 130), output
    assert "Traceback" not in output, output


async def test_long_choice_lists_are_paged_with_compact_checked_data(tg_bot):
    standin = tg_bot.standin
    await command(standin, standin.ann, "/escape start hidden_castle")
    await command(standin, standin.bob, "/escape join", expect=("editMessageText",))
    await command(standin, standin.ann, "/escape begin", expect=("sendPhoto",))
    board = current_board(standin)
    first = choice_buttons(board)
    nav = [b["text"] for b in buttons(board) if b.get("callback_data", "").startswith("p|")]
    assert len(first) == 24 and nav == ["1/2", "Next ›"]
    rows = board["reply_markup"]["inline_keyboard"]
    assert all(len(row) <= 3 for row in rows)
    following = next(b for b in buttons(board) if b["text"] == "Next ›")["callback_data"]
    actor = actor_of(standin, board)
    await press_and_wait(
        standin, standin.carol, board, following, after_methods=("editMessageReplyMarkup",)
    )
    page2 = current_board(standin)
    second = choice_buttons(page2)
    assert second and not {b["callback_data"] for b in second} & {b["callback_data"] for b in first}
    assert [b["text"] for b in buttons(page2) if b.get("callback_data", "").startswith("p|")] == [
        "‹ Prev",
        "2/2",
    ]
    assert "no such page" in await refused(
        standin, actor, page2, following.rsplit("|", 1)[0] + "|7"
    )
    version = (await tg_bot.live()).version
    await press_and_wait(standin, actor, page2, second[-1]["callback_data"])
    assert (await tg_bot.live()).version == version + 1
    assert second[-1]["text"].split()[-1] in current_board(standin)["caption"]  # "space 28"


async def test_two_presses_racing_one_wins(tg_bot):
    standin = tg_bot.standin
    board = await open_table(standin)
    actor = actor_of(standin, board)
    version = (await tg_bot.live()).version
    a, b = choice_buttons(board)[:2]
    queries = [
        await standin.press(actor, board, a["callback_data"]),
        await standin.press(actor, board, b["callback_data"]),
    ]
    answers = [await standin.answer(q) for q in queries]
    assert sorted(bool(x.get("show_alert")) for x in answers) == [False, True]
    assert (await tg_bot.live()).version == version + 1


async def test_a_buried_board_is_sent_anew_and_the_old_one_removed(tg_bot):
    standin = tg_bot.standin
    board = await open_table(standin)
    for _ in range(4):  # the group talks to the bot: the board scrolls out of sight
        await command(standin, standin.carol, "/escape games")
    mark = len(standin.calls)
    await press_and_wait(
        standin, actor_of(standin, board), board, choice_buttons(board)[0]["callback_data"]
    )
    await standin.wait_for(lambda c: c.method == "deleteMessage", after=mark)
    assert not standin.calls_of("editMessageMedia", after=mark)
    assert (GROUP, board["message_id"]) in standin.deleted
    assert current_board(standin)["message_id"] > board["message_id"]


async def test_webhook_mode_takes_updates_only_with_the_secret(tg_standin, tmp_path):
    """TELEGRAM_WEBHOOK_URL set: setWebhook with a secret instead of long polling; the bot's
    own listener (behind the HTTPS proxy) takes an update only if it carries that secret."""
    import socket

    from tests.e2e.telegram_fixtures import TelegramBot, fast_limiter

    standin = tg_standin
    with socket.socket() as probe:  # a free port for the bot's listener
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    public = "https://escape.example.org/telegram/hook"
    bot = TelegramBot(
        standin,
        tmp_path / "escape.sqlite3",
        limiter=fast_limiter(),
        overrides={
            "telegram_webhook_url": public,
            "telegram_webhook_listen": "127.0.0.1",
            "telegram_webhook_port": port,
        },
    )
    await bot.start()
    try:
        (hook,) = standin.calls_of("setWebhook")
        assert hook.params["url"] == public
        secret = hook.params["secret_token"]
        assert len(secret) >= 32, "a secret is made when none is configured"
        assert set(hook.params["allowed_updates"]) == {"message", "callback_query"}
        local = f"http://127.0.0.1:{port}/telegram/hook"

        mark = len(standin.calls)
        forged = standin.typed(standin.ann, GROUP, "/escape start ghosts18")
        assert await standin.post_webhook(local, {"message": forged}, secret=None) == 403
        assert await standin.post_webhook(local, {"message": forged}, secret="guess") == 403
        typed = standin.typed(standin.ann, GROUP, "/escape help")
        assert await standin.post_webhook(local, {"message": typed}, secret=secret) == 200
        reply = await standin.wait_for(lambda c: c.method == "sendMessage", after=mark)
        assert "/escape start GAME" in reply.params["text"]
        assert [c.method for c in standin.calls_of(*OUTPUT, after=mark)] == ["sendMessage"]
        assert await bot.live() is None, "the forged start did nothing"
        assert standin.polls == 0, "no long polling in webhook mode"
    finally:
        await bot.stop()


async def test_tidying_leaves_what_telegram_no_longer_lets_a_bot_delete(tg_bot):
    """Messages are deleted at a game's end only within 48 hours of being sent; an older
    board that is replaced keeps its picture and only loses its buttons."""
    standin = tg_bot.standin
    two_days = 49 * 3600
    first = await open_table(standin)
    standin.clock = -two_days  # what the bot posts now is dated two days ago
    old_notice = await command(standin, standin.carol, "/escape leave")
    await command(standin, standin.carol, "/escape board", expect=("deleteMessage",))
    old_board = current_board(standin)
    assert (GROUP, first["message_id"]) in standin.deleted, "a fresh board is replaced"
    standin.clock = 0
    new_notice = await command(standin, standin.carol, "/escape leave")

    mark = len(standin.calls)
    await command(standin, standin.ann, "/escape board", expect=("sendPhoto",))
    stripped = await standin.wait_for(
        lambda c: (
            c.method == "editMessageReplyMarkup"
            and c.params["message_id"] == old_board["message_id"]
        ),
        after=mark,
    )
    assert "reply_markup" not in stripped.result, "the two-day-old board lost its buttons"
    assert (GROUP, old_board["message_id"]) not in standin.deleted, "and was not deleted"

    mark = len(standin.calls)
    await command(standin, standin.ann, "/escape abort", expect=("deleteMessage", "deleteMessages"))
    asked = [
        c.params.get("message_ids") or [c.params["message_id"]]
        for c in standin.calls_of("deleteMessage", "deleteMessages", after=mark)
    ]
    asked = {m for ids in asked for m in ids}
    assert (
        new_notice.result["message_id"] in asked
        and (GROUP, new_notice.result["message_id"]) in standin.deleted
    )
    assert old_notice.result["message_id"] not in asked, "not asked: Telegram would refuse"
    assert not standin.violations


async def test_a_move_after_a_pause_posts_a_new_board_that_pings_the_next_player(
    tg_bot, monkeypatch
):
    """An edit notifies nobody: while the game is played live the board is edited, but once
    it has rested (LIVE_FOR) the next board is a new message and the old one goes."""
    from bot.delivery import live_boards

    standin = tg_bot.standin
    board = await open_table(standin)
    mark = len(standin.calls)
    await press_and_wait(
        standin, actor_of(standin, board), board, choice_buttons(board)[0]["callback_data"]
    )
    assert standin.calls_of("editMessageMedia", after=mark) and not standin.calls_of(
        "sendPhoto", after=mark
    )

    monkeypatch.setattr(live_boards, "LIVE_FOR", 0.0)  # as if the board had rested for long
    board = current_board(standin)
    actor = actor_of(standin, board)
    mark = len(standin.calls)
    await press_and_wait(standin, actor, board, choice_buttons(board)[0]["callback_data"])
    (sent,) = standin.calls_of("sendPhoto", after=mark)
    to_act = mentioned_ids(sent.result)
    assert to_act and f"tg://user?id={to_act[0]}" in sent.params["caption"], "a ping, anew"
    await standin.wait_for(lambda c: c.method == "deleteMessage", after=mark)
    assert (GROUP, board["message_id"]) in standin.deleted
    assert not standin.calls_of("editMessageMedia", after=mark)
    assert [m for m in standin.bot_messages(GROUP) if "photo" in m] == [current_board(standin)]


async def test_notices_are_tidied_at_the_end_even_after_a_restart(tg_bot):
    """What a game leaves in the group (a log reply, a refusal) is recorded where it survives
    a restart: killed mid-game and started again, the bot still deletes them at the end."""
    standin = tg_bot.standin
    await open_table(standin)
    before = await command(standin, standin.carol, "/escape leave")  # a refusal, before
    await tg_bot.restart()
    log = await command(standin, standin.ann, "/escape log")  # after the restart
    refused = await command(standin, standin.carol, "/escape leave")
    assert log.params["chat_id"] == GROUP
    mark = len(standin.calls)
    await command(standin, standin.ann, "/escape abort", expect=("deleteMessage", "deleteMessages"))
    asked = [
        c.params.get("message_ids") or [c.params["message_id"]]
        for c in standin.calls_of("deleteMessage", "deleteMessages", after=mark)
    ]
    asked = {m for ids in asked for m in ids}
    for notice in (before, log, refused):
        assert notice.result["message_id"] in asked
        assert (GROUP, notice.result["message_id"]) in standin.deleted
