"""Fixtures for the service and store: a real SQLite file per test, a fixed seed."""

from __future__ import annotations

import pytest

from bot.service import ChatRef, GameService, UserRef
from bot.store import Store

CHAT = ChatRef("test", "chan-1", "", "guild-1")
ANN = UserRef("test", "u-ann", "Ann")
BOB = UserRef("test", "u-bob", "Bob")
CY = UserRef("test", "u-cy", "Cy")


@pytest.fixture
async def store(tmp_path):
    s = await Store.open(tmp_path / "escape.sqlite3", busy_timeout=0.2)
    yield s
    await s.close()


@pytest.fixture
async def service(store):
    return GameService(store, seed_source=lambda: 1234, pictures=False)


@pytest.fixture
async def drawn(store):
    """A service that renders pictures, for the tests that look at them."""
    return GameService(store, seed_source=lambda: 1234, pictures=True)
