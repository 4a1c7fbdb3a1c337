"""Suite-wide fixtures: one real PostgreSQL server for every test that asks for it; and
computer players think with a tiny budget in every test (fast, still seeded), and the bots'
CPU workers do not practise, nor run apart from the bots' threads."""

from __future__ import annotations

import os

import pytest

from tests.postgres import NoServer, PostgresServer

os.environ.setdefault("ESCAPE_AI_SCALE", "0.02")
# the bots the tests start do not practise (render/practice.py): it would take both cores
# while the tests run; tests/bot/service/pictures/test_practice.py tests practice itself
os.environ.setdefault("ESCAPE_PRACTICE", "0")
# the many bots the tests start at once do not each pin their threads to the same last core
# (bot/service/pictures/cores.py); tests/bot/service/pictures/test_cores.py tests the split
os.environ.setdefault("ESCAPE_CPU_LAYOUT", "shared")


@pytest.fixture(scope="session")
def postgres_server():
    """Started on first use, stopped at the end. Without a server the test is skipped on a
    developer's machine and fails in CI (CI=true): there the store must be tested on both."""
    try:
        server = PostgresServer().start()
    except (NoServer, OSError) as exc:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"PostgreSQL could not start, and CI must test it: {exc}")
        pytest.skip(f"PostgreSQL could not start: {exc}")
    try:
        yield server
    finally:
        server.stop()
