"""The web table as the bot loads it: a discord.py extension (``"web.extension"`` in
``bot.client.EXTENSIONS``), started with the bot and stopped when it closes. discord.py runs an
extension's module afresh each time it loads it, so this module holds only the two hooks."""

from __future__ import annotations

import logging
from typing import Any

from .app import make_app
from .server import WebServer

log = logging.getLogger("web")


async def setup(client: Any) -> None:
    """Start the web table with the bot (a discord.py extension's entry point)."""
    settings = client.settings
    if not settings.web_enabled:
        log.info("the web table is off (WEB_ENABLED=false)")
        return
    app = make_app(
        client.replays,
        client.signer,
        public_url=settings.public_url,
        servers=client.servers,
        service=client.service,
        stats=getattr(client, "stats", None),
        tournaments=getattr(client, "tournaments", None),
    )
    server = WebServer(app, settings.web_host, settings.web_port)
    try:
        await server.start()
    except OSError as exc:
        log.warning(
            "the web table cannot listen on %s:%s (%s): the bot runs without it",
            settings.web_host,
            settings.web_port,
            exc,
        )
        return
    client.web = server
    log.info("the web table listens on %s", server.url)


async def teardown(client: Any) -> None:
    """Stop the web table (the bot is closing, or the extension is unloaded)."""
    server = getattr(client, "web", None)
    if isinstance(server, WebServer):
        await server.stop()
        client.web = None
