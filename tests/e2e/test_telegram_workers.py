"""Telegram webhook mode with several workers behind one URL on one PostgreSQL (issue 13):
every worker registers the same secret, a game started on one worker goes on on another,
and ten presses of one button spread over the workers apply exactly once."""

from __future__ import annotations

import asyncio
import socket

from bot.store import Store
from tests.e2e.telegram_fixtures import *  # noqa: F403
from tests.e2e.telegram_fixtures import (
    GROUP,
    TelegramBot,
    choice_buttons,
    current_board,
    fast_limiter,
    mentioned_ids,
)

PUBLIC = "https://escape.example.org/telegram/hook"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def _start_workers(standin, db, count: int = 2) -> tuple[list[TelegramBot], list[str]]:
    """`count` webhook workers on one database, each on its own port: (workers, their URLs)."""
    workers, urls = [], []
    for _ in range(count):
        port = _free_port()
        workers.append(
            TelegramBot(
                standin,
                db,
                limiter=fast_limiter(),
                overrides={
                    "telegram_webhook_url": PUBLIC,
                    "telegram_webhook_listen": "127.0.0.1",
                    "telegram_webhook_port": port,
                },
            )
        )
        urls.append(f"http://127.0.0.1:{port}/telegram/hook")
    for worker in workers:
        await worker.start()
    return workers, urls


async def test_two_webhook_workers_on_one_postgresql(tg_standin, postgres_server):
    standin = tg_standin
    db = await postgres_server.new_schema()
    workers, urls = await _start_workers(standin, db)
    try:
        secrets = {c.params["secret_token"] for c in standin.calls_of("setWebhook")}
        assert len(secrets) == 1, "every worker must register the same secret"
        (secret,) = secrets

        mark = len(standin.calls)
        start = standin.typed(standin.ann, GROUP, "/escape start ghosts18 variant=short")
        assert await standin.post_webhook(urls[0], {"message": start}, secret=secret) == 200
        await standin.wait_for(lambda c: c.method == "sendMessage", after=mark)
        mark = len(standin.calls)
        join = standin.typed(standin.bob, GROUP, "/escape join")
        assert await standin.post_webhook(urls[1], {"message": join}, secret=secret) == 200
        board = (await standin.wait_for(lambda c: c.method == "sendPhoto", after=mark)).result

        actor = {u["id"]: u for u in (standin.ann, standin.bob)}[mentioned_ids(board)[0]]
        data = choice_buttons(board)[0]["callback_data"]
        mark = len(standin.calls)
        statuses = await asyncio.gather(
            *(
                standin.post_webhook(
                    urls[i % 2], standin.pressing(actor, board, data)[1], secret=secret
                )
                for i in range(10)
            )
        )
        assert statuses == [200] * 10
        await standin.wait_for(
            lambda c: len(standin.calls_of("answerCallbackQuery", after=mark)) >= 10, timeout=30
        )
        answers = standin.calls_of("answerCallbackQuery", after=mark)
        assert sum(not a.params.get("show_alert") for a in answers) == 1
    finally:
        for worker in workers:
            await worker.stop()
    store = await Store.open(db)
    try:
        row = await store.live_session("telegram", str(GROUP), "")
        assert len(await store.log(row.id)) == 1
    finally:
        await store.close()


async def test_moves_alternating_between_workers_edit_one_board(tg_standin, postgres_server):
    """Issue 58: the live board's record is kept with the table, so when the moves of one
    game alternate between two workers each edits the same board in place."""
    standin = tg_standin
    db = await postgres_server.new_schema()
    workers, urls = await _start_workers(standin, db)
    try:
        (secret,) = {c.params["secret_token"] for c in standin.calls_of("setWebhook")}
        mark = len(standin.calls)
        start = standin.typed(standin.ann, GROUP, "/escape start ghosts18 variant=short")
        await standin.post_webhook(urls[0], {"message": start}, secret=secret)
        await standin.wait_for(lambda c: c.method == "sendMessage", after=mark)
        mark = len(standin.calls)
        join = standin.typed(standin.bob, GROUP, "/escape join")
        await standin.post_webhook(urls[1], {"message": join}, secret=secret)
        board = (await standin.wait_for(lambda c: c.method == "sendPhoto", after=mark)).result
        for n in range(6):
            board = standin.message(GROUP, board["message_id"])
            actor = {u["id"]: u for u in (standin.ann, standin.bob)}[mentioned_ids(board)[0]]
            mark = len(standin.calls)
            _, press = standin.pressing(actor, board, choice_buttons(board)[0]["callback_data"])
            await standin.post_webhook(urls[n % 2], press, secret=secret)
            await standin.wait_for(lambda c: c.method == "editMessageMedia", after=mark)
        assert len(standin.calls_of("sendPhoto")) == 1
        assert len(standin.calls_of("editMessageMedia")) == 6
        assert [m for m in standin.bot_messages(GROUP) if "photo" in m] == [board]
    finally:
        for worker in workers:
            await worker.stop()


async def test_a_chats_updates_run_in_order_and_once_whichever_worker_takes_them(
    tg_standin, postgres_server
):
    """Each update is stored before the worker answers 200 and run by whichever worker is
    free, one chat's in the order they came: a join sent to one worker right behind the
    start sent to the other finds the table; an update Telegram sends again (its answer
    was lost) is applied once."""
    standin = tg_standin
    db = await postgres_server.new_schema()
    workers, urls = await _start_workers(standin, db)
    try:
        (secret,) = {c.params["secret_token"] for c in standin.calls_of("setWebhook")}
        typed = [
            standin.typed(standin.ann, GROUP, "/escape start ghosts18 variant=short"),
            standin.typed(standin.bob, GROUP, "/escape join"),
            standin.typed(standin.carol, GROUP, "/escape join"),  # too late: it has begun
        ]
        for n, message in enumerate(typed):  # back to back, each acknowledged when stored
            assert (
                await standin.post_webhook(urls[n % 2], {"message": message}, secret=secret) == 200
            )
        await standin.wait_for(
            lambda c: "already begun" in (c.params.get("text") or ""), timeout=20
        )
        board = current_board(standin)
        assert mentioned_ids(board), "the join after the start was run after it"
        actor = {u["id"]: u for u in (standin.ann, standin.bob)}[mentioned_ids(board)[0]]
        query, press = standin.pressing(actor, board, choice_buttons(board)[0]["callback_data"])
        again = standin.new_update_id()
        mark = len(standin.calls)
        for url in urls:  # the same update twice, as Telegram retries it
            assert await standin.post_webhook(url, press, secret=secret, update_id=again) == 200
        await standin.wait_for(lambda c: c.method == "editMessageMedia", after=mark, timeout=20)
        await standin.answer(query)
        assert standin.answers[query] == 1
    finally:
        for worker in workers:
            await worker.stop()
    store = await Store.open(db)
    try:
        row = await store.live_session("telegram", str(GROUP), "")
        assert len(await store.log(row.id)) == 1, "the repeated press moved once"
    finally:
        await store.close()
