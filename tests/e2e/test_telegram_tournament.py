"""A tournament in a Telegram forum group, through the real python-telegram-bot against
the stand-in Bot API: sign-up by command and by the Join button, the start, a topic per
table with its board and the players pinged there, a result, the standings picture in
the group; and a tournament's button pressed in another group is refused."""

from __future__ import annotations

import random

from bot.service.timer_loop import Timers
from tests.bot.tournament_play import play_out, round_tables
from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import GROUP, PNG, buttons, mentioned_ids

FORUM = -1009998887776


async def test_a_tournament_plays_its_tables_in_topics_and_posts_the_standings(tg_bot):
    standin = tg_bot.standin
    standin.add_group(FORUM, "Tournament club", forum=True)
    ann, bob, carol = standin.ann, standin.bob, standin.carol
    mark = len(standin.calls)
    await standin.say(ann, FORUM, "/escape tournament create ghosts18 variant=short rounds=2")
    signup = (
        await standin.wait_for(
            lambda c: "opened a tournament" in (c.params.get("text") or ""), after=mark
        )
    ).result
    assert "Sign-up is open: 0 players" in signup["text"]
    join = next(b for b in buttons(signup) if b["text"] == "Join the tournament")
    for user in (ann, bob, carol):  # by the button
        mark = len(standin.calls)
        query = await standin.press(user, signup, join["callback_data"])
        assert not (await standin.answer(query)).get("show_alert")
        await standin.wait_for(
            lambda c: "joins the tournament" in (c.params.get("text") or ""), after=mark
        )
    # the same button from another group: that group has no such tournament
    other = dict(signup, chat={"id": GROUP, "type": "supergroup", "title": "Escape club"})
    query = await standin.press(bob, other, join["callback_data"])
    refusal = await standin.answer(query)
    assert refusal.get("show_alert") and "no tournament in this chat" in refusal["text"]

    mark = len(standin.calls)
    await standin.say(bob, FORUM, "/escape tournament start")  # not the organiser
    said = await standin.wait_for(lambda c: c.method == "sendMessage", after=mark)
    assert "organiser" in said.params["text"]
    mark = len(standin.calls)
    await standin.say(ann, FORUM, "/escape tournament start")
    announced = await standin.wait_for(
        lambda c: "round 1 of 2:" in (c.params.get("text") or ""), after=mark
    )
    topics = standin.calls_of("createForumTopic", after=mark)
    assert len(topics) == 1  # three players: one table and a bye
    topic = topics[0].result["message_thread_id"]
    assert "round 1 · table 1" in topics[0].params["name"]
    boards = [c for c in standin.calls_of("sendPhoto", after=mark) if c.params["chat_id"] == FORUM]
    assert boards and all(c.params.get("message_thread_id") == topic for c in boards)
    pings = [
        c
        for c in standin.calls_of("sendMessage", after=mark)
        if c.params.get("message_thread_id") == topic
    ]
    assert any("Good luck" in c.params["text"] and len(mentioned_ids(c.result)) == 2 for c in pings)
    assert "message_thread_id" not in announced.params  # the round's tables, in General
    assert "A bye (worth a win)" in announced.params["text"]
    # each table's topic is a link (as Discord links its threads), not "#1"
    assert f"https://t.me/c/9998887776/{topic}" in announced.params["text"]

    # the table played to its end (its players' moves through the service), a scan later
    service = tg_bot.service
    t = (await service.store.tournaments_in_chat("telegram", str(FORUM)))[0]
    for row in await round_tables(service, t.id):
        assert row.thread == str(topic)
        await play_out(service, row, random.Random(4))
    mark = len(standin.calls)
    await Timers(service, interval=30).tick()
    standings = await standin.wait_for(
        lambda c: (
            c.method == "sendPhoto"
            and "standings after round 1 of 2" in (c.params.get("caption") or "")
        ),
        after=mark,
    )
    assert "message_thread_id" not in standings.params
    assert any(f.startswith(PNG) for f in standings.files.values())
    results = [
        c
        for c in standin.calls_of("sendMessage", after=mark)
        if "Round 1 results:" in (c.params.get("text") or "")
    ]
    assert len(results) == 1 and "a bye (1 point)" in results[0].params["text"]
    second = standin.calls_of("createForumTopic", after=mark)
    assert len(second) == 1 and "round 2 · table 1" in second[0].params["name"]

    # the last round played to its end: the final standings, and asked for afterwards
    for row in await round_tables(service, t.id):
        if row.status == "active":
            await play_out(service, row, random.Random(5))
    mark = len(standin.calls)
    await Timers(service, interval=30).tick()
    await standin.wait_for(
        lambda c: (
            "final standings" in (c.params.get("caption") or "").lower()
            or "final standings" in (c.params.get("text") or "").lower()
        ),
        after=mark,
    )
    assert (await service.store.tournament(t.id)).status == "finished"
    mark = len(standin.calls)
    await standin.say(carol, FORUM, "/escape tournament standings")
    asked = await standin.wait_for(
        lambda c: c.method in ("sendPhoto", "sendMessage") and c.params.get("chat_id") == FORUM,
        after=mark,
    )
    said = asked.params.get("caption") or asked.params.get("text") or ""
    assert "no tournament" not in said.lower() and "standings" in said.lower()


async def test_in_a_group_without_topics_a_table_is_played_in_private_chats(tg_bot):
    standin = tg_bot.standin
    ann, bob = standin.ann, standin.bob
    for user in (ann, bob):  # each has pressed Start in the bot's private chat
        mark = len(standin.calls)
        await standin.say(user, user["id"], "/start")
        await standin.wait_for(lambda c: c.method == "sendMessage", after=mark)
    mark = len(standin.calls)
    await standin.say(ann, GROUP, "/escape tournament create ghosts18 variant=short rounds=1")
    await standin.wait_for(
        lambda c: "opened a tournament" in (c.params.get("text") or ""), after=mark
    )
    for user in (ann, bob):
        mark = len(standin.calls)
        await standin.say(user, GROUP, "/escape tournament join")
        await standin.wait_for(
            lambda c: "joins the tournament" in (c.params.get("text") or ""), after=mark
        )
    mark = len(standin.calls)
    await standin.say(ann, GROUP, "/escape tournament start")
    await standin.wait_for(lambda c: "round 1 of 1:" in (c.params.get("text") or ""), after=mark)
    photos = standin.calls_of("sendPhoto", after=mark)
    assert not [c for c in photos if c.params["chat_id"] == GROUP], "no board in the group"
    assert {c.params["chat_id"] for c in photos} == {ann["id"], bob["id"]}  # each player's own
    service = tg_bot.service
    t = (await service.store.tournaments_in_chat("telegram", str(GROUP)))[0]
    (row,) = await round_tables(service, t.id)
    assert row.chat == str(GROUP) and not row.thread.isdigit()
    # the player to act plays from their private chat
    actor = ann if row.clock["waiting"] == [str(ann["id"])] else bob
    mine = [
        m
        for m in standin.bot_messages(actor["id"])
        if any((b.get("callback_data") or "").startswith("e|a:") for b in buttons(m))
    ][-1]
    move = next(b for b in buttons(mine) if b["callback_data"].startswith("e|a:"))
    query = await standin.press(actor, mine, move["callback_data"])
    assert not (await standin.answer(query)).get("show_alert")
    assert [e.user_id for e in await service.store.log(row.id)] == [str(actor["id"])]  # stored
