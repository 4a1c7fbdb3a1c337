"""Why the bot could not start: one line for the operator, and an exit status for systemd.

A refused token is a setting to fix, so restarting cannot help: it exits EXIT_SETTINGS,
which `deploy/escape-bot.service` lists in RestartPreventExitStatus (as it lists 2 and 3,
the database's statuses). A platform that cannot be reached may come back (the network
is not up yet, the API has an outage): the connection is tried a few times with growing
waits, and then the process exits 1 so that a supervisor may try again later.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

EXIT_FAILED = 1  # anything else, an unreachable platform included: a restart may help
EXIT_DATABASE = 2  # the database cannot be opened, or is newer than this code
EXIT_DAMAGED = 3  # the database file is damaged
EXIT_SETTINGS = 4  # a setting is missing or was refused (a token): fix the settings first

FIRST_WAIT = 1.0  # seconds before the second try; each later wait doubles it


class StartupError(Exception):
    """A reason not to start, already worded for the operator (one line, no secret)."""

    exit_status = EXIT_FAILED


class SettingRefused(StartupError):
    """A setting is missing, or the platform refused it (a rejected token)."""

    exit_status = EXIT_SETTINGS


class PlatformUnreachable(StartupError):
    """The platform's API did not answer, after every try."""

    exit_status = EXIT_FAILED


async def connect_with_retries(
    attempt: Callable[[], Awaitable[T]],
    explain: Callable[[BaseException], StartupError | None],
    *,
    tries: int,
    first_wait: float = FIRST_WAIT,
) -> T:
    """`attempt()` until it succeeds. `explain` turns a failure into a StartupError (None:
    not a start-up problem; it is raised as it is). A refused setting stops at once; an
    unreachable platform is tried `tries` times in all, waiting 1, 2, 4... seconds between."""
    wait = first_wait
    for number in range(1, max(1, tries) + 1):
        try:
            return await attempt()
        except Exception as exc:
            reason = explain(exc)
            if reason is None:
                raise
            if not isinstance(reason, PlatformUnreachable) or number >= tries:
                raise reason from exc
            log.warning("%s; trying again in %g s (try %d of %d)", reason, wait, number, tries)
        await asyncio.sleep(wait)
        wait *= 2
    raise AssertionError("unreachable")  # the loop returns or raises
