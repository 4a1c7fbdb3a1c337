"""Whether Telegram is connected, for /readyz and `escape_platform_up`.

PTB's updater keeps "running" through a network outage (it retries the long poll), so the
poll's own request is watched: connected while the updater runs and no `getUpdates` has
failed since the last one answered with 200 (a long poll in progress, up to its timeout,
counts as connected; a webhook worker has no poll: connected while its server runs)."""

from __future__ import annotations

from telegram.ext import Application
from telegram.request import HTTPXRequest

from bot.service import Link


class WatchedPolls(HTTPXRequest):
    """The request object of `getUpdates` alone (PTB gives the long poll its own), which
    remembers whether its last call was answered."""

    def __init__(self) -> None:
        super().__init__(connection_pool_size=1)  # what PTB builds for the poll by default
        self.answered = True  # until a poll fails (the Bot API answered getMe at start)

    async def do_request(self, *args, **kwargs) -> tuple[int, bytes]:
        try:
            code, payload = await super().do_request(*args, **kwargs)
        except Exception:
            self.answered = False
            raise
        self.answered = code == 200
        return code, payload


def links(application: Application, polls: WatchedPolls, webhook: bool) -> list[Link]:
    updater = application.updater
    up = application.running and updater is not None and updater.running
    return [Link("", up and (webhook or polls.answered))]
