"""A bot process for the multi-process tests: opens the store, then for each round waits
for the other processes and presses its buttons all at once. Kept free of pytest and of the
test modules so a spawned process starts quickly."""

from __future__ import annotations

import asyncio

from bot.service import GameService
from bot.store import Store


def press_rounds(target: str, rounds: list[list], barrier, results) -> None:
    async def main() -> list[list[str]]:
        store = await Store.open(target, busy_timeout=10)
        service = GameService(store, seed_source=lambda: 1234, pictures=False)
        outcomes = []
        try:
            for presses in rounds:
                await asyncio.to_thread(barrier.wait, 120)
                done = await asyncio.gather(
                    *(service.press(chat, user, data) for chat, user, data in presses),
                    return_exceptions=True,
                )
                outcomes.append([_outcome(r) for r in done])
        finally:
            await store.close()
        return outcomes

    results.put(asyncio.run(main()))


def _outcome(result: object) -> str:
    return "ok" if not isinstance(result, BaseException) else f"{type(result).__name__}: {result}"


def _outcome(result: object) -> str:
    return "ok" if not isinstance(result, BaseException) else f"{type(result).__name__}: {result}"
