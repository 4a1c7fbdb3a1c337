"""The bot's one HTTP server: an aiohttp application assembled from parts.

A part is a function that adds its routes (and any start-up or clean-up hooks) to the
application. `bot/probes.py` gives the operator's part (/metrics, /healthz, /readyz); the
web board adds its own part to the same application, so one address serves both
(docs/operations.md). `bot/runner.py` starts the server before the platforms and stops it
after them, so /metrics and /healthz answer while a stopping process drains its moves.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported when a server is made, not with the module (start-up time)
    from aiohttp import web

log = logging.getLogger(__name__)

Part = Callable[[Any], None]  # adds its routes to the aiohttp Application


class HttpServer:
    def __init__(
        self,
        address: tuple[str, int],
        parts: Sequence[Part],
        what: str = "/metrics, /healthz and /readyz",
    ) -> None:
        self.host, self.port = address
        self.what = what  # what it serves, as its start-up line says
        from aiohttp import web

        self.app = web.Application()
        for part in parts:
            part(self.app)
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        """Listen (the port actually bound is `self.port`, for a port 0)."""
        # no access log: Prometheus and the orchestrator's probes call every few seconds
        from aiohttp import web

        runner = web.AppRunner(self.app, handle_signals=False, access_log=None, shutdown_timeout=5)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port, reuse_address=True)
        try:
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            raise OSError(f"cannot serve HTTP on {self.host}:{self.port}: {exc}") from exc
        self._runner = runner
        if runner.addresses:
            self.port = runner.addresses[0][1]
        log.info("serving %s on %s:%s", self.what, self.host, self.port)

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
