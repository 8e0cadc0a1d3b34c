"""The web table's server: the application listening on one address, started and stopped with
the bot (web/extension.py), and the signer of its addresses."""

from __future__ import annotations

import logging

from aiohttp import web

log = logging.getLogger(__name__)

SHUTDOWN = 1.0
"""Seconds a stop gives the requests in flight (the live streams are then cut)."""
BACKLOG = 2048
"""Connections the system queues while the server accepts others (aiohttp's default, 128, refuses
some of a thousand pages opened at once)."""


class WebServer:
    """The application listening on one address, started and stopped with the bot."""

    def __init__(self, app: web.Application, host: str, port: int) -> None:
        self.app, self.host, self.port = app, host, port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        # a page closed ends its handler (a live stream would otherwise wait for its next heartbeat),
        # and the bot's stop waits for open streams briefly, not aiohttp's default minute
        runner = web.AppRunner(
            self.app, access_log=None, handle_signals=False, handler_cancellation=True, shutdown_timeout=SHUTDOWN
        )
        await runner.setup()
        try:
            site = web.TCPSite(runner, self.host, self.port, backlog=BACKLOG)
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        for address in runner.addresses:  # the port the system gave when WEB_PORT is 0
            if isinstance(address, tuple) and len(address) >= 2:
                self.port = int(address[1])
                break

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    async def stop(self) -> None:
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()
