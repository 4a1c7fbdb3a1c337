"""The rate windows every process of a bot shares (issue 58): a call reserved where it fits
in every window it counts in, gaps filled without holding other chats up, a 429's wait
honoured by every process, and on PostgreSQL two stores (two processes) keeping one rate
together."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.service import Rate, SharedRates
from bot.service.shared.rates import stretched
from bot.store import Store
from bot.store.rate_queries import Window, earliest, earliest_in
from tests.bot.conftest import on_both


def _worst(times: list[float], per: float) -> int:
    """The most calls of `times` within any `per` seconds."""
    times = sorted(times)
    return max(sum(1 for u in times if t <= u < t + per) for t in times)


def test_a_call_fits_in_a_gap_of_the_window():
    # three calls allowed a second: one at 0.0 and one at 0.9 leave room at 0.5
    assert earliest_in([0.0, 0.9], 0.5, 3, 1.0) == 0.5
    # full: the next place is a second after the first call
    assert earliest_in([0.0, 0.5, 0.9], 0.6, 3, 1.0) == 1.0
    # a call placed between two others must not crowd the second's stretch either
    assert earliest_in([0.0, 2.0, 2.5], 1.5, 2, 1.0) == 1.5  # [1.5, 2.5) holds two
    assert earliest_in([0.0, 2.0, 2.5], 1.6, 2, 1.0) == 3.0
    # windows together, and a held window
    global_w, chat_w = Window("all", 2, 1.0), Window("chat", 1, 1.0)
    assert earliest(0.2, [(global_w, [0.0], 0.0), (chat_w, [0.0], 0.0)]) == 1.0
    assert earliest(0.2, [(global_w, [], 0.0), (chat_w, [], 7.0)]) == 7.0


def test_waiting_for_a_group_does_not_hold_up_another_chat():
    """A group's call placed a minute ahead leaves the token's window free until then."""
    all_w = Window("all", 2, 1.0)
    group = Window("group", 1, 60.0)
    at = earliest(0.0, [(all_w, [], 0.0), (group, [0.0], 0.0)])
    assert at == 60.0
    assert earliest(0.0, [(all_w, [at], 0.0)]) == 0.0


@on_both
async def test_calls_keep_their_rate_and_a_hold(db_target):
    store = await Store.open(db_target)
    try:
        rates = SharedRates(store)
        rate = Rate(4, 0.5)
        sent: list[float] = []

        async def call() -> None:
            assert await rates.turn([("test:all", rate)], "test")
            sent.append(time.monotonic())

        await asyncio.gather(*(call() for _ in range(12)))
        assert _worst(sent, 0.5) <= 4
        assert max(sent) - min(sent) >= 2 * stretched(rate) - 0.05  # (12 calls: three rounds)
        await rates.hold(["test:all"], 0.4)
        held_at = time.monotonic()
        await call()
        assert sent[-1] - held_at >= 0.35
        # a notice that would wait longer than it may is not reserved at all
        assert await rates.turn([("test:solo", Rate(1, 30))], "test", most=1.0)
        assert not await rates.turn([("test:solo", Rate(1, 30))], "test", most=1.0)
    finally:
        await store.close()


async def test_two_processes_keep_one_rate_together(postgres_server):
    """On PostgreSQL the windows are the store's: two stores on one database (two
    processes) share one rate and one 429's wait."""
    db = await postgres_server.new_schema()
    stores = [await Store.open(db), await Store.open(db)]
    try:
        sides = [SharedRates(s) for s in stores]
        rate = Rate(3, 0.5)
        sent: list[float] = []

        async def call(rates: SharedRates) -> None:
            assert await rates.turn([("test:all", rate)], "test")
            sent.append(time.monotonic())

        await asyncio.gather(*(call(sides[n % 2]) for n in range(12)))
        assert _worst(sent, 0.5) <= 3
        await sides[0].hold(["test:all"], 0.5)  # a 429 seen by one process ...
        held_at = time.monotonic()
        await call(sides[1])  # ... is waited out by the other
        assert sent[-1] - held_at >= 0.45
    finally:
        for store in stores:
            await store.close()


@pytest.mark.parametrize("text", ["30/1", "20/60", "1", "0"])
def test_rate_settings(text):
    from bot.settings import Settings

    settings = Settings.from_env({"TELEGRAM_RATE_GROUP": text})
    count, per = settings.telegram_rate_group
    assert (count, per) == {"30/1": (30, 1.0), "20/60": (20, 60.0), "1": (1, 1.0), "0": (0, 1.0)}[
        text
    ]
    assert not Rate(0)
