"""Fixtures for the service and store: a real SQLite file per test (or, for the store's own
tests, a real PostgreSQL schema too: decorate them with `on_both`), a fixed seed."""

from __future__ import annotations

import pytest

from bot.service import ChatRef, GameService, UserRef
from bot.store import Store

CHAT = ChatRef("test", "chan-1", "", "guild-1")
ANN = UserRef("test", "u-ann", "Ann")
BOB = UserRef("test", "u-bob", "Bob")
CY = UserRef("test", "u-cy", "Cy")


on_both = pytest.mark.parametrize("db_kind", ["sqlite", "postgresql"], indirect=True)


@pytest.fixture
def db_kind(request) -> str:
    return getattr(request, "param", "sqlite")


@pytest.fixture
async def db_target(db_kind, tmp_path, request):
    """Where a test's store lives: an SQLite file, or a fresh schema on the test server."""
    if db_kind == "sqlite":
        return tmp_path / "escape.sqlite3"
    return await request.getfixturevalue("postgres_server").new_schema()


@pytest.fixture
async def store(db_target):
    s = await Store.open(db_target, busy_timeout=0.2)
    yield s
    await s.close()


@pytest.fixture
async def service(store):
    return GameService(store, seed_source=lambda: 1234, pictures=False)


@pytest.fixture
async def drawn(store):
    """A service that renders pictures, for the tests that look at them."""
    return GameService(store, seed_source=lambda: 1234, pictures=True)
